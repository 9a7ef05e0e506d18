/**
 * constraint, effectiveSize, efficiency — Burt's structural holes.
 *
 * Definition: NetworkX 3.6 `constraint(G, weight)` and `effective_size(G, weight)` for all nodes (its
 * sparse-matrix implementation, which is what NetworkX runs when scipy is present), on the graph of
 * docs/spec/decisions.md §4.1 in the network's own direction, self-loops kept, weights as strengths (1 without
 * `metricEdgeWeights`). With the mutual weights M = A + Aᵀ (on a DiGraph a_uv + a_vu: in and out ties
 * both count), p_uv = M_uv / Σ_x M_ux and m_vw = M_vw / max_x M_wx (NetworkX's sparse code scales entry
 * (v,w) by the strongest tie of w, not of v as Burt's text does; we follow NetworkX — it only differs
 * from the textbook with unequal weights or on directed graphs):
 *   `Constraint`(u)     = Σ_{v: p_uv>0} (p_uv + Σ_w p_uw p_wv)²
 *   `Effective Size`(u) = Σ_{v: p_uv>0} (1 − Σ_w p_uw m_vw)
 *   `Efficiency`(u)     = Effective Size(u) / deg(u), deg = NetworkX `G.degree(u)` (unweighted; in + out
 *                         on directed graphs; a self-loop counts twice), as in NetworkX's documentation.
 * Nodes NetworkX scores NaN (isolated nodes, and per its own tests some nodes with only a self-loop) are
 * absent. Weights above 2⁹⁰⁰ (1e308) are first rescaled by a power of two (the measures are ratios of
 * weights; metrics/weights.ts), so M = A + Aᵀ cannot overflow; weights too weak next to them to survive
 * the rescaling are 400 INVALID_ARGS naming the edge; tiny sums (5e-324) are divided as ratios. Self-loops enter the sums exactly as in NetworkX's matrix products (they are not dropped).
 * References: Burt (1992), Structural Holes, Harvard UP; Borgatti (1997), Connections 20(1):35–38;
 * NetworkX `networkx.algorithms.structuralholes`.
 */
import { Type } from 'typebox';
import { buildGraph, weightAttribute } from '../graph/build.ts';
import { mergedInOutRows, type Graph } from '../graph/csr.ts';
import type { NodeMetric, MetricContext } from './types.ts';
import { metricEdgeWeightsParam } from './params.ts';
import { structuralHoles } from '../kernels/structural-holes.ts';
import { rescaledOrRefuse } from './weights.ts';

const params = Type.Object({ metricEdgeWeights: metricEdgeWeightsParam }, { additionalProperties: false });
interface Params {
  metricEdgeWeights?: boolean | string;
}

/** M = A + Aᵀ as a symmetric CSR: the merge of each node's out-row and in-row, weights added. */
export function mutualWeights(g: Graph): { off: Int32Array; adj: Int32Array; M: Float64Array } {
  if (!g.directed) {
    const M = new Float64Array(g.outW.length);
    for (let p = 0; p < M.length; p++) M[p] = 2 * g.outW[p];
    return { off: g.outOff, adj: g.outAdj, M };
  }
  const { off, adj, val } = mergedInOutRows(g, (w) => w);
  return { off, adj, M: val };
}

function compute(ctx: MetricContext<Params>, which: 'constraint' | 'esize' | 'efficiency'): Float64Array {
  // ratios of weights only: extreme weights (1e308: M = 2w overflows) are rescaled by a power of two
  const built = buildGraph(ctx.network, { directed: ctx.networkDirected, weight: weightAttribute(ctx.params.metricEdgeWeights) });
  const { g } = rescaledOrRefuse(built, ctx.network, ctx.params.metricEdgeWeights, 'structural holes', { low: 0, high: 2 ** 900 });
  const { off, adj, M } = mutualWeights(g);
  const out = new Float64Array(g.n);
  if (which === 'constraint') {
    structuralHoles(g.n, off, adj, M, out, null, ctx.checkpoint);
    return out;
  }
  structuralHoles(g.n, off, adj, M, null, out, ctx.checkpoint);
  if (which === 'efficiency') {
    for (let u = 0; u < g.n; u++) {
      let deg = 0;
      if (g.directed) deg = g.outOff[u + 1] - g.outOff[u] + (g.inOff[u + 1] - g.inOff[u]);
      else for (let p = g.outOff[u]; p < g.outOff[u + 1]; p++) deg += g.outAdj[p] === u ? 2 : 1;
      out[u] = out[u] / deg;
    }
  }
  return out;
}

function shMetric(id: string, title: string, attribute: string, which: 'constraint' | 'esize' | 'efficiency', summary: string): NodeMetric<Params> {
  return { id, title, kind: 'node', summary, params, attributes: [attribute], run: (ctx) => ({ values: { [attribute]: compute(ctx, which) } }) };
}

export const constraint = shMetric('constraint', "Burt's constraint", 'Constraint', 'constraint', "Burt's constraint (structural holes).");
export const effectiveSize = shMetric('effectiveSize', 'Effective size', 'Effective Size', 'esize', "Burt's effective size of the ego network (structural holes).");
export const efficiency = shMetric('efficiency', 'Efficiency', 'Efficiency', 'efficiency', 'Effective size divided by total degree.');
