/**
 * Layers as reducers: the layer list → display arrays (hidden flag, color, size per node). Filter
 * layers AND together; the last visible Color layer and the last visible Size layer win. Layers with
 * `hidden: true` (switched off) and read-only layers of other kinds do nothing here. No DOM.
 */
import type { AttributeValue, Layer } from '@netloom/protocol';
import type { NetworkModel } from './model.ts';
import { CommandError } from './errors.ts';
import { formatNumber } from './format.ts';

export const DEFAULT_NODE_COLOR = '#5b6b8c';
export const MISSING_COLOR = '#c9ced8';
export const DEFAULT_NODE_SIZE = 6;
export const MIN_SIZE = 3;
export const MAX_SIZE = 18;
export const PALETTE = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#46bcc6', '#f032e6', '#9a6324', '#008080', '#800000', '#808000', '#000075'];

export const DEFAULT_EDGE_COLOR = '#c3c8d4';
export const DEFAULT_EDGE_SIZE = 1;
export const MIN_EDGE_SIZE = 0.5;
export const MAX_EDGE_SIZE = 8;

export interface Legend { attribute: string; entries: { label: string; color: string }[] }

export interface Display {
  hidden: Uint8Array;
  color: string[];
  size: Float32Array;
  visibleCount: number;
  /** Legend entries of the active node color layer (only values some visible node has). */
  legend: Legend | null;
  /** Edges hidden by an edge filter (an edge is also not drawn when one of its ends is hidden). */
  edgeHidden: Uint8Array;
  /** Per-edge color and thickness of the active edge Color/Size layers; null: the default. */
  edgeColor: string[] | null;
  edgeSize: Float32Array | null;
  edgeLegend: Legend | null;
  /** The edge Size layer's attribute and range (legend). */
  edgeSizeLegend: { attribute: string; min: number; max: number } | null;
  /** Edges drawn: not filtered and both ends visible. */
  visibleEdgeCount: number;
  /** Active filters as text, nodes' and edges' (legend). */
  filters: string[];
}

type Attrs = readonly Record<string, unknown>[];

function numericRangeOf(list: Attrs, attribute: string, keep?: (k: number) => boolean): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (let k = 0; k < list.length; k++) {
    const v = list[k][attribute];
    if (typeof v === 'number' && (!keep || keep(k))) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  return [lo, hi];
}

function numericRange(model: NetworkModel, attribute: string): [number, number] {
  return numericRangeOf(model.attributes, attribute);
}

function categoriesOf(list: Attrs, attribute: string): string[] {
  const counts = new Map<string, number>();
  for (const a of list) {
    const v = a[attribute];
    if (v !== undefined) counts.set(String(v), (counts.get(String(v)) ?? 0) + 1);
  }
  // Most frequent first, then by name: stable palette assignment.
  return [...counts].sort((p, q) => q[1] - p[1] || (p[0] < q[0] ? -1 : p[0] > q[0] ? 1 : 0)).map(([k]) => k);
}

const edgeAttributeLists = new WeakMap<NetworkModel, Attrs>();
/** The edges' attribute objects as one list (built once per model). */
export function edgeAttributes(model: NetworkModel): Attrs {
  let list = edgeAttributeLists.get(model);
  if (!list) {
    list = model.edges.map((e) => e.attributes);
    edgeAttributeLists.set(model, list);
  }
  return list;
}

