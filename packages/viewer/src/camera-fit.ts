/**
 * The automatic camera, with room for labels. Sigma frames the node discs in its stage (which starts right
 * of the Explore menu), but a label is drawn to the right of its node, so the labels of the rightmost
 * nodes were cut at the stage's edge. `fitWithLabels` zooms out and re-centres until every visible node
 * disc and the label of every node near the right edge lie inside the stage with a margin. `AutoFit` does
 * it when the viewer opens and again after each layout, and only while the camera is still the automatic
 * one (sigma's default framing or this fit's own result): a saved view's camera or a person's move is kept.
 */
import type Sigma from 'sigma';
import type { CameraState } from 'sigma/types';

/** Space kept free at each edge of the stage (px), as sigma's own `stagePadding`. */
export const FIT_MARGIN = 16;
/** Labels are measured for at most this many nodes (the rightmost ones): bounded work at 100k nodes. */
const MAX_MEASURED = 2000;
/** Sigma draws a label this far right of its node's disc (px). */
const LABEL_GAP = 3;

/** A visible node on the canvas (viewport px): centre, disc radius and how far right its label reaches beyond the centre. */
export interface Placed {
  x: number;
  y: number;
  r: number;
  /** Distance from the centre to the right end of the drawing of this node (disc, or label when drawn). */
  reach: number;
}

/**
 * Visible nodes with how far each one's drawing reaches to the right (its label's end for the nodes
 * near the right edge; labels longer than 45 % of the stage are not made room for).
 */
export function placedNodes(renderer: Sigma, measure: (text: string) => number): Placed[] {
  const { width } = renderer.getDimensions();
  const withLabels = renderer.getSetting('renderLabels') !== false;
  const out: (Placed & { label: string })[] = [];
  renderer.getGraph().forEachNode((id) => {
    const d = renderer.getNodeDisplayData(id);
    if (!d || d.hidden) return;
    const p = renderer.framedGraphToViewport(d);
    const r = renderer.scaleSize(d.size);
    out.push({ x: p.x, y: p.y, r, reach: r, label: withLabels && typeof d.label === 'string' ? d.label : '' });
  });
  if (withLabels && out.length) {
    const longest = width * 0.45;
    const discRight = Math.max(...out.map((n) => n.x + n.r));
    const candidates = out.filter((n) => n.label && n.x + n.r + LABEL_GAP + longest > discRight).sort((a, b) => b.x - a.x).slice(0, MAX_MEASURED);
    for (const n of candidates) n.reach = n.r + LABEL_GAP + Math.min(longest, measure(n.label));
  }
  return out;
}

/** A label's width on the canvas with the renderer's label font. */
export function labelMeasurer(renderer: Sigma): (text: string) => number {
  const ctx = document.createElement('canvas').getContext('2d');
  const size = Number(renderer.getSetting('labelSize')) || 14;
  if (ctx) ctx.font = `${renderer.getSetting('labelWeight') ?? 'normal'} ${size}px ${renderer.getSetting('labelFont') ?? 'Arial'}`;
  return (text) => (ctx ? ctx.measureText(text).width : text.length * size * 0.6);
}

/** Room (px) kept beyond the nodes on each side for what is drawn around them (axes, group names: guides.ts). */
export interface Pad { left: number; right: number; top: number; bottom: number }
const NO_PAD: Pad = { left: 0, right: 0, top: 0, bottom: 0 };

/** Whether the camera is still where sigma put it (nobody moved it, no view set it). */
export function atDefaultCamera(renderer: Sigma): boolean {
  const s = renderer.getCamera().getState();
  return s.x === 0.5 && s.y === 0.5 && s.ratio === 1 && s.angle === 0;
}

/**
 * The drawing's box after zooming out by `f` about the viewport centre (cx, cy): discs shrink with the
 * drawing, labels keep their pixel width (they reach right of their node).
 */
function extent(nodes: Placed[], cx: number, cy: number, f: number, pad: Pad = NO_PAD): { l: number; r: number; t: number; b: number } {
  let l = Infinity, r = -Infinity, t = Infinity, b = -Infinity;
  for (const n of nodes) {
    const x = cx + (n.x - cx) / f;
    const y = cy + (n.y - cy) / f;
    l = Math.min(l, x - n.r);
    r = Math.max(r, x + n.reach);
    t = Math.min(t, y - n.r);
    b = Math.max(b, y + n.r);
  }
  return { l: l - pad.left, r: r + pad.right, t: t - pad.top, b: b + pad.bottom };
}

