/**
 * Weakly connected components: the one component search of the engine (connectedComponents,
 * k-clique communities for k = 2, the largest component of sampled closeness and diameter, the
 * per-component current-flow closeness).
 *
 * Definition: u and v are in one component when a path joins them ignoring arc direction (NetworkX
 * `weakly_connected_components`; `connected_components` on undirected graphs). `weakComponents` numbers
 * components in order of their smallest node index (the order NetworkX's generators yield them, node
 * order = input order); `rankComponents` renumbers them largest first, equal sizes in that order.
 * Arc filter: with `positive`, only arcs whose weight in it is > 0 join nodes (current flow: an arc of
 * zero conductance carries nothing).
 *
 * Deviations: none (labels only; the metric layer names them).
 *
 * References: Hopcroft & Tarjan 1973 doi:10.1145/362248.362272 (search-based components);
 * docs/metrics.md (connectedComponents).
 */
import type { Graph } from '../graph/csr.ts';

export interface Components {
  /** Component of every node. */
  readonly comp: Int32Array;
  readonly count: number;
  /** Nodes per component. */
  readonly sizes: Int32Array;
}

/** The arcs a component search follows: out-arcs, and in-arcs too when `directed`. */
export type ComponentGraph = Pick<Graph, 'n' | 'directed' | 'outOff' | 'outAdj' | 'inOff' | 'inAdj'>;

/**
 * Weakly connected components numbered by smallest node index. `positive` (parallel to `outAdj`;
 * undirected graphs only) keeps only the arcs of positive weight.
 */
export function weakComponents(g: ComponentGraph, positive?: Float64Array): Components {
  const n = g.n;
  const { outOff, outAdj, inOff, inAdj } = g;
  const both = g.directed;
  const comp = new Int32Array(n).fill(-1);
  const queue = new Int32Array(n);
  const sizes: number[] = [];
  for (let r = 0; r < n; r++) {
    if (comp[r] >= 0) continue;
    const c = sizes.length;
    let head = 0;
    let tail = 0;
    queue[tail++] = r;
    comp[r] = c;
    while (head < tail) {
      const v = queue[head++];
      for (let p = outOff[v], e = outOff[v + 1]; p < e; p++) {
        const w = outAdj[p];
        if (comp[w] < 0 && (!positive || positive[p] > 0)) {
          comp[w] = c;
          queue[tail++] = w;
        }
      }
      if (both) {
        for (let p = inOff[v], e = inOff[v + 1]; p < e; p++) {
          const w = inAdj[p];
          if (comp[w] < 0) {
            comp[w] = c;
            queue[tail++] = w;
          }
        }
      }
    }
    sizes.push(tail);
  }
  return { comp, count: sizes.length, sizes: Int32Array.from(sizes) };
}

/** The same components renumbered by rank: 0 is the largest, equal sizes keep their order. */
export function rankComponents(c: Components): Components {
  const order = Array.from({ length: c.count }, (_, i) => i);
  order.sort((a, b) => c.sizes[b] - c.sizes[a] || a - b);
  const rankOf = new Int32Array(c.count);
  const sizes = new Int32Array(c.count);
  for (let r = 0; r < c.count; r++) {
    rankOf[order[r]] = r;
    sizes[r] = c.sizes[order[r]];
  }
  const comp = c.comp.map((k) => rankOf[k]);
  return { comp, count: c.count, sizes };
}

/** The members of each component in increasing node order: component k is nodes[off[k] .. off[k+1]). */
export function componentMembers(c: Components): { off: Int32Array; nodes: Int32Array } {
  const off = new Int32Array(c.count + 1);
  for (let k = 0; k < c.count; k++) off[k + 1] = off[k] + c.sizes[k];
  const fill = off.slice(0, c.count);
  const nodes = new Int32Array(c.comp.length);
  for (let v = 0; v < c.comp.length; v++) nodes[fill[c.comp[v]]++] = v;
  return { off, nodes };
}

/** The largest component (the first of equal size) in increasing node order; empty for an empty graph. */
export function largestComponent(g: ComponentGraph): Int32Array {
  const c = weakComponents(g);
  if (c.count === 0) return new Int32Array(0);
  let best = 0;
  for (let k = 1; k < c.count; k++) if (c.sizes[k] > c.sizes[best]) best = k;
  const members = new Int32Array(c.sizes[best]);
  for (let v = 0, i = 0; v < g.n; v++) if (c.comp[v] === best) members[i++] = v;
  return members;
}
