/**
 * Runs a layout in the layout worker (layout/worker.ts) and writes each batch's positions onto the drawn
 * graph (sigma redraws). One run at a time; `stop()` terminates the worker and keeps the positions of
 * the last batch. Positions live in the drawing for the session (EmbedView v1 has no positions); with
 * Edit, the Layout panel can keep them in the stored network (menu/layout-panel.ts).
 */
import type { MultiGraph } from 'graphology';
import type Sigma from 'sigma';
import type { NetworkModel } from '../model.ts';
import { axisGuide, circleGroupGuides, orient, type PlotAxis } from './arrange.ts';
import type { GuideOverlay, Guides } from '../guides.ts';
import { batchMsFor, type LayoutKind, type LayoutReply, type LayoutRequest } from './protocol.ts';

export type LayoutOutcome = 'converged' | 'limit' | 'stopped' | 'error';

export interface LayoutState {
  kind: LayoutKind | null;
  running: boolean;
  iterations: number;
  /** How the last run ended (null while running or before any). */
  outcome: LayoutOutcome | null;
  error?: string;
  ms: number;
  /** Mean movement per iteration in the last batch, and in the first (share of the drawing's extent; iterative layouts). */
  movement?: number;
  firstMovement?: number;
}

/** Names of the edge attribute used as weight (first present number wins), as the service's metrics do. */
export const WEIGHT_ATTRIBUTES = ['weight', 'Weight'] as const;

/** Edge weights for "weighted by edge weight": the first weight attribute; edges without one (or ≤ 0) weigh 1. Null when no edge has one. */
export function edgeWeights(model: NetworkModel): Float32Array | null {
  const w = new Float32Array(model.edges.length);
  let any = false;
  model.edges.forEach((e, k) => {
    let v = 1;
    for (const name of WEIGHT_ATTRIBUTES) {
      const a = e.attributes[name];
      if (typeof a === 'number' && Number.isFinite(a) && a > 0) {
        v = a;
        any = true;
        break;
      }
    }
    w[k] = v;
  });
  return any ? w : null;
}

export type LayoutOptions =
  | { kind: 'forceAtlas2'; weighted?: boolean; maxIterations?: number }
  | { kind: 'noverlap'; /** Disc radius factor (noverlap's `ratio`). */ ratio?: number }
  | { kind: 'circle' }
  | { kind: 'circleByAttribute'; attribute: string }
  | { kind: 'plot'; x: string; y: string; categoryOrder?: 'count' | 'alphabetical' }
  | { kind: 'hierarchy' } & ReportingLines;

/**
 * Which edges are reporting lines and which end is the manager: `managerEnd` 'source' (edges go from a
 * manager to a report) or 'target' (from a person to whom they report); `attribute`/`value`: only edges
 * whose attribute has that value (e.g. relation = "reports to"); none: every edge.
 */
export interface ReportingLines { managerEnd: 'source' | 'target'; attribute?: string; value?: string }

/** Edges that are reporting lines, as (manager, report) node index pairs. */
export function reportingEdges(model: NetworkModel, lines: ReportingLines): Uint32Array {
  const out: number[] = [];
  for (const e of model.edges) {
    if (lines.attribute !== undefined && String(e.attributes[lines.attribute] ?? '') !== lines.value) continue;
    if (lines.managerEnd === 'source') out.push(e.source, e.target);
    else out.push(e.target, e.source);
  }
  return Uint32Array.from(out);
}

/**
 * The likelier manager end for these edges: the one under which fewer people have two or more managers
 * (in an org chart everybody has one); ties: edges go from the manager.
 */
export function likelyManagerEnd(model: NetworkModel, lines: Omit<ReportingLines, 'managerEnd'>): 'source' | 'target' {
  const multi = (end: 'source' | 'target') => {
    const e = reportingEdges(model, { ...lines, managerEnd: end });
    const managers = new Map<number, Set<number>>();
    for (let k = 0; k < e.length; k += 2) {
      let set = managers.get(e[k + 1]);
      if (!set) managers.set(e[k + 1], (set = new Set()));
      set.add(e[k]);
    }
    let count = 0;
    for (const s of managers.values()) if (s.size > 1) count++;
    return count;
  };
  return multi('target') < multi('source') ? 'target' : 'source';
}

export class LayoutRunner {
  readonly #graph: MultiGraph;
  readonly #renderer: Sigma;
  readonly #model: NetworkModel;
  readonly #workerUrl: string | URL;
  #worker: Worker | null = null;
  #finish: ((o: LayoutOutcome) => void) | null = null;
  state: LayoutState = { kind: null, running: false, iterations: 0, outcome: null, ms: 0 };
  /** After every batch and when a run ends. */
  onProgress: (state: LayoutState) => void = () => undefined;
  /** Once when a layout has ended (for "Distribute nodes", after its last round). */
  onEnded: (state: LayoutState) => void = () => undefined;
  #distributing = false;
  /** Axes and group names over the graph (guides.ts), set by the menu. */
  guides: GuideOverlay | null = null;

