/**
 * Compressed sparse row graph: the one in-memory graph every kernel works on.
 *
 * Nodes are integer indices 0..n-1 in the order of `networkJSON.nodes`; `ids[i]` is the string form of
 * node i's id. Adjacency lists are sorted by neighbour index and hold each neighbour once: parallel edges
 * (and, when undirected, reciprocal edges) are merged and their weights summed (DECISIONS.md §4.1).
 *
 * Undirected graphs: `out*` and `in*` are the same arrays; every edge {u,v} with u != v appears in both
 * lists, a self-loop {u,u} appears once in u's list (as NetworkX's G[u][u]).
 * Directed graphs: `out*` lists successors, `in*` lists predecessors; a self-loop appears in both.
 * Without weights every merged edge weighs 1 (`weighted` is false).
 */
export interface Graph {
  readonly n: number;
  readonly directed: boolean;
  readonly weighted: boolean;
  /** Number of distinct edges after merging (undirected: unordered pairs, self-loops included). */
  readonly m: number;
  /** Number of self-loops kept in the adjacency. */
  readonly selfLoops: number;
  readonly ids: string[];
  readonly outOff: Int32Array;
  readonly outAdj: Int32Array;
  readonly outW: Float64Array;
  readonly inOff: Int32Array;
  readonly inAdj: Int32Array;
  readonly inW: Float64Array;
}

/** An arc list to turn into CSR: parallel arrays of sources, targets and weights. */
export interface ArcList {
  src: Int32Array;
  dst: Int32Array;
  w: Float64Array;
  length: number;
}

/**
 * Builds sorted, merged CSR rows from arcs (each arc u->v listed once; the caller adds both directions
 * for undirected graphs). Weights of duplicate (u,v) arcs are summed when `sumWeights`, else set to 1.
 */
export function arcsToCsr(n: number, arcs: ArcList, sumWeights: boolean): { off: Int32Array; adj: Int32Array; w: Float64Array } {
  const count = new Int32Array(n + 1);
  for (let i = 0; i < arcs.length; i++) count[arcs.src[i] + 1]++;
  for (let i = 0; i < n; i++) count[i + 1] += count[i];
  const pos = count.slice(0, n);
  const adj0 = new Int32Array(arcs.length);
  const w0 = new Float64Array(arcs.length);
  for (let i = 0; i < arcs.length; i++) {
    const p = pos[arcs.src[i]]++;
    adj0[p] = arcs.dst[i];
    w0[p] = arcs.w[i];
  }
  // sort each row by neighbour index (insertion sort for short rows, index sort for long ones), then merge
  const off = new Int32Array(n + 1);
  const adj = new Int32Array(arcs.length);
  const w = new Float64Array(arcs.length);
  let out = 0;
  let order = new Int32Array(0);
  for (let u = 0; u < n; u++) {
    const a = count[u];
    const b = count[u + 1];
    off[u] = out;
    const len = b - a;
    if (len === 0) continue;
    if (len <= 32) {
      for (let i = a + 1; i < b; i++) {
        const v = adj0[i];
        const x = w0[i];
        let j = i - 1;
        while (j >= a && adj0[j] > v) {
          adj0[j + 1] = adj0[j];
          w0[j + 1] = w0[j];
          j--;
        }
        adj0[j + 1] = v;
        w0[j + 1] = x;
      }
      for (let i = a; i < b; i++) {
        if (out > off[u] && adj[out - 1] === adj0[i]) {
          if (sumWeights) w[out - 1] += w0[i];
        } else {
          adj[out] = adj0[i];
          w[out] = sumWeights ? w0[i] : 1;
          out++;
        }
      }
    } else {
      if (order.length < len) order = new Int32Array(len);
      const idx = order.subarray(0, len);
      for (let i = 0; i < len; i++) idx[i] = a + i;
      idx.sort((p, q) => adj0[p] - adj0[q] || p - q);
      for (let k = 0; k < len; k++) {
        const i = idx[k];
        if (out > off[u] && adj[out - 1] === adj0[i]) {
          if (sumWeights) w[out - 1] += w0[i];
        } else {
          adj[out] = adj0[i];
          w[out] = sumWeights ? w0[i] : 1;
          out++;
        }
      }
    }
  }
  off[n] = out;
  return { off, adj: adj.slice(0, out), w: w.slice(0, out) };
}

/** Degree helpers used by many kernels. */
export function outDegree(g: Graph, u: number): number {
  return g.outOff[u + 1] - g.outOff[u];
}
export function inDegree(g: Graph, u: number): number {
  return g.inOff[u + 1] - g.inOff[u];
}
