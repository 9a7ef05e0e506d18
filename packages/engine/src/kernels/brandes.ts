/**
 * Brandes-style source loops: shortest-path betweenness (Brandes 2001) and Newman/Goh load
 * (NetworkX `load_centrality`), unweighted (BFS) and weighted (Dijkstra, weights as distances).
 *
 * Contract (for splitting sources across worker threads):
 *   brandes(g, sources, out[, checkpoint]) / load(g, sources, out[, checkpoint])
 * ADD, for every source s in `sources`, the raw dependencies of that source into `out` (length g.n):
 *   betweenness: out[v] += δ_s(v) = Σ_{t ≠ s,v} σ_st(v)/σ_st   (v ≠ s; NetworkX `_accumulate_basic`)
 *   load:        out[v] += θ_s(v) − 1 over nodes reached from s (NetworkX `_node_betweenness`)
 * No scaling is applied (the metric layer rescales like NetworkX `_rescale`). Running on disjoint
 * subsets of sources and summing the `out` arrays equals one run over all sources (up to float
 * summation order). Scratch arrays are allocated once per call; nothing is allocated per source and
 * only touched entries are reset. `checkpoint` is called between sources (throws to cancel).
 *
 * Shortest-path DAG: arc v→w (out-arcs; undirected graphs: both directions) is on it when
 * d(w) = d(v) + w(v,w) with exact float comparison, like NetworkX; with zero-weight arcs only arcs
 * from an earlier-settled to a later-settled node count (keeps it acyclic; NetworkX's result then
 * depends on its heap order). Self-loops never lie on a shortest path.
 *
 * The backward pass uses the successor form: coefficient c(w) = (1 + δ(w)) / σ(w) is computed once per
 * node, and δ(v) = σ(v) · Σ_{w ∈ succ(v)} c(w). BFS variants record the DAG successor lists during the
 * forward pass (sequential Int32 writes, one slot per arc allocated once; the forward loop touches only
 * `dist`), then σ (or the predecessor counts of load) is summed along the recorded DAG in BFS order, and
 * the backward pass reads only DAG arcs; Dijkstra variants re-read the out-rows (DAG membership is final only after settling).
 */
import type { Graph } from '../graph/csr.ts';
import { dijkstraQueue, type Checkpoint } from './sssp.ts';

/** Shortest-path betweenness dependencies, BFS when `g.weighted` is false, Dijkstra otherwise. */
export function brandes(g: Graph, sources: Int32Array, out: Float64Array, checkpoint?: Checkpoint): void {
  if (g.weighted) brandesDijkstra(g, sources, out, checkpoint);
  else brandesBfs(g, sources, out, checkpoint);
}

/** Load (Newman 2001 / Goh et al. 2001) dependencies as NetworkX `load_centrality`. */
export function load(g: Graph, sources: Int32Array, out: Float64Array, checkpoint?: Checkpoint): void {
  if (g.weighted) loadDijkstra(g, sources, out, checkpoint);
  else loadBfs(g, sources, out, checkpoint);
}

