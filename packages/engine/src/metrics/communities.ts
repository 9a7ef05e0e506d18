/**
 * communities — Louvain community detection.
 *
 * Definition: NetworkX 3.6 `louvain_communities(G, weight, resolution, threshold=1e-7, seed)` on the
 * graph of docs/spec/decisions.md §4.1 converted to undirected (reciprocal and parallel edges merged, weights
 * summed with `metricEdgeWeights`, else every edge 1). Self-loops are kept and treated as NetworkX does
 * (they add to a node's degree, never make it its own neighbour; internal weight becomes a self-loop of
 * the aggregated node). `resolution` γ ≥ 0: 0 puts each connected component in one community, a large
 * value (e.g. 2·n) leaves every node on its own. `maxSize` (optional) caps the number of nodes per
 * community: a move that would exceed it is not made.
 * Output: `Community` = `Community 1..K` of the final level (1 = largest, ties by smallest first node
 * index); with `allLevels` also `Community - Level 1..L` (1 = finest, same naming per level).
 * `meta.modularity` = NetworkX `modularity(G, communities, weight, resolution=1)` of the final level
 * (0 without edges), `meta.communityCount` = K, `meta.seed`.
 * Extreme numbers (metrics/weights.ts): the partition does not depend on the unit of the weights, so
 * Louvain always runs on weights rescaled by a power of two (largest in [1, 2); exact, the same moves
 * as on the original weights wherever those do not overflow): 1e308 or 5e-324 weights cannot overflow
 * its sums and squares. `resolution` is at most 1e100 (beyond, the gains overflow; far below that every
 * node already stays on its own in any network the API accepts): larger values are 400 INVALID_ARGS.
 * Deviations: NetworkX shuffles with Python's Mersenne Twister; we shuffle with a seeded xoshiro128**
 * stream (kernels/random.ts), so the partition is a Louvain partition of the same quality, not
 * NetworkX's exact one. For graphs with at most 20,000 edges the kernel runs 8 seeded restarts and keeps
 * the one of highest modularity (at γ = the requested resolution), which makes small-graph results
 * robust; larger graphs run once.
 * References: Blondel, Guillaume, Lambiotte & Lefebvre (2008), J. Stat. Mech. P10008,
 * doi 10.1088/1742-5468/2008/10/P10008; NetworkX `networkx.algorithms.community.louvain`.
 */
import { Type } from 'typebox';
import { buildGraph, weightAttribute } from '../graph/build.ts';
import type { Graph } from '../graph/csr.ts';
import type { NodeMetric } from './types.ts';
import { metricEdgeWeightsParam, seedParam } from './params.ts';
import { louvain, type LouvainResult } from '../kernels/louvain.ts';
import { subSeed } from '../kernels/random.ts';
import { rescaled } from './weights.ts';

const params = Type.Object(
  {
    allLevels: Type.Boolean({ default: false, description: 'Also output every level of the Louvain hierarchy (`Community - Level 1..L`, 1 = finest).' }),
    metricEdgeWeights: metricEdgeWeightsParam,
    resolution: Type.Number({
      minimum: 0,
      maximum: 1e100,
      default: 1,
      description: 'Resolution γ (0 to 1e100): 0 puts each connected component in one community; two times the node count leaves each node on its own.',
    }),
    maxSize: Type.Optional(Type.Integer({ minimum: 1, description: 'Largest allowed community size (nodes). No maximum by default.' })),
    seed: seedParam,
  },
  { additionalProperties: false },
);
interface Params {
  allLevels: boolean;
  metricEdgeWeights?: boolean | string;
  resolution: number;
  maxSize?: number;
  seed?: number;
}

const RESTART_EDGE_LIMIT = 20000;
const RESTARTS = 8;

