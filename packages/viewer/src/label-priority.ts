/**
 * Which node labels sigma draws, and in what order. Sigma picks labels per cell of a screen grid (a few
 * per cell at the current zoom), ranking a cell's nodes by drawn size and then by node key — so among
 * equally sized nodes a network's hubs lost to whatever key sorted first (Les Misérables: Valjean,
 * degree 36, unlabelled while leaves were). Here the rank is: drawn size, then degree, then the node's
 * position in the network (stable), so the biggest and best-connected nodes are labelled first at every
 * zoom ("auto" mode). "always" mode draws the label of every visible node, the highest-ranked last (on
 * top, over a halo), at most ALWAYS_LABEL_CAP of them; `overflow` says how many were left unlabelled
 * (the Labels panel shows it). Installed per renderer: sigma makes a new grid on every full refresh, so
 * the grid property is intercepted. No sigma code is changed.
 */
import type Sigma from 'sigma';
import type { NetworkModel } from './model.ts';

/** "always" labels at most this many nodes (text for more is unreadable and slows every frame). */
export const ALWAYS_LABEL_CAP = 2000;

interface Candidate {
  key: string;
  size: number;
}
interface Grid {
  cells: Record<string, Candidate[]>;
  organize(): void;
  getLabelsToDisplay(ratio: number, density: number): string[];
}

/** Undirected degree of every node (in + out). */
export function nodeDegrees(model: NetworkModel): { degree: Int32Array; inDegree: Int32Array; outDegree: Int32Array } {
  const n = model.ids.length;
  const inDegree = new Int32Array(n);
  const outDegree = new Int32Array(n);
  for (const e of model.edges) {
    outDegree[e.source]++;
    inDegree[e.target]++;
  }
  const degree = new Int32Array(n);
  for (let i = 0; i < n; i++) degree[i] = inDegree[i] + outDegree[i];
  return { degree, inDegree, outDegree };
}

/** Compares two label candidates: bigger first, then higher degree, then earlier in the network. */
export function labelComparator(model: NetworkModel, degree: Int32Array): (a: Candidate, b: Candidate) => number {
  const rank = (key: string) => model.index.get(key) ?? Number.MAX_SAFE_INTEGER;
  const deg = (key: string) => {
    const i = model.index.get(key);
    return i === undefined ? Number.MAX_SAFE_INTEGER : degree[i]; // roll-up group nodes: first among equals
  };
  return (a, b) => b.size - a.size || deg(b.key) - deg(a.key) || rank(a.key) - rank(b.key);
}

export class LabelPriority {
  mode: 'auto' | 'always' = 'auto';
  /** Nodes left unlabelled by the "always" cap at the last draw. */
  overflow = 0;
  /** Visible nodes with a label at the last draw's candidates ("always" mode). */
  candidates = 0;
  readonly #compare: (a: Candidate, b: Candidate) => number;

  constructor(renderer: Sigma, model: NetworkModel) {
    this.#compare = labelComparator(model, nodeDegrees(model).degree);
    const target = renderer as unknown as { labelGrid: Grid };
    let grid = target.labelGrid;
    // Sigma's constructor indexed the nodes already: rank that grid too, and draw again (a render, no refresh).
    this.#patch(grid);
    grid.organize();
    renderer.scheduleRender();
    Object.defineProperty(target, 'labelGrid', {
      configurable: true,
      get: () => grid,
      set: (g: Grid) => {
        grid = g;
        this.#patch(g);
      },
    });
  }

  #patch(grid: Grid): void {
    const compare = this.#compare;
    const original = grid.getLabelsToDisplay.bind(grid);
    grid.organize = function organize(this: Grid) {
      for (const k in this.cells) this.cells[k].sort(compare);
    };
    grid.getLabelsToDisplay = (ratio: number, density: number) => {
      if (this.mode !== 'always') {
        this.overflow = 0;
        return original(ratio, density);
      }
      const all: Candidate[] = [];
      for (const k in grid.cells) for (const c of grid.cells[k]) all.push(c);
      all.sort(compare);
      this.candidates = all.length;
      this.overflow = Math.max(0, all.length - ALWAYS_LABEL_CAP);
      // Lowest rank first: the most important labels are drawn last, on top of the others.
      return all.slice(0, ALWAYS_LABEL_CAP).reverse().map((c) => c.key);
    };
  }
}

/**
 * Sigma's label drawing with a light halo behind the text, so overlapping labels ("always") stay
 * readable: the later (higher-ranked) label covers the one under it instead of mixing with it.
 */
export function drawLabelWithHalo(context: CanvasRenderingContext2D, data: { label?: string | null; x: number; y: number; size: number }, settings: { labelSize: number; labelFont: string; labelWeight: string; labelColor: { color?: string } }): void {
  if (!data.label) return;
  const size = settings.labelSize;
  context.font = `${settings.labelWeight} ${size}px ${settings.labelFont}`;
  const x = data.x + data.size + 3;
  const y = data.y + size / 3;
  const w = context.measureText(data.label).width;
  context.fillStyle = 'rgba(255, 255, 255, 0.8)';
  context.fillRect(x - 2, y - size * 0.85, w + 4, size * 1.15);
  context.fillStyle = settings.labelColor.color ?? '#000';
  context.fillText(data.label, x, y);
}
