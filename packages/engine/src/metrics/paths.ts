/**
 * Path-based metrics: betweennessCentrality, closenessCentrality, harmonicCentrality, loadCentrality,
 * currentFlowClosenessCentrality (node metrics) and diameter, avgShortestPathLength (network metrics).
 *
 * Definitions (NetworkX 3.6 on the graph of docs/spec/decisions.md §4.1, self-loops dropped — they never lie on a
 * shortest path and cancel in the Laplacian; weights are DISTANCES for betweenness/closeness/load and
 * CONDUCTANCES for current flow; merged parallel/reciprocal edges sum their weights):
 * - `Betweenness Centrality`: `betweenness_centrality(G, k, normalized, weight)`, Brandes' algorithm
 *   (BFS, or Dijkstra with exact float ties as NetworkX), endpoints excluded. Scaling as NetworkX
 *   `_rescale`: n < 3 unscaled; normalized ×1/((n−1)(n−2)) (directed and undirected alike, ordered pairs);
 *   not normalized ×1/2 on undirected graphs. Direction: the network's, unless `directed: false`.
 *   `kPercent` < 100: k = round(kPercent/100·n) (Python rounding, half to even; at least 1) sources drawn
 *   without replacement by a seeded xoshiro128** (so not NetworkX's Mersenne-Twister sample), scaled
 *   like NetworkX with `k`: sampled sources ×1/((k−1)(n−2)), others ×1/(k(n−2)) (normalized), or
 *   (n−1)/((k−1)c), (n−1)/(kc) with c = 2 undirected, 1 directed; a sampled source with k = 1 is NaN
 *   (not scored), as in NetworkX. k = n is the exact computation.
 * - `Closeness Centrality`: incoming distances (NetworkX runs on `G.reverse()` for digraphs), r = nodes
 *   that reach v (v included), S = Σ d(u, v). normalized: `closeness_centrality(G, distance=weight,
 *   wf_improved=True)` = (r−1)/S · (r−1)/(n−1); not normalized: 1/S. Both 0 when S = 0 (NetworkX's
 *   guard), so isolates get 0. `kPercent` < 100: only the largest weakly connected component (first of
 *   equal size in node order) is scored; K = round(kPercent/100·|C|) (at least 1) pivots drawn as for
 *   betweenness run forward searches; for v, with c_v pivots ≠ v reaching v at total distance s_v and
 *   f = (|C|−1)/(K − [v is a pivot]): S ≈ f·s_v, r−1 ≈ f·c_v (undirected: r−1 = |C|−1 exactly and a
 *   pivot's own sum is exact). Eppstein & Wang 2004 estimator. Directed: a pivot with no other pivot is
 *   not scored.
 * - `Harmonic Centrality`: `harmonic_centrality(G)`, Σ_{u≠v} 1/d(u, v) (incoming, unweighted, direction of
 *   the network, no parameters).
 * - `Load Centrality`: `load_centrality(G, normalized, weight)` (Newman's load; NetworkX
 *   `_node_betweenness`, including its quirk that nodes adjacent to the source on a shortest path pass
 *   nothing on); normalized ×1/((n−1)(n−2)) when n > 2, otherwise unscaled. Network's direction.
 * - `Current Flow Closeness Centrality`: `current_flow_closeness_centrality(G, weight)` on each connected
 *   component with ≥ 2 nodes of the undirected graph (always converted); isolates are not scored.
 *   value(v) = 1 / (N·C_vv + tr C − 2·(C·1)_v), C the inverse of the component's Laplacian grounded at
 *   one node — the sum NetworkX accumulates from its N LU solves (grounding-invariant). We get diag(C)
 *   from one sparse LDLᵀ factorization (minimum-degree order, dense trailing block) by selected
 *   inversion and C·1 from one solve (kernels/current-flow.ts, sparse-ldl.ts); same values to rounding
 *   (~1e-14 relative).
 * - network `diameter`: NetworkX `diameter` of the largest connected component (first of equal size in
 *   node order) of the undirected unweighted graph; 0 for an empty graph.
 * - network `avgShortestPathLength`: mean of d(u, v) over ordered pairs u ≠ v with v reachable from u,
 *   directed paths on directed networks, unweighted; 0 when no pair is reachable.
 *
 * Deviations: with zero-weight edges NetworkX's Dijkstra-based results depend on its heap order; we count
 * only DAG arcs from earlier- to later-settled nodes (and current flow ignores zero-weight edges, which
 * carry no current: nodes joined only by them form separate components). Sampled sources/pivots use our
 * PRNG, so sampled values differ from NetworkX's for the same k (same expectation).
 *
 * References: NetworkX `betweenness_centrality`, `closeness_centrality`, `harmonic_centrality`,
 * `load_centrality`, `current_flow_closeness_centrality`, `diameter`, `average_shortest_path_length`.
 * Brandes 2001 doi:10.1080/0022250X.2001.9990249; Brandes 2008 doi:10.1016/j.socnet.2007.11.001;
 * Brandes & Pich 2007 doi:10.1142/S0218127407018403 (sampling); Wasserman & Faust 1994 (wf_improved);
 * Boldi & Vigna 2014 doi:10.1080/15427951.2013.865686 (harmonic); Newman 2001 doi:10.1103/PhysRevE.64.016132
 * and Goh et al. 2001 doi:10.1103/PhysRevLett.87.278701 (load); Brandes & Fleischer 2005
 * doi:10.1007/978-3-540-31856-9_44 (current flow); Takahashi, Fagan & Chin 1973 and Erisman & Tinney
 * 1975 doi:10.1145/360680.360704 (selected inversion); Eppstein & Wang 2004 doi:10.7155/jgaa.00081.
 */
