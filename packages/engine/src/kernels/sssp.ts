/**
 * Single-source shortest-path kernels on CSR graphs: an indexed binary min-heap on typed arrays for
 * Dijkstra, and distance-sum kernels (closeness, harmonic, average shortest path length, eccentricity).
 *
 * Contract of every source-loop kernel here (so the worker pool can split sources across threads):
 * - `sources` is any subset of node indices (each at most once); the kernel writes ONLY the entries of
 *   the per-source output arrays at those indices (`out[s]`), or, for additive outputs, ADDS into them.
 *   Running the kernel on disjoint subsets of sources and merging (copying per-source entries / summing
 *   additive arrays) gives exactly the result of one run over all sources.
 * - Scratch arrays are allocated once per call (O(n)); nothing is allocated inside the source loop and
 *   only the touched entries are reset between sources.
 * - `checkpoint` (optional) is called between sources; it throws to cancel (deadline). `progress`
 *   (optional, kernels/progress.ts) reports sources done of the call's sources, ending with (total, total).
 * - Which adjacency is walked is chosen by the caller: `reverse = true` walks in-arcs (distances TO the
 *   source, NetworkX's closeness on `G.reverse()`); on undirected graphs both are the same arrays.
 * - Weights are distances (`g.outW` / `g.inW`); Dijkstra variants compare floats exactly as NetworkX.
 * - Self-loops never change a shortest path; callers normally build graphs without them anyway.
 */
import type { Graph } from '../graph/csr.ts';
import type { Progress } from './progress.ts';

export type Checkpoint = () => void;

/**
 * Indexed binary min-heap over node indices with Float64 keys (decrease-key supported). Ties are broken
 * by node index, so the pop order is fully deterministic. Capacity n, allocated once.
 */
export class IndexedHeap {
  readonly heap: Int32Array;
  readonly pos: Int32Array; // position in heap, -1 = absent
  readonly key: Float64Array;
  size = 0;
  constructor(n: number) {
    this.heap = new Int32Array(Math.max(1, n));
    this.pos = new Int32Array(Math.max(1, n)).fill(-1);
    this.key = new Float64Array(Math.max(1, n));
  }
  /** Insert v with key k, or lower its key to k (k must not be larger than the current key). */
  pushOrDecrease(v: number, k: number): void {
    const key = this.key;
    key[v] = k;
    let i = this.pos[v];
    if (i < 0) {
      i = this.size++;
    }
    // sift up
    const heap = this.heap;
    const pos = this.pos;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const u = heap[p];
      const ku = key[u];
      if (ku < k || (ku === k && u < v)) break;
      heap[i] = u;
      pos[u] = i;
      i = p;
    }
    heap[i] = v;
    pos[v] = i;
  }
  /** Removes and returns the node with the smallest key (heap must not be empty). */
  pop(): number {
    const heap = this.heap;
    const pos = this.pos;
    const key = this.key;
    const top = heap[0];
    pos[top] = -1;
    const n = --this.size;
    if (n > 0) {
      const v = heap[n];
      const k = key[v];
      let i = 0;
      while (true) {
        let c = 2 * i + 1;
        if (c >= n) break;
        let cv = heap[c];
        let ck = key[cv];
        const r = c + 1;
        if (r < n) {
          const rv = heap[r];
          const rk = key[rv];
          if (rk < ck || (rk === ck && rv < cv)) {
            c = r;
            cv = rv;
            ck = rk;
          }
        }
        if (k < ck || (k === ck && v < cv)) break;
        heap[i] = cv;
        pos[cv] = i;
        i = c;
      }
      heap[i] = v;
      pos[v] = i;
    }
    return top;
  }
}

/**
 * Monotone bucket queue (Dial 1969) for Dijkstra when every arc weight is an integer in 1..C: C + 1
 * circular buckets (rounded up to a power of two) of doubly linked node lists, O(1) push/decrease and
 * amortised O(1) pop. Keys must never be below the last popped key (true in Dijkstra). Pop order
 * within one distance is LIFO, not by node index: callers use it only with positive weights, where
 * every shortest-path predecessor of a node has a strictly smaller distance, so results do not depend
 * on the order among equal distances.
 */
