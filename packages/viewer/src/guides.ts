/**
 * What an arrangement means, drawn over the graph: the axes of "Plot nodes" (axis titles, number ticks or
 * category headers, light separators between categories) and the group names of "Circle by attribute".
 * An SVG over sigma's stage, redrawn after every frame (so it follows zoom and pan), taking no pointer
 * events. Shown when such a layout ends, cleared when another one starts (layout/runner.ts). `padding()`
 * tells the automatic camera (camera-fit.ts) how much room the guides need around the nodes.
 */
import type Sigma from 'sigma';
import type { AxisGuide } from './layout/arrange.ts';

export type Guides =
  | { kind: 'plot'; x: AxisGuide; y: AxisGuide; /** Lowest x and y of the nodes (graph units). */ min: [number, number] }
  | { kind: 'groups'; title: string; labels: { text: string; count: number; x: number; y: number; angle: number; /** The group's longest node label (room is kept for it on the right). */ longest: string }[] };

export interface Padding { left: number; right: number; top: number; bottom: number }

const SVG = 'http://www.w3.org/2000/svg';
/** Longest tick or group text drawn (characters); longer ones end with an ellipsis (the full text is its title). */
const MAX_CHARS = 22;
/** Distance between the nodes and an axis line (px). */
const AXIS_GAP = 14;
const FONT = 12;