export function brandesBfs(g: Graph, sources: Int32Array, out: Float64Array, checkpoint?: Checkpoint): void {
  const n = g.n;
  const off = g.outOff;
  const adj = g.outAdj;
  const dist = new Int32Array(n).fill(-1);
  const sigma = new Float64Array(n);
  const coef = new Float64Array(n);
  const queue = new Int32Array(n);
  // DAG successor lists in BFS order: the successors of queue[i] are dag[dagStart[i]..dagStart[i+1])
  const dagStart = new Int32Array(n + 1);
  const dag = new Int32Array(adj.length);
  for (let si = 0; si < sources.length; si++) {
    if (checkpoint) checkpoint();
    const s = sources[si];
    dist[s] = 0;
    sigma[s] = 1;
    queue[0] = s;
    let head = 0;
    let tail = 1;
    let k = 0;
    while (head < tail) {
      dagStart[head] = k;
      const v = queue[head++];
      const nd = dist[v] + 1;
      for (let p = off[v], e = off[v + 1]; p < e; p++) {
        const w = adj[p];
        let dw = dist[w];
        if (dw < 0) {
          dist[w] = dw = nd;
          queue[tail++] = w;
        }
        // branch-free: DAG arc iff dw === nd (both ≥ 0 here); this test is a coin flip for the CPU
        dag[k] = w;
        k += ((dw ^ nd) - 1) >>> 31;
      }
    }
    dagStart[tail] = k;
    // σ along the recorded DAG in BFS order (each node's predecessors come before it in the queue, and
    // in the same order as the forward pass would have added them): touches DAG arcs only, sequentially
    for (let i = 0; i < tail; i++) {
      const sv = sigma[queue[i]];
      for (let p = dagStart[i], e = dagStart[i + 1]; p < e; p++) sigma[dag[p]] += sv;
    }
    for (let i = tail - 1; i > 0; i--) {
      const v = queue[i];
      let acc = 0;
      for (let p = dagStart[i], e = dagStart[i + 1]; p < e; p++) acc += coef[dag[p]];
      const delta = sigma[v] * acc;
      out[v] += delta;
      coef[v] = (1 + delta) / sigma[v];
    }
    for (let i = 0; i < tail; i++) {
      const v = queue[i];
      dist[v] = -1;
      sigma[v] = 0;
      coef[v] = 0;
    }
  }
}

export function brandesDijkstra(g: Graph, sources: Int32Array, out: Float64Array, checkpoint?: Checkpoint): void {
  const n = g.n;
  const off = g.outOff;
  const adj = g.outAdj;
  const wt = g.outW;
  const dist = new Float64Array(n).fill(Infinity);
  const rank = new Int32Array(n).fill(-1); // settle order, -1 = not settled
  const sigma = new Float64Array(n);
  const coef = new Float64Array(n);
  const order = new Int32Array(n);
  const touched = new Int32Array(n);
  const heap = dijkstraQueue(n, wt);
  for (let si = 0; si < sources.length; si++) {
    if (checkpoint) checkpoint();
    const s = sources[si];
    let cnt = 0;
    let nt = 0;
    dist[s] = 0;
    sigma[s] = 1;
    touched[nt++] = s;
    heap.pushOrDecrease(s, 0);
    while (heap.size > 0) {
      const v = heap.pop();
      rank[v] = cnt;
      order[cnt++] = v;
      const dv = dist[v];
      const sv = sigma[v];
      for (let p = off[v], e = off[v + 1]; p < e; p++) {
        const w = adj[p];
        if (rank[w] >= 0) continue;
        const nd = dv + wt[p];
        const dw = dist[w];
        if (nd < dw) {
          if (dw === Infinity) touched[nt++] = w;
          dist[w] = nd;
          sigma[w] = sv;
          heap.pushOrDecrease(w, nd);
        } else if (nd === dw) {
          sigma[w] += sv;
        }
      }
    }
    for (let i = cnt - 1; i > 0; i--) {
      const v = order[i];
      const dv = dist[v];
      const rv = rank[v];
      let acc = 0;
      for (let p = off[v], e = off[v + 1]; p < e; p++) {
        const w = adj[p];
        if (rank[w] > rv && dv + wt[p] === dist[w]) acc += coef[w];
      }
      const delta = sigma[v] * acc;
      out[v] += delta;
      coef[v] = (1 + delta) / sigma[v];
    }
    for (let i = 0; i < nt; i++) {
      const v = touched[i];
      dist[v] = Infinity;
      rank[v] = -1;
      sigma[v] = 0;
      coef[v] = 0;
    }
  }
}

/*
 * Load: NetworkX `_node_betweenness` gives every reached node θ = 1, then walks nodes by decreasing
 * distance and hands θ(v) / |pred(v)| to each predecessor, except that a node having the source among
 * its predecessors hands nothing on (the `if x == source: break` — the source is always first in its
 * predecessor list). Finally θ − 1 per reached node. Successor form: c(w) = θ(w)/|pred(w)|, or 0 when
 * the source is a predecessor of w; θ(v) = 1 + Σ_{w ∈ succ(v)} c(w).
 */