export class BucketQueue {
  readonly key: Float64Array;
  private readonly head: Int32Array;
  private readonly next: Int32Array;
  private readonly prev: Int32Array;
  private readonly inQ: Uint8Array;
  private readonly mask: number;
  private cur = 0;
  size = 0;
  constructor(n: number, maxWeight: number) {
    let nb = 1;
    while (nb < maxWeight + 1) nb <<= 1;
    this.mask = nb - 1;
    this.head = new Int32Array(nb).fill(-1);
    const cap = Math.max(1, n);
    this.next = new Int32Array(cap);
    this.prev = new Int32Array(cap);
    this.inQ = new Uint8Array(cap);
    this.key = new Float64Array(cap);
  }
  pushOrDecrease(v: number, k: number): void {
    const head = this.head;
    const next = this.next;
    const prev = this.prev;
    if (this.inQ[v]) {
      // unlink from the old bucket
      const p = prev[v];
      const x = next[v];
      if (p >= 0) next[p] = x;
      else head[this.key[v] & this.mask] = x;
      if (x >= 0) prev[x] = p;
    } else {
      this.inQ[v] = 1;
      // a new search (empty queue) may start below the last popped key; within one search keys never do
      if (this.size++ === 0 && k < this.cur) this.cur = k;
    }
    this.key[v] = k;
    const b = k & this.mask;
    const h = head[b];
    next[v] = h;
    prev[v] = -1;
    if (h >= 0) prev[h] = v;
    head[b] = v;
  }
  pop(): number {
    const head = this.head;
    const mask = this.mask;
    let c = this.cur;
    while (head[c & mask] < 0) c++;
    const b = c & mask;
    const v = head[b];
    this.cur = this.key[v];
    const x = this.next[v];
    head[b] = x;
    if (x >= 0) this.prev[x] = -1;
    this.inQ[v] = 0;
    this.size--;
    return v;
  }
}

/** The priority queue both kinds of Dijkstra kernels use. */
export type DijkstraQueue = IndexedHeap | BucketQueue;

/**
 * A bucket queue when every weight is an integer ≥ 1 and ≤ 4096 and all distances stay below 2^31,
 * else the indexed binary heap (zero or fractional weights: exact float ties need the heap's order).
 */
