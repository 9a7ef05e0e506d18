/**
 * Per-source distance sums (closeness, harmonic, eccentricity, sampled closeness pivots) by
 * breadth-first search (unweighted) or Dijkstra (weights as distances).
 *
 * Definition: from each source s, d(s, v) for every v reached along out-arcs (in-arcs when `reverse`:
 * distances TO s, NetworkX's closeness on `G.reverse()`); the kernels write or add the sums of
 * `DistanceSums` / `pivotDistanceSums` below.
 * Contract of every source-loop kernel (so the worker pool can split sources across threads):
 * - `sources` is any subset of node indices (each at most once); the kernel writes ONLY the entries of
 *   the per-source output arrays at those indices (`out[s]`), or, for additive outputs, ADDS into them.
 *   Running the kernel on disjoint subsets of sources and merging (copying per-source entries / summing
 *   additive arrays) gives exactly the result of one run over all sources.
 * - Scratch arrays are allocated once per call (O(n)); nothing is allocated inside the source loop and
 *   only the touched entries are reset between sources.
 * - `checkpoint` (optional) is called between sources; it throws to cancel (deadline). `progress`
 *   (optional, kernels/progress.ts) reports sources done of the call's sources, ending with (total, total).
 * - Weights are distances (`g.outW` / `g.inW`); Dijkstra compares floats exactly as NetworkX.
 * - Self-loops never change a shortest path; callers normally build graphs without them anyway.
 * Deviations: sums of float distances run in settle order, NetworkX's in dict order (~1e-16 relative).
 * References: Dijkstra 1959 doi:10.1007/BF01386390; Eppstein & Wang 2004 doi:10.7155/jgaa.00081
 * (pivot sampling); docs/metrics.md (closenessCentrality, harmonicCentrality).
 */
import type { Graph } from '../graph/csr.ts';
import { forEachSource, type Checkpoint, type Progress } from './progress.ts';
import { dijkstraQueue, type DijkstraQueue } from './queues.ts';

/**
 * Dijkstra from one source at a time, scratch allocated once: `run(s)` settles every node reachable
 * from s and returns how many; `order[0..count)` are they in settle order, `dist` their distances
 * (valid until the next `run`; entries of unreached nodes are Infinity).
 */
class DijkstraSearch {
  readonly dist: Float64Array;
  readonly order: Int32Array;
  private readonly done: Uint8Array;
  private readonly heap: DijkstraQueue;
  private readonly off: Int32Array;
  private readonly adj: Int32Array;
  private readonly wt: Float64Array;
  private count = 0;
  constructor(n: number, off: Int32Array, adj: Int32Array, wt: Float64Array) {
    this.off = off;
    this.adj = adj;
    this.wt = wt;
    this.dist = new Float64Array(n).fill(Infinity);
    this.order = new Int32Array(n);
    this.done = new Uint8Array(n);
    this.heap = dijkstraQueue(n, wt);
  }

  run(s: number): number {
    const { dist, order, done, heap, off, adj, wt } = this;
    for (let i = 0; i < this.count; i++) {
      const v = order[i];
      dist[v] = Infinity;
      done[v] = 0;
    }
    let cnt = 0;
    dist[s] = 0;
    heap.pushOrDecrease(s, 0);
    while (heap.size > 0) {
      const v = heap.pop();
      done[v] = 1;
      order[cnt++] = v;
      const dv = dist[v];
      for (let p = off[v], e = off[v + 1]; p < e; p++) {
        const w = adj[p];
        if (done[w]) continue;
        const nd = dv + wt[p];
        if (nd < dist[w]) {
          dist[w] = nd;
          heap.pushOrDecrease(w, nd);
        }
      }
    }
    this.count = cnt;
    return cnt;
  }
}

/** Per-source outputs of the distance-sum kernels; any may be omitted. Indexed by source. */
export interface DistanceSums {
  /** Σ d(s, v) over reached v (unweighted: hop counts; weighted: summed distances). */
  sum?: Float64Array;
  /** Number of nodes reached, the source included (NetworkX `len(sp)`). */
  reach?: Float64Array;
  /** Σ 1/d(s, v) over reached v ≠ s with d > 0 (harmonic). */
  inv?: Float64Array;
  /** max d(s, v) over reached v (eccentricity within the source's reach). */
  ecc?: Float64Array;
}

/**
 * Breadth-first distance sums from each source (unweighted). Per-source outputs (written at [s]).
 */
