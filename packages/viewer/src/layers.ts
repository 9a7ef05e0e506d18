/**
 * Layers as reducers: the layer list → display arrays (hidden flag, color, size per node). Filter
 * layers AND together; the last visible Color layer and the last visible Size layer win. Layers with
 * `hidden: true` (switched off) and read-only layers of other kinds do nothing here. No DOM.
 */
import type { AttributeValue, Layer } from '@netloom/protocol';
import type { NetworkModel } from './model.ts';
import { CommandError } from './errors.ts';

export const DEFAULT_NODE_COLOR = '#5b6b8c';
export const MISSING_COLOR = '#c9ced8';
export const DEFAULT_NODE_SIZE = 6;
export const MIN_SIZE = 3;
export const MAX_SIZE = 18;
export const PALETTE = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#46bcc6', '#f032e6', '#9a6324', '#008080', '#800000', '#808000', '#000075'];

export interface Display {
  hidden: Uint8Array;
  color: string[];
  size: Float32Array;
  visibleCount: number;
  /** Legend entries of the active color layer. */
  legend: { attribute: string; entries: { label: string; color: string }[] } | null;
}

function numericRange(model: NetworkModel, attribute: string): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const a of model.attributes) {
    const v = a[attribute];
    if (typeof v === 'number') {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  return [lo, hi];
}

function categories(model: NetworkModel, attribute: string): string[] {
  const counts = new Map<string, number>();
  for (const a of model.attributes) {
    const v = a[attribute];
    if (v !== undefined) counts.set(String(v), (counts.get(String(v)) ?? 0) + 1);
  }
  // Most frequent first, then by name: stable palette assignment.
  return [...counts].sort((p, q) => q[1] - p[1] || (p[0] < q[0] ? -1 : p[0] > q[0] ? 1 : 0)).map(([k]) => k);
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

export function computeDisplay(model: NetworkModel, layers: readonly Layer[]): Display {
  const n = model.ids.length;
  const hidden = new Uint8Array(n);
  const color = new Array<string>(n).fill(DEFAULT_NODE_COLOR);
  const size = new Float32Array(n).fill(DEFAULT_NODE_SIZE);
  let legend: Display['legend'] = null;
  const active = layers.filter((l) => !l.hidden && !l.readOnly && l.attribute !== undefined);
  for (const layer of active) {
    if (layer.operation !== 'Filter') continue;
    const attr = layer.attribute as string;
    const values = layer.values ? new Set(layer.values.map(String)) : null;
    const lo = layer.min ?? -Infinity;
    const hi = layer.max ?? Infinity;
    for (let i = 0; i < n; i++) {
      const v = model.attributes[i][attr];
      const keep = v === undefined ? false : values ? values.has(String(v)) : typeof v === 'number' && v >= lo && v <= hi;
      if (!keep) hidden[i] = 1;
    }
  }
  const colorLayer = active.filter((l) => l.operation === 'Color').at(-1);
  if (colorLayer) {
    const attr = colorLayer.attribute as string;
    if (model.nodeAttributeTypes.get(attr) === 'number') {
      const [lo, hi] = numericRange(model, attr);
      for (let i = 0; i < n; i++) {
        const v = model.attributes[i][attr];
        color[i] = typeof v === 'number' ? lerpColor(hi > lo ? (v - lo) / (hi - lo) : 0.5) : MISSING_COLOR;
      }
      legend = { attribute: attr, entries: [{ label: String(lo), color: lerpColor(0) }, { label: String(hi), color: lerpColor(1) }] };
    } else {
      const cats = categories(model, attr);
      const map = new Map(cats.map((c, k) => [c, k < PALETTE.length ? PALETTE[k] : MISSING_COLOR]));
      for (let i = 0; i < n; i++) {
        const v = model.attributes[i][attr];
        color[i] = v === undefined ? MISSING_COLOR : (map.get(String(v)) ?? MISSING_COLOR);
      }
      legend = { attribute: attr, entries: cats.slice(0, PALETTE.length).map((c) => ({ label: c, color: map.get(c) as string })) };
      if (cats.length > PALETTE.length) legend.entries.push({ label: 'other', color: MISSING_COLOR });
    }
  }
  const sizeLayer = active.filter((l) => l.operation === 'Size').at(-1);
  if (sizeLayer) {
    const attr = sizeLayer.attribute as string;
    if (model.nodeAttributeTypes.get(attr) === 'number') {
      const [lo, hi] = numericRange(model, attr);
      for (let i = 0; i < n; i++) {
        const v = model.attributes[i][attr];
        size[i] = typeof v === 'number' ? MIN_SIZE + (hi > lo ? (v - lo) / (hi - lo) : 0.5) * (MAX_SIZE - MIN_SIZE) : MIN_SIZE;
      }
    } else {
      const cats = categories(model, attr);
      const rank = new Map(cats.map((c, k) => [c, k]));
      for (let i = 0; i < n; i++) {
        const v = model.attributes[i][attr];
        const r = v === undefined ? undefined : rank.get(String(v));
        size[i] = r === undefined ? MIN_SIZE : MAX_SIZE - (cats.length > 1 ? (r / (cats.length - 1)) * (MAX_SIZE - MIN_SIZE) : 0);
      }
    }
  }
  let visibleCount = 0;
  for (let i = 0; i < n; i++) if (!hidden[i]) visibleCount++;
  return { hidden, color, size, visibleCount, legend };
}

let layerCounter = 0;

/** Validates the arguments of layers.filter/color/size and builds the layer (EmbedView v1 fields). */
export function makeLayer(model: NetworkModel, operation: 'Filter' | 'Color' | 'Size', args: unknown, id?: string): Layer {
  if (typeof args !== 'object' || args === null) throw new CommandError('INVALID_ARGS', `layers.${operation.toLowerCase()} takes an object`);
  const a = args as Record<string, unknown>;
  const allowed = operation === 'Filter' ? ['attribute', 'values', 'min', 'max'] : ['attribute'];
  for (const k of Object.keys(a)) if (!allowed.includes(k)) throw new CommandError('INVALID_ARGS', `unknown argument ${k}`);
  if (typeof a.attribute !== 'string' || a.attribute === '') throw new CommandError('INVALID_ARGS', 'attribute must be a non-empty string');
  const attType = model.nodeAttributeTypes.get(a.attribute);
  if (!attType) throw new CommandError('INVALID_ARGS', `no node has the attribute ${a.attribute}`, { attributes: [...model.nodeAttributeTypes.keys()].slice(0, 50) });
  const layer: Layer = { id: id ?? `layer-${Date.now().toString(36)}-${++layerCounter}`, operation, appliedTo: 'nodes', attribute: a.attribute, attType, hidden: false };
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
      const [lo, hi] = numericRange(model, a.attribute);
      layer.min = typeof a.min === 'number' ? a.min : lo;
      layer.max = typeof a.max === 'number' ? a.max : hi;
    }
  }
  return layer;
}
