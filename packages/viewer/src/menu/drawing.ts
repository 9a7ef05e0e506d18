/**
 * What the drawing takes from the viewer state beyond the engine's colors, sizes and filters: node
 * shapes (Shape layer), node images, roll-up (Rollup layer: group nodes and summed edges added to the
 * drawn graph, members hidden), display settings (background, label mode, edges, label size) and the
 * header strip (network and open view names). Installed on every viewer, with or without a menu, so a
 * view opened by code draws the same. Runs before each redraw (SigmaDisplay.beforeRefresh) and says
 * whether node or edge display data changed, so camera moves and selections cost no full sigma refresh.
 */
import type { SigmaDisplay } from '../display.ts';
import type { ViewerEngine } from '../engine.ts';
import type { NetworkModel } from '../model.ts';
import { MAX_SIZE, MIN_SIZE } from '../layers.ts';
import { activeLayer, assignShapes, type ShapeAssignment } from './shapes.ts';
import { computeRollup, type Rollup } from './rollup.ts';
import type { LayoutRunner } from '../layout/runner.ts';
import { drawLabelWithHalo } from '../label-priority.ts';
import { drawDiscNodeLabel as sigmaDrawLabel } from 'sigma/rendering';

/**
 * Label modes (EmbedView `display.showLabels`): `auto` labels the biggest and best-connected nodes first,
 * as many as fit the zoom (label-priority.ts); `always` every visible node's label; `hover` only the
 * hovered or selected node's; `none` no labels.
 */
export const LABEL_MODES = ['auto', 'always', 'hover', 'none'] as const;
export type LabelMode = (typeof LABEL_MODES)[number];

export class Drawing {
  readonly engine: ViewerEngine;
  readonly display: SigmaDisplay;
  readonly model: NetworkModel;
  /** Session-local (EmbedView v1 has no field for it). */
  labelSize = 13;
  shapes: ShapeAssignment | null = null;
  rollup: Rollup | null = null;
  layout: LayoutRunner | null = null;
  header: HTMLElement | null = null;
  /** Called after each reconciliation (the open menu panel re-renders). */
  onChange: () => void = () => undefined;
  #shapeKey = '';
  #rollupKey = '';
  #rollupDisplay: unknown = null;
  /** What sigma's node and edge data reflect: the default label mode and size (display.ts creates sigma so), edges shown. */
  #applied = { bg: '', labels: 'auto' as LabelMode, labelSize: 13, showEdges: true };
  #viewNames = new Map<string, string>();
  #pendingName: string | null = null;

  constructor(engine: ViewerEngine, display: SigmaDisplay, model: NetworkModel) {
    this.engine = engine;
    this.display = display;
    this.model = model;
  }

  /**
   * Hooks the drawing into the display. Sigma drew the network undecorated already; it is redrawn only
   * when a decoration changes something (node images, or a state that is not the default).
   */
  install(): void {
    this.header = this.display.renderer.getContainer().parentElement?.querySelector<HTMLElement>('.nl-header') ?? null;
    this.display.decorateNode = (node, data) => this.#node(node, data);
    this.display.decorateEdge = (_edge, data) => (this.engine.displaySettings.showEdges === false ? { ...data, hidden: true } : data);
    this.display.beforeRefresh = () => this.reconcile();
    if (this.reconcile() || this.model.shownImages.some((img) => !!img)) this.display.fullRefresh();
  }

  get labelMode(): LabelMode {
    const m = this.engine.displaySettings.showLabels;
    return (LABEL_MODES as readonly string[]).includes(m) ? (m as LabelMode) : 'auto';
  }

  rememberViewName(id: string, name: string): void {
    this.#viewNames.set(id, name);
  }

