/**
 * antiCommunities — split people into k mixed groups (maximally diverse grouping).
 *
 * Definition (docs/spec/metrics-extra.md): balanced partition into k = clamp(`antiCommunityGroupCount`, 2, n)
 * groups whose sizes differ by at most one, minimising W = Σ_groups Σ_{i<j in group} A_ij on the
 * undirected simple graph (parallel/reciprocal edges merged, self-loops ignored, weights unused).
 * Algorithm: deal nodes round-robin to groups in the order (Louvain community rank of `communities`
 * with resolution 1 and the same seed, degree desc, input order), so every community is spread; then
 * pair-swap local search (best negative swap first) with iterated perturbation restarts, keeping the
 * best (kernels/antiCommunities.ts). Never worse than the round-robin start.
 * Output: `Anti-Community 1..k` for every node, `meta.withinGroupTies` = W, `meta.seed`.
 * Determinism: the work is fixed by the graph size — ⌊2·10⁶/(n·k + 2m)⌋ restarts clamped to 3..100 and at
 * most max(20, ⌊5·10⁷/(n·k + 2m)⌋) local-search passes in all (each pass costs O(n·k + m)). No wall-clock
 * budget: the answer never depends on machine speed; the request's time limit (ctx.checkpoint) still
 * applies and answers METRIC_TIMEOUT rather than a different partition. When n·k > 3·10⁷ the local
 * search (which keeps n·k counters) is skipped and the round-robin partition is returned.
 * References: maximally diverse grouping problem (Lai & Hao 2016, EJOR 254(3):780–800,
 * doi 10.1016/j.ejor.2016.05.018); manynet/netrics `node_in_roulette`. No NetworkX function.
 */
import { Type } from 'typebox';
import { buildGraph } from '../graph/build.ts';
import type { NodeMetric } from './types.ts';
import { seedParam } from './params.ts';
import { runLouvain, rankBySize } from './communities.ts';
import { antiCommunities as kernel } from '../kernels/antiCommunities.ts';
import { createRng, subSeed } from '../kernels/random.ts';

const params = Type.Object(
  {
    antiCommunityGroupCount: Type.Integer({ minimum: 2, default: 10, description: 'Number of groups k (clamped to the node count).' }),
    seed: seedParam,
  },
  { additionalProperties: false },
);
interface Params {
  antiCommunityGroupCount: number;
  seed?: number;
}

const MAX_COUNTERS = 3e7;

export const antiCommunities: NodeMetric<Params> = {
  id: 'antiCommunities',
  title: 'Anti-communities',
  kind: 'node',
  summary: 'Balanced groups with as few existing ties inside groups as possible (anti-communities).',
  params,
  randomized: true,
  attributes: ['Anti-Community'],
  run(ctx) {
    const g = buildGraph(ctx.network, { directed: false, weight: null, selfLoops: false });
    const n = g.n;
    if (n === 0) return { values: { 'Anti-Community': [] }, meta: { withinGroupTies: 0 } };
    const k = Math.max(1, Math.min(ctx.params.antiCommunityGroupCount, n));
    const lv = runLouvain(g, { resolution: 1, maxSize: 0, seed: ctx.seed, checkpoint: ctx.checkpoint });
    const L = lv.levels.length;
    const com = lv.levels[L - 1];
    const rank = rankBySize(com, lv.counts[L - 1]);
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    const deg = (u: number) => g.outOff[u + 1] - g.outOff[u];
    order.sort((a, b) => rank[com[a]] - rank[com[b]] || deg(b) - deg(a) || a - b);
    const work = n * k + 2 * g.m + 1;
    const restarts = Math.max(3, Math.min(100, Math.floor(2e6 / work)));
    const res = kernel(n, g.outOff, g.outAdj, k, order, {
      rng: createRng(subSeed(ctx.seed, 1)),
      restarts,
      maxPasses: Math.max(20, Math.floor(5e7 / work)),
      budgetMs: Infinity,
      localSearch: n * k <= MAX_COUNTERS,
      checkpoint: ctx.checkpoint,
    });
    const labels = Array.from(res.group, (x) => `Anti-Community ${x + 1}`);
    return { values: { 'Anti-Community': labels }, meta: { withinGroupTies: res.ties } };
  },
};
