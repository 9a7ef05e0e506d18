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
 * recorded once, backward walk over DAG arcs only) on the graph relabelled for locality; the Dijkstra
 * variants share `DijkstraDag`, whose backward walk re-reads the out-rows (DAG membership is final only
 * after settling).
 *
 * Deviation: float sums run in another order than NetworkX's (results agree to ~1e-15 relative).
 *
 * References: Brandes 2001 doi:10.1080/0022250X.2001.9990249; Beamer, Asanović & Patterson 2012
 * doi:10.1109/SC.2012.50 (direction-optimising BFS); docs/metrics.md (betweennessCentrality,
 * loadCentrality).
 */
import type { Graph } from '../graph/csr.ts';
import { allNodes, localityOrder } from './sources.ts';
import { dijkstraQueue, type DijkstraQueue } from './queues.ts';
import { BfsDag, relabeled, type Adjacency } from './bfs-dag.ts';
import { forEachSource, type Checkpoint, type Progress } from './progress.ts';

/** Shortest-path betweenness dependencies, BFS when `g.weighted` is false, Dijkstra otherwise. */
export function brandes(g: Graph, sources: Int32Array, out: Float64Array, checkpoint?: Checkpoint, progress?: Progress): void {
  if (g.weighted) dijkstraSourceLoop(g, sources, out, false, checkpoint, progress);
  else bfsSourceLoop(g, sources, out, false, checkpoint, progress);
}

/** Load (Newman 2001 / Goh et al. 2001) dependencies as NetworkX `load_centrality`. */
export function load(g: Graph, sources: Int32Array, out: Float64Array, checkpoint?: Checkpoint, progress?: Progress): void {
  if (g.weighted) dijkstraSourceLoop(g, sources, out, true, checkpoint, progress);
  else bfsSourceLoop(g, sources, out, true, checkpoint, progress);
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
  forEachSource(src, checkpoint, progress, (s) => {
    dag.build(s, load);
    dag.accumulate(acc, load);
  });
  if (order) for (let i = 0; i < g.n; i++) out[order[i]] += acc[i];
}

/**
 * The Dijkstra shortest-path DAG of one source, for the weighted source loops of both metrics (the
 * forward pass and the backward walk written once; `load` selects the per-node quantities):
 * - betweenness: `sigma` = σ (number of shortest paths), δ(v) = σ(v)·Σ c(w), c(v) = (1 + δ(v)) / σ(v);
 * - load (see `dijkstraSourceLoop`): `sigma` = |pred(v)|, `fromSource` marks nodes with the
 *   source as a predecessor, θ(v) − 1 = Σ c(w), c(v) = (1 + Σ c(w)) / |pred(v)| or 0.
 */
class DijkstraDag {
  private readonly off: Int32Array;
  private readonly adj: Int32Array;
  private readonly wt: Float64Array;
  private readonly dist: Float64Array;
  /** Settle order, -1 = not settled. */
  private readonly rank: Int32Array;
  private readonly sigma: Float64Array;
  private readonly fromSource: Uint8Array;
  private readonly coef: Float64Array;
  private readonly order: Int32Array;
  private readonly touched: Int32Array;
  private readonly heap: DijkstraQueue;
  private settled = 0;
  private nTouched = 0;

  constructor(g: Graph) {
    const n = g.n;
    this.off = g.outOff;
    this.adj = g.outAdj;
    this.wt = g.outW;
    this.dist = new Float64Array(n).fill(Infinity);
    this.rank = new Int32Array(n).fill(-1);
    this.sigma = new Float64Array(n);
    this.fromSource = new Uint8Array(n);
    this.coef = new Float64Array(n);
    this.order = new Int32Array(n);
    this.touched = new Int32Array(n);
    this.heap = dijkstraQueue(n, g.outW);
  }

  /** Forward pass from `s`: distances, settle order, σ (`load`: predecessor counts and `fromSource`). */
  build(s: number, load: boolean): void {
    const { off, adj, wt, dist, rank, sigma, fromSource, order, touched, heap } = this;
    let cnt = 0;
    let nt = 0;
    dist[s] = 0;
    sigma[s] = load ? 0 : 1;
    touched[nt++] = s;
    heap.pushOrDecrease(s, 0);
    while (heap.size > 0) {
      const v = heap.pop();
      rank[v] = cnt;
      order[cnt++] = v;
      const dv = dist[v];
      const sv = load ? 1 : sigma[v];
      const isSrc = v === s ? 1 : 0;
      for (let p = off[v], e = off[v + 1]; p < e; p++) {
        const w = adj[p];
        if (rank[w] >= 0) continue;
        const nd = dv + wt[p];
        const dw = dist[w];
        if (nd < dw) {
          if (dw === Infinity) touched[nt++] = w;
          dist[w] = nd;
          sigma[w] = sv;
          fromSource[w] = isSrc;
          heap.pushOrDecrease(w, nd);
        } else if (nd === dw) {
          sigma[w] += sv;
        }
      }
    }
    this.settled = cnt;
    this.nTouched = nt;
  }

  /** Backward walk over the DAG of the last `build`: ADDS each node's dependency into `out`, then resets. */
  accumulate(out: Float64Array, load: boolean): void {
    const { off, adj, wt, dist, rank, sigma, fromSource, coef, order, touched } = this;
    // betweenness: the source (order[0]) has no dependency of its own
    const last = load ? 0 : 1;
    for (let i = this.settled - 1; i >= last; i--) {
      const v = order[i];
      const dv = dist[v];
      const rv = rank[v];
      let acc = 0;
      for (let p = off[v], e = off[v + 1]; p < e; p++) {
        const w = adj[p];
        if (rank[w] > rv && dv + wt[p] === dist[w]) acc += coef[w];
      }
      if (load) {
        out[v] += acc;
        // NetworkX skips nodes at distance 0 (`l > 0`) and nodes with the source as a predecessor
        coef[v] = fromSource[v] || dv === 0 ? 0 : (1 + acc) / sigma[v];
      } else {
        const delta = sigma[v] * acc;
        out[v] += delta;
        coef[v] = (1 + delta) / sigma[v];
      }
    }
    for (let i = 0; i < this.nTouched; i++) {
      const v = touched[i];
      dist[v] = Infinity;
      rank[v] = -1;
      sigma[v] = 0;
      fromSource[v] = 0;
      coef[v] = 0;
    }
  }
}

/**
 * Weighted betweenness (`load` false) or load (`load` true): one DijkstraDag forward pass and backward
 * walk per source.
 *
 * Load: NetworkX `_node_betweenness` gives every reached node θ = 1, then walks nodes by decreasing
 * distance and hands θ(v) / |pred(v)| to each predecessor, except that a node having the source among
 * its predecessors hands nothing on (the `if x == source: break` — the source is always first in its
 * predecessor list). Finally θ − 1 per reached node. Successor form: c(w) = θ(w)/|pred(w)|, or 0 when
 * the source is a predecessor of w; θ(v) = 1 + Σ_{w ∈ succ(v)} c(w).
 */
function dijkstraSourceLoop(g: Graph, sources: Int32Array, out: Float64Array, load: boolean, checkpoint?: Checkpoint, progress?: Progress): void {
  const dag = new DijkstraDag(g);
  forEachSource(sources, checkpoint, progress, (s) => {
    dag.build(s, load);
    dag.accumulate(out, load);
  });
}
