/**
 * Priority queues of the Dijkstra kernels (brandes.ts, distance-sums.ts): an indexed binary min-heap
 * with ties broken by node index (fully deterministic pop order), and a monotone bucket queue for
 * small positive integer weights; `dijkstraQueue` picks one for a weight array.
 *
 * Definition: both pop the node of smallest key; keys may only decrease (Dijkstra's decrease-key).
 * Deviations from NetworkX: NetworkX pushes duplicate heap entries with an insertion counter, so among
 * equal distances it pops in push order; here the heap pops by node index and the bucket queue LIFO.
 * The kernels' results do not depend on that order (shortest-path DAGs use exact distance comparison;
 * zero-weight arcs see brandes.ts).
 *
 * References: Dijkstra 1959 doi:10.1007/BF01386390; Dial 1969 doi:10.1145/363269.363610 (buckets);
 * docs/metrics.md (weights as distances).
 */
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
