/**
 * eigenvectorCentrality, katzCentrality, HITS, pageRank — spectral centralities.
 *
 * Definitions (graph of docs/spec/decisions.md §4.1, the network's own direction, self-loops kept; weights are
 * strengths, with `metricEdgeWeights` summed over merged edges, else 1):
 * - `Eigenvector Centrality` = NetworkX `eigenvector_centrality(G, max_iter=1000, tol=1e-10, weight)`:
 *   power iteration x ← (x + Aᵀx)/‖·‖₂ from the uniform vector, stop when ‖Δx‖₁ < n·tol. On directed
 *   graphs this is the left eigenvector (a node is central when central nodes point to it).
 * - `Katz Centrality` = NetworkX `katz_centrality(G, alpha=katzCentralityAlpha, beta=1, max_iter=1000,
 *   tol=1e-10, normalized, weight)`: x ← αAᵀx + 1 from 0; normalized divides by ‖x‖₂.
 *   The series converges only for α < 1/λmax. Before iterating, λmax is estimated by power iteration on
 *   A + I with a Collatz–Wielandt lower bound (never above the true λmax); when α ≥ 1/lower the answer
 *   is 422 NOT_CONVERGED at once, naming the largest admissible α (≈ 1/λmax). Borderline α (the bound
 *   undecided) runs the iteration and fails, as NetworkX does, if it does not converge in 1000 steps.
 * - `Hubs`, `Authorities` = NetworkX 3.6 `hits(G, max_iter=1000, tol=1e-10, normalized)` (unweighted, as
 *   the endpoint takes no weights). NetworkX 3.6 computes the dominant singular triplet with
 *   `scipy.sparse.linalg.svds`: authorities a = dominant right singular vector (unit ℓ2 norm), hubs
 *   h = A·a (so ‖h‖₂ = σ₁); normalized=true divides each by its sum (sums to 1), normalized=false
 *   returns those raw vectors. Deviations: (1) the sign of a singular vector is arbitrary in svds; we
 *   always return the non-negative one. (2) We find a by power iteration on AᵀA from the uniform vector
 *   (to ‖Δa‖₁ < 1e-13·max(1, n/100), up to 20,000 steps) instead of ARPACK; identical whenever σ₁ is
 *   simple. When σ₁ is repeated (e.g. bipartite undirected graphs, or two identical components) svds
 *   returns an arbitrary vector of that singular space and so does not define one answer; ours is the
 *   projection of the uniform vector onto it. A graph without edges scores no node.
 * - `PageRank` = NetworkX `pagerank(G, alpha, weight)` with its defaults (max_iter=100, tol=1e-6,
 *   uniform personalization, dangling nodes — weighted out-degree 0 — redistributing uniformly).
 * Not converging within the iteration limit → 422 NOT_CONVERGED. A network with no nodes: eigenvector
 * centrality is 400 INVALID_ARGS (NetworkX raises NetworkXPointlessConcept for the null graph); Katz,
 * HITS and PageRank score no node (NetworkX returns empty dicts).
 * References: Bonacich (1987) doi 10.1086/228631; Katz (1953) doi 10.1007/BF02289026; Kleinberg (1999)
 * doi 10.1145/324133.324140; Page, Brin, Motwani & Winograd (1999) Stanford InfoLab 1999-66;
 * NetworkX `eigenvector_centrality`, `katz_centrality`, `hits`, `pagerank`.
 */
import { Type } from 'typebox';
import { buildGraph, weightAttribute } from '../graph/build.ts';
import type { NodeMetric, MetricContext } from './types.ts';
import { metricEdgeWeightsParam, normalizedParam } from './params.ts';
import { EngineError } from '../errors.ts';
import { eigenvectorCentrality as eigKernel, katzCentrality as katzKernel, spectralRadius, hits as hitsKernel, pagerank as prKernel } from '../kernels/spectral.ts';

const MAX_ITER = 1000;
const TOL = 1e-10;

function graphOf(ctx: MetricContext<{ metricEdgeWeights?: boolean | string }>) {
  return buildGraph(ctx.network, { directed: ctx.networkDirected, weight: weightAttribute(ctx.params.metricEdgeWeights) });
}

function notConverged(what: string, iterations: number): EngineError {
  return new EngineError('NOT_CONVERGED', `${what} did not converge within ${iterations} iterations`);
}

// --- eigenvector ---
const eigParams = Type.Object({ metricEdgeWeights: metricEdgeWeightsParam }, { additionalProperties: false });
interface WeightParams {
  metricEdgeWeights?: boolean | string;
}

export const eigenvectorCentrality: NodeMetric<WeightParams> = {
  id: 'eigenvectorCentrality',
  title: 'Eigenvector centrality',
  kind: 'node',
  summary: 'Eigenvector centrality (left eigenvector on directed networks: in-edges count); a network with no nodes is 400 INVALID_ARGS, as NetworkX refuses the null graph.',
  params: eigParams,
  attributes: ['Eigenvector Centrality'],
  run: (ctx) => {
    const g = graphOf(ctx);
    // NetworkX raises NetworkXPointlessConcept ("cannot compute centrality for the null graph")
    if (g.n === 0) {
      const message = 'eigenvector centrality is not defined for a network with no nodes';
      throw new EngineError('INVALID_ARGS', message, [{ path: '/networkJSON/nodes', message }]);
    }
    const x = eigKernel(g, MAX_ITER, TOL, ctx.checkpoint, ctx.progress);
    if (!x) throw notConverged('Eigenvector centrality', MAX_ITER);
    return { values: { 'Eigenvector Centrality': x } };
  },
};