/**
 * The camera move that fits the drawing, labels included, in the stage with FIT_MARGIN on every side:
 * the smallest zoom-out that makes room (never so far that the nodes span less than 40 % of the stage's
 * width: a label that cannot fit then is cut rather than the drawing shrunk to a dot), then centred.
 * Null when it already fits.
 */
export function labelFit(nodes: Placed[], width: number, height: number, pad: Pad = NO_PAD): { zoomOut: number; dx: number; dy: number } | null {
  if (nodes.length === 0 || width <= 2 * FIT_MARGIN || height <= 2 * FIT_MARGIN) return null;
  const cx = width / 2, cy = height / 2;
  const availW = width - 2 * FIT_MARGIN, availH = height - 2 * FIT_MARGIN;
  const e0 = extent(nodes, cx, cy, 1, pad);
  if (e0.l >= FIT_MARGIN - 0.5 && e0.r <= width - FIT_MARGIN + 0.5 && e0.t >= FIT_MARGIN - 0.5 && e0.b <= height - FIT_MARGIN + 0.5) return null;
  const fits = (f: number) => {
    const e = extent(nodes, cx, cy, f, pad);
    return e.r - e.l <= availW && e.b - e.t <= availH;
  };
  const xs = nodes.map((n) => n.x);
  const span = Math.max(...xs) - Math.min(...xs);
  const most = Math.max(1, span / (0.4 * availW));
  let f = 1;
  if (!fits(1)) {
    let lo = 1, hi = most;
    if (!fits(hi)) f = hi;
    else {
      for (let k = 0; k < 30; k++) {
        const mid = (lo + hi) / 2;
        if (fits(mid)) hi = mid;
        else lo = mid;
      }
      f = hi;
    }
  }
  const e = extent(nodes, cx, cy, f, pad);
  return { zoomOut: f, dx: (FIT_MARGIN + width - FIT_MARGIN) / 2 - (e.l + e.r) / 2, dy: (FIT_MARGIN + height - FIT_MARGIN) / 2 - (e.t + e.b) / 2 };
}

/** Moves the camera (no animation) so that the drawing, labels included, fits the stage. Returns whether it moved. */
export function fitWithLabels(renderer: Sigma, measure: (text: string) => number = labelMeasurer(renderer), pad: Pad = NO_PAD): boolean {
  // the stage may have changed size since sigma last measured it (the menu narrows it after sigma starts)
  renderer.resize();
  const { width, height } = renderer.getDimensions();
  const move = labelFit(placedNodes(renderer, measure), width, height, pad);
  if (!move) return false;
  // After zooming out by f about the centre a point sits at c + (x − c)/f; shifting it by (dx, dy) means
  // centring the camera on what is now at c − d·f.
  const camera = renderer.getCamera();
  const centre = renderer.viewportToFramedGraph({ x: width / 2 - move.dx * move.zoomOut, y: height / 2 - move.dy * move.zoomOut });
  camera.setState({ x: centre.x, y: centre.y, ratio: camera.getState().ratio * move.zoomOut });
  return true;
}

/** Fits the drawing (labels included) while nobody has moved the camera: when the viewer opens and after each layout. */
export class AutoFit {
  readonly #renderer: Sigma;
  readonly #quietly: (move: () => void) => void;
  /** The camera the last fit set; a different camera means somebody (a person, a view, a command) moved it. */
  #fitted: CameraState | null = null;
  /** Room needed around the nodes (the guides' axes and group names). */
  padding: () => Pad = () => NO_PAD;

  /** `quietly` runs a camera move that is not a person's (the viewer's move detection ignores it). */
  constructor(renderer: Sigma, quietly: (move: () => void) => void) {
    this.#renderer = renderer;
    this.#quietly = quietly;
  }

  /** Whether the camera is still the automatic one. */
  get automatic(): boolean {
    if (atDefaultCamera(this.#renderer)) return true;
    const s = this.#renderer.getCamera().getState();
    const f = this.#fitted;
    return f !== null && s.x === f.x && s.y === f.y && s.ratio === f.ratio && s.angle === f.angle;
  }

  /** From sigma's default framing of the current positions, the fit with labels; nothing if the camera was moved. */
  fit(): void {
    if (!this.automatic) return;
    this.#quietly(() => {
      const camera = this.#renderer.getCamera();
      camera.setState({ x: 0.5, y: 0.5, ratio: 1, angle: 0 });
      // the display data of the positions a layout just set (with an argument: display.ts makes sigma's
      // argument-less refresh a render only)
      this.#renderer.refresh({});
      fitWithLabels(this.#renderer, labelMeasurer(this.#renderer), this.padding());
      this.#fitted = camera.getState();
    });
  }
}
