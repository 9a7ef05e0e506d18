/**
 * identifyInfluencers — greedy maximum coverage (key-player problem, Borgatti 2006).
 *
 * Definition (docs/spec/metrics-extra.md): graph of docs/spec/decisions.md §4.1 with the network's own direction, parallel
 * edges merged, self-loops dropped, weights unused. Candidates: all nodes, or those whose
 * `identifyInfluencersAttribute` value (string form) is one of `identifyInfluencersAttributeValues`
 * (attribute without values: every node that has a value). Coverage of v = {v} ∪ its neighbours in
 * `direction` (`total`: in and out; `out`: nodes v points to; `in`: nodes pointing to v; undirected
 * networks: all neighbours). Repeatedly pick the candidate covering most not-yet-covered nodes (ties:
 * higher total degree = in + out distinct neighbours, then input order) until `influencersCount` are
 * chosen (method `count`, where the count is required) or covered/n ≥ `targetCoveragePercent`/100
 * (`coverage`), or no candidate adds anything. `Influencer` = selection order 1..k on chosen nodes only.
 * `meta.coveragePercent` = 100·covered/n, `meta.influencerIds` = chosen ids in order.
 * Implementation: lazy greedy (cached gains are upper bounds, re-evaluated at the top of a heap), which
 * picks exactly the same sequence as the plain greedy with these tie rules.
 * Deviation: `identifyInfluencersAttributeValues` without `identifyInfluencersAttribute` is 400.
 * References: Borgatti (2006), Comput. Math. Organ. Theory 12:21–34, doi 10.1007/s10588-006-7084-x.
 */
import { Type } from 'typebox';
import { buildGraph } from '../graph/build.ts';
import type { NodeMetric } from './types.ts';
import { invalidArgs } from '../errors.ts';
import { nodeValues } from './externalVsInternal.ts';
import { greedyCoverage } from '../kernels/coverage.ts';

const params = Type.Object(
  {
    direction: Type.Union([Type.Literal('total'), Type.Literal('in'), Type.Literal('out')], {
      default: 'total',
      description: 'Whom a node covers: `out` nodes it points to, `in` nodes pointing to it, `total` both.',
    }),
    identifyInfluencersAttribute: Type.Optional(Type.String({ minLength: 1, description: 'Node attribute restricting the candidates.' })),
    identifyInfluencersAttributeValues: Type.Optional(
      Type.Array(Type.Union([Type.String(), Type.Number()]), { description: 'Influencers must have one of these values of `identifyInfluencersAttribute`.' }),
    ),
    identifyInfluencersMethod: Type.Union([Type.Literal('coverage'), Type.Literal('count')], {
      default: 'coverage',
      description: '`coverage`: pick until `targetCoveragePercent` is covered; `count`: pick `influencersCount` nodes.',
    }),
    influencersCount: Type.Optional(Type.Integer({ minimum: 1, description: 'Number of influencers (method `count`, required there).' })),
    targetCoveragePercent: Type.Number({ minimum: 0, maximum: 100, default: 90, description: 'Coverage to reach (method `coverage`).' }),
  },
  { additionalProperties: false },
);
interface Params {
  direction: 'total' | 'in' | 'out';
  identifyInfluencersAttribute?: string;
  identifyInfluencersAttributeValues?: (string | number)[];
  identifyInfluencersMethod: 'coverage' | 'count';
  influencersCount?: number;
  targetCoveragePercent: number;
}

export const identifyInfluencers: NodeMetric<Params> = {
  id: 'identifyInfluencers',
  title: 'Influencers (key players)',
  kind: 'node',
  summary: 'Greedy maximum-coverage choice of influencers (key players).',
  params,
  attributes: ['Influencer'],
  validate(p) {
    if (p.identifyInfluencersMethod === 'count' && p.influencersCount === undefined) {
      throw invalidArgs('/influencersCount', 'required when identifyInfluencersMethod is "count"');
    }
    if (p.identifyInfluencersAttributeValues !== undefined && p.identifyInfluencersAttribute === undefined) {
      throw invalidArgs('/identifyInfluencersAttribute', 'required when identifyInfluencersAttributeValues is given');
    }
  },
  run(ctx) {
    const p = ctx.params;
    const g = buildGraph(ctx.network, { directed: ctx.networkDirected, weight: null, selfLoops: false });
    const n = g.n;
    const candidate = new Uint8Array(n).fill(1);
    if (p.identifyInfluencersAttribute !== undefined) {
      const vals = nodeValues(ctx.network.nodes, p.identifyInfluencersAttribute);
      const allowed = p.identifyInfluencersAttributeValues ? new Set(p.identifyInfluencersAttributeValues.map(String)) : null;
      for (let v = 0; v < n; v++) {
        const x = vals[v];
        candidate[v] = x !== undefined && (allowed === null || allowed.has(x)) ? 1 : 0;
      }
    }
    const useOut = !g.directed || p.direction !== 'in';
    const useIn = g.directed && p.direction !== 'out';
    const res = greedyCoverage(g, candidate, useOut, useIn, {
      maxCount: p.identifyInfluencersMethod === 'count' ? (p.influencersCount as number) : Infinity,
      targetFraction: p.identifyInfluencersMethod === 'coverage' ? p.targetCoveragePercent / 100 : Infinity,
      checkpoint: ctx.checkpoint,
    });
    const order: (number | undefined)[] = new Array(n);
    res.chosen.forEach((v, k) => (order[v] = k + 1));
    return {
      values: { Influencer: order },
      meta: { coveragePercent: n === 0 ? 0 : (100 * res.covered) / n, influencerIds: res.chosen.map((v) => g.ids[v]) },
    };
  },
};
