/**
 * The DOM side of the viewer: graphology graph + sigma renderer driven by the engine's display arrays
 * (node reducer), camera animations that resolve when they end, the node details panel and the legend.
 *
 * Redraw cost: sigma's `refresh()` re-runs the reducers and re-indexes every node and edge (seconds at
 * 100k nodes / 500k edges), so `refresh` asks sigma for it only when the drawing's inputs changed — the
 * display arrays (layers) or the menu's decorations; a selection change re-processes just the nodes whose
 * selection changed, and a change of nothing drawn (camera, view saved, chat panel) no sigma work at all.
 * Camera moves are sigma's own renders. Which programs and move-time shortcuts sigma uses depends on the
 * network's size and the WebGL implementation (render-profile.ts).
 */
import { MultiGraph, MultiDirectedGraph } from 'graphology';
import Sigma from 'sigma';
import { EdgeLineProgram, NodePointProgram } from 'sigma/rendering';
import type { Camera } from '@netloom/protocol';
import type { DisplayPort } from './engine.ts';
import { computeDisplay, type Display } from './layers.ts';
import type { NetworkModel } from './model.ts';
import { parseInline, plainText } from './markdown.ts';
import { el } from './dom.ts';
import { renderInline } from './markdown-dom.ts';
import { nodePrograms } from './menu/programs.ts';
import { detectSoftwareWebGL, renderProfile, type RenderProfile } from './render-profile.ts';
import { LabelPriority, nodeDegrees } from './label-priority.ts';
import { buildAdjacency, fadeColor, FADED_EDGE_COLOR, type Adjacency } from './focus.ts';
import { formatValue } from './format.ts';

