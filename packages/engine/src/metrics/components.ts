/**
 * connectedComponents, kCliqueCommunities — component and clique-percolation memberships.
 *
 * connectedComponents: weakly connected components (NetworkX `weakly_connected_components`, or
 * `connected_components` on an undirected network). `Component` = `Component 1..K`, 1 = largest; equal
 * sizes ordered by their first node in input order (smallest node index). Isolated nodes are components
 * of their own. No parameters, weights unused.
 *
 * kCliqueCommunities: NetworkX 3.6 `k_clique_communities(G, k)` (k = `kCliqueCommunities`, integer ≥ 2,
 * default 2) on the network converted to undirected, self-loops ignored (as `find_cliques` ignores them):
 * unions of maximal cliques of ≥ k nodes chained by overlaps of ≥ k−1 nodes; k = 2 gives the connected
 * components that have at least one edge. One attribute per community, `K-Clique Community 1..K`, with
 * value `Yes` on its members (communities may overlap; nodes in none get nothing); 1 = largest, equal
 * sizes ordered by their sorted member index lists (lexicographic, i.e. first by the earliest member in
 * input order). `meta.communityCount` = K.
 * References: Palla, Derényi, Farkas & Vicsek (2005), Nature 435:814, doi 10.1038/nature03607;
 * Bron & Kerbosch (1973), doi 10.1145/362342.362367; Tomita, Tanaka & Takahashi (2006),
 * doi 10.1016/j.tcs.2006.06.015; NetworkX `k_clique_communities`, `find_cliques`.
 */
import { Type } from 'typebox';
import { buildGraph } from '../graph/build.ts';
import type { NodeMetric } from './types.ts';
import { rankComponents, weakComponents } from '../kernels/components.ts';
import { kCliqueCommunities as kcc } from '../kernels/cliques.ts';

export const connectedComponents: NodeMetric<Record<string, never>> = {
  id: 'connectedComponents',
  title: 'Connected components',
  kind: 'node',
  summary: 'Weakly connected component of each node (Component 1 = largest).',
  params: Type.Object({}, { additionalProperties: false }),
  attributes: ['Component'],
  run: (ctx) => {
    const g = buildGraph(ctx.network, { directed: false, weight: null, selfLoops: false });
    const { comp } = rankComponents(weakComponents(g));
    const values = new Array<string>(g.n);
    for (let v = 0; v < g.n; v++) values[v] = `Component ${comp[v] + 1}`;
    return { values: { Component: values } };
  },
};

const kParams = Type.Object(
  {
    kCliqueCommunities: Type.Integer({ minimum: 2, default: 2, description: 'Clique size k (at least 2).' }),
  },
  { additionalProperties: false },
);
interface KParams {
  kCliqueCommunities: number;
}

export const kCliqueCommunities: NodeMetric<KParams> = {
  id: 'kCliqueCommunities',
  title: 'k-clique communities',
  kind: 'node',
  summary: 'k-clique percolation communities; one attribute `K-Clique Community i` (value `Yes`) per community, 1 = largest.',
  params: kParams,
  attributes: ['K-Clique Community 1..K'],
  run: (ctx) => {
    const g = buildGraph(ctx.network, { directed: false, weight: null, selfLoops: false });
    const comms = kcc(g.n, g.outOff, g.outAdj, ctx.params.kCliqueCommunities, ctx.checkpoint);
    const values: Record<string, (string | undefined)[]> = {};
    for (let c = 0; c < comms.length; c++) {
      const arr = new Array<string | undefined>(g.n);
      for (const v of comms[c]) arr[v] = 'Yes';
      values[`K-Clique Community ${c + 1}`] = arr;
    }
    return { values, meta: { communityCount: comms.length } };
  },
};
