/**
 * coreNumber — k-core number of each node.
 *
 * Definition: NetworkX 3.6 `core_number(G)` on the graph of docs/spec/decisions.md §4.1 without self-loops
 * (NetworkX refuses them; §4.1 drops them), in the network's own direction. On a directed network
 * NetworkX uses degree = in + out and all neighbours, so a reciprocated pair counts twice: the result is
 * the core number of the undirected multigraph with one edge per (merged) arc. Unweighted.
 * Algorithm: Batagelj & Zaversnik (2003) bucket algorithm, O(n + m), arXiv cs/0310049 (kernels/kcore.ts).
 * References: Seidman (1983), doi 10.1016/0378-8733(83)90028-X; NetworkX `core_number`.
 */
import { Type } from 'typebox';
import { buildGraph } from '../graph/build.ts';
import type { NodeMetric } from './types.ts';
import { coreNumbers } from '../kernels/kcore.ts';

const params = Type.Object({}, { additionalProperties: false });

export const coreNumber: NodeMetric<Record<string, never>> = {
  id: 'coreNumber',
  title: 'Core number (k-core)',
  kind: 'node',
  summary: 'Core number (largest k of a k-core containing the node); self-loops ignored.',
  params,
  attributes: ['Core Number'],
  run: (ctx) => {
    const g = buildGraph(ctx.network, { directed: ctx.networkDirected, weight: null, selfLoops: false });
    const core = g.directed
      ? coreNumbers(g.n, g.outOff, g.outAdj, g.inOff, g.inAdj, ctx.checkpoint)
      : coreNumbers(g.n, g.outOff, g.outAdj, null, null, ctx.checkpoint);
    return { values: { 'Core Number': core } };
  },
};
