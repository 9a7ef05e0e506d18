/**
 * Bit-parallel multi-source breadth-first search (unweighted distances to targets): exact closeness
 * and harmonic sums, diameter, average shortest path length (metrics/paths.ts).
 *
 * Definition: for every target v and every source s of `sources` that reaches v, d(s, v) is the
 * number of arcs of a shortest path (out-arcs, or in-arcs when `reverse`); the kernel adds Σ d, the
 * number of such sources and Σ 1/d per target (see `TargetSums`).
 * Deviations: none (integer distances; sums of integers are exact below 2⁵³, the 1/d sums run in
 * another order than NetworkX's, ~1e-16 relative).
 * References: Akiba, Iwata & Yoshida 2013 doi:10.1145/2463676.2465315 (bit-parallel BFS);
 * docs/metrics.md (closenessCentrality, harmonicCentrality, diameter, avgShortestPathLength).
 */
import type { Graph } from '../graph/csr.ts';
import type { Checkpoint, Progress } from './progress.ts';

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
