/**
 * Ego focus: with one node selected, that node and its neighbours stay in full colour and the rest of
 * the drawing fades towards the background (issue 23, "node focus"). Neighbour lists come from an
 * adjacency index built on first use (O(edges), once). No DOM.
 */
import type { NetworkModel } from './model.ts';

/** How far a faded node or edge moves towards white (0 = unchanged, 1 = white). */
export const FADE = 0.82;
export const FADED_EDGE_COLOR = '#eef0f4';

export interface Adjacency {
  /** Neighbour node indices of each node (either direction, each neighbour once). */
  neighbours(i: number): number[];
  /** Edge indices incident to each node. */
  edgesOf(i: number): number[];
}

export function buildAdjacency(model: NetworkModel): Adjacency {
  const n = model.ids.length;
  const count = new Int32Array(n + 1);
  for (const e of model.edges) {
    count[e.source]++;
    if (e.target !== e.source) count[e.target]++;
  }
  const start = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) start[i + 1] = start[i] + count[i];
  const fill = start.slice(0, n);
  const edgeIdx = new Int32Array(start[n]);
  model.edges.forEach((e, k) => {
    edgeIdx[fill[e.source]++] = k;
    if (e.target !== e.source) edgeIdx[fill[e.target]++] = k;
  });
  return {
    edgesOf: (i) => Array.from(edgeIdx.subarray(start[i], start[i + 1])),
    neighbours: (i) => {
      const seen = new Set<number>();
      for (let p = start[i]; p < start[i + 1]; p++) {
        const e = model.edges[edgeIdx[p]];
        const o = e.source === i ? e.target : e.source;
        if (o !== i) seen.add(o);
      }
      return [...seen];
    },
  };
}

/** `#rrggbb` moved `t` of the way to white (other colour syntaxes are returned as the faded grey). */
export function fadeColor(hex: string, t = FADE): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return '#e3e6ec';
  return `#${m.slice(1).map((c) => Math.round(parseInt(c, 16) + (255 - parseInt(c, 16)) * t).toString(16).padStart(2, '0')).join('')}`;
}