function lerpColor(t: number): string {
  // light blue → dark red through yellow
  const stops = [[198, 219, 239], [254, 224, 139], [165, 0, 38]];
  const u = Math.min(1, Math.max(0, t)) * (stops.length - 1);
  const k = Math.min(stops.length - 2, Math.floor(u));
  const f = u - k;
  const c = stops[k].map((s, j) => Math.round(s + (stops[k + 1][j] - s) * f));
  return `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

/** A filter layer as legend text: "weight 3 – 31", "team: Sales, Ops". */
export function filterText(l: Layer): string {
  const what = l.appliedTo === 'edges' ? `ties by ${l.attribute}` : String(l.attribute);
  return l.values ? `${what}: ${l.values.join(', ')}` : `${what} ${formatNumber(l.min ?? -Infinity)} – ${formatNumber(l.max ?? Infinity)}`;
}

/** Marks in `hidden` the items a filter layer drops. */
function applyFilter(list: Attrs, layer: Layer, hidden: Uint8Array): void {
  const attr = layer.attribute as string;
  const values = layer.values ? new Set(layer.values.map(String)) : null;
  const lo = layer.min ?? -Infinity;
  const hi = layer.max ?? Infinity;
  for (let i = 0; i < list.length; i++) {
    const v = list[i][attr];
    const keep = v === undefined ? false : values ? values.has(String(v)) : typeof v === 'number' && v >= lo && v <= hi;
    if (!keep) hidden[i] = 1;
  }
}

/**
 * The difference view (docs/api/analysis.md "Difference network"): a network made by compare carries
 * `Change` on its edges (added | removed | kept) and nodes (joined | left | kept). Colouring by it uses
 * fixed colours — added/joined green, removed/left red, kept faded grey — so the legend reads the same
 * in every difference, whichever values occur.
 */
const CHANGE_COLORS: Readonly<Record<string, string>> = { added: '#1a9850', joined: '#1a9850', removed: '#d73027', left: '#d73027', kept: '#d9d9d9' };

function isChangeAttribute(list: Attrs, attr: string): boolean {
  if (attr !== 'Change') return false;
  for (const a of list) {
    const v = a[attr];
    if (v !== undefined && !Object.hasOwn(CHANGE_COLORS, String(v))) return false;
  }
  return true;
}

/** Colors by an attribute: a gradient for numbers, the palette for categories (legend: visible values only). */
function colorBy(list: Attrs, attr: string, numeric: boolean, visible: (k: number) => boolean, out: string[]): Legend {
  if (!numeric && isChangeAttribute(list, attr)) {
    const shown = new Set<string>();
    for (let i = 0; i < list.length; i++) {
      const v = list[i][attr];
      out[i] = v === undefined ? MISSING_COLOR : CHANGE_COLORS[String(v)];
      if (v !== undefined && visible(i)) shown.add(String(v));
    }
    return { attribute: attr, entries: Object.keys(CHANGE_COLORS).filter((c) => shown.has(c)).map((c) => ({ label: c, color: CHANGE_COLORS[c] })) };
  }
  if (numeric) {
    const [lo, hi] = numericRangeOf(list, attr);
    for (let i = 0; i < list.length; i++) {
      const v = list[i][attr];
      out[i] = typeof v === 'number' ? lerpColor(hi > lo ? (v - lo) / (hi - lo) : 0.5) : MISSING_COLOR;
    }
    const [vlo, vhi] = numericRangeOf(list, attr, visible);
    const [a, z] = Number.isFinite(vlo) ? [vlo, vhi] : [lo, hi];
    const at = (v: number) => lerpColor(hi > lo ? (v - lo) / (hi - lo) : 0.5);
    return { attribute: attr, entries: [{ label: formatNumber(a), color: at(a) }, { label: formatNumber(z), color: at(z) }] };
  }
  const cats = categoriesOf(list, attr);
  const map = new Map(cats.map((c, k) => [c, k < PALETTE.length ? PALETTE[k] : MISSING_COLOR]));
  const shown = new Set<string>();
  for (let i = 0; i < list.length; i++) {
    const v = list[i][attr];
    out[i] = v === undefined ? MISSING_COLOR : (map.get(String(v)) ?? MISSING_COLOR);
    if (v !== undefined && visible(i)) shown.add(String(v));
  }
  const entries = cats.slice(0, PALETTE.length).filter((c) => shown.has(c)).map((c) => ({ label: c, color: map.get(c) as string }));
  if (cats.slice(PALETTE.length).some((c) => shown.has(c))) entries.push({ label: 'other', color: MISSING_COLOR });
  return { attribute: attr, entries };
}

function sizeBy(list: Attrs, attr: string, numeric: boolean, min: number, max: number, out: Float32Array): [number, number] {
  if (numeric) {
    const [lo, hi] = numericRangeOf(list, attr);
    for (let i = 0; i < list.length; i++) {
      const v = list[i][attr];
      out[i] = typeof v === 'number' ? min + (hi > lo ? (v - lo) / (hi - lo) : 0.5) * (max - min) : min;
    }
    return [lo, hi];
  }
  const cats = categoriesOf(list, attr);
  const rank = new Map(cats.map((c, k) => [c, k]));
  for (let i = 0; i < list.length; i++) {
    const v = list[i][attr];
    const r = v === undefined ? undefined : rank.get(String(v));
    out[i] = r === undefined ? min : max - (cats.length > 1 ? (r / (cats.length - 1)) * (max - min) : 0);
  }
  return [0, cats.length];
}

export function computeDisplay(model: NetworkModel, layers: readonly Layer[]): Display {
  const n = model.ids.length;
  const hidden = new Uint8Array(n);
  const color = new Array<string>(n).fill(DEFAULT_NODE_COLOR);
  const size = new Float32Array(n).fill(DEFAULT_NODE_SIZE);
  const m = model.edges.length;
  const edgeHidden = new Uint8Array(m);
  const active = layers.filter((l) => !l.hidden && !l.readOnly && l.attribute !== undefined);
  const onEdges = (l: Layer) => l.appliedTo === 'edges';
  const filters: string[] = [];
  for (const layer of active) {
    if (layer.operation !== 'Filter') continue;
    if (onEdges(layer)) applyFilter(edgeAttributes(model), layer, edgeHidden);
    else applyFilter(model.attributes, layer, hidden);
    filters.push(filterText(layer));
  }
  const edgeVisible = (k: number) => !edgeHidden[k] && !hidden[model.edges[k].source] && !hidden[model.edges[k].target];
  let legend: Legend | null = null;
  const colorLayer = active.filter((l) => l.operation === 'Color' && !onEdges(l)).at(-1);
  if (colorLayer) {
    const attr = colorLayer.attribute as string;
    legend = colorBy(model.attributes, attr, model.nodeAttributeTypes.get(attr) === 'number', (i) => !hidden[i], color);
  }
  const sizeLayer = active.filter((l) => l.operation === 'Size' && !onEdges(l)).at(-1);
  if (sizeLayer) {
    const attr = sizeLayer.attribute as string;
    sizeBy(model.attributes, attr, model.nodeAttributeTypes.get(attr) === 'number', MIN_SIZE, MAX_SIZE, size);
  }
  let edgeColor: string[] | null = null;
  let edgeLegend: Legend | null = null;
  const edgeColorLayer = active.filter((l) => l.operation === 'Color' && onEdges(l)).at(-1);
  if (edgeColorLayer) {
    const attr = edgeColorLayer.attribute as string;
    edgeColor = new Array<string>(m).fill(DEFAULT_EDGE_COLOR);
    edgeLegend = colorBy(edgeAttributes(model), attr, model.edgeAttributeTypes.get(attr) === 'number', edgeVisible, edgeColor);
  }
  let edgeSize: Float32Array | null = null;
  let edgeSizeLegend: Display['edgeSizeLegend'] = null;
  const edgeSizeLayer = active.filter((l) => l.operation === 'Size' && onEdges(l)).at(-1);
  if (edgeSizeLayer) {
    const attr = edgeSizeLayer.attribute as string;
    edgeSize = new Float32Array(m).fill(DEFAULT_EDGE_SIZE);
    const numeric = model.edgeAttributeTypes.get(attr) === 'number';
    const [lo, hi] = sizeBy(edgeAttributes(model), attr, numeric, MIN_EDGE_SIZE, MAX_EDGE_SIZE, edgeSize);
    if (numeric) edgeSizeLegend = { attribute: attr, min: lo, max: hi };
  }
  let visibleCount = 0;
  for (let i = 0; i < n; i++) if (!hidden[i]) visibleCount++;
  let visibleEdgeCount = 0;
  for (let k = 0; k < m; k++) if (edgeVisible(k)) visibleEdgeCount++;
  return { hidden, color, size, visibleCount, legend, edgeHidden, edgeColor, edgeSize, edgeLegend, edgeSizeLegend, visibleEdgeCount, filters };
}

let layerCounter = 0;

/** Validates the arguments of layers.filter/color/size and builds the layer (EmbedView v1 fields). */
export function makeLayer(model: NetworkModel, operation: 'Filter' | 'Color' | 'Size', args: unknown, id?: string): Layer {
  if (typeof args !== 'object' || args === null) throw new CommandError('INVALID_ARGS', `layers.${operation.toLowerCase()} takes an object`);
  const a = args as Record<string, unknown>;
  const allowed = operation === 'Filter' ? ['attribute', 'values', 'min', 'max', 'appliedTo'] : ['attribute', 'appliedTo'];
  for (const k of Object.keys(a)) if (!allowed.includes(k)) throw new CommandError('INVALID_ARGS', `unknown argument ${k}`);
  if (a.appliedTo !== undefined && a.appliedTo !== 'nodes' && a.appliedTo !== 'edges') throw new CommandError('INVALID_ARGS', 'appliedTo must be "nodes" or "edges"');
  const edges = a.appliedTo === 'edges';
  if (typeof a.attribute !== 'string' || a.attribute === '') throw new CommandError('INVALID_ARGS', 'attribute must be a non-empty string');
  const types = edges ? model.edgeAttributeTypes : model.nodeAttributeTypes;
  const attType = types.get(a.attribute);
  if (!attType) throw new CommandError('INVALID_ARGS', `no ${edges ? 'edge' : 'node'} has the attribute ${a.attribute}`, { attributes: [...types.keys()].slice(0, 50) });
  const layer: Layer = { id: id ?? `layer-${Date.now().toString(36)}-${++layerCounter}`, operation, appliedTo: edges ? 'edges' : 'nodes', attribute: a.attribute, attType, hidden: false };
  if (operation === 'Filter') {
    const hasValues = a.values !== undefined;
    const hasRange = a.min !== undefined || a.max !== undefined;
    if (hasValues === hasRange) throw new CommandError('INVALID_ARGS', 'a filter takes either values or min/max');
    if (hasValues) {
      if (!Array.isArray(a.values) || a.values.length === 0 || !a.values.every((v): v is AttributeValue => typeof v === 'string' || typeof v === 'number')) {
        throw new CommandError('INVALID_ARGS', 'values must be a non-empty array of strings or numbers');
      }
      layer.values = a.values.map(String);
    } else {
      for (const k of ['min', 'max'] as const) {
        if (a[k] !== undefined && (typeof a[k] !== 'number' || !Number.isFinite(a[k]))) throw new CommandError('INVALID_ARGS', `${k} must be a number`);
      }
      if (attType !== 'number') throw new CommandError('INVALID_ARGS', `${a.attribute} is categorical; filter it by values`);
      if (typeof a.min === 'number' && typeof a.max === 'number' && a.min > a.max) throw new CommandError('INVALID_ARGS', 'min is greater than max');
      // Stored layers carry both bounds (EmbedView v1): an open end becomes the attribute's extreme.
      const [lo, hi] = edges ? numericRangeOf(edgeAttributes(model), a.attribute) : numericRange(model, a.attribute);
      layer.min = typeof a.min === 'number' ? a.min : lo;
      layer.max = typeof a.max === 'number' ? a.max : hi;
    }
  }
  return layer;
}