// --- Katz ---
const katzParams = Type.Object(
  {
    katzCentralityAlpha: Type.Number({
      minimum: 0,
      default: 0.1,
      description: 'Attenuation factor α; the iteration converges only for α < 1/λmax (largest adjacency eigenvalue).',
    }),
    metricEdgeWeights: metricEdgeWeightsParam,
    normalized: normalizedParam,
  },
  { additionalProperties: false },
);
interface KatzParams {
  katzCentralityAlpha: number;
  metricEdgeWeights?: boolean | string;
  normalized: boolean;
}

function fmt(x: number): string {
  return Number(x.toPrecision(6)).toString();
}

export const katzCentrality: NodeMetric<KatzParams> = {
  id: 'katzCentrality',
  title: 'Katz centrality',
  kind: 'node',
  summary: 'Katz centrality (in-edges count on directed networks); alpha must be below 1/λmax.',
  params: katzParams,
  attributes: ['Katz Centrality'],
  run: (ctx) => {
    const g = graphOf(ctx);
    const alpha = ctx.params.katzCentralityAlpha;
    if (g.n === 0) return { values: { 'Katz Centrality': [] } };
    let est: { lower: number; upper: number } | null = null;
    const tooLarge = (lambda: number) =>
      new EngineError(
        'NOT_CONVERGED',
        `Katz centrality diverges for katzCentralityAlpha ${alpha}: it converges only for alpha < 1/λmax, and the largest ` +
          `eigenvalue of the adjacency matrix is λmax ≈ ${fmt(lambda)}, so the largest admissible alpha is just below ${fmt(1 / lambda)}`,
        [{ path: '/katzCentralityAlpha', message: `must be below 1/λmax ≈ ${fmt(1 / lambda)}` }],
      );
    if (alpha > 0 && g.m > 0) {
      const limit = 1 / alpha;
      // stop once alpha is certainly admissible (upper bound below 1/alpha), or the refusal is certain
      // and λmax is known to 0.1%, or the estimate has converged
      est = spectralRadius(g, 2000, 1e-9, (lo, hi) => hi < limit || (lo >= limit && hi - lo <= 1e-3 * hi), ctx.checkpoint);
      // name 1/upper (Collatz–Wielandt upper bound, within 0.1% of λmax): an alpha below it is admissible
      if (est.lower >= limit) throw tooLarge(Math.max(est.upper, est.lower));
    }
    const x = katzKernel(g, alpha, 1, MAX_ITER, TOL, ctx.params.normalized, ctx.checkpoint, ctx.progress);
    if (!x) {
      if (est && est.upper > 0 && alpha * est.upper >= 0.999) throw tooLarge(est.upper);
      throw notConverged('Katz centrality', MAX_ITER);
    }
    return { values: { 'Katz Centrality': x } };
  },
};

// --- HITS ---
const hitsParams = Type.Object({ normalized: normalizedParam }, { additionalProperties: false });
interface HitsParams {
  normalized: boolean;
}
const HITS_MAX_ITER = 20000;

export const HITS: NodeMetric<HitsParams> = {
  id: 'HITS',
  title: 'Hubs and authorities (HITS)',
  kind: 'node',
  summary: 'Hubs and authorities (HITS): dominant singular vectors of the adjacency matrix.',
  params: hitsParams,
  attributes: ['Hubs', 'Authorities'],
  run: (ctx) => {
    const g = buildGraph(ctx.network, { directed: ctx.networkDirected, weight: null });
    if (g.n === 0 || g.m === 0) return { values: { Hubs: [], Authorities: [] } };
    const res = hitsKernel(g, HITS_MAX_ITER, 1e-13 * Math.max(1, g.n / 100), ctx.params.normalized, ctx.checkpoint, ctx.progress);
    if (!res) throw notConverged('HITS', HITS_MAX_ITER);
    return { values: { Hubs: res.hubs, Authorities: res.authorities } };
  },
};

// --- PageRank ---
const prParams = Type.Object(
  {
    alpha: Type.Number({ minimum: 0, maximum: 1, default: 0.85, description: 'Damping factor.' }),
    metricEdgeWeights: metricEdgeWeightsParam,
  },
  { additionalProperties: false },
);
interface PrParams {
  alpha: number;
  metricEdgeWeights?: boolean | string;
}
const PR_MAX_ITER = 100;

export const pageRank: NodeMetric<PrParams> = {
  id: 'pageRank',
  title: 'PageRank',
  kind: 'node',
  summary: 'PageRank (damping alpha, dangling nodes redistributed uniformly).',
  params: prParams,
  attributes: ['PageRank'],
  run: (ctx) => {
    const g = graphOf(ctx);
    if (g.n === 0) return { values: { PageRank: [] } };
    const x = prKernel(g, ctx.params.alpha, PR_MAX_ITER, 1e-6, ctx.checkpoint, ctx.progress);
    if (!x) throw notConverged('PageRank', PR_MAX_ITER);
    return { values: { PageRank: x } };
  },
};
