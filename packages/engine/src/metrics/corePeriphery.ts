/**
 * corePeriphery — core–periphery structure.
 *
 * Definition (docs/spec/metrics-extra.md): undirected simple graph (parallel/reciprocal edges merged,
 * self-loops dropped), weights ignored.
 * - `single`: Rombach, Porter, Fowler & Mucha (2017): an ordering of the nodes maximising
 *   Q = Σ_ij A_ij C_i C_j (ordered pairs, so each edge counts twice), where the node at 1-based rank k
 *   (ascending coreness) has C = k(1−α)/(2⌊βn⌋) for k ≤ ⌊βn⌋, else (k−⌊βn⌋)(1−α)/(2(n−⌊βn⌋)) + (1+α)/2.
 *   Optimised by label switching (rank swaps while Q improves, plus "sort by neighbour sum" moves), best
 *   of 10 seeded runs, the first starting from the degree ordering (ascending degree, ties by input
 *   order), so Q is never below the degree ordering's. `Core Periphery` = `Core 1` for every node,
 *   `Coreness` = C, `meta.quality` = Q. Defaults α 0.5, β 0.8 as the `cpnet` package.
 * - `multiple`: Kojaku & Masuda (2018) KM_config: core–periphery pairs by label switching on the
 *   configuration-model quality (kernels/corePeriphery.ts), best of 10 seeded runs. `Core Periphery` =
 *   `Core 1..K` (1 = largest pair, ties by smallest first node index), `Coreness` 1 for core and 0 for
 *   periphery nodes, `meta.quality` = the KM_config quality. Isolated nodes get no value.
 * Runs: 10, except on graphs with n + m > 10⁵, where ⌊10⁶/(n + m)⌋ (at least 2) keep the time bounded.
 * Deviations: `cpnet` optimises Rombach's Q by simulated annealing; we use label switching as
 * docs/spec/metrics-extra.md says. On graphs above 1,000 nodes a node's swap partners are limited to a rank
 * window (see the kernel). `alpha`/`beta` are accepted but unused for `multiple`.
 * References: Rombach et al. (2017), SIAM Rev. 59(3):619–646, doi 10.1137/17M1130046;
 * Kojaku & Masuda (2018), New J. Phys. 20:043012, doi 10.1088/1367-2630/aab547; `cpnet`
 * (`Rombach`, `KM_config`). No NetworkX function.
 */
import { Type } from 'typebox';
import { buildGraph } from '../graph/build.ts';
import type { NodeMetric } from './types.ts';
import { seedParam } from './params.ts';
import { rombach, kmConfig } from '../kernels/corePeriphery.ts';
import { createRng } from '../kernels/random.ts';
import { rankBySize } from './communities.ts';

const params = Type.Object(
  {
    type: Type.Union([Type.Literal('single'), Type.Literal('multiple')], {
      default: 'single',
      description: '`single`: one core (Rombach); `multiple`: several core–periphery pairs (Kojaku–Masuda KM_config).',
    }),
    alpha: Type.Number({ minimum: 0, maximum: 1, default: 0.5, description: 'Sharpness of the core/periphery boundary (`single` only).' }),
    beta: Type.Number({ minimum: 0, maximum: 1, default: 0.8, description: 'Fraction of nodes in the periphery (`single` only).' }),
    seed: seedParam,
  },
  { additionalProperties: false },
);
interface Params {
  type: 'single' | 'multiple';
  alpha: number;
  beta: number;
  seed?: number;
}

const RUNS = 10;
/** Runs on large graphs: ⌊10⁶/(n + m)⌋ clamped to 2..10 (10 up to ~100k nodes + edges). */
const runsFor = (n: number, m: number) => Math.max(2, Math.min(RUNS, Math.floor(1e6 / (n + m + 1))));

export const corePeriphery: NodeMetric<Params> = {
  id: 'corePeriphery',
  title: 'Core–periphery',
  kind: 'node',
  summary: 'Core–periphery structure: one continuous core (Rombach) or several core–periphery pairs (Kojaku–Masuda).',
  params,
  randomized: true,
  attributes: ['Core Periphery', 'Coreness'],
  run(ctx) {
    const g = buildGraph(ctx.network, { directed: false, weight: null, selfLoops: false });
    const n = g.n;
    const rng = createRng(ctx.seed);
    if (ctx.params.type === 'single') {
      const r = rombach(n, g.outOff, g.outAdj, ctx.params.alpha, ctx.params.beta, runsFor(n, g.m), rng, ctx.checkpoint);
      return {
        values: { 'Core Periphery': new Array<string>(n).fill('Core 1'), Coreness: r.coreness },
        meta: { quality: r.quality },
      };
    }
    const r = kmConfig(n, g.outOff, g.outAdj, runsFor(n, g.m), rng, ctx.checkpoint);
    // label pairs by size over non-isolated nodes
    const isolated = (u: number) => g.outOff[u + 1] === g.outOff[u];
    let K = 0;
    for (let i = 0; i < n; i++) if (r.pair[i] + 1 > K) K = r.pair[i] + 1;
    const com = new Int32Array(n);
    // isolated nodes go to a dummy label K so they never affect ranks of real pairs
    for (let i = 0; i < n; i++) com[i] = isolated(i) ? K : r.pair[i];
    const rank = rankBySize(com, K + 1);
    // re-rank excluding the dummy label
    const realRank = new Int32Array(K + 1);
    const sortedReal = Array.from({ length: K + 1 }, (_, c) => c)
      .filter((c) => c !== K)
      .sort((a, b) => rank[a] - rank[b]);
    sortedReal.forEach((c, i) => (realRank[c] = i));
    const label: (string | undefined)[] = new Array(n);
    const coreness: (number | undefined)[] = new Array(n);
    for (let i = 0; i < n; i++) {
      if (isolated(i)) continue;
      label[i] = `Core ${realRank[r.pair[i]] + 1}`;
      coreness[i] = r.core[i];
    }
    return { values: { 'Core Periphery': label, Coreness: coreness }, meta: { quality: r.quality } };
  },
};
