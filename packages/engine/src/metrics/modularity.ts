/**
 * modularity (network metric) — modularity of the partition given by a node attribute.
 *
 * Definition: NetworkX 3.6 `modularity(G, communities, weight, resolution=1)` on the network converted
 * to undirected (docs/spec/decisions.md §4.1: reciprocal and parallel edges merged, weights summed with
 * `metricEdgeWeights`, else 1; self-loops kept: they count once in a community's internal weight and
 * twice in degree, as in NetworkX). Communities: nodes with equal values of node attribute `attribute`
 * (required), values compared as strings (1 and "1" are one community); a node without a value is a
 * community of its own.
 *   Q = Σ_c [ L_c / m − (D_c / 2m)² ],  L_c = internal edge weight, D_c = total degree, m = total weight.
 * A graph without edges (m = 0) scores 0.
 * References: Newman & Girvan (2004), doi 10.1103/PhysRevE.69.026113; NetworkX `modularity`.
 */
import { Type } from 'typebox';
import { buildGraph, weightAttribute } from '../graph/build.ts';
import type { NetworkMetric } from './types.ts';
import { metricEdgeWeightsParam } from './params.ts';
import { rescaled } from './weights.ts';

const params = Type.Object(
  {
    attribute: Type.String({ minLength: 1, description: 'Node attribute holding the community of each node.' }),
    metricEdgeWeights: metricEdgeWeightsParam,
  },
  { additionalProperties: false },
);
interface Params {
  attribute: string;
  metricEdgeWeights?: boolean | string;
}

export const modularity: NetworkMetric<Params> = {
  id: 'modularity',
  title: 'Modularity',
  kind: 'network',
  summary: 'Modularity (-1 to 1) of the communities given by a node attribute; directed networks converted to undirected.',
  params,
  run: (ctx) => {
    // modularity does not depend on the unit of the weights: rescaled by a power of two (exact), so
    // weights like 1e308 or 5e-324 cannot overflow the sums and squares (metrics/weights.ts)
    const { g } = rescaled(buildGraph(ctx.network, { directed: false, weight: weightAttribute(ctx.params.metricEdgeWeights) }), { always: true });
    const n = g.n;
    const comm = new Int32Array(n);
    const names = new Map<string, number>();
    let k = 0;
    for (let v = 0; v < n; v++) {
      const raw = ctx.network.nodes[v].attributes?.[ctx.params.attribute];
      if (raw === undefined || raw === null || raw === '') {
        comm[v] = k++;
        continue;
      }
      const key = String(raw);
      let c = names.get(key);
      if (c === undefined) {
        c = k++;
        names.set(key, c);
      }
      comm[v] = c;
    }
    const D = new Float64Array(k);
    let degSum = 0;
    let internal = 0;
    for (let u = 0; u < n; u++) {
      let d = 0;
      const cu = comm[u];
      for (let p = g.outOff[u]; p < g.outOff[u + 1]; p++) {
        const v = g.outAdj[p];
        const w = g.outW[p];
        if (v === u) {
          d += 2 * w;
          internal += w;
        } else {
          d += w;
          if (v > u && comm[v] === cu) internal += w;
        }
      }
      D[cu] += d;
      degSum += d;
    }
    if (degSum === 0) return 0;
    const m = degSum / 2;
    let q = internal / m;
    for (let c = 0; c < k; c++) q -= (D[c] * D[c]) / (degSum * degSum);
    return q;
  },
};
