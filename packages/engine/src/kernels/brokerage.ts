/**
 * Gould–Fernandez brokerage counts: for every broker b, every in-neighbour a and out-neighbour c of b
 * with a ≠ c and no arc a→c, one role by the groups of a, b, c (see metrics/brokerage.ts).
 * Undirected graphs share in/out arrays, so every edge counts in both directions.
 * With `positiveOnly`, arcs of weight ≤ 0 are no ties. Self-loops must be absent.
 * Returns [coordinator, consultant, gatekeeper, representative, liaison, total] per node.
 */
import type { Graph } from '../graph/csr.ts';

export function brokerageCounts(g: Graph, group: Int32Array, positiveOnly: boolean, checkpoint: () => void): Float64Array[] {
  const n = g.n;
  const out = Array.from({ length: 6 }, () => new Float64Array(n));
  const [coord, cons, gate, rep, liai, tot] = out;
  const { outOff, outAdj, outW, inOff, inAdj, inW } = g;
  const stamp = new Int32Array(n).fill(-1); // stamp[c] === a ⇒ arc a→c exists (stale stamps stay true)
  for (let b = 0; b < n; b++) {
    if ((b & 1023) === 0) checkpoint();
    const gb = group[b];
    for (let p = inOff[b]; p < inOff[b + 1]; p++) {
      const a = inAdj[p];
      if (positiveOnly && !(inW[p] > 0)) continue;
      for (let q = outOff[a]; q < outOff[a + 1]; q++) if (!positiveOnly || outW[q] > 0) stamp[outAdj[q]] = a;
      const ga = group[a];
      for (let q = outOff[b]; q < outOff[b + 1]; q++) {
        const c = outAdj[q];
        if (c === a || stamp[c] === a) continue;
        if (positiveOnly && !(outW[q] > 0)) continue;
        const gc = group[c];
        if (ga === gb) {
          if (gb === gc) coord[b]++;
          else rep[b]++;
        } else if (gb === gc) gate[b]++;
        else if (ga === gc) cons[b]++;
        else liai[b]++;
        tot[b]++;
      }
    }
  }
  return out;
}