import { Type } from 'typebox';
import { buildGraph, weightAttribute } from '../graph/build.ts';
import type { Graph } from '../graph/csr.ts';
import type { NodeMetric, NetworkMetric, MetricContext, NodeMetricResult } from './types.ts';
import { metricEdgeWeightsParam, directedParam, normalizedParam, kPercentParam, seedParam } from './params.ts';
import { allNodes, localityOrder, shardBlocks, shardSources } from '../kernels/sources.ts';
import { dijkstraDistanceSums, pivotDistanceSums } from '../kernels/distance-sums.ts';
import { bitBfsTargetSums } from '../kernels/bit-bfs.ts';
import { largestComponent } from '../kernels/components.ts';
import { brandes, load } from '../kernels/brandes.ts';
import { currentFlowClosenessAll } from '../kernels/current-flow.ts';
import { createRng } from '../kernels/random.ts';
import { EngineError } from '../errors.ts';
import { largestWeightPath, refuseOverflow, rescaledOrRefuse, weightProblem } from './weights.ts';

interface SampledParams {
  directed: boolean;
  kPercent: number;
  metricEdgeWeights?: boolean | string;
  normalized: boolean;
  seed?: number;
}
interface LoadParams {
  metricEdgeWeights?: boolean | string;
  normalized: boolean;
}
interface WeightOnlyParams {
  metricEdgeWeights?: boolean | string;
}

const sampledParams = Type.Object(
  {
    directed: directedParam,
    kPercent: kPercentParam,
    metricEdgeWeights: metricEdgeWeightsParam,
    normalized: normalizedParam,
    seed: seedParam,
  },
  { additionalProperties: false },
);
const noParams = Type.Object({}, { additionalProperties: false });

