/**
 * Complex path length (Guilbeault & Centola 2021; NetworKit `ComplexPaths`): for every source s, a
 * threshold cascade from s plus T_s − 1 random neighbours (then random distance-2 nodes if s has too
 * few), activating any node with ≥ T_i active neighbours to the fixed point; then BFS from s over the
 * edges with at least one active endpoint. pl[s] = Σ_j d_C(s,j) / n (unreachable count 0), reach[s] =
 * number of active nodes. Input: symmetric CSR without self-loops, thresholds ≥ 1.
 */
import type { Rng } from './random.ts';

export function complexPaths(
  n: number,
  off: Int32Array,
  adj: Int32Array,
  threshold: Int32Array,
  rng: Rng,
  checkpoint: () => void,
): { pl: Float64Array; reach: Float64Array } {
  const pl = new Float64Array(n);
  const reach = new Float64Array(n);
  const active = new Int32Array(n).fill(-1); // active[x] === s
  const count = new Int32Array(n);
  const touched = new Int32Array(n);
  const queue = new Int32Array(n);
  const dist = new Int32Array(n).fill(-1);
  const cand = new Int32Array(n);
  const mark = new Int32Array(n).fill(-1);
  /** Activates `take` of the first `c` candidates for source s, drawn at random (a partial Fisher–Yates shuffle); the queue's new tail. */
  const seedFrom = (s: number, tail: number, c: number, take: number): number => {
    for (let i = 0; i < take; i++) {
      const j = i + rng.int(c - i);
      const t = cand[i];
      cand[i] = cand[j];
      cand[j] = t;
      active[cand[i]] = s;
      queue[tail++] = cand[i];
    }
    return tail;
  };
  for (let s = 0; s < n; s++) {
    if ((s & 63) === 0) checkpoint();
    // seeds
    let tail = 0;
    active[s] = s;
    queue[tail++] = s;
    let need = threshold[s] - 1;
    const deg = off[s + 1] - off[s];
    if (need > 0) {
      if (deg <= need) {
        for (let p = off[s]; p < off[s + 1]; p++) {
          active[adj[p]] = s;
          queue[tail++] = adj[p];
        }
        need -= deg;
        if (need > 0) {
          // distance-2 nodes
          let c = 0;
          mark[s] = s;
          for (let p = off[s]; p < off[s + 1]; p++) mark[adj[p]] = s;
          for (let p = off[s]; p < off[s + 1]; p++) {
            const x = adj[p];
            for (let q = off[x]; q < off[x + 1]; q++) {
              const y = adj[q];
              if (mark[y] !== s) {
                mark[y] = s;
                cand[c++] = y;
              }
            }
          }
          tail = seedFrom(s, tail, c, Math.min(need, c));
        }
      } else {
        let c = 0;
        for (let p = off[s]; p < off[s + 1]; p++) cand[c++] = adj[p];
        tail = seedFrom(s, tail, c, need);
      }
    }
    // cascade
    let head = 0;
    let nt = 0;
    while (head < tail) {
      const x = queue[head++];
      for (let p = off[x]; p < off[x + 1]; p++) {
        const y = adj[p];
        if (active[y] === s) continue;
        if (count[y] === 0) touched[nt++] = y;
        if (++count[y] >= threshold[y]) {
          active[y] = s;
          queue[tail++] = y;
        }
      }
    }
    reach[s] = tail;
    for (let i = 0; i < nt; i++) count[touched[i]] = 0;
    // BFS over edges with an active endpoint
    head = 0;
    tail = 0;
    queue[tail++] = s;
    dist[s] = 0;
    let sum = 0;
    while (head < tail) {
      const x = queue[head++];
      const ax = active[x] === s;
      const dx = dist[x] + 1;
      for (let p = off[x]; p < off[x + 1]; p++) {
        const y = adj[p];
        if (dist[y] >= 0 || (!ax && active[y] !== s)) continue;
        dist[y] = dx;
        sum += dx;
        queue[tail++] = y;
      }
    }
    for (let i = 0; i < tail; i++) dist[queue[i]] = -1;
    pl[s] = sum / n;
  }
  return { pl, reach };
}