export function loadBfs(g: Graph, sources: Int32Array, out: Float64Array, checkpoint?: Checkpoint): void {
  const n = g.n;
  const off = g.outOff;
  const adj = g.outAdj;
  const dist = new Int32Array(n).fill(-1);
  const npred = new Float64Array(n);
  const coef = new Float64Array(n);
  const queue = new Int32Array(n);
  const dagStart = new Int32Array(n + 1);
  const dag = new Int32Array(adj.length);
  for (let si = 0; si < sources.length; si++) {
    if (checkpoint) checkpoint();
    const s = sources[si];
    dist[s] = 0;
    queue[0] = s;
    let head = 0;
    let tail = 1;
    let k = 0;
    while (head < tail) {
      dagStart[head] = k;
      const v = queue[head++];
      const nd = dist[v] + 1;
      for (let p = off[v], e = off[v + 1]; p < e; p++) {
        const w = adj[p];
        let dw = dist[w];
        if (dw < 0) {
          dist[w] = dw = nd;
          queue[tail++] = w;
        }
        dag[k] = w;
        k += ((dw ^ nd) - 1) >>> 31;
      }
    }
    dagStart[tail] = k;
    for (let p = 0; p < k; p++) npred[dag[p]] += 1; // DAG in-degrees, from the recorded arcs only
    for (let i = tail - 1; i >= 0; i--) {
      const v = queue[i];
      let acc = 0;
      for (let p = dagStart[i], e = dagStart[i + 1]; p < e; p++) acc += coef[dag[p]];
      out[v] += acc; // θ(v) − 1
      // distance-1 nodes have the source as (only) predecessor: they hand nothing on
      coef[v] = dist[v] === 1 ? 0 : (1 + acc) / npred[v];
    }
    for (let i = 0; i < tail; i++) {
      const v = queue[i];
      dist[v] = -1;
      npred[v] = 0;
      coef[v] = 0;
    }
  }
}

export function loadDijkstra(g: Graph, sources: Int32Array, out: Float64Array, checkpoint?: Checkpoint): void {
  const n = g.n;
  const off = g.outOff;
  const adj = g.outAdj;
  const wt = g.outW;
  const dist = new Float64Array(n).fill(Infinity);
  const rank = new Int32Array(n).fill(-1);
  const npred = new Float64Array(n);
  const fromSource = new Uint8Array(n); // source is a predecessor
  const coef = new Float64Array(n);
  const order = new Int32Array(n);
  const touched = new Int32Array(n);
  const heap = dijkstraQueue(n, wt);
  for (let si = 0; si < sources.length; si++) {
    if (checkpoint) checkpoint();
    const s = sources[si];
    let cnt = 0;
    let nt = 0;
    dist[s] = 0;
    touched[nt++] = s;
    heap.pushOrDecrease(s, 0);
    while (heap.size > 0) {
      const v = heap.pop();
      rank[v] = cnt;
      order[cnt++] = v;
      const dv = dist[v];
      const isSrc = v === s ? 1 : 0;
      for (let p = off[v], e = off[v + 1]; p < e; p++) {
        const w = adj[p];
        if (rank[w] >= 0) continue;
        const nd = dv + wt[p];
        const dw = dist[w];
        if (nd < dw) {
          if (dw === Infinity) touched[nt++] = w;
          dist[w] = nd;
          npred[w] = 1;
          fromSource[w] = isSrc;
          heap.pushOrDecrease(w, nd);
        } else if (nd === dw) {
          npred[w] += 1;
        }
      }
    }
    for (let i = cnt - 1; i >= 0; i--) {
      const v = order[i];
      const dv = dist[v];
      const rv = rank[v];
      let acc = 0;
      for (let p = off[v], e = off[v + 1]; p < e; p++) {
        const w = adj[p];
        if (rank[w] > rv && dv + wt[p] === dist[w]) acc += coef[w];
      }
      out[v] += acc;
      // NetworkX skips nodes at distance 0 (`l > 0`) and nodes with the source as a predecessor
      coef[v] = fromSource[v] || dv === 0 ? 0 : (1 + acc) / npred[v];
    }
    for (let i = 0; i < nt; i++) {
      const v = touched[i];
      dist[v] = Infinity;
      rank[v] = -1;
      npred[v] = 0;
      fromSource[v] = 0;
      coef[v] = 0;
    }
  }
}
