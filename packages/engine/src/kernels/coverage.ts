/**
 * Greedy maximum coverage on a graph: coverage of v = {v} ∪ out-neighbours (if `useOut`) ∪ in-neighbours
 * (if `useIn`). Picks candidates by most newly covered nodes, ties by higher total degree (out + in row
 * lengths; undirected: row length), then lower index; stops at `maxCount` picks, when covered/n ≥
 * `targetFraction`, or when no candidate adds anything. Lazy greedy: cached gains only decrease, so the
 * heap top whose re-evaluated gain equals its cached gain is the exact greedy choice. Self-loops must be absent.
 */
import type { Graph } from '../graph/csr.ts';

export interface CoverageResult {
  chosen: number[];
  covered: number;
}

export function greedyCoverage(
  g: Graph,
  candidate: Uint8Array,
  useOut: boolean,
  useIn: boolean,
  opts: { maxCount: number; targetFraction: number; checkpoint: () => void },
): CoverageResult {
  const n = g.n;
  const { outOff, outAdj, inOff, inAdj } = g;
  const covered = new Uint8Array(n);
  const seen = new Int32Array(n).fill(-1);
  const deg = new Float64Array(n);
  for (let v = 0; v < n; v++) deg[v] = outOff[v + 1] - outOff[v] + (g.directed ? inOff[v + 1] - inOff[v] : 0);
  // exact number of not-yet-covered nodes in v's coverage (distinct: out ∪ in may overlap)
  let stamp = 0;
  // the nodes of row v of (off, adj) that are neither covered nor seen in this evaluation (stamp st); marks them seen
  const uncoveredInRow = (off: Int32Array, adj: Int32Array, v: number, st: number): number => {
    let k = 0;
    for (let p = off[v]; p < off[v + 1]; p++) {
      const x = adj[p];
      if (seen[x] !== st) {
        seen[x] = st;
        if (!covered[x]) k++;
      }
    }
    return k;
  };
  const gainOf = (v: number): number => {
    const st = ++stamp;
    seen[v] = st;
    let k = covered[v] ? 0 : 1;
    if (useOut) k += uncoveredInRow(outOff, outAdj, v, st);
    if (useIn) k += uncoveredInRow(inOff, inAdj, v, st);
    return k;
  };
  const cover = (v: number): number => {
    let k = 0;
    const take = (x: number) => {
      if (!covered[x]) {
        covered[x] = 1;
        k++;
      }
    };
    take(v);
    if (useOut) for (let p = outOff[v]; p < outOff[v + 1]; p++) take(outAdj[p]);
    if (useIn) for (let p = inOff[v]; p < inOff[v + 1]; p++) take(inAdj[p]);
    return k;
  };
  // max-heap of candidates by (gain desc, degree desc, index asc)
  const gain = new Float64Array(n);
  const heap: number[] = [];
  for (let v = 0; v < n; v++) {
    if (!candidate[v]) continue;
    gain[v] = gainOf(v);
    heap.push(v);
  }
  const better = (a: number, b: number) => gain[a] > gain[b] || (gain[a] === gain[b] && (deg[a] > deg[b] || (deg[a] === deg[b] && a < b)));
  const down = (i: number) => {
    const len = heap.length;
    while (true) {
      const l = 2 * i + 1;
      if (l >= len) return;
      let c = l;
      if (l + 1 < len && better(heap[l + 1], heap[l])) c = l + 1;
      if (!better(heap[c], heap[i])) return;
      const t = heap[c];
      heap[c] = heap[i];
      heap[i] = t;
      i = c;
    }
  };
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  const chosen: number[] = [];
  let total = 0;
  while (heap.length > 0 && chosen.length < opts.maxCount && !(total / n >= opts.targetFraction)) {
    const v = heap[0];
    const exact = gainOf(v);
    if (exact !== gain[v]) {
      gain[v] = exact;
      down(0);
      continue;
    }
    if (exact === 0) break;
    chosen.push(v);
    total += cover(v);
    const last = heap.pop() as number;
    if (heap.length > 0) {
      heap[0] = last;
      down(0);
    }
    if ((chosen.length & 255) === 0) opts.checkpoint();
  }
  return { chosen, covered: total };
}