const ANIMATION_MS = 400;
/** The attributes of every network edge in the graph (see the constructor). */
const EDGE_ATTRIBUTES: Readonly<Record<string, unknown>> = Object.freeze({ size: 1, color: '#c3c8d4' });
/** Labels that may hold Markdown (drawn on the canvas as their plain text). */
const MARKDOWN_HINT = /[*_`~[\\\n]|https?:/;

function race(p: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, reject);
  });
}

function sameDisplay(a: Display, b: Display): boolean {
  if (a.hidden.length !== b.hidden.length) return false;
  for (let i = 0; i < a.hidden.length; i++) if (a.hidden[i] !== b.hidden[i] || a.color[i] !== b.color[i] || a.size[i] !== b.size[i]) return false;
  if ((a.edgeColor === null) !== (b.edgeColor === null) || (a.edgeSize === null) !== (b.edgeSize === null)) return false;
  for (let k = 0; k < a.edgeHidden.length; k++) {
    if (a.edgeHidden[k] !== b.edgeHidden[k] || a.edgeColor?.[k] !== b.edgeColor?.[k] || a.edgeSize?.[k] !== b.edgeSize?.[k]) return false;
  }
  return true;
}

export class SigmaDisplay implements DisplayPort {
  readonly graph: MultiGraph;
  readonly renderer: Sigma;
  #model: NetworkModel;
  #display: Display | null = null;
  #selected = new Set<number>();
  #sigmaRefresh: Sigma['refresh'];
  /** Programs and move-time shortcuts chosen for this network and WebGL (render-profile.ts). */
  readonly profile: RenderProfile;
  /** Which labels are drawn first (label-priority.ts); its mode follows the label setting (menu/drawing.ts). */
  readonly labelPriority: LabelPriority;

  #details: HTMLElement;
  #legend: HTMLElement;
  /** True while a command animates the camera (user-move detection ignores it). */
  animating = false;
  /** Hooks of the Explore menu (menu/index.ts): extra node/edge display data (shapes, images, roll-up, settings), and a step before each redraw. */
  decorateNode: ((node: string, data: Record<string, unknown>) => Record<string, unknown>) | null = null;
  decorateEdge: ((edge: string, data: Record<string, unknown>) => Record<string, unknown>) | null = null;
  /** Returns true when the decorations changed (a full sigma refresh is needed). */
  beforeRefresh: (() => boolean) | null = null;
  /** A neighbour picked in the details card (main.ts selects it through the engine's queue). */
  onPickNode: ((index: number) => void) | null = null;
  /** Ego focus (focus.ts): the one selected node, its neighbours and its edges; null with 0 or 2+ selected. */
  #focus: { center: number; near: Set<number>; edges: Set<number> } | null = null;
  #adjacency: Adjacency | null = null;
  #degrees: ReturnType<typeof nodeDegrees> | null = null;

  constructor(root: HTMLElement, model: NetworkModel, opts: { softwareWebGL?: boolean } = {}) {
    this.#model = model;
    const stage = el('div', 'nl-stage');
    this.#details = el('aside', 'nl-details');
    this.#details.hidden = true;
    this.#legend = el('div', 'nl-legend');
    this.#legend.hidden = true;
    root.append(stage, this.#legend, this.#details);
    const graph: MultiGraph = model.directed ? new MultiDirectedGraph() : new MultiGraph({ type: 'undirected' });
    // Labels on the canvas are the Markdown's plain text; the details panel renders the Markdown.
    const ids = model.ids;
    for (let i = 0; i < ids.length; i++) {
      const label = model.labels[i];
      graph.addNode(ids[i], { x: model.x[i], y: model.y[i], label: MARKDOWN_HINT.test(label) ? plainText(parseInline(label)) : label, size: 6, color: '#5b6b8c' });
    }
    // Edge keys are the edge's index in the model ("0", "1", …): array-index strings, which graphology's
    // and sigma's per-edge maps and objects hash and store far faster than graphology's generated
    // `geid_<instance>_<n>` keys (profiled: about a third of the graph build and of sigma's indexing at
    // 500k edges; docs/benchmarks.md). Nothing looks an edge up by key but the roll-up's own edges.
    // Every edge shares one frozen attributes object: graphology keeps the object it is given and sigma
    // copies it into its own display data, so 500k edges need not allocate 500k of them (less garbage to
    // collect during the load). Frozen: writing an attribute of one edge would change them all.
    const edges = model.edges;
    for (let k = 0; k < edges.length; k++) graph.addEdgeWithKey(String(k), ids[edges[k].source], ids[edges[k].target], EDGE_ATTRIBUTES);
    this.graph = graph;
    // Sigma indexes and draws every node and edge when created: do it with the display of no layers, so
    // the engine's first refresh (the same display) need not do it all again (seconds at 100k/500k).
    this.#display = computeDisplay(model, []);
    const software = opts.softwareWebGL ?? detectSoftwareWebGL();
    const profile = renderProfile(model.ids.length, model.edges.length, software);
    this.profile = profile;
    performance.mark('netloom:render-profile', { detail: { software, ...profile } });
    this.renderer = new Sigma(graph, stage, {
      renderEdgeLabels: false,
      // The label settings of the default label mode (menu/drawing.ts applies the others): the drawing's
      // first reconciliation then changes no setting (each setSetting is a full refresh).
      renderLabels: true,
      labelRenderedSizeThreshold: 0,
      labelSize: 13,
      hideEdgesOnMove: profile.hideEdgesOnMove,
      hideLabelsOnMove: profile.hideLabelsOnMove,
      defaultEdgeType: model.directed && !profile.fastPrograms ? 'arrow' : 'line',
      zIndex: true,
      nodeProgramClasses: profile.fastPrograms ? { ...nodePrograms(), circle: NodePointProgram } : nodePrograms(),
      ...(profile.fastPrograms ? { edgeProgramClasses: { line: EdgeLineProgram } } : {}),
      nodeReducer: (node, data) => {
        const d = this.#display;
        const i = model.index.get(node);
        if (!d || i === undefined) return this.decorateNode ? this.decorateNode(node, data) as typeof data : data;
        const selected = this.#selected.has(i);
        // Sigma hands the reducer its own shallow copy of the node's attributes: filled in place (one
        // object per node less on every full refresh).
        data.hidden = d.hidden[i] === 1;
        data.color = d.color[i];
        data.size = d.size[i];
        data.highlighted = selected;
        data.forceLabel = selected;
        data.zIndex = selected ? 1 : 0;
        const f = this.#focus;
        if (f && !selected) {
          if (f.near.has(i)) {
            data.forceLabel = true;
            data.zIndex = 1;
          } else {
            data.color = fadeColor(data.color);
            data.label = null;
          }
        }
        return this.decorateNode ? this.decorateNode(node, data) as typeof data : data;
      },
      edgeReducer: (edge, data) => {
        // Ties (edge layers, layers.ts): filter, colour and thickness by an edge attribute. Edge keys are
        // the model's edge indices; roll-up edges have other keys and keep their own data.
        const d = this.#display;
        const k = Number(edge);
        if (d && Number.isInteger(k) && k < d.edgeHidden.length && edge === String(k)) {
          if (d.edgeHidden[k] || d.edgeColor || d.edgeSize) {
            data = { ...data };
            if (d.edgeHidden[k]) data.hidden = true;
            if (d.edgeColor) data.color = d.edgeColor[k];
            if (d.edgeSize) data.size = d.edgeSize[k];
          }
        }
        const out = this.decorateEdge ? this.decorateEdge(edge, data) as typeof data : data;
        const f = this.#focus;
        if (!f) return out;
        if (Number.isInteger(k) && f.edges.has(k)) return { ...out, zIndex: 1 };
        return { ...out, color: typeof out.color === 'string' ? fadeColor(out.color, 0.75) : FADED_EDGE_COLOR, zIndex: 0 };
      },
    });
    // Sigma calls refresh() without arguments, after creation, only from its mouse captor when a drag pan
    // ends with hideEdgesOnMove on — a full re-process (seconds at 100k/500k) just to draw the edges
    // again. A render does that ("it could be possible to render instead", says sigma's comment there).
    // Our own full refreshes go through fullRefresh().
    this.labelPriority = new LabelPriority(this.renderer, model);
    const sigmaRefresh = this.renderer.refresh.bind(this.renderer);
    this.#sigmaRefresh = sigmaRefresh;
    this.renderer.refresh = (opts) => {
      if (opts) return sigmaRefresh(opts);
      performance.mark('netloom:drag-end-render');
      return this.renderer.scheduleRender();
    };
  }

  refresh(display: Display, selected: readonly number[]): void {
    const before = this.#display;
    const selectedBefore = this.#selected;
    this.#display = display;
    this.#selected = new Set(selected);
    const decorated = this.beforeRefresh?.() ?? false;
    const displayChanged = before !== display && !(before && sameDisplay(before, display));
    const focusChanged = this.#updateFocus(selected);
    if (decorated || displayChanged) this.fullRefresh();
    else if (focusChanged) {
      // Focus on, off or moved: every node's and edge's colour may change (no re-indexing).
      this.renderer.refresh({ partialGraph: { nodes: this.graph.nodes(), edges: this.graph.edges() }, skipIndexation: true });
    } else {
      // Only the nodes whose selection changed: their data again, in place (no re-indexing). Selected
      // nodes are highlighted, so sigma draws them on its hover layer above the others.
      const nodes: string[] = [];
      for (const i of selectedBefore) if (!this.#selected.has(i)) nodes.push(this.#model.ids[i]);
      for (const i of this.#selected) if (!selectedBefore.has(i)) nodes.push(this.#model.ids[i]);
      if (nodes.length) this.renderer.refresh({ partialGraph: { nodes }, skipIndexation: true });
    }
    // Panels: one node's attributes and a few legend rows, cheap; redrawn each time (a metric may have
    // added an attribute to the selected node).
    this.#renderDetails(selected.length === 1 ? selected[0] : null);
    this.#renderLegend(display);
  }

  /** Sigma re-processes every node and edge and draws; performance mark `netloom:full-refresh` (tests, benchmark). */
  fullRefresh(): void {
    performance.mark('netloom:full-refresh');
    this.#sigmaRefresh();
  }

  /** True when the focus changed (another centre, or on/off). */
  #updateFocus(selected: readonly number[]): boolean {
    const center = selected.length === 1 ? selected[0] : null;
    if ((this.#focus?.center ?? null) === center) return false;
    if (center === null) {
      this.#focus = null;
      return true;
    }
    this.#adjacency ??= buildAdjacency(this.#model);
    this.#focus = { center, near: new Set(this.#adjacency.neighbours(center)), edges: new Set(this.#adjacency.edgesOf(center)) };
    return true;
  }

  /** The focused node's neighbours (visible ones), by label. */
  neighbours(i: number): number[] {
    this.#adjacency ??= buildAdjacency(this.#model);
    const hidden = this.#display?.hidden;
    return this.#adjacency.neighbours(i).filter((j) => !hidden?.[j]).sort((a, b) => this.#model.labels[a].localeCompare(this.#model.labels[b], 'en', { numeric: true }));
  }

  #renderDetails(i: number | null): void {
    const box = this.#details;
    box.replaceChildren();
    if (i === null) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    box.append(renderInline(parseInline(this.#model.labels[i]), el('h2', 'nl-title')));
    const dl = el('dl');
    this.#degrees ??= nodeDegrees(this.#model);
    const d = this.#degrees;
    const degreeText = this.#model.directed ? `${d.degree[i]} (in ${d.inDegree[i]}, out ${d.outDegree[i]})` : String(d.degree[i]);
    const dd = el('dd', undefined, degreeText);
    dd.dataset.degree = String(d.degree[i]);
    dl.append(el('dt', undefined, 'Degree'), dd);
    for (const [k, v] of Object.entries(this.#model.attributes[i])) {
      if (k.startsWith('_') || k === 'name') continue; // `_` attributes are usable but not shown
      // Numbers to 4 significant digits (format.ts); the full value on hover and in every export.
      const value = renderInline(parseInline(formatValue(v)), el('dd'));
      if (typeof v === 'number') value.title = String(v);
      dl.append(renderInline(parseInline(k), el('dt')), value);
    }
    box.append(dl);
    const near = this.neighbours(i);
    const list = el('ul', 'nl-neighbours');
    list.setAttribute('aria-label', 'Neighbours');
    for (const j of near.slice(0, 200)) {
      const b = el('button', 'nl-link', this.#model.labels[j]);
      b.type = 'button';
      b.dataset.nodeId = this.#model.ids[j];
      b.addEventListener('click', () => this.onPickNode?.(j));
      const li = el('li');
      li.append(b);
      list.append(li);
    }
    const head = el('h3', 'nl-details-sub', `Neighbours (${near.length})`);
    box.append(head, near.length ? list : el('p', 'nl-hint', 'No neighbours.'));
    if (near.length > 200) box.append(el('p', 'nl-hint', `The first 200 of ${near.length} are listed.`));
    const img = this.#model.shownImages[i];
    if (img) {
      const im = el('img', 'nl-image');
      im.src = img;
      im.alt = '';
      im.referrerPolicy = 'no-referrer';
      box.prepend(im);
    }
  }

  /**
   * The legend: node colours (values some visible node has), tie colours and thickness, and the active
   * filters with what they leave ("42 of 60 nodes").
   */
  #renderLegend(display: Display): void {
    const box = this.#legend;
    box.replaceChildren();
    const m = this.#model;
    if (!display.legend && !display.edgeLegend && !display.edgeSizeLegend && display.filters.length === 0) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const rows = (legend: NonNullable<Display['legend']>, title: string, kind: 'node' | 'edge') => {
      const section = el('div', 'nl-legend-section');
      section.dataset.legend = kind;
      section.append(el('div', 'nl-legend-title', title));
      for (const entry of legend.entries) {
        const row = el('div', 'nl-legend-row');
        const swatch = el('span', kind === 'edge' ? 'nl-swatch nl-swatch-line' : 'nl-swatch');
        swatch.style.background = entry.color;
        row.append(swatch, el('span', undefined, entry.label));
        section.append(row);
      }
      box.append(section);
    };
    if (display.legend) rows(display.legend, display.legend.attribute, 'node');
    if (display.edgeLegend) rows(display.edgeLegend, `Ties: ${display.edgeLegend.attribute}`, 'edge');
    if (display.edgeSizeLegend) {
      const s = display.edgeSizeLegend;
      const section = el('div', 'nl-legend-section');
      section.dataset.legend = 'edge-size';
      section.append(el('div', 'nl-legend-title', `Tie thickness: ${s.attribute}`), el('div', 'nl-legend-row', `thin ${formatValue(s.min)} → thick ${formatValue(s.max)}`));
      box.append(section);
    }
    if (display.filters.length) {
      const section = el('div', 'nl-legend-section');
      section.dataset.legend = 'filters';
      section.append(el('div', 'nl-legend-title', 'Filters'));
      for (const f of display.filters) section.append(el('div', 'nl-legend-row', f));
      section.append(el('div', 'nl-legend-row nl-legend-count', `${display.visibleCount.toLocaleString('en')} of ${m.ids.length.toLocaleString('en')} nodes, ${display.visibleEdgeCount.toLocaleString('en')} of ${m.edges.length.toLocaleString('en')} edges shown`));
      box.append(section);
    }
  }

  async #animate(state: Partial<Camera>, signal: AbortSignal): Promise<void> {
    this.animating = true;
    try {
      await race(this.renderer.getCamera().animate(state, { duration: ANIMATION_MS, easing: 'quadraticInOut' }), signal);
    } finally {
      this.animating = false;
    }
  }

  focus(index: number, ratio: number, signal: AbortSignal): Promise<void> {
    const d = this.renderer.getNodeDisplayData(this.#model.ids[index]);
    if (!d) return Promise.resolve();
    return this.#animate({ x: d.x, y: d.y, ratio }, signal);
  }

  fit(indices: readonly number[] | null, signal: AbortSignal): Promise<void> {
    const list = indices ?? this.#model.ids.map((_, i) => i).filter((i) => !this.#display?.hidden[i]);
    if (list.length === 0) return Promise.resolve();
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const i of list) {
      const d = this.renderer.getNodeDisplayData(this.#model.ids[i]);
      if (!d) continue;
      minX = Math.min(minX, d.x); maxX = Math.max(maxX, d.x);
      minY = Math.min(minY, d.y); maxY = Math.max(maxY, d.y);
    }
    if (!Number.isFinite(minX)) return Promise.resolve();
    const ratio = Math.min(1.2, Math.max(0.05, Math.max(maxX - minX, maxY - minY) * 1.3));
    return this.#animate({ x: (minX + maxX) / 2, y: (minY + maxY) / 2, ratio, angle: 0 }, signal);
  }

  getCamera(): Camera {
    const s = this.renderer.getCamera().getState();
    return { x: s.x, y: s.y, ratio: s.ratio, angle: s.angle };
  }

  setCamera(camera: Camera, signal: AbortSignal): Promise<void> {
    return this.#animate(camera, signal);
  }
}