export function dijkstraQueue(n: number, weights: Float64Array): DijkstraQueue {
  let max = 0;
  for (let i = 0; i < weights.length; i++) {
    const w = weights[i];
    if (!(w >= 1 && w <= 4096 && Math.floor(w) === w)) return new IndexedHeap(n);
    if (w > max) max = w;
  }
  if (weights.length === 0 || max * Math.max(1, n - 1) >= 2 ** 31) return new IndexedHeap(n);
  return new BucketQueue(n, max);
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
  const n = g.n;
  const off = reverse ? g.inOff : g.outOff;
  const adj = reverse ? g.inAdj : g.outAdj;
  const wt = reverse ? g.inW : g.outW;
  const dist = new Float64Array(n).fill(Infinity);
  const done = new Uint8Array(n);
  const order = new Int32Array(n);
  const heap = dijkstraQueue(n, wt);
  const { sum, reach, inv, ecc } = out;
  for (let si = 0; si < sources.length; si++) {
    if (checkpoint) checkpoint();
    if (progress) progress(si, sources.length);
    const s = sources[si];
    let cnt = 0;
    let total = 0;
    let harm = 0;
    let maxD = 0;
    dist[s] = 0;
    heap.pushOrDecrease(s, 0);
    while (heap.size > 0) {
      const v = heap.pop();
      done[v] = 1;
      order[cnt++] = v;
      const dv = dist[v];
      total += dv;
      if (dv > 0) harm += 1 / dv;
      if (dv > maxD) maxD = dv;
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
    for (let i = 0; i < cnt; i++) {
      const v = order[i];
      dist[v] = Infinity;
      done[v] = 0;
    }
    if (sum) sum[s] = total;
    if (reach) reach[s] = cnt;
    if (inv) inv[s] = harm;
    if (ecc) ecc[s] = maxD;
  }
  if (progress) progress(sources.length, sources.length);
}

/** The sources of shard `index` of `count`: every count-th one (strided, so costly nodes spread out). */
export function shardSources(sources: Int32Array, index: number, count: number): Int32Array {
  if (count <= 1) return sources;
  const out = new Int32Array(Math.max(0, Math.ceil((sources.length - index) / count)));
  for (let i = index, j = 0; i < sources.length; i += count, j++) out[j] = sources[i];
  return out;
}

/**
 * Shard `index` of `count` of an ordered source list in whole blocks of `block` consecutive sources,
 * blocks dealt round-robin: keeps the batches of the bit-parallel BFS (32 neighbouring sources) intact.
 */
export function shardBlocks(sources: Int32Array, index: number, count: number, block = 32): Int32Array {
  if (count <= 1) return sources;
  const parts: Int32Array[] = [];
  let len = 0;
  for (let b = index * block; b < sources.length; b += count * block) {
    const part = sources.subarray(b, Math.min(sources.length, b + block));
    parts.push(part);
    len += part.length;
  }
  const out = new Int32Array(len);
  let k = 0;
  for (const part of parts) {
    out.set(part, k);
    k += part.length;
  }
  return out;
}

/** All node indices 0..n-1 as an Int32Array (the "every source" subset). */
export function allNodes(n: number): Int32Array {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}

/**
 * Weakly connected components (union of out- and in-arcs). Returns the component index of every node,
 * components numbered in order of their smallest node index (NetworkX's `connected_components` order).
 */
export function weakComponents(g: Graph): { comp: Int32Array; count: number; sizes: Int32Array } {
  const n = g.n;
  const comp = new Int32Array(n).fill(-1);
  const stack = new Int32Array(n);
  const sizesTmp: number[] = [];
  let count = 0;
  for (let r = 0; r < n; r++) {
    if (comp[r] >= 0) continue;
    let top = 0;
    stack[top++] = r;
    comp[r] = count;
    let size = 0;
    while (top > 0) {
      const v = stack[--top];
      size++;
      for (let p = g.outOff[v], e = g.outOff[v + 1]; p < e; p++) {
        const w = g.outAdj[p];
        if (comp[w] < 0) {
          comp[w] = count;
          stack[top++] = w;
        }
      }
      if (g.directed) {
        for (let p = g.inOff[v], e = g.inOff[v + 1]; p < e; p++) {
          const w = g.inAdj[p];
          if (comp[w] < 0) {
            comp[w] = count;
            stack[top++] = w;
          }
        }
      }
    }
    sizesTmp.push(size);
    count++;
  }
  return { comp, count, sizes: Int32Array.from(sizesTmp) };
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
  const order = new Int32Array(n);
  if (!g.weighted) {
    const dist = new Int32Array(n).fill(-1);
    for (let si = 0; si < pivots.length; si++) {
      if (checkpoint) checkpoint();
      if (progress) progress(si, pivots.length);
      const s = pivots[si];
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
    }
    if (progress) progress(pivots.length, pivots.length);
    return;
  }
  const wt = g.outW;
  const dist = new Float64Array(n).fill(Infinity);
  const done = new Uint8Array(n);
  const heap = dijkstraQueue(n, wt);
  for (let si = 0; si < pivots.length; si++) {
    if (checkpoint) checkpoint();
    if (progress) progress(si, pivots.length);
    const s = pivots[si];
    let cnt = 0;
    let total = 0;
    dist[s] = 0;
    heap.pushOrDecrease(s, 0);
    while (heap.size > 0) {
      const v = heap.pop();
      done[v] = 1;
      order[cnt++] = v;
      const dv = dist[v];
      if (v !== s) {
        total += dv;
        sumAt[v] += dv;
        cntAt[v] += 1;
      }
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
    own[s] = total;
    for (let i = 0; i < cnt; i++) {
      dist[order[i]] = Infinity;
      done[order[i]] = 0;
    }
  }
  if (progress) progress(pivots.length, pivots.length);
}

/** Per-TARGET additive outputs of the bit-parallel BFS; any may be omitted. Indexed by target. */
export interface TargetSums {
  /** += Σ_s d(s, v) over the sources s reaching v. */
  sum?: Float64Array;
  /** += number of sources reaching v (v itself counts when it is a source, as NetworkX `len(sp)`). */
  reach?: Float64Array;
  /** += Σ_{s ≠ v} 1 / d(s, v). */
  inv?: Float64Array;
}

function popcount32(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * Bit-parallel multi-source BFS (unweighted): 32 sources advance together, one bit each, through
 * frontier lists (push style; a node is expanded once per level at which any source of its batch
 * reaches it, so small-world graphs cost a fraction of 32 separate BFS).
 *
 * Contract: searches follow out-arcs (in-arcs when `reverse`) from every node of `sources`; for each
 * target v reached, ADDS into `out` (per target, additive over disjoint source subsets — split sources
 * across workers and sum the arrays). Returns the largest distance found (max eccentricity of the
 * sources within their reach; 0 if none), so a caller can combine diameters by max.
 * Distances TO v from sources = forward searches accumulated at v: with all nodes as sources on
 * out-arcs, `sum[v]` is Σ_u d(u, v), i.e. NetworkX closeness's incoming distance sum.
 * Sources are processed in the given order in batches of 32; `checkpoint` is called between batches.
 */
export function bitBfsTargetSums(g: Graph, sources: Int32Array, reverse: boolean, out: TargetSums, checkpoint?: Checkpoint, progress?: Progress): number {
  const n = g.n;
  const off = reverse ? g.inOff : g.outOff;
  const adj = reverse ? g.inAdj : g.outAdj;
  const visited = new Int32Array(n);
  const cur = new Int32Array(n);
  const nxt = new Int32Array(n);
  let active = new Int32Array(n);
  let nextList = new Int32Array(n);
  const touched = new Int32Array(n);
  const { sum, reach, inv } = out;
  let maxLevel = 0;
  for (let b0 = 0; b0 < sources.length; b0 += 32) {
    if (checkpoint) checkpoint();
    if (progress) progress(b0, sources.length);
    const b1 = Math.min(sources.length, b0 + 32);
    let nActive = 0;
    let nTouched = 0;
    for (let i = b0; i < b1; i++) {
      const s = sources[i];
      const bit = 1 << (i - b0);
      visited[s] = bit;
      cur[s] = bit;
      active[nActive++] = s;
      touched[nTouched++] = s;
      if (reach) reach[s] += 1;
    }
    let level = 0;
    while (nActive > 0) {
      level++;
      let nNext = 0;
      for (let i = 0; i < nActive; i++) {
        const u = active[i];
        const f = cur[u];
        cur[u] = 0;
        for (let p = off[u], e = off[u + 1]; p < e; p++) {
          const v = adj[p];
          const x = f & ~visited[v];
          if (x !== 0) {
            const y = nxt[v];
            if (y === 0) nextList[nNext++] = v;
            nxt[v] = y | x;
          }
        }
      }
      if (nNext === 0) break;
      maxLevel = level > maxLevel ? level : maxLevel;
      const invLevel = 1 / level;
      for (let i = 0; i < nNext; i++) {
        const v = nextList[i];
        const x = nxt[v];
        nxt[v] = 0;
        if (visited[v] === 0) touched[nTouched++] = v;
        visited[v] |= x;
        cur[v] = x;
        const c = popcount32(x);
        if (sum) sum[v] += c * level;
        if (reach) reach[v] += c;
        if (inv) inv[v] += c * invLevel;
      }
      const t = active;
      active = nextList;
      nextList = t;
      nActive = nNext;
    }
    for (let i = 0; i < nTouched; i++) {
      const v = touched[i];
      visited[v] = 0;
      cur[v] = 0;
    }
  }
  if (progress) progress(sources.length, sources.length);
  return maxLevel;
}

/**
 * Orders nodes by breadth-first discovery (out- and in-arcs, roots in index order), so that batches of
 * consecutive sources are close to each other and share frontier work in `bitBfsTargetSums`.
 */
export function localityOrder(g: Graph, nodes: Int32Array): Int32Array {
  const n = g.n;
  const want = new Uint8Array(n);
  for (const v of nodes) want[v] = 1;
  const seen = new Uint8Array(n);
  const queue = new Int32Array(n);
  const res = new Int32Array(nodes.length);
  let k = 0;
  for (const r of nodes) {
    if (seen[r]) continue;
    seen[r] = 1;
    let head = 0;
    let tail = 0;
    queue[tail++] = r;
    while (head < tail) {
      const v = queue[head++];
      if (want[v]) res[k++] = v;
      for (let p = g.outOff[v]; p < g.outOff[v + 1]; p++) {
        const w = g.outAdj[p];
        if (!seen[w]) {
          seen[w] = 1;
          queue[tail++] = w;
        }
      }
      if (g.directed) {
        for (let p = g.inOff[v]; p < g.inOff[v + 1]; p++) {
          const w = g.inAdj[p];
          if (!seen[w]) {
            seen[w] = 1;
            queue[tail++] = w;
          }
        }
      }
    }
  }
  return res;
}
