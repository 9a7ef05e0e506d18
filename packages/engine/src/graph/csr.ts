/**
 * Compressed sparse row graph: the one in-memory graph every kernel works on.
 *
 * Nodes are integer indices 0..n-1 in the order of `networkJSON.nodes`; `ids[i]` is the string form of
 * node i's id. Adjacency lists are sorted by neighbour index and hold each neighbour once: parallel edges
 * (and, when undirected, reciprocal edges) are merged and their weights summed (docs/spec/decisions.md §4.1).
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

/** An arc list to turn into CSR: parallel arrays of sources, targets and weights (`w` read only when summing weights). */
export interface ArcList {
  src: Int32Array;
  dst: Int32Array;
  w: Float64Array;
  length: number;
}

/** Counting-sort offsets: off[k]..off[k+1] is the slice of bucket k for the first `len` keys (0 ≤ key < n). */
function bucketOffsets(keys: Int32Array, len: number, n: number): Int32Array {
  const off = new Int32Array(n + 1);
  for (let i = 0; i < len; i++) off[keys[i] + 1]++;
  for (let k = 0; k < n; k++) off[k + 1] += off[k];
  return off;
}

/**
 * Builds sorted, merged CSR rows from arcs (each arc u->v listed once; the caller adds both directions
 * for undirected graphs). Weights of duplicate (u,v) arcs are summed (in arc order) when `sumWeights`,
 * else every merged arc weighs 1.
 *
 * Two stable counting sorts (by target, then by source) leave every row sorted by target with repeated
 * targets in arc order; a sequential pass merges them. O(n + arcs), no comparison sort, so hubs cost
 * no more than other nodes.
 */
export function arcsToCsr(n: number, arcs: ArcList, sumWeights: boolean): { off: Int32Array; adj: Int32Array; w: Float64Array } {
  const len = arcs.length;
  const { src, dst } = arcs;
  // pass 1: the sources (and weights) of the arcs in target order
  const byDst = bucketOffsets(dst, len, n);
  const src1 = new Int32Array(len);
  const w1 = sumWeights ? new Float64Array(len) : null;
  {
    const pos = byDst.slice(0, n);
    if (w1) {
      const aw = arcs.w;
      for (let i = 0; i < len; i++) {
        const p = pos[dst[i]]++;
        src1[p] = src[i];
        w1[p] = aw[i];
      }
    } else {
      for (let i = 0; i < len; i++) src1[pos[dst[i]]++] = src[i];
    }
  }
  // pass 2: by source; walking targets in increasing order keeps each row sorted
  const bySrc = bucketOffsets(src, len, n);
  const adj0 = new Int32Array(len);
  const w0 = w1 ? new Float64Array(len) : null;
  {
    const pos = bySrc.slice(0, n);
    for (let v = 0; v < n; v++) {
      const b = byDst[v + 1];
      if (w0) {
        for (let k = byDst[v]; k < b; k++) {
          const p = pos[src1[k]]++;
          adj0[p] = v;
          w0[p] = w1![k];
        }
      } else {
        for (let k = byDst[v]; k < b; k++) adj0[pos[src1[k]]++] = v;
      }
    }
  }
  // merge repeated (u, v) in place
  const off = new Int32Array(n + 1);
  let out = 0;
  for (let u = 0; u < n; u++) {
    off[u] = out;
    let last = -1;
    const b = bySrc[u + 1];
    for (let i = bySrc[u]; i < b; i++) {
      const v = adj0[i];
      if (v === last) {
        if (w0) w0[out - 1] += w0[i];
      } else {
        adj0[out] = v;
        if (w0) w0[out] = w0[i];
        out++;
        last = v;
      }
    }
  }
  off[n] = out;
  const adj = out === len ? adj0 : adj0.slice(0, out);
  const w = w0 ? (out === len ? w0 : w0.slice(0, out)) : new Float64Array(out).fill(1);
  return { off, adj, w };
}

/**
 * The undirected view of a directed graph's rows: node u's row is the sorted merge of its successor and
 * predecessor rows, each neighbour once; the value of a neighbour v is f(w_uv) + f(w_vu) when both
 * arcs exist (a self-loop is in both rows: f(w) + f(w)), else f of the one arc's weight. `recip[u]`
 * counts the neighbours present in both rows (reciprocated ties; a self-loop counts).
 * Used by directed clustering (s_uv = ŵ_uv + ŵ_vu) and structural holes (M = A + Aᵀ).
 */
export function mergedInOutRows(g: Graph, f: (w: number) => number): { off: Int32Array; adj: Int32Array; val: Float64Array; recip: Int32Array } {
  const n = g.n;
  const { outOff, outAdj, outW, inOff, inAdj, inW } = g;
  const off = new Int32Array(n + 1);
  const recip = new Int32Array(n);
  for (let u = 0; u < n; u++) {
    let a = outOff[u];
    const ae = outOff[u + 1];
    let b = inOff[u];
    const be = inOff[u + 1];
    let c = 0;
    while (a < ae || b < be) {
      if (b >= be || (a < ae && outAdj[a] < inAdj[b])) a++;
      else if (a >= ae || inAdj[b] < outAdj[a]) b++;
      else {
        a++;
        b++;
        recip[u]++;
      }
      c++;
    }
    off[u + 1] = off[u] + c;
  }
  const adj = new Int32Array(off[n]);
  const val = new Float64Array(off[n]);
  for (let u = 0; u < n; u++) {
    let a = outOff[u];
    const ae = outOff[u + 1];
    let b = inOff[u];
    const be = inOff[u + 1];
    let q = off[u];
    while (a < ae || b < be) {
      if (b >= be || (a < ae && outAdj[a] < inAdj[b])) {
        adj[q] = outAdj[a];
        val[q++] = f(outW[a++]);
      } else if (a >= ae || inAdj[b] < outAdj[a]) {
        adj[q] = inAdj[b];
        val[q++] = f(inW[b++]);
      } else {
        adj[q] = outAdj[a];
        val[q++] = f(outW[a++]) + f(inW[b++]);
      }
    }
  }
  return { off, adj, val, recip };
}