  constructor(opts: { graph: MultiGraph; renderer: Sigma; model: NetworkModel; workerUrl: string | URL }) {
    this.#graph = opts.graph;
    this.#renderer = opts.renderer;
    this.#model = opts.model;
    this.#workerUrl = opts.workerUrl;
  }

  get running(): boolean {
    return this.state.running;
  }

  /** Current positions of the network's nodes (x, y of node i at 2i, 2i + 1). */
  positions(): Float32Array {
    const ids = this.#model.ids;
    const out = new Float32Array(2 * ids.length);
    ids.forEach((id, i) => {
      out[2 * i] = this.#graph.getNodeAttribute(id, 'x') as number;
      out[2 * i + 1] = this.#graph.getNodeAttribute(id, 'y') as number;
    });
    return out;
  }

  #assign(p: Float32Array): void {
    const index = this.#model.index;
    // One graph event for all nodes (sigma then re-processes once).
    this.#graph.updateEachNodeAttributes((node, attr) => {
      const i = index.get(node);
      if (i === undefined) return attr;
      attr.x = p[2 * i];
      attr.y = p[2 * i + 1];
      return attr;
    }, { attributes: ['x', 'y'] });
  }

  #request(options: LayoutOptions): LayoutRequest {
    const m = this.#model;
    switch (options.kind) {
      case 'forceAtlas2': {
        const edges = new Uint32Array(2 * m.edges.length);
        m.edges.forEach((e, k) => {
          edges[2 * k] = e.source;
          edges[2 * k + 1] = e.target;
        });
        return { kind: 'forceAtlas2', positions: this.positions(), edges, weights: options.weighted ? edgeWeights(m) : null, maxIterations: options.maxIterations, batchMs: batchMsFor(m.ids.length, m.edges.length) };
      }
      case 'noverlap': {
        const ratio = options.ratio ?? 1.1;
        // Disc radii in graph units at the current framing (sigma fits the drawing to the canvas).
        const perUnit = this.#renderer.getGraphToViewportRatio() || 1;
        const sizes = new Float32Array(m.ids.length);
        m.ids.forEach((id, i) => {
          const d = this.#renderer.getNodeDisplayData(id);
          sizes[i] = (d && !d.hidden ? this.#renderer.scaleSize(d.size) : 0) / perUnit;
        });
        const margin = 2 / perUnit;
        return { kind: 'noverlap', positions: this.positions(), sizes, settings: { margin, ratio, gridSize: Math.max(20, Math.ceil(Math.sqrt(m.ids.length))) }, batchMs: batchMsFor(m.ids.length, m.edges.length) };
      }
      case 'circle':
        return { kind: 'circle', order: m.ids.length };
      case 'circleByAttribute': {
        const groupOf = new Map<string, number>();
        const groups = new Int32Array(m.ids.length);
        m.attributes.forEach((a, i) => {
          const v = a[options.attribute];
          if (v === undefined) groups[i] = -1;
          else {
            const key = String(v);
            if (!groupOf.has(key)) groupOf.set(key, groupOf.size);
            groups[i] = groupOf.get(key) as number;
          }
        });
        return { kind: 'circleByAttribute', groups };
      }
      case 'plot': {
        const axis = (name: string): PlotAxis => (m.nodeAttributeTypes.get(name) === 'number'
          ? { kind: 'number', values: m.attributes.map((a) => a[name] as number | undefined) }
          : { kind: 'category', values: m.attributes.map((a) => (a[name] === undefined ? undefined : String(a[name]))), order: options.categoryOrder ?? 'count' });
        return { kind: 'plot', x: axis(options.x), y: axis(options.y) };
      }
      case 'hierarchy':
        return { kind: 'hierarchy', order: m.ids.length, edges: reportingEdges(m, options) };
    }
  }

  /** What the finished arrangement means, drawn over the graph (null: nothing to explain). */
  #guidesFor(options: LayoutOptions, req: LayoutRequest, p: Float32Array): Guides | null {
    if (req.kind === 'plot' && options.kind === 'plot') {
      let mx = Infinity, my = Infinity;
      for (let i = 0; i < p.length; i += 2) {
        mx = Math.min(mx, p[i]);
        my = Math.min(my, p[i + 1]);
      }
      return { kind: 'plot', x: axisGuide(options.x, req.x), y: axisGuide(options.y, req.y), min: [mx, my] };
    }
    if (options.kind === 'circleByAttribute') {
      const names: string[] = [];
      const seen = new Map<string, number>();
      const groups = new Int32Array(this.#model.ids.length);
      this.#model.attributes.forEach((a, i) => {
        const v = a[options.attribute];
        if (v === undefined) groups[i] = -1;
        else {
          const key = String(v);
          if (!seen.has(key)) {
            seen.set(key, names.length);
            names.push(key);
          }
          groups[i] = seen.get(key) as number;
        }
      });
      return { kind: 'groups', title: options.attribute, labels: circleGroupGuides(groups, names, this.#model.labels) };
    }
    return null;
  }

  /** Starts a layout (stopping any running one); resolves with how it ended. */
  start(options: LayoutOptions): Promise<LayoutOutcome> {
    this.stop();
    const req = this.#request(options);
    const t0 = performance.now();
    const worker = new Worker(this.#workerUrl);
    this.#worker = worker;
    this.guides?.show(null);
    this.state = { kind: options.kind, running: true, iterations: 0, outcome: null, ms: 0 };
    const done = new Promise<LayoutOutcome>((resolve) => {
      this.#finish = (outcome) => {
        this.#finish = null;
        this.#worker?.terminate();
        this.#worker = null;
        this.state = { ...this.state, running: false, outcome, ms: performance.now() - t0 };
        this.onProgress(this.state);
        if (!this.#distributing) this.onEnded(this.state);
        resolve(outcome);
      };
    });
    worker.addEventListener('message', (e: MessageEvent<LayoutReply>) => {
      if (this.#worker !== worker) return;
      const r = e.data;
      if (r.type === 'error') {
        this.state.error = r.message;
        this.#finish?.('error');
        return;
      }
      // A settled force-directed drawing is turned to lie along the canvas' long side.
      if (r.type === 'done' && options.kind === 'forceAtlas2') {
        const { width, height } = this.#renderer.getDimensions();
        orient(r.positions, width >= height);
      }
      this.#assign(r.positions);
      if (r.type === 'done') this.guides?.show(this.#guidesFor(options, req, r.positions));
      this.state = { ...this.state, iterations: r.iterations, ms: performance.now() - t0, movement: r.movement, firstMovement: this.state.firstMovement ?? r.movement };
      if (r.type === 'done') this.#finish?.(r.reason ?? 'converged');
      else this.onProgress(this.state);
    });
    worker.addEventListener('error', (e) => {
      this.state.error = e.message || 'the layout worker failed';
      this.#finish?.('error');
    });
    const transfer: Transferable[] = [];
    for (const v of Object.values(req)) if (ArrayBuffer.isView(v)) transfer.push(v.buffer as ArrayBuffer);
    worker.postMessage(req, transfer);
    return done;
  }

  /** Stops the running layout, keeping the positions of its last batch. */
  stop(): void {
    this.#finish?.('stopped');
  }

  /**
   * "Distribute nodes": noverlap, repeated (at most 4 rounds, each with wider discs) until no two visible
   * node discs overlap on the canvas — pushing nodes apart widens the drawing, which sigma then shrinks
   * to fit, so the discs' size in graph units changes from one round to the next; and noverlap can
   * oscillate short of its goal in a crowded spot, which wider discs get past.
   */
  async distribute(): Promise<LayoutOutcome> {
    this.#distributing = true;
    try {
      return await this.#distribute();
    } finally {
      this.#distributing = false;
      this.onEnded(this.state);
    }
  }

  async #distribute(): Promise<LayoutOutcome> {
    let outcome: LayoutOutcome = 'converged';
    this.#renderer.refresh({});
    if (this.overlaps() === 0) {
      this.state = { kind: 'noverlap', running: false, iterations: 0, outcome, ms: 0 };
      this.onProgress(this.state);
      return outcome;
    }
    const ratios = [1.1, 1.3, 1.6, 2];
    for (const ratio of ratios) {
      this.#renderer.refresh({});
      if (this.overlaps() === 0) break;
      outcome = await this.start({ kind: 'noverlap', ratio });
      if (outcome === 'stopped' || outcome === 'error') break;
    }
    return outcome;
  }

  /** Pairs of visible nodes whose discs overlap on the canvas (grid-bucketed; for `distribute` and tests). */
  overlaps(): number {
    const discs = visibleDiscs(this.#renderer, this.#model.ids);
    return countOverlaps(discs);
  }
}

export interface Disc { x: number; y: number; r: number }

/** Visible nodes as discs on the canvas (viewport pixels). */
export function visibleDiscs(renderer: Sigma, ids: readonly string[]): Disc[] {
  const out: Disc[] = [];
  for (const id of ids) {
    const d = renderer.getNodeDisplayData(id);
    if (!d || d.hidden) continue;
    const p = renderer.framedGraphToViewport(d);
    out.push({ x: p.x, y: p.y, r: renderer.scaleSize(d.size) });
  }
  return out;
}

/** Overlapping pairs (distance between centres < sum of radii − 0.5 px), bucketed on a grid. */
export function countOverlaps(discs: Disc[]): number {
  if (discs.length < 2) return 0;
  const cell = Math.max(1, 2 * Math.max(...discs.map((d) => d.r)));
  const grid = new Map<string, number[]>();
  discs.forEach((d, k) => {
    const key = `${Math.floor(d.x / cell)},${Math.floor(d.y / cell)}`;
    const list = grid.get(key);
    if (list) list.push(k);
    else grid.set(key, [k]);
  });
  let count = 0;
  discs.forEach((d, k) => {
    const cx = Math.floor(d.x / cell);
    const cy = Math.floor(d.y / cell);
    for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) {
      for (const j of grid.get(`${cx + dx},${cy + dy}`) ?? []) {
        if (j <= k) continue;
        const o = discs[j];
        if (Math.hypot(d.x - o.x, d.y - o.y) < d.r + o.r - 0.5) count++;
      }
    }
  });
  return count;
}