export function bfsDistanceSums(g: Graph, sources: Int32Array, reverse: boolean, out: DistanceSums, checkpoint?: Checkpoint, progress?: Progress): void {
  const n = g.n;
  const off = reverse ? g.inOff : g.outOff;
  const adj = reverse ? g.inAdj : g.outAdj;
  const dist = new Int32Array(n).fill(-1);
  const queue = new Int32Array(n);
  const { sum, reach, inv, ecc } = out;
  for (let si = 0; si < sources.length; si++) {
    if (checkpoint) checkpoint();
    if (progress) progress(si, sources.length);
    const s = sources[si];
    dist[s] = 0;
    queue[0] = s;
    let head = 0;
    let tail = 1;
    let total = 0;
    let harm = 0;
    // level-by-level: every node in queue[levelStart..levelEnd) has distance `level`
    let level = 0;
    let levelEnd = 1;
    while (head < tail) {
      if (head === levelEnd) {
        level++;
        levelEnd = tail;
      }
      const v = queue[head++];
      const nd = level + 1;
      for (let p = off[v], e = off[v + 1]; p < e; p++) {
        const w = adj[p];
        if (dist[w] < 0) {
          dist[w] = nd;
          queue[tail++] = w;
          total += nd;
          harm += 1 / nd;
        }
      }
    }
    const maxD = dist[queue[tail - 1]];
    for (let i = 0; i < tail; i++) dist[queue[i]] = -1;
    if (sum) sum[s] = total;
    if (reach) reach[s] = tail;
    if (inv) inv[s] = harm;
    if (ecc) ecc[s] = maxD;
  }
  if (progress) progress(sources.length, sources.length);
}

/**
 * Dijkstra distance sums from each source (weights as distances). Per-source outputs (written at [s]).
 * `inv` counts only nodes at positive distance (NetworkX harmonic skips d = 0).
 */
export function dijkstraDistanceSums(g: Graph, sources: Int32Array, reverse: boolean, out: DistanceSums, checkpoint?: Checkpoint, progress?: Progress): void {
  const search = reverse ? new DijkstraSearch(g.n, g.inOff, g.inAdj, g.inW) : new DijkstraSearch(g.n, g.outOff, g.outAdj, g.outW);
  const { dist, order } = search;
  const { sum, reach, inv, ecc } = out;
  forEachSource(sources, checkpoint, progress, (s) => {
    const cnt = search.run(s);
    let total = 0;
    let harm = 0;
    let maxD = 0;
    for (let i = 0; i < cnt; i++) {
      const dv = dist[order[i]];
      total += dv;
      if (dv > 0) harm += 1 / dv;
      if (dv > maxD) maxD = dv;
    }
    if (sum) sum[s] = total;
    if (reach) reach[s] = cnt;
    if (inv) inv[s] = harm;
    if (ecc) ecc[s] = maxD;
  });
}

/**
 * Pivot accumulation for sampled closeness: forward searches (out-arcs; BFS or Dijkstra by
 * `g.weighted`) from each pivot s. ADDS d(s, v) into sumAt[v] and 1 into cntAt[v] for every v ≠ s
 * reached (additive: disjoint pivot subsets may be summed); WRITES own[s] = Σ_v d(s, v) (per source).
 */
export function pivotDistanceSums(
  g: Graph,
  pivots: Int32Array,
  sumAt: Float64Array,
  cntAt: Float64Array,
  own: Float64Array,
  checkpoint?: Checkpoint,
  progress?: Progress,
): void {
  const n = g.n;
  const off = g.outOff;
  const adj = g.outAdj;
  if (!g.weighted) {
    const order = new Int32Array(n);
    const dist = new Int32Array(n).fill(-1);
    forEachSource(pivots, checkpoint, progress, (s) => {
      dist[s] = 0;
      order[0] = s;
      let head = 0;
      let tail = 1;
      let total = 0;
      while (head < tail) {
        const v = order[head++];
        const nd = dist[v] + 1;
        for (let p = off[v], e = off[v + 1]; p < e; p++) {
          const w = adj[p];
          if (dist[w] < 0) {
            dist[w] = nd;
            order[tail++] = w;
            total += nd;
            sumAt[w] += nd;
            cntAt[w] += 1;
          }
        }
      }
      own[s] = total;
      for (let i = 0; i < tail; i++) dist[order[i]] = -1;
    });
    return;
  }
  const search = new DijkstraSearch(n, off, adj, g.outW);
  const { dist } = search;
  forEachSource(pivots, checkpoint, progress, (s) => {
    const cnt = search.run(s);
    let total = 0;
    for (let i = 0; i < cnt; i++) {
      const v = search.order[i];
      if (v === s) continue;
      const dv = dist[v];
      total += dv;
      sumAt[v] += dv;
      cntAt[v] += 1;
    }
    own[s] = total;
  });
}
