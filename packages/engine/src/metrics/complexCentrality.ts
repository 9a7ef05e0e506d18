/**
 * complexCentrality — complex path length centrality of Guilbeault & Centola (2021).
 *
 * Definition (docs/spec/metrics-extra.md): undirected, unweighted, self-loops dropped (parallel/reciprocal edges
 * merged). Threshold T_i: `absolute` = `complexCentralityThreshold` (whole number ≥ 1, default 3);
 * `fractional` (0 < f ≤ 1) = round(f·deg(i)) (half rounds up, JavaScript `Math.round`), at least 1.
 * For every node s: seeds = {s} ∪ (T_s − 1 random neighbours of s; if s has fewer, all of them plus the
 * rest drawn from nodes at distance 2); cascade activating any inactive node with ≥ T_i active
 * neighbours to the fixed point; `Complex Centrality`(s) = PL(s) = Σ_j d_C(s,j) / n over the graph C of
 * edges with at least one active endpoint (unreachable nodes count 0); `Complex Centrality - Reach`(s) =
 * number of active nodes (seeds included). `normalized: true` min–max rescales PL to 0..1 (all 0 if
 * max = min). Randomised (seed choice) with the seeded PRNG; with threshold 1 it is deterministic and
 * PL(s) = Σ_j d(s,j)/n exactly.
 * References: Guilbeault & Centola (2021), Nat. Commun. 12:4430, doi 10.1038/s41467-021-24704-6;
 * NetworKit `cpp/centrality/ComplexPaths.cpp`.
 */
import { Type } from 'typebox';
import { buildGraph } from '../graph/build.ts';
import type { NodeMetric } from './types.ts';
import { seedParam } from './params.ts';
import { invalidArgs } from '../errors.ts';
import { complexPaths } from '../kernels/complexPaths.ts';
import { createRng } from '../kernels/random.ts';

const params = Type.Object(
  {
    complexCentralityThreshold: Type.Number({
      exclusiveMinimum: 0,
      default: 3,
      description: 'Adoption threshold: absolute type a whole number of active neighbours (≥ 1); fractional type a proportion 0 < f ≤ 1 of the degree.',
    }),
    complexCentralityThresholdType: Type.Union([Type.Literal('absolute'), Type.Literal('fractional')], {
      default: 'absolute',
      description: 'How the threshold is read.',
    }),
    normalized: Type.Boolean({ default: false, description: 'Rescale the centrality to 0..1 (min–max).' }),
    seed: seedParam,
  },
  { additionalProperties: false },
);
interface Params {
  complexCentralityThreshold: number;
  complexCentralityThresholdType: 'absolute' | 'fractional';
  normalized: boolean;
  seed?: number;
}

export const complexCentrality: NodeMetric<Params> = {
  id: 'complexCentrality',
  title: 'Complex centrality',
  kind: 'node',
  summary: 'Complex path length centrality (threshold cascades, Guilbeault & Centola 2021) and cascade reach.',
  params,
  randomized: true,
  attributes: ['Complex Centrality', 'Complex Centrality - Reach'],
  validate(p) {
    const t = p.complexCentralityThreshold;
    if (p.complexCentralityThresholdType === 'absolute' && !(Number.isInteger(t) && t >= 1)) {
      throw invalidArgs('/complexCentralityThreshold', 'must be a whole number ≥ 1 for threshold type "absolute"');
    }
    if (p.complexCentralityThresholdType === 'fractional' && !(t > 0 && t <= 1)) {
      throw invalidArgs('/complexCentralityThreshold', 'must be a proportion 0 < f ≤ 1 for threshold type "fractional"');
    }
  },
  run(ctx) {
    const p = ctx.params;
    const g = buildGraph(ctx.network, { directed: false, weight: null, selfLoops: false });
    const T = new Int32Array(g.n);
    for (let i = 0; i < g.n; i++) {
      const deg = g.outOff[i + 1] - g.outOff[i];
      T[i] = p.complexCentralityThresholdType === 'absolute' ? p.complexCentralityThreshold : Math.max(1, Math.round(p.complexCentralityThreshold * deg));
    }
    const { pl, reach } = complexPaths(g.n, g.outOff, g.outAdj, T, createRng(ctx.seed), ctx.checkpoint);
    if (p.normalized && g.n > 0) {
      let lo = Infinity;
      let hi = -Infinity;
      for (const x of pl) {
        if (x < lo) lo = x;
        if (x > hi) hi = x;
      }
      for (let i = 0; i < g.n; i++) pl[i] = hi === lo ? 0 : (pl[i] - lo) / (hi - lo);
    }
    return { values: { 'Complex Centrality': pl, 'Complex Centrality - Reach': reach } };
  },
};