/** Python's round(): half to even. */
export function pyRound(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

/** k distinct values drawn uniformly from `pool` (partial Fisher–Yates, seeded), sorted ascending. */
export function sampleSources(pool: Int32Array, k: number, seed: number): Int32Array {
  const a = Int32Array.from(pool);
  const rng = createRng(seed);
  const kk = Math.min(k, a.length);
  for (let i = 0; i < kk; i++) {
    const j = i + rng.int(a.length - i);
    const t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
  return a.slice(0, kk).sort();
}

/** Number of sampled sources for `kPercent` of `size` nodes: round(kPercent/100·size), clamped to 1..size. */
export function sampleSize(size: number, kPercent: number): number {
  if (kPercent >= 100) return size;
  return Math.min(size, Math.max(1, pyRound((kPercent / 100) * size)));
}

/** The sources sampled betweenness uses (exported for tests and the worker pool). */
export function betweennessSources(n: number, kPercent: number, seed: number): Int32Array {
  return sampleSources(allNodes(n), sampleSize(n, kPercent), seed);
}

/** Largest weakly connected component (first of equal size in node order) and the pivots drawn from it. */
export function closenessPivots(g: Graph, kPercent: number, seed: number): { members: Int32Array; pivots: Int32Array } {
  const members = largestComponent(g);
  return { members, pivots: sampleSources(members, sampleSize(members.length, kPercent), seed) };
}

function pathGraph(ctx: MetricContext<{ directed?: boolean; metricEdgeWeights?: boolean | string }>, directed: boolean, weighted: boolean): Graph {
  const weight = weighted ? weightAttribute(ctx.params.metricEdgeWeights) : null;
  return buildGraph(ctx.network, { directed, weight, selfLoops: false });
}

// ---------------------------------------------------------------- source-loop split
//
// Betweenness, closeness, harmonic and load are written as `partial` (the kernel over one shard of the
// sources, raw additive arrays) + `finish` (scaling), and `run` is `finish(partial(shard 0 of 1))`, so
// the split run of the worker pool (SourceParallel, pool/README.md) and the single run share every line.

type Shard = { index: number; count: number };
const WHOLE: Shard = { index: 0, count: 1 };

// ---------------------------------------------------------------- betweenness

function betweennessGraph(ctx: MetricContext<SampledParams>): Graph {
  return pathGraph(ctx, ctx.networkDirected && ctx.params.directed, true);
}

/** Raw dependencies Σ_{s ∈ shard} δ_s(v) (exact: all sources; sampled: the seeded sample). */
function betweennessPartial(ctx: MetricContext<SampledParams>, shard: Shard): Float64Array[] {
  const g = betweennessGraph(ctx);
  const n = g.n;
  const bc = new Float64Array(n);
  const k = sampleSize(n, ctx.params.kPercent);
  const sources = k >= n ? allNodes(n) : betweennessSources(n, ctx.params.kPercent, ctx.seed);
  brandes(g, shardSources(sources, shard.index, shard.count), bc, ctx.checkpoint, ctx.progress);
  return [bc];
}

function betweennessFinish(ctx: MetricContext<SampledParams>, [bc]: Float64Array[]): NodeMetricResult {
  const p = ctx.params;
  const n = ctx.network.nodes.length;
  const directed = ctx.networkDirected && p.directed;
  const k = sampleSize(n, p.kPercent);
  const values = { 'Betweenness Centrality': bc };
  if (k >= n) {
    if (n < 3) return { values };
    const scale = p.normalized ? 1 / ((n - 1) * (n - 2)) : directed ? 1 : 0.5;
    if (scale !== 1) for (let i = 0; i < n; i++) bc[i] *= scale;
    return { values };
  }
  const N = n - 1;
  if (N < 2) return { values };
  let scaleSource: number;
  let scaleOther: number;
  if (p.normalized) {
    scaleSource = k > 1 ? 1 / ((k - 1) * (N - 1)) : NaN;
    scaleOther = 1 / (k * (N - 1));
  } else {
    const corr = directed ? 1 : 2;
    scaleSource = k > 1 ? N / ((k - 1) * corr) : NaN;
    scaleOther = N / (k * corr);
  }
  const isSource = new Uint8Array(n);
  for (const s of betweennessSources(n, p.kPercent, ctx.seed)) isSource[s] = 1;
  for (let i = 0; i < n; i++) bc[i] *= isSource[i] ? scaleSource : scaleOther;
  return { values };
}

export const betweennessCentrality: NodeMetric<SampledParams> = {
  id: 'betweennessCentrality',
  title: 'Betweenness centrality',
  kind: 'node',
  summary: 'Shortest-path betweenness (Brandes; NetworkX betweenness_centrality), exact or estimated from sampled sources.',
  params: sampledParams,
  randomized: true,
  sampling: true,
  attributes: ['Betweenness Centrality'],
  run: (ctx) => betweennessFinish(ctx, betweennessPartial(ctx, WHOLE)),
  parallel: { partial: betweennessPartial, finish: betweennessFinish },
};

// ---------------------------------------------------------------- closeness

/**
 * Raw closeness accumulators of one shard.
 * Exact: incoming distance sums S(v) = Σ_u d(u, v) and reach counts r(v) (v included) — Dijkstra on
 * in-arcs per node when weighted (per-source entries, disjoint across shards), else bit-parallel BFS from
 * the shard's 32-source blocks accumulated at the targets (additive). Returns [sum, reach].
 * Sampled: forward searches from the shard's pivots: [sumAt, cntAt, own] (pivotDistanceSums).
 */
function closenessPartial(ctx: MetricContext<SampledParams>, shard: Shard): Float64Array[] {
  const p = ctx.params;
  const g = pathGraph(ctx, ctx.networkDirected && p.directed, true);
  const n = g.n;
  if (p.kPercent >= 100) {
    const sum = new Float64Array(n);
    const reach = new Float64Array(n);
    if (g.weighted) dijkstraDistanceSums(g, shardSources(allNodes(n), shard.index, shard.count), true, { sum, reach }, ctx.checkpoint, ctx.progress);
    else bitBfsTargetSums(g, shardBlocks(localityOrder(g, allNodes(n)), shard.index, shard.count), false, { sum, reach }, ctx.checkpoint, ctx.progress);
    return [sum, reach];
  }
  const sumAt = new Float64Array(n);
  const cntAt = new Float64Array(n);
  const own = new Float64Array(n);
  if (n === 0) return [sumAt, cntAt, own];
  const { pivots } = closenessPivots(g, p.kPercent, ctx.seed);
  pivotDistanceSums(g, shardSources(pivots, shard.index, shard.count), sumAt, cntAt, own, ctx.checkpoint, ctx.progress);
  return [sumAt, cntAt, own];
}

function closenessFinish(ctx: MetricContext<SampledParams>, acc: Float64Array[]): NodeMetricResult {
  const p = ctx.params;
  const n = ctx.network.nodes.length;
  const res = new Float64Array(n);
  const values = { 'Closeness Centrality': res };
  if (p.kPercent >= 100) {
    const [sum, reach] = acc;
    for (let v = 0; v < n; v++) res[v] = closenessValue(sum[v], reach[v] - 1, n, p.normalized);
    refuseTinyDistances(ctx, res);
    return { values };
  }
  res.fill(NaN);
  if (n === 0) return { values };
  const [sumAt, cntAt, own] = acc;
  const g = pathGraph(ctx, ctx.networkDirected && p.directed, true);
  const { members, pivots } = closenessPivots(g, p.kPercent, ctx.seed);
  const C = members.length;
  const K = pivots.length;
  const isPivot = new Uint8Array(n);
  for (const s of pivots) isPivot[s] = 1;
  for (const v of members) {
    if (!g.directed && isPivot[v]) {
      res[v] = closenessValue(own[v], C - 1, n, p.normalized);
      continue;
    }
    const others = K - isPivot[v];
    if (others === 0) continue; // directed, v the only pivot: nothing known
    const f = (C - 1) / others;
    const rMinus1 = g.directed ? cntAt[v] * f : C - 1;
    res[v] = closenessValue(sumAt[v] * f, rMinus1, n, p.normalized);
  }
  refuseTinyDistances(ctx, res);
  return { values };
}

/** Distances as small as 5e-324 make 1/distance exceed the largest Number: 400 naming the smallest weight. */
function refuseTinyDistances(ctx: MetricContext<SampledParams>, res: Float64Array): void {
  for (const x of res) {
    if (x === Infinity) {
      throw weightProblem(
        largestWeightPath(ctx.network, ctx.params.metricEdgeWeights, true),
        'edge weight too small: distances this short make closeness (1 / distance) exceed the largest Number (about 1.8e308); scale the weights up',
      );
    }
  }
}

function closenessValue(total: number, rMinus1: number, n: number, normalized: boolean): number {
  if (!(total > 0) || n <= 1) return 0;
  if (!normalized) return 1 / total;
  return (rMinus1 / total) * (rMinus1 / (n - 1));
}

export const closenessCentrality: NodeMetric<SampledParams> = {
  id: 'closenessCentrality',
  title: 'Closeness centrality',
  kind: 'node',
  summary: 'Closeness from incoming distances (NetworkX closeness_centrality, Wasserman–Faust normalisation), exact or pivot-sampled.',
  params: sampledParams,
  randomized: true,
  sampling: true,
  attributes: ['Closeness Centrality'],
  run: (ctx) => closenessFinish(ctx, closenessPartial(ctx, WHOLE)),
  // the unweighted exact kernel (bit-parallel BFS) is fast: splitting pays only on bigger graphs
  parallel: { minNodes: 5000, partial: closenessPartial, finish: closenessFinish },
};

// ---------------------------------------------------------------- harmonic

function harmonicPartial(ctx: MetricContext<Record<string, never>>, shard: Shard): Float64Array[] {
  const g = buildGraph(ctx.network, { directed: ctx.networkDirected, weight: null, selfLoops: false });
  const inv = new Float64Array(g.n);
  bitBfsTargetSums(g, shardBlocks(localityOrder(g, allNodes(g.n)), shard.index, shard.count), false, { inv }, ctx.checkpoint, ctx.progress);
  return [inv];
}

export const harmonicCentrality: NodeMetric<Record<string, never>> = {
  id: 'harmonicCentrality',
  title: 'Harmonic centrality',
  kind: 'node',
  summary: 'Sum of inverse (incoming, unweighted) distances from all other nodes (NetworkX harmonic_centrality).',
  params: noParams,
  attributes: ['Harmonic Centrality'],
  run: (ctx) => ({ values: { 'Harmonic Centrality': harmonicPartial(ctx, WHOLE)[0] } }),
  parallel: { minNodes: 5000, partial: harmonicPartial, finish: (_ctx, [inv]) => ({ values: { 'Harmonic Centrality': inv } }) },
};

// ---------------------------------------------------------------- load

function loadPartial(ctx: MetricContext<LoadParams>, shard: Shard): Float64Array[] {
  const g = pathGraph(ctx, ctx.networkDirected, true);
  const res = new Float64Array(g.n);
  load(g, shardSources(allNodes(g.n), shard.index, shard.count), res, ctx.checkpoint, ctx.progress);
  return [res];
}

function loadFinish(ctx: MetricContext<LoadParams>, [res]: Float64Array[]): NodeMetricResult {
  const n = ctx.network.nodes.length;
  if (ctx.params.normalized && n > 2) {
    const scale = 1 / ((n - 1) * (n - 2));
    for (let i = 0; i < n; i++) res[i] *= scale;
  }
  return { values: { 'Load Centrality': res } };
}

export const loadCentrality: NodeMetric<LoadParams> = {
  id: 'loadCentrality',
  title: 'Load centrality',
  kind: 'node',
  summary: 'Newman load centrality (NetworkX load_centrality): shortest-path flow split equally among predecessors.',
  params: Type.Object({ metricEdgeWeights: metricEdgeWeightsParam, normalized: normalizedParam }, { additionalProperties: false }),
  attributes: ['Load Centrality'],
  run: (ctx) => loadFinish(ctx, loadPartial(ctx, WHOLE)),
  parallel: { partial: loadPartial, finish: loadFinish },
};

// ---------------------------------------------------------------- current flow

export const currentFlowClosenessCentrality: NodeMetric<WeightOnlyParams> = {
  id: 'currentFlowClosenessCentrality',
  title: 'Information centrality (current-flow closeness)',
  kind: 'node',
  summary: 'Information (current-flow closeness) centrality per connected component, undirected, weights as conductances.',
  params: Type.Object({ metricEdgeWeights: metricEdgeWeightsParam }, { additionalProperties: false }),
  attributes: ['Current Flow Closeness Centrality'],
  run: (ctx) => {
    const weight = weightAttribute(ctx.params.metricEdgeWeights);
    // values scale with the conductances: computed on weights rescaled by a power of two (largest in
    // [1, 2); exact) and scaled back, so 1e308 or 5e-324 conductances neither overflow nor underflow
    const { g, unscale } = rescaledOrRefuse(buildGraph(ctx.network, { directed: false, weight, selfLoops: false }), ctx.network, ctx.params.metricEdgeWeights, 'current-flow closeness');
    const res = new Float64Array(g.n);
    const tooWide = () =>
      weightProblem(
        largestWeightPath(ctx.network, ctx.params.metricEdgeWeights, true),
        'edge weights span too wide a range for current-flow closeness: this conductance is too small next to the others for the resistances to be computed in double precision; raise it or remove the edge',
      );
    try {
      currentFlowClosenessAll(g, res, ctx.checkpoint, 'direct', undefined, ctx.progress);
    } catch (err) {
      if (err instanceof EngineError) throw err;
      throw tooWide(); // the grounded Laplacian was numerically singular (sparse-ldl.ts: not positive definite)
    }
    for (let v = 0; v < res.length; v++) {
      if (Number.isNaN(res[v])) continue; // not scored: a component of one node (the kernel throws on a computed NaN)
      const x = unscale(res[v]); // may round to 0 below 5e-324 (conductances that small)
      if (!Number.isFinite(x)) refuseOverflow(ctx.network, ctx.params.metricEdgeWeights, [x], 'current-flow closeness');
      res[v] = x;
    }
    return { values: { 'Current Flow Closeness Centrality': res } };
  },
};

// ---------------------------------------------------------------- network metrics

/** Diameter of the largest connected component (first of equal size) of the undirected graph. */
export function largestComponentDiameter(g: Graph, checkpoint?: () => void): number {
  if (g.n === 0) return 0;
  const { members } = closenessPivots(g, 100, 0);
  return bitBfsTargetSums(g, localityOrder(g, members), false, {}, checkpoint);
}

export const diameter: NetworkMetric<Record<string, never>> = {
  id: 'diameter',
  title: 'Diameter',
  kind: 'network',
  summary: 'Longest shortest path (hops) in the largest connected component; directed networks converted to undirected.',
  params: noParams,
  run: (ctx) => {
    const g = buildGraph(ctx.network, { directed: false, weight: null, selfLoops: false });
    return largestComponentDiameter(g, ctx.checkpoint);
  },
};

export const avgShortestPathLength: NetworkMetric<Record<string, never>> = {
  id: 'avgShortestPathLength',
  title: 'Average shortest path length',
  kind: 'network',
  summary: 'Mean shortest-path length (hops) over ordered node pairs with a path; unreachable pairs excluded.',
  params: noParams,
  run: (ctx) => {
    const g = buildGraph(ctx.network, { directed: ctx.networkDirected, weight: null, selfLoops: false });
    const n = g.n;
    const sum = new Float64Array(n);
    const reach = new Float64Array(n);
    bitBfsTargetSums(g, localityOrder(g, allNodes(n)), false, { sum, reach }, ctx.checkpoint);
    let total = 0;
    let pairs = 0;
    for (let v = 0; v < n; v++) {
      total += sum[v];
      pairs += reach[v] - 1;
    }
    return pairs > 0 ? total / pairs : 0;
  },
};
