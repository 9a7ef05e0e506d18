/**
 * Edge weights at the ends of the double range (issue 9 item 9; docs/metrics.md: "Semantics ... see each
 * metric file's header"). Weights are any finite non-negative Numbers (graph/build.ts refuses the rest),
 * so 1e308 or 5e-324 reach the kernels, where sums overflow to Infinity or products underflow, and NaN
 * would follow. Two tools, used by each metric as its definition allows:
 * - `rescaled`: metrics whose result does not depend on the unit of the weights (Louvain, modularity,
 *   eigenvector, PageRank, average neighbour degree, betweenness and load with weights as distances), or
 *   changes by a known factor (current-flow closeness, closeness, mean weight), run on weights multiplied
 *   by a power of two that brings the largest into [1, 2). A power of two is exact (ties stay ties), so
 *   results are the same as on the original weights wherever those do not overflow; only weights below
 *   2⁻¹⁰⁷⁴ of the largest vanish, as they would in any sum with it.
 * - `refuseOverflow`: a result that itself exceeds the double range (a weighted degree of 1e308 + 1e308)
 *   is 400 INVALID_ARGS naming the largest edge weight, never Infinity or NaN.
 */
import type { Graph } from '../graph/csr.ts';
import type { NetworkJSON } from '../graph/network-json.ts';
import { EngineError, invalidArgs } from '../errors.ts';
import { weightAttribute } from '../graph/build.ts';

/** By default, weights whose largest lies outside [2⁻⁵⁰⁰, 2⁵⁰⁰] are rescaled; others are used as given (NetworkX parity). */
const LOW = 2 ** -500;
const HIGH = 2 ** 500;

export interface RescaleOptions {
  /** Rescale whatever the weights (for computations that are exactly invariant under a power of two). */
  always?: boolean;
  /** Rescale when the largest weight is below this (default 2⁻⁵⁰⁰; 0 = never for small weights). */
  low?: number;
  /** Rescale when the largest weight is above this (default 2⁵⁰⁰). */
  high?: number;
}

/** x · 2^k for any k in [−2150, 2150] (two steps: 2^k alone may not be a double). */
function timesPow2(x: number, k: number): number {
  const h = Math.trunc(k / 2);
  return x * 2 ** h * 2 ** (k - h);
}

/**
 * `g` with every weight multiplied by 2^k (k chosen so the largest weight lies in [1, 2)), or `g` itself
 * (k = 0) when the weights are unweighted, all zero, or not extreme (largest within [low, high]) and
 * `always` is false. `unscale(x)` = x · 2^−k maps a result linear in the weights back; `underflow`: some
 * positive weight became 0 (it was below 2⁻¹⁰⁷⁴ of the largest).
 */
export function rescaled(g: Graph, opts: RescaleOptions = {}): { g: Graph; k: number; unscale: (x: number) => number; underflow: boolean } {
  const none = { g, k: 0, unscale: (x: number) => x, underflow: false };
  if (!g.weighted) return none;
  let max = 0;
  for (const x of g.outW) if (x > max) max = x;
  if (max === 0 || (!opts.always && max >= (opts.low ?? LOW) && max <= (opts.high ?? HIGH))) return none;
  const k = -Math.floor(Math.log2(max));
  let k2 = k;
  // log2 rounding at the ends of the range: make sure the largest really lands in [1, 2)
  if (timesPow2(max, k2) >= 2) k2--;
  else if (timesPow2(max, k2) < 1) k2++;
  if (k2 === 0) return none;
  let underflow = false;
  const scale = (w: Float64Array) =>
    w.map((x) => {
      const y = timesPow2(x, k2);
      if (y === 0 && x > 0) underflow = true;
      return y;
    });
  const outW = scale(g.outW);
  const inW = g.inW === g.outW ? outW : scale(g.inW);
  const ids = Object.getOwnPropertyDescriptor(g, 'ids');
  const copy = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(g) as (keyof Graph)[]) if (key !== 'ids') copy[key] = g[key];
  if (ids) Object.defineProperty(copy, 'ids', ids);
  copy.outW = outW;
  copy.inW = inW;
  return { g: copy as unknown as Graph, k: k2, unscale: (x: number) => timesPow2(x, -k2), underflow };
}

/**
 * `rescaled`, refusing (400 naming the smallest positive weight) when rescaling would turn a positive
 * weight into 0 — the weights span more than the double range (5e-324 next to 1e308) and the metric
 * would silently lose ties.
 */
export function rescaledOrRefuse(g: Graph, network: NetworkJSON, metricEdgeWeights: unknown, what: string, opts: RescaleOptions = {}): ReturnType<typeof rescaled> {
  const r = rescaled(g, opts);
  if (r.underflow) {
    throw weightProblem(
      largestWeightPath(network, metricEdgeWeights, true),
      `edge weights span too wide a range for ${what}: this weight is below 2^-1074 of the largest and cannot be represented next to it; raise it or remove the edge`,
    );
  }
  return r;
}

/** The edge of largest (or smallest positive) weight as a JSON pointer, for problems about weights as a whole. */
export function largestWeightPath(network: NetworkJSON, metricEdgeWeights: unknown, smallest = false): string {
  const attr = weightAttribute(metricEdgeWeights) ?? 'weight';
  let best = -1;
  let bestW = smallest ? Infinity : -Infinity;
  const edges = network.edges ?? [];
  for (let i = 0; i < edges.length; i++) {
    const w = edges[i].attributes?.[attr];
    if (typeof w !== 'number') continue;
    if (smallest ? w > 0 && w < bestW : w > bestW) {
      bestW = w;
      best = i;
    }
  }
  return best >= 0 ? `/networkJSON/edges/${best}/attributes/${attr}` : '/metricEdgeWeights';
}

/** Throws INVALID_ARGS (naming the largest edge weight) when a value that must be finite is not. */
export function refuseOverflow(network: NetworkJSON, metricEdgeWeights: unknown, values: ArrayLike<number>, what: string): void {
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i])) {
      const id = String(network.nodes[i]?.id);
      const path = largestWeightPath(network, metricEdgeWeights);
      const message = `edge weights too large: the ${what} of node ${JSON.stringify(id)} exceeds the largest Number (about 1.8e308); scale the weights down`;
      throw invalidArgs(path, message);
    }
  }
}

/** INVALID_ARGS naming an edge weight (path from `largestWeightPath` or a specific edge). */
export function weightProblem(path: string, message: string): EngineError {
  return invalidArgs(path, message);
}
