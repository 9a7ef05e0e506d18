/**
 * Roll-up: nodes with the same value of an attribute collapse into one group node (at their centroid,
 * sized by member count), and edges between groups are summed (the `weight` attribute when it is a
 * number, else 1 per edge); edges inside a group disappear, edges to nodes without the attribute go to
 * the group. Hidden (filtered) nodes take no part. Expanding removes the groups again. Stored as a
 * read-only `Rollup` layer. No DOM.
 */
import type { Layer } from '@netloom/protocol';
import type { NetworkModel } from '../model.ts';

export interface RollupGroup {
  /** Node key of the group node in the drawing. */
  key: string;
  value: string;
  members: number[];
  x: number;
  y: number;
}

export interface RollupEdge {
  key: string;
  /** Group keys or node ids. */
  source: string;
  target: string;
  weight: number;
}

export interface Rollup {
  attribute: string;
  groups: RollupGroup[];
  /** Node index → group key (null: not rolled up). */
  groupOf: (string | null)[];
  edges: RollupEdge[];
}

export const groupKey = (value: string): string => `rollup:${value}`;

export function computeRollup(model: NetworkModel, attribute: string, hidden: Uint8Array, x: ArrayLike<number> = model.x, y: ArrayLike<number> = model.y): Rollup {
  const groupOf: (string | null)[] = new Array(model.ids.length).fill(null);
  const groups = new Map<string, RollupGroup>();
  for (let i = 0; i < model.ids.length; i++) {
    if (hidden[i]) continue;
    const v = model.attributes[i][attribute];
    if (v === undefined) continue;
    const value = String(v);
    const key = groupKey(value);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { key, value, members: [], x: 0, y: 0 }));
    g.members.push(i);
    groupOf[i] = key;
  }
  for (const g of groups.values()) {
    for (const i of g.members) {
      g.x += x[i];
      g.y += y[i];
    }
    g.x /= g.members.length;
    g.y /= g.members.length;
  }
  const sums = new Map<string, RollupEdge>();
  for (const e of model.edges) {
    if (hidden[e.source] || hidden[e.target]) continue;
    const gs = groupOf[e.source];
    const gt = groupOf[e.target];
    if (gs === null && gt === null) continue; // both ends stay: the original edge is drawn
    if (gs !== null && gs === gt) continue; // inside one group
    let s = gs ?? model.ids[e.source];
    let t = gt ?? model.ids[e.target];
    if (!model.directed && s > t) [s, t] = [t, s];
    const key = `rollup-edge:${s}\u0000${t}`;
    const w = typeof e.attributes.weight === 'number' ? e.attributes.weight : 1;
    const cur = sums.get(key);
    if (cur) cur.weight += w;
    else sums.set(key, { key, source: s, target: t, weight: w });
  }
  const byValue = (a: RollupGroup, b: RollupGroup) => b.members.length - a.members.length || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);
  return { attribute, groups: [...groups.values()].sort(byValue), groupOf, edges: [...sums.values()] };
}

let counter = 0;
export function rollupLayer(attribute: string): Layer {
  return { id: `rollup-${Date.now().toString(36)}-${++counter}`, operation: 'Rollup', attribute, hidden: false, readOnly: true, summary: `Rolled up by ${attribute}` };
}
