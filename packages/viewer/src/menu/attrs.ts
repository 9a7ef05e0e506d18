/**
 * Attributes the viewer adds to its model during a session (metric results, degree for templates):
 * written into the model's node attributes so color, size, filter, find and network.info see them like
 * any other attribute. Never sent back to the service. No DOM.
 */
import type { AttributeType, AttributeValue } from '@netloom/protocol';
import type { NetworkModel } from '../model.ts';

/** Sets `name` on every node listed in `values` (by node id; others lose the attribute). Returns its type. */
export function setNodeAttribute(model: NetworkModel, name: string, values: ReadonlyMap<string, AttributeValue> | Record<string, unknown>): AttributeType | null {
  const get = values instanceof Map ? (id: string) => values.get(id) : (id: string) => (values as Record<string, unknown>)[id];
  let type: AttributeType | null = null;
  for (let i = 0; i < model.ids.length; i++) {
    const v = get(model.ids[i]);
    const attrs = model.attributes[i];
    if (typeof v === 'number' && Number.isFinite(v)) {
      attrs[name] = v;
      type = type === null || type === 'number' ? 'number' : 'string';
    } else if ((typeof v === 'string' && v !== '') || typeof v === 'boolean') {
      attrs[name] = String(v);
      type = 'string';
    } else delete attrs[name];
  }
  // A number attribute with a string value somewhere is categorical: make every value text.
  if (type === 'string') for (const a of model.attributes) if (typeof a[name] === 'number') a[name] = String(a[name]);
  const types = new Map(model.nodeAttributeTypes);
  if (type === null) types.delete(name);
  else types.set(name, type);
  const sorted = [...types].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  model.nodeAttributeTypes.clear();
  for (const [k, t] of sorted) model.nodeAttributeTypes.set(k, t);
  return type;
}

/** Degree of every node (edges counted once per end; self-loops count twice), by node id. */
export function degrees(model: NetworkModel): Map<string, number> {
  const d = new Array<number>(model.ids.length).fill(0);
  for (const e of model.edges) {
    d[e.source]++;
    d[e.target]++;
  }
  return new Map(model.ids.map((id, i) => [id, d[i]]));
}

/** Attribute names by kind, `_` attributes included (usable everywhere but the details panel). */
export function attributesByType(model: NetworkModel): { categorical: string[]; numeric: string[] } {
  const categorical: string[] = [];
  const numeric: string[] = [];
  for (const [k, t] of model.nodeAttributeTypes) (t === 'number' ? numeric : categorical).push(k);
  return { categorical, numeric };
}

/** Distinct values of an attribute, most frequent first (ties by text), with counts. */
export function valueCounts(model: NetworkModel, attribute: string): { value: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const a of model.attributes) {
    const v = a[attribute];
    if (v !== undefined) counts.set(String(v), (counts.get(String(v)) ?? 0) + 1);
  }
  return [...counts].map(([value, count]) => ({ value, count })).sort((p, q) => q.count - p.count || (p.value < q.value ? -1 : p.value > q.value ? 1 : 0));
}

/** Min and max of a numeric attribute (null when no node has a number). */
export function numericRange(model: NetworkModel, attribute: string): [number, number] | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (const a of model.attributes) {
    const v = a[attribute];
    if (typeof v === 'number') {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  return lo <= hi ? [lo, hi] : null;
}

/** Distinct values from which a text attribute is not offered first (checkbox lists get long). */
export const FEW_VALUES = 20;

/** Attributes that name the nodes (labels): never the default of Filter, Color or Shapes. */
export function isLabelAttribute(model: NetworkModel, attribute: string): boolean {
  if (/^(name|label|title|id)$/i.test(attribute)) return true;
  const distinct = new Set<string>();
  let present = 0;
  for (const a of model.attributes) {
    const v = a[attribute];
    if (v === undefined) continue;
    present++;
    distinct.add(String(v));
  }
  return present > FEW_VALUES && distinct.size === present;
}

/**
 * The attribute a Filter (or Color) panel starts on: the first text attribute with few values (2 to
 * FEW_VALUES distinct) that does not name the nodes, else the first numeric one, else the first non-label one.
 */
export function defaultFilterAttribute(model: NetworkModel): string | null {
  const { categorical, numeric } = attributesByType(model);
  const visible = (n: string) => !n.startsWith('_');
  for (const name of categorical.filter(visible)) {
    if (isLabelAttribute(model, name)) continue;
    const distinct = valueCounts(model, name).length;
    if (distinct >= 2 && distinct <= FEW_VALUES) return name;
  }
  const firstNumeric = numeric.find(visible);
  if (firstNumeric) return firstNumeric;
  return categorical.find((n) => visible(n) && !isLabelAttribute(model, n)) ?? categorical[0] ?? null;
}

/** Equal-width histogram of a numeric attribute over [lo, hi]: `bins` counts. */
export function histogram(model: NetworkModel, attribute: string, bins: number, range?: [number, number]): { lo: number; hi: number; counts: number[] } {
  const r = range ?? numericRange(model, attribute) ?? [0, 0];
  const [lo, hi] = r;
  const counts = new Array<number>(bins).fill(0);
  const span = hi - lo;
  for (const a of model.attributes) {
    const v = a[attribute];
    if (typeof v !== 'number' || v < lo || v > hi) continue;
    const k = span > 0 ? Math.min(bins - 1, Math.floor(((v - lo) / span) * bins)) : 0;
    counts[k]++;
  }
  return { lo, hi, counts };
}
