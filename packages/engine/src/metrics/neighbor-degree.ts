/**
 * averageNeighborDegree — average degree of a node's neighbours.
 *
 * Definition: NetworkX 3.6 `average_neighbor_degree(G, source, target, weight)` on the graph of
 * docs/spec/decisions.md §4.1 (self-loops kept), directed iff the network is directed and `directed` is true:
 *   k_nn(i) = Σ_{j ∈ N_source(i)} w_ij · k_target(j) / s_source(i)
 * N_source = successors (`out`) or predecessors (`in`); k_target(j) = the unweighted `in`/`out` degree
 * of j; s_source(i) = the source degree of i, weighted (strength) when `metricEdgeWeights` is given;
 * w_ij = 1 without weights. A node with source degree 0 scores 0. Undirected graphs: N = neighbours,
 * degrees = `G.degree` (a self-loop counts twice in degree, its neighbour entry once); the source/target
 * settings do not apply there (docs/spec/api.md: they are for directed networks) and are ignored instead of being
 * refused as NetworkX does.
 * Extreme weights: k_nn does not depend on the unit of the weights, so weights above 2⁹⁰⁰ are rescaled by
 * a power of two first (metrics/weights.ts) — same values, no overflow; a weight too weak to survive the
 * rescaling next to them is 400 INVALID_ARGS naming the edge.
 * References: Barrat, Barthélemy, Pastor-Satorras & Vespignani (2004), PNAS 101(11):3747,
 * doi 10.1073/pnas.0400087101; NetworkX `average_neighbor_degree`.
 */
import { Type } from 'typebox';
import { buildGraph, weightAttribute } from '../graph/build.ts';
import type { NodeMetric } from './types.ts';
import { metricEdgeWeightsParam, directedParam } from './params.ts';
import { rescaledOrRefuse } from './weights.ts';

const inOut = (description: string) => Type.Union([Type.Literal('in'), Type.Literal('out')], { default: 'out', description });
const params = Type.Object(
  {
    averageNeighborDegreeSource: inOut('Directed networks: average over successors (`out`) or predecessors (`in`).'),
    averageNeighborDegreeTarget: inOut('Directed networks: neighbour degree used — out-degree (`out`) or in-degree (`in`).'),
    directed: directedParam,
    metricEdgeWeights: metricEdgeWeightsParam,
  },
  { additionalProperties: false },
);
interface Params {
  averageNeighborDegreeSource: 'in' | 'out';
  averageNeighborDegreeTarget: 'in' | 'out';
  directed: boolean;
  metricEdgeWeights?: boolean | string;
}

export const averageNeighborDegree: NodeMetric<Params> = {
  id: 'averageNeighborDegree',
  title: 'Average neighbour degree',
  kind: 'node',
  summary: 'Average degree of the neighbours of each node (weighted by edge weight with metricEdgeWeights).',
  params,
  attributes: ['Average Neighbor Degree'],
  run: (ctx) => {
    const weight = weightAttribute(ctx.params.metricEdgeWeights);
    const built = buildGraph(ctx.network, { directed: ctx.networkDirected && ctx.params.directed, weight });
    const { g } = rescaledOrRefuse(built, ctx.network, ctx.params.metricEdgeWeights, 'average neighbour degree', { low: 0, high: 2 ** 900 });
    const n = g.n;
    const src = g.directed && ctx.params.averageNeighborDegreeSource === 'in' ? 'in' : 'out';
    const tgt = g.directed && ctx.params.averageNeighborDegreeTarget === 'in' ? 'in' : 'out';
    const off = src === 'in' ? g.inOff : g.outOff;
    const adj = src === 'in' ? g.inAdj : g.outAdj;
    const w = src === 'in' ? g.inW : g.outW;
    const toff = tgt === 'in' ? g.inOff : g.outOff;
    const tadj = tgt === 'in' ? g.inAdj : g.outAdj;
    const tdeg = new Float64Array(n);
    for (let v = 0; v < n; v++) {
      let d = toff[v + 1] - toff[v];
      if (!g.directed) for (let p = toff[v]; p < toff[v + 1]; p++) if (tadj[p] === v) d++;
      tdeg[v] = d;
    }
    const res = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      let deg = 0;
      let num = 0;
      for (let p = off[i]; p < off[i + 1]; p++) {
        const j = adj[p];
        const x = weight === null ? 1 : w[p];
        deg += !g.directed && j === i ? 2 * x : x;
        num += x * tdeg[j];
      }
      res[i] = deg === 0 ? 0 : num / deg;
    }
    return { values: { 'Average Neighbor Degree': res } };
  },
};
