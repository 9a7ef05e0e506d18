/**
 * clustering — local clustering coefficient.
 *
 * Definition: NetworkX 3.6 `clustering(G, weight)` on the graph of docs/spec/decisions.md §4.1 without self-loops
 * (§4.1: clustering ignores them), directed iff the network is directed and `directed` is true.
 * With ŵ_uv = (w_uv / max w)^(1/3) (weighted; max over all edges of the graph) or 1 (unweighted), and
 * s_uv = ŵ_uv + ŵ_vu on directed graphs, s_uv = ŵ_uv on undirected ones:
 *   t(i) = Σ_{j,k} s_ij s_jk s_ki  (= 2 × the triangles through i, weighted by geometric means)
 *   undirected: c(i) = t(i) / (d(d−1)), d = number of neighbours;
 *   directed (Fagiolo 2007): c(i) = t(i) / (2·(d_tot(d_tot−1) − 2·d_↔)), d_tot = in + out neighbours,
 *   d_↔ = reciprocated neighbours; c = 0 when t = 0.
 * Weighted formulas: Onnela, Saramäki, Kertész & Kaski (2005), doi 10.1103/PhysRevE.71.065103;
 * directed: Fagiolo (2007), doi 10.1103/PhysRevE.76.026107. Triangles are listed once each by the
 * forward algorithm (kernels/triangles.ts). No deviations from NetworkX.
 */
import { Type } from 'typebox';
import { buildGraph, weightAttribute } from '../graph/build.ts';
import { mergedInOutRows, type Graph } from '../graph/csr.ts';
import type { NodeMetric } from './types.ts';
import { metricEdgeWeightsParam, directedParam } from './params.ts';
import { triangleSums } from '../kernels/triangles.ts';

const params = Type.Object({ directed: directedParam, metricEdgeWeights: metricEdgeWeightsParam }, { additionalProperties: false });
interface Params {
  directed: boolean;
  metricEdgeWeights?: boolean | string;
}

/** Symmetric CSR with s values (and reciprocal-neighbour counts on directed graphs). */
function symmetricValues(g: Graph): { off: Int32Array; adj: Int32Array; val: Float64Array; recip: Int32Array } {
  const n = g.n;
  let maxW = 0;
  if (g.weighted) for (let p = 0; p < g.outW.length; p++) if (g.outW[p] > maxW) maxW = g.outW[p];
  const f = (w: number) => (g.weighted ? (maxW > 0 ? Math.cbrt(w / maxW) : 0) : 1);
  if (!g.directed) {
    const val = new Float64Array(g.outW.length);
    for (let p = 0; p < val.length; p++) val[p] = f(g.outW[p]);
    return { off: g.outOff, adj: g.outAdj, val, recip: new Int32Array(n) };
  }
  // merge successor and predecessor rows: s_uv = ŵ_uv + ŵ_vu
  return mergedInOutRows(g, f);
}

export const clustering: NodeMetric<Params> = {
  id: 'clustering',
  title: 'Clustering coefficient',
  kind: 'node',
  summary: 'Local clustering coefficient (directed variant on directed networks, weighted geometric-mean variant with weights).',
  params,
  attributes: ['Clustering'],
  run: (ctx) => {
    const g = buildGraph(ctx.network, {
      directed: ctx.networkDirected && ctx.params.directed,
      weight: weightAttribute(ctx.params.metricEdgeWeights),
      selfLoops: false,
    });
    const n = g.n;
    const { off, adj, val, recip } = symmetricValues(g);
    const t = new Float64Array(n);
    triangleSums(n, off, adj, val, t, ctx.checkpoint);
    const res = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const ti = 2 * t[i];
      if (ti === 0) continue;
      if (g.directed) {
        const dt = g.outOff[i + 1] - g.outOff[i] + (g.inOff[i + 1] - g.inOff[i]);
        res[i] = ti / ((dt * (dt - 1) - 2 * recip[i]) * 2);
      } else {
        const d = off[i + 1] - off[i];
        res[i] = ti / (d * (d - 1));
      }
    }
    return { values: { Clustering: res } };
  },
};
