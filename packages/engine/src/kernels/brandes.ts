/**
 * Brandes-style source loops: shortest-path betweenness (Brandes 2001) and Newman/Goh load
 * (NetworkX `load_centrality`), unweighted (BFS) and weighted (Dijkstra, weights as distances).
 *
 * Contract (for splitting sources across worker threads):
 *   brandes(g, sources, out[, checkpoint[, progress]]) / load(g, sources, out[, checkpoint[, progress]])
 * ADD, for every source s in `sources`, the raw dependencies of that source into `out` (length g.n):
 *   betweenness: out[v] += δ_s(v) = Σ_{t ≠ s,v} σ_st(v)/σ_st   (v ≠ s; NetworkX `_accumulate_basic`)
 *   load:        out[v] += θ_s(v) − 1 over nodes reached from s (NetworkX `_node_betweenness`)
 * No scaling is applied (the metric layer rescales like NetworkX `_rescale`). Running on disjoint
 * subsets of sources and summing the `out` arrays equals one run over all sources (up to float
 * summation order). Scratch arrays are allocated once per call; nothing is allocated per source and
 * only touched entries are reset. `checkpoint` is called between sources (throws to cancel);
 * `progress(done, total)` (kernels/progress.ts) reports sources done of `sources.length`.
 *
 * Shortest-path DAG: arc v→w (out-arcs; undirected graphs: both directions) is on it when
 * d(w) = d(v) + w(v,w) with exact float comparison, like NetworkX; with zero-weight arcs only arcs
 * from an earlier-settled to a later-settled node count (keeps it acyclic; NetworkX's result then
 * depends on its heap order). Self-loops never lie on a shortest path.
 *
 * The backward pass uses the successor form: coefficient c(w) = (1 + δ(w)) / σ(w) is computed once per
 * node, and δ(v) = σ(v) · Σ_{w ∈ succ(v)} c(w). BFS variants (betweenness and load alike) build and walk
 * the DAG with `BfsDag` (bfs-dag.ts: level-synchronous, direction-optimising forward pass, DAG arcs
 * recorded once, backward walk over DAG arcs only) on the graph relabelled for locality; Dijkstra
 * variants re-read the out-rows (DAG membership is final only after settling).
 *
 * Deviation: float sums run in another order than NetworkX's (results agree to ~1e-15 relative).
 *
 * References: Brandes 2001 doi:10.1080/0022250X.2001.9990249; Beamer, Asanović & Patterson 2012
 * doi:10.1109/SC.2012.50 (direction-optimising BFS); docs/metrics.md (betweennessCentrality,
 * loadCentrality).
 */
import type { Graph } from '../graph/csr.ts';
import { allNodes, dijkstraQueue, localityOrder, type Checkpoint } from './sssp.ts';
import { BfsDag, relabeled, type Adjacency } from './bfs-dag.ts';
import type { Progress } from './progress.ts';

/** Shortest-path betweenness dependencies, BFS when `g.weighted` is false, Dijkstra otherwise. */
export function brandes(g: Graph, sources: Int32Array, out: Float64Array, checkpoint?: Checkpoint, progress?: Progress): void {
  if (g.weighted) brandesDijkstra(g, sources, out, checkpoint, progress);
  else bfsSourceLoop(g, sources, out, false, checkpoint, progress);
  if (progress) progress(sources.length, sources.length);
}

/** Load (Newman 2001 / Goh et al. 2001) dependencies as NetworkX `load_centrality`. */
export function load(g: Graph, sources: Int32Array, out: Float64Array, checkpoint?: Checkpoint, progress?: Progress): void {
  if (g.weighted) loadDijkstra(g, sources, out, checkpoint, progress);
  else bfsSourceLoop(g, sources, out, true, checkpoint, progress);
  if (progress) progress(sources.length, sources.length);
}

/** Relabel the graph for locality (bfs-dag.ts `relabeled`) from this many sources: it costs about one search. */
const RELABEL_MIN_SOURCES = 16;

/** Unweighted betweenness (`load` false) or load (`load` true): one BfsDag forward pass and backward walk per source. */
function bfsSourceLoop(g: Graph, sources: Int32Array, out: Float64Array, load: boolean, checkpoint?: Checkpoint, progress?: Progress): void {
  let adj: Adjacency = g;
  let src = sources;
  let acc = out;
  let order: Int32Array | null = null;
  if (sources.length >= RELABEL_MIN_SOURCES && g.n > 1) {
    order = localityOrder(g, allNodes(g.n));
    adj = relabeled(g, order);
    const id = new Int32Array(g.n);
    for (let i = 0; i < g.n; i++) id[order[i]] = i;
    src = sources.map((s) => id[s]);
    acc = new Float64Array(g.n);
  }
  const dag = new BfsDag(adj);
  for (let si = 0; si < src.length; si++) {
    if (checkpoint) checkpoint();
    if (progress) progress(si, src.length);
    dag.build(src[si], load);
    dag.accumulate(acc, load);
  }
  if (order) for (let i = 0; i < g.n; i++) out[order[i]] += acc[i];
}

function brandesDijkstra(g: Graph, sources: Int32Array, out: Float64Array, checkpoint?: Checkpoint, progress?: Progress): void {
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
    if (progress) progress(si, sources.length);
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
function loadDijkstra(g: Graph, sources: Int32Array, out: Float64Array, checkpoint?: Checkpoint, progress?: Progress): void {
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
    if (progress) progress(si, sources.length);
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
