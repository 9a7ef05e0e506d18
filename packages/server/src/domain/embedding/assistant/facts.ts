/**
 * Facts about a network that assistants and the default preset questions use: node labels (the `name`
 * attribute, else the id), attributes with their types and value counts, degrees. Deterministic.
 */
import type { NetworkJSON } from '@netloom/engine';

export interface AttributeFacts {
  name: string;
  type: 'number' | 'string';
  /** Nodes that have it. */
  count: number;
  /** Categorical values (strings, and numbers when few) with their node counts, most frequent first (ties by value). */
  values: { value: string | number; count: number }[];
  distinct: number;
  min?: number;
  max?: number;
}

export interface NetworkFacts {
  ids: string[];
  labels: string[];
  index: Map<string, number>;
  degree: number[];
  neighbors: number[][];
  edgeCount: number;
  attributes: AttributeFacts[];
}

const cache = new WeakMap<NetworkJSON, NetworkFacts>();

export function label(attrs: Record<string, unknown> | undefined, id: string): string {
  const n = attrs?.name;
  return typeof n === 'string' && n.trim() !== '' ? n : typeof n === 'number' ? String(n) : id;
}

export function networkFacts(json: NetworkJSON): NetworkFacts {
  const hit = cache.get(json);
  if (hit) return hit;
  const ids = json.nodes.map((n) => String(n.id));
  const labels = json.nodes.map((n, i) => label(n.attributes, ids[i]));
  const index = new Map(ids.map((id, i) => [id, i]));
  const degree = new Array<number>(ids.length).fill(0);
  const neighbors: Set<number>[] = ids.map(() => new Set<number>());
  let edgeCount = 0;
  for (const e of json.edges ?? []) {
    const s = index.get(String(e.source));
    const t = index.get(String(e.target));
    if (s === undefined || t === undefined) continue;
    edgeCount++;
    degree[s]++;
    degree[t]++;
    if (s !== t) {
      neighbors[s].add(t);
      neighbors[t].add(s);
    }
  }
  const byName = new Map<string, { type: 'number' | 'string'; count: number; counts: Map<string | number, number>; min: number; max: number }>();
  for (const n of json.nodes) {
    for (const [k, v] of Object.entries(n.attributes ?? {})) {
      if (typeof v !== 'string' && typeof v !== 'number') continue;
      let a = byName.get(k);
      if (!a) byName.set(k, (a = { type: typeof v === 'number' ? 'number' : 'string', count: 0, counts: new Map(), min: Infinity, max: -Infinity }));
      if (typeof v === 'string') a.type = 'string';
      a.count++;
      if (a.counts.size <= 1000) a.counts.set(v, (a.counts.get(v) ?? 0) + 1);
      if (typeof v === 'number') {
        a.min = Math.min(a.min, v);
        a.max = Math.max(a.max, v);
      }
    }
  }
  const attributes: AttributeFacts[] = [...byName.entries()]
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
    .map(([name, a]) => ({
      name,
      type: a.type,
      count: a.count,
      distinct: a.counts.size,
      values: [...a.counts.entries()].map(([value, count]) => ({ value, count })).sort((p, q) => q.count - p.count || String(p.value).localeCompare(String(q.value))),
      ...(a.type === 'number' && Number.isFinite(a.min) ? { min: a.min, max: a.max } : {}),
    }));
  const facts: NetworkFacts = { ids, labels, index, degree, neighbors: neighbors.map((s) => [...s].sort((p, q) => p - q)), edgeCount, attributes };
  cache.set(json, facts);
  return facts;
}

/** Visible (not `_`-prefixed) attributes other than `name`. */
export function visibleAttributes(f: NetworkFacts): AttributeFacts[] {
  return f.attributes.filter((a) => !a.name.startsWith('_') && a.name !== 'name');
}

/** A categorical attribute good for coloring: strings with 2..20 distinct values, most nodes covered. */
export function categoricalAttributes(f: NetworkFacts): AttributeFacts[] {
  return visibleAttributes(f).filter((a) => a.type === 'string' && a.distinct >= 2 && a.distinct <= 20);
}

export function numericAttributes(f: NetworkFacts): AttributeFacts[] {
  return visibleAttributes(f).filter((a) => a.type === 'number' && a.distinct >= 2);
}

/** Indices of the `k` largest values, ties by label then id (deterministic). */
export function topK(values: ArrayLike<number>, k: number, f: NetworkFacts): number[] {
  const idx = Array.from({ length: values.length }, (_, i) => i);
  idx.sort((a, b) => values[b] - values[a] || f.labels[a].localeCompare(f.labels[b]) || (f.ids[a] < f.ids[b] ? -1 : 1));
  return idx.slice(0, k);
}

/** The default preset questions of a network, from its attributes (used until organization admins set their own). */
export function defaultPresetQuestions(json: NetworkJSON): string[] {
  const f = networkFacts(json);
  const out = ['Who is most central?', 'Which communities are there?', 'What attributes do the nodes have?'];
  const cat = categoricalAttributes(f)[0];
  if (cat) {
    out.push(`How many nodes have ${cat.name} ${String(cat.values[0].value)}?`);
    out.push(`Color the nodes by ${cat.name}.`);
  }
  const num = numericAttributes(f)[0];
  if (num) out.push(`Size the nodes by ${num.name}.`);
  if (f.ids.length > 0) out.push(`Who is connected to ${f.labels[topK(f.degree, 1, f)[0]]}?`);
  return out;
}