function clip(text: string): string {
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1)}…` : text;
}

function node<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** A text with its full wording as a tooltip (the text itself may be clipped). */
function titled(full: string, text: SVGTextElement): SVGGElement {
  const g = node('g', {});
  g.append(node('title', {}, full), text);
  return g;
}

export class GuideOverlay {
  readonly #renderer: Sigma;
  readonly #svg: SVGSVGElement;
  #guides: Guides | null = null;
  readonly #measure: (text: string) => number;

  constructor(renderer: Sigma) {
    this.#renderer = renderer;
    this.#svg = node('svg', { class: 'nl-guides', 'data-guides': '' });
    this.#svg.style.cssText = 'position:absolute;inset:0;width:100%;height:100%;pointer-events:none;overflow:visible';
    renderer.getContainer().append(this.#svg);
    const ctx = document.createElement('canvas').getContext('2d');
    if (ctx) ctx.font = `${FONT}px Arial, sans-serif`;
    this.#measure = (t) => (ctx ? ctx.measureText(t).width : t.length * FONT * 0.6);
    renderer.on('afterRender', () => this.#draw());
  }

  get current(): Guides | null {
    return this.#guides;
  }

  show(guides: Guides | null): void {
    this.#guides = guides;
    this.#svg.dataset.guides = guides?.kind ?? '';
    this.#draw();
  }

  /** Room the guides need beyond the nodes' discs, in px (zero without guides). */
  padding(): Padding {
    const g = this.#guides;
    if (!g) return { left: 0, right: 0, top: 0, bottom: 0 };
    if (g.kind === 'plot') {
      const widest = Math.max(0, ...g.y.ticks.map((t) => this.#measure(clip(t.text))));
      const lastX = g.x.ticks.length ? this.#measure(clip(g.x.ticks[g.x.ticks.length - 1].text)) / 2 : 0;
      // at most a quarter of the stage (15 % on a phone) and little on the right: the drawing keeps most of
      // it (long tick texts are then cut at the edge)
      const { width } = this.#renderer.getDimensions();
      const share = width < 600 ? 0.15 : 0.25;
      return { left: Math.min(AXIS_GAP + 8 + widest + 8 + FONT + 6, share * width), right: Math.min(lastX, 0.05 * width), top: 4, bottom: AXIS_GAP + 8 + FONT + 8 + FONT + 6 };
    }
    const widest = Math.max(0, ...g.labels.map((l) => this.#measure(`${clip(l.text)} (${l.count})`) + (Math.cos(l.angle) > 0.3 ? this.#nodeLabel(l.longest) : 0)));
    return { left: widest + 16, right: widest + 16, top: FONT + 22, bottom: FONT + 22 };
  }

  /** Width of a node's label as sigma draws it (its font and size) plus the gap to the disc. */
  #nodeLabel(text: string): number {
    if (!text || this.#renderer.getSetting('renderLabels') === false) return 0;
    const size = Number(this.#renderer.getSetting('labelSize')) || 14;
    return 3 + (this.#measure(text) * size) / FONT;
  }

  #draw(): void {
    const g = this.#guides;
    const svg = this.#svg;
    svg.replaceChildren();
    if (!g) {
      svg.removeAttribute('role');
      svg.removeAttribute('aria-label');
      return;
    }
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', g.kind === 'plot' ? `Plot: horizontal axis ${g.x.title}, vertical axis ${g.y.title}` : `Groups by ${g.title}: ${g.labels.map((l) => l.text).join(', ')}`);
    const r = this.#renderer;
    svg.append(...this.#parts(g, (x, y) => r.graphToViewport({ x, y })));
  }

  /**
   * The guides as SVG markup for a picture whose graph-to-picture mapping is `vp` (the SVG export fits the
   * graph its own way, export/svg.ts); empty without guides.
   */
  markup(vp: (x: number, y: number) => { x: number; y: number }): string {
    const g = this.#guides;
    if (!g) return '';
    const group = node('g', { 'data-guides': g.kind });
    group.append(...this.#parts(g, vp));
    return new XMLSerializer().serializeToString(group);
  }

  /**
   * The guides as drawn on screen, as an image of the stage's size (CSS pixels) to lay over a PNG of the
   * drawing (export/png.ts scales it with the picture); null without guides.
   */
  async image(): Promise<HTMLImageElement | null> {
    if (!this.#guides) return null;
    const { width, height } = this.#renderer.getDimensions();
    const copy = this.#svg.cloneNode(true) as SVGSVGElement;
    copy.removeAttribute('style');
    copy.setAttribute('xmlns', SVG);
    copy.setAttribute('width', String(width));
    copy.setAttribute('height', String(height));
    copy.setAttribute('viewBox', `0 0 ${width} ${height}`);
    // a blob: URL is of this page's origin, so the canvas it is drawn on stays readable (and CSP allows blob:)
    const url = URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(copy)], { type: 'image/svg+xml' }));
    try {
      const img = new Image(width, height);
      img.src = url;
      await img.decode();
      return img;
    } finally {
      URL.revokeObjectURL(url);
    }
  }

  #parts(g: Guides, vp: (x: number, y: number) => { x: number; y: number }): SVGElement[] {
    // a white halo keeps the text readable over edges
    const text = { 'font-size': FONT, 'font-family': 'Arial, sans-serif', fill: '#1f2937', stroke: '#ffffff', 'stroke-width': 3, 'paint-order': 'stroke', 'stroke-linejoin': 'round' };
    const line = { stroke: '#6b7280', 'stroke-width': 1 };
    const parts: SVGElement[] = [];
    if (g.kind === 'plot') {
      const corner = vp(g.min[0], g.min[1]);
      const baseY = corner.y + AXIS_GAP;
      const baseX = corner.x - AXIS_GAP;
      const xs = g.x.ticks.map((t) => vp(t.at, 0).x);
      const ys = g.y.ticks.map((t) => vp(0, t.at).y);
      const x0 = Math.min(baseX, ...xs), x1 = Math.max(...xs, baseX + 1);
      const y0 = Math.max(baseY, ...ys), y1 = Math.min(...ys, baseY - 1);
      parts.push(node('line', { ...line, x1: baseX, y1: baseY, x2: x1, y2: baseY, 'data-axis': 'x' }));
      parts.push(node('line', { ...line, x1: baseX, y1: baseY, x2: baseX, y2: y1, 'data-axis': 'y' }));
      // texts along x that would overlap are thinned out: every k-th one is written (each keeps its tick mark)
      const spacing = xs.length > 1 ? Math.abs(xs[xs.length - 1] - xs[0]) / (xs.length - 1) : Infinity;
      const longest = Math.max(0, ...g.x.ticks.map((t) => this.#measure(clip(t.text))));
      const every = Math.max(1, Math.ceil((longest + 6) / spacing));
      g.x.ticks.forEach((t, k) => {
        parts.push(node('line', { ...line, x1: xs[k], y1: baseY, x2: xs[k], y2: baseY + 5 }));
        if (k % every !== 0) return;
        parts.push(titled(t.text, node('text', { ...text, x: xs[k], y: baseY + 8 + FONT, 'text-anchor': 'middle', 'data-tick': 'x' }, clip(t.text))));
      });
      const ySpacing = ys.length > 1 ? Math.abs(ys[ys.length - 1] - ys[0]) / (ys.length - 1) : Infinity;
      const yEvery = Math.max(1, Math.ceil((FONT + 2) / ySpacing));
      g.y.ticks.forEach((t, k) => {
        parts.push(node('line', { ...line, x1: baseX - 5, y1: ys[k], x2: baseX, y2: ys[k] }));
        if (k % yEvery !== 0) return;
        parts.push(titled(t.text, node('text', { ...text, x: baseX - 8, y: ys[k] + FONT / 3, 'text-anchor': 'end', 'data-tick': 'y' }, clip(t.text))));
      });
      const sep = { stroke: '#d1d5db', 'stroke-width': 1, 'stroke-dasharray': '4 4' };
      for (const b of g.x.borders) {
        const x = vp(b, 0).x;
        parts.push(node('line', { ...sep, x1: x, y1: baseY, x2: x, y2: y1 }));
      }
      for (const b of g.y.borders) {
        const y = vp(0, b).y;
        parts.push(node('line', { ...sep, x1: baseX, y1: y, x2: x1, y2: y }));
      }
      const widest = Math.max(0, ...g.y.ticks.map((t) => this.#measure(clip(t.text))));
      parts.push(node('text', { ...text, 'font-weight': 'bold', x: (x0 + x1) / 2, y: baseY + 8 + FONT + 8 + FONT, 'text-anchor': 'middle', 'data-axis-title': 'x' }, g.x.title));
      const ty = (y0 + y1) / 2;
      const tx = baseX - 8 - widest - 8;
      parts.push(node('text', { ...text, 'font-weight': 'bold', x: tx, y: ty, 'text-anchor': 'middle', transform: `rotate(-90 ${tx} ${ty})`, 'data-axis-title': 'y' }, g.y.title));
    } else {
      const centre = vp(0, 0);
      for (const l of g.labels) {
        const p = vp(l.x, l.y);
        const dx = p.x - centre.x, dy = p.y - centre.y;
        const d = Math.hypot(dx, dy) || 1;
        // right of the arc the nodes' own labels come first (they are drawn to the right of their disc)
        const out = 16 + (dx / d > 0.3 ? this.#nodeLabel(l.longest) : Math.abs(dx / d) <= 0.3 ? 6 : 0);
        const x = p.x + (dx / d) * out, y = p.y + (dy / d) * out + FONT / 3;
        const anchor = dx / d > 0.3 ? 'start' : dx / d < -0.3 ? 'end' : 'middle';
        parts.push(titled(`${l.text}: ${l.count} nodes`, node('text', { ...text, fill: '#1e3a8a', 'font-weight': 'bold', x, y, 'text-anchor': anchor, 'data-group': l.text }, `${clip(l.text)} (${l.count})`)));
      }
    }
    return parts;
  }
}