  /** Applies the state to the drawing; true when node or edge display data changed (sigma must re-process them). */
  reconcile(): boolean {
    const r = this.display.renderer;
    const s = this.engine.displaySettings;
    let changed = false;
    if (this.#applied.bg !== s.backgroundColor) {
      this.#applied.bg = s.backgroundColor;
      r.getContainer().style.background = /^[#a-zA-Z0-9(),.%\s-]{1,100}$/.test(s.backgroundColor) ? s.backgroundColor : '#ffffff';
    }
    // Label settings: only those that differ (each setSetting makes sigma re-process everything).
    const mode = this.labelMode;
    const drawn = mode === 'auto' || mode === 'always';
    const threshold = drawn ? 0 : 4;
    this.display.labelPriority.mode = mode === 'always' ? 'always' : 'auto';
    if (r.getSetting('renderLabels') !== drawn) r.setSetting('renderLabels', drawn);
    if (r.getSetting('labelRenderedSizeThreshold') !== threshold) r.setSetting('labelRenderedSizeThreshold', threshold);
    if (r.getSetting('labelSize') !== this.labelSize) r.setSetting('labelSize', this.labelSize);
    const halo = mode === 'always' ? drawLabelWithHalo : sigmaDrawLabel;
    if (r.getSetting('defaultDrawNodeLabel') !== halo) r.setSetting('defaultDrawNodeLabel', halo as never);
    const showEdges = s.showEdges !== false;
    if (this.#applied.labels !== mode || this.#applied.labelSize !== this.labelSize || this.#applied.showEdges !== showEdges) {
      this.#applied.labels = mode;
      this.#applied.labelSize = this.labelSize;
      this.#applied.showEdges = showEdges;
      changed = true;
    }
    // Shapes: recomputed when the attribute (or the set of attributes: a metric ran) changes.
    const shapeLayer = activeLayer(this.engine.layers, 'Shape');
    const shapeKey = shapeLayer ? `${shapeLayer.attribute}\u0000${this.model.nodeAttributeTypes.size}` : '';
    if (shapeKey !== this.#shapeKey) {
      this.#shapeKey = shapeKey;
      this.shapes = shapeLayer && this.model.nodeAttributeTypes.has(shapeLayer.attribute as string) ? assignShapes(this.model, shapeLayer.attribute as string) : null;
      changed = true;
    }
    if (this.#reconcileRollup()) changed = true;
    this.#updateHeader();
    this.onChange();
    return changed;
  }

  /** True when the roll-up changed (groups added or removed). */
  #reconcileRollup(): boolean {
    const layer = activeLayer(this.engine.layers, 'Rollup');
    const key = layer && this.model.nodeAttributeTypes.has(layer.attribute as string) ? String(layer.attribute) : '';
    if (key === this.#rollupKey && (key === '' || this.#rollupDisplay === this.engine.display)) return false;
    const graph = this.display.graph;
    this.layout?.stop();
    if (this.rollup) {
      for (const e of this.rollup.edges) if (graph.hasEdge(e.key)) graph.dropEdge(e.key);
      for (const g of this.rollup.groups) if (graph.hasNode(g.key)) graph.dropNode(g.key);
    }
    this.rollup = null;
    this.#rollupKey = key;
    this.#rollupDisplay = this.engine.display;
    if (!key) return true;
    const d = this.engine.display;
    const ids = this.model.ids;
    const xs = ids.map((id) => graph.getNodeAttribute(id, 'x') as number);
    const ys = ids.map((id) => graph.getNodeAttribute(id, 'y') as number);
    const rollup = computeRollup(this.model, key, d.hidden, xs, ys);
    const biggest = Math.max(1, ...rollup.groups.map((g) => g.members.length));
    for (const g of rollup.groups) {
      // The group's color: its members' most common color.
      const counts = new Map<string, number>();
      for (const i of g.members) counts.set(d.color[i], (counts.get(d.color[i]) ?? 0) + 1);
      const color = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '#5b6b8c';
      const size = MIN_SIZE + 2 + (MAX_SIZE + 6 - MIN_SIZE) * Math.sqrt(g.members.length / biggest);
      graph.addNode(g.key, { x: g.x, y: g.y, size, color, label: `${g.value} (${g.members.length})`, rollupGroup: true });
    }
    const maxW = Math.max(1, ...rollup.edges.map((e) => e.weight));
    for (const e of rollup.edges) graph.addEdgeWithKey(e.key, e.source, e.target, { size: 1 + 5 * (e.weight / maxW), color: '#aab1c0', label: String(e.weight), weight: e.weight });
    this.rollup = rollup;
    return true;
  }

  #node(node: string, data: Record<string, unknown>): Record<string, unknown> {
    const i = this.model.index.get(node);
    const mode = this.labelMode;
    if (i === undefined) {
      // A roll-up group node.
      return mode === 'none' ? { ...data, label: null } : data;
    }
    let out = data;
    if (this.rollup && this.rollup.groupOf[i] !== null) out = { ...out, hidden: true };
    const img = this.model.shownImages[i];
    if (img) out = { ...out, type: 'image', image: img };
    else if (this.shapes && this.shapes.shapes[i] !== 'circle') out = { ...out, type: this.shapes.shapes[i] };
    if (mode === 'none') out = { ...out, label: null, forceLabel: false };
    return out;
  }

  #updateHeader(): void {
    if (!this.header) return;
    const id = this.engine.viewId;
    let text = this.model.name;
    if (id) {
      const name = this.#viewNames.get(id);
      if (name !== undefined) text += ` — ${name}`;
      else if (this.#pendingName !== id) {
        this.#pendingName = id;
        void this.engine.viewerCommand('views.list').then((views) => {
          for (const v of views as { id: string; name: string }[]) this.#viewNames.set(v.id, v.name);
          this.#updateHeader();
        }).catch(() => undefined);
      }
    }
    if (this.header.textContent !== text) this.header.textContent = text;
  }
}
