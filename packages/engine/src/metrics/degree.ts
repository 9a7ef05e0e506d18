/**
 * inDegree, outDegree, totalDegree — degree and strength.
 *
 * Definition: on the graph of docs/spec/decisions.md §4.1 (parallel edges merged; with weights, weights summed),
 * `In Degree` of v = number of distinct predecessors (NetworkX `G.in_degree(v)`), or with
 * `metricEdgeWeights` and `type: sum` the weighted in-degree (`G.in_degree(v, weight)`), and with
 * `type: average` that sum divided by the number of in-edges (mean weight; nodes without in-edges get 0).
 * Out Degree likewise on successors; `Total Degree` = in + out on directed graphs. Undirected graphs:
 * all three equal `G.degree(v)`; a self-loop counts twice there, as in NetworkX.
 * Extreme weights (metrics/weights.ts): a weighted degree beyond the largest Number (1e308 + 1e308) is
 * 400 INVALID_ARGS naming the largest edge weight; `average` is computed on rescaled weights, so a mean
 * of huge weights stays finite.
 * Deviations: `type` defaults to `sum` (docs/spec/api.md names no default); NetworkX answers `inf` on overflow.
 * References: NetworkX `DiGraph.in_degree`, `out_degree`, `Graph.degree`.
 */
import { Type } from 'typebox';
import { buildGraph, weightAttribute } from '../graph/build.ts';
import type { Graph } from '../graph/csr.ts';
import type { NodeMetric, MetricContext } from './types.ts';
import { metricEdgeWeightsParam } from './params.ts';
import { refuseOverflow, rescaledOrRefuse } from './weights.ts';

const params = Type.Object(
  {
    metricEdgeWeights: metricEdgeWeightsParam,
    type: Type.Union([Type.Literal('sum'), Type.Literal('average')], {
      default: 'sum',
      description: 'How edge weights combine when `metricEdgeWeights` is given: `sum` (strength) or `average` (mean weight).',
    }),
  },
  { additionalProperties: false },
);
interface Params {
  metricEdgeWeights?: boolean | string;
  type: 'sum' | 'average';
}

function rowStats(g: Graph, off: Int32Array, adj: Int32Array, w: Float64Array, u: number, loopTwice: boolean): [number, number] {
  let count = 0;
  let sum = 0;
  for (let p = off[u]; p < off[u + 1]; p++) {
    const k = loopTwice && adj[p] === u ? 2 : 1;
    count += k;
    sum += k * w[p];
  }
  return [count, sum];
}

function degrees(ctx: MetricContext<Params>, which: 'in' | 'out' | 'total'): Float64Array {
  const weight = weightAttribute(ctx.params.metricEdgeWeights);
  const useAvg = weight !== null && ctx.params.type === 'average';
  const built = buildGraph(ctx.network, { directed: ctx.networkDirected, weight });
  // a mean weight is linear in the weights and never above the largest: computed on rescaled weights
  const { g, unscale } = useAvg ? rescaledOrRefuse(built, ctx.network, ctx.params.metricEdgeWeights, 'the mean weight', { low: 0, high: 2 ** 900 }) : { g: built, unscale: (x: number) => x };
  const res = new Float64Array(g.n);
  for (let u = 0; u < g.n; u++) {
    let count = 0;
    let sum = 0;
    if (!g.directed) {
      [count, sum] = rowStats(g, g.outOff, g.outAdj, g.outW, u, true);
    } else {
      if (which !== 'out') {
        const [c, s] = rowStats(g, g.inOff, g.inAdj, g.inW, u, false);
        count += c;
        sum += s;
      }
      if (which !== 'in') {
        const [c, s] = rowStats(g, g.outOff, g.outAdj, g.outW, u, false);
        count += c;
        sum += s;
      }
    }
    res[u] = weight === null ? count : useAvg ? (count === 0 ? 0 : unscale(sum / count)) : sum;
  }
  if (weight !== null) refuseOverflow(ctx.network, ctx.params.metricEdgeWeights, res, 'weighted degree');
  return res;
}

function degreeMetric(id: string, title: string, attribute: string, which: 'in' | 'out' | 'total', summary: string): NodeMetric<Params> {
  return {
    id,
    title,
    kind: 'node',
    summary,
    params,
    attributes: [attribute],
    run: (ctx) => ({ values: { [attribute]: degrees(ctx, which) } }),
  };
}

export const inDegree = degreeMetric('inDegree', 'In-degree', 'In Degree', 'in', 'Number (or total/mean weight) of incoming edges.');
export const outDegree = degreeMetric('outDegree', 'Out-degree', 'Out Degree', 'out', 'Number (or total/mean weight) of outgoing edges.');
export const totalDegree = degreeMetric('totalDegree', 'Degree', 'Total Degree', 'total', 'In-degree plus out-degree (degree on undirected networks).');