/** NetworkX `modularity(G, communities, weight, resolution)` on a CSR graph (undirected). */
export function partitionModularity(g: Graph, com: Int32Array, resolution: number): number {
  let m2 = 0;
  let internal = 0;
  let K = 0;
  for (let u = 0; u < g.n; u++) if (com[u] + 1 > K) K = com[u] + 1;
  const dsum = new Float64Array(K);
  for (let u = 0; u < g.n; u++) {
    const cu = com[u];
    let d = 0;
    for (let p = g.outOff[u]; p < g.outOff[u + 1]; p++) {
      const v = g.outAdj[p];
      const x = g.outW[p];
      if (v === u) {
        d += 2 * x;
        internal += 2 * x;
      } else {
        d += x;
        if (com[v] === cu) internal += x;
      }
    }
    dsum[cu] += d;
    m2 += d;
  }
  if (m2 === 0) return 0;
  let q = internal / m2;
  for (let c = 0; c < K; c++) q -= (resolution * dsum[c] * dsum[c]) / (m2 * m2);
  return q;
}

/** Ranks community labels by size desc, ties by smallest first node index; returns label -> rank (0-based). */
export function rankBySize(com: Int32Array, K: number): Int32Array {
  const size = new Int32Array(K);
  const first = new Int32Array(K).fill(-1);
  for (let i = 0; i < com.length; i++) {
    const c = com[i];
    size[c]++;
    if (first[c] < 0) first[c] = i;
  }
  const ids = Array.from({ length: K }, (_, c) => c);
  ids.sort((a, b) => size[b] - size[a] || first[a] - first[b]);
  const rank = new Int32Array(K);
  ids.forEach((c, r) => (rank[c] = r));
  return rank;
}

function names(com: Int32Array, K: number, prefix: string): string[] {
  const rank = rankBySize(com, K);
  const out = new Array<string>(com.length);
  for (let i = 0; i < com.length; i++) out[i] = `${prefix} ${rank[com[i]] + 1}`;
  return out;
}

/** Louvain on an undirected CSR graph; restarts on small graphs (see header). */
export function runLouvain(
  g: Graph,
  opts: { resolution: number; maxSize: number; seed: number; checkpoint: () => void },
): LouvainResult {
  const runs = g.m <= RESTART_EDGE_LIMIT ? RESTARTS : 1;
  let best: LouvainResult | null = null;
  let bestQ = -Infinity;
  for (let r = 0; r < runs; r++) {
    const res = louvain(g.n, g.outOff, g.outAdj, g.outW, {
      resolution: opts.resolution,
      maxSize: opts.maxSize,
      threshold: 1e-7,
      seed: r === 0 ? opts.seed : subSeed(opts.seed, r),
      checkpoint: opts.checkpoint,
    });
    if (runs === 1) return res;
    const q = partitionModularity(g, res.levels[res.levels.length - 1], opts.resolution);
    if (q > bestQ + 1e-12 || best === null) {
      bestQ = q;
      best = res;
    }
    opts.checkpoint();
  }
  return best as LouvainResult;
}

export const communities: NodeMetric<Params> = {
  id: 'communities',
  title: 'Communities (Louvain)',
  kind: 'node',
  summary: 'Louvain communities (directed networks converted to undirected).',
  params,
  randomized: true,
  attributes: ['Community', 'Community - Level 1..L (with allLevels)'],
  run(ctx) {
    const weight = weightAttribute(ctx.params.metricEdgeWeights);
    const { g } = rescaled(buildGraph(ctx.network, { directed: false, weight }), { always: true });
    const res = runLouvain(g, {
      resolution: ctx.params.resolution,
      maxSize: ctx.params.maxSize ?? 0,
      seed: ctx.seed,
      checkpoint: ctx.checkpoint,
    });
    const L = res.levels.length;
    const final = res.levels[L - 1];
    const values: Record<string, string[]> = { Community: names(final, res.counts[L - 1], 'Community') };
    if (ctx.params.allLevels) {
      for (let l = 0; l < L; l++) values[`Community - Level ${l + 1}`] = names(res.levels[l], res.counts[l], 'Community');
    }
    return {
      values,
      meta: { modularity: partitionModularity(g, final, 1), communityCount: res.counts[L - 1] },
    };
  },
};
