/**
 * brokerage — Gould–Fernandez brokerage roles.
 *
 * Definition (docs/spec/metrics-extra.md): on the graph of docs/spec/decisions.md §4.1 with the network's own direction
 * (parallel edges merged, self-loops dropped), for every ordered open two-path a→b→c (a ≠ c, edges
 * a→b and b→c, no edge a→c) broker b gains one role by the groups g of `partition`:
 * Coordinator g(a)=g(b)=g(c); Consultant g(a)=g(c)≠g(b); Gatekeeper g(a)≠g(b)=g(c);
 * Representative g(a)=g(b)≠g(c); Liaison all three differ. `Brokerage - Total` = their sum.
 * Undirected networks: every edge counts in both directions (R `sna::brokerage` parity, so
 * Gatekeeper = Representative). Weights are ignored, except that with `metricEdgeWeights` an edge whose
 * (merged) weight is ≤ 0 is no tie. Groups are compared by string form. Every node is scored.
 * `partition` must map every node id (string form) to a group: missing ids are 400 INVALID_ARGS at
 * `/partition` listing them; ids that are not nodes are ignored.
 * References: Gould & Fernandez (1989), Sociological Methodology 19:89–126, doi 10.2307/270949;
 * R `sna::brokerage`. No NetworkX function.
 */
import { Type } from 'typebox';
import { buildGraph, weightAttribute } from '../graph/build.ts';
import type { NodeMetric } from './types.ts';
import { metricEdgeWeightsParam } from './params.ts';
import { EngineError } from '../errors.ts';
import { brokerageCounts } from '../kernels/brokerage.ts';

const params = Type.Object(
  {
    partition: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]), {
      description: 'Object mapping every node id to its group (String or Number; compared as strings).',
    }),
    metricEdgeWeights: metricEdgeWeightsParam,
  },
  { additionalProperties: false },
);
interface Params {
  partition: Record<string, string | number>;
  metricEdgeWeights?: boolean | string;
}

export const ROLES = ['Coordinator', 'Consultant', 'Gatekeeper', 'Representative', 'Liaison'] as const;

export const brokerage: NodeMetric<Params> = {
  id: 'brokerage',
  title: 'Brokerage roles',
  kind: 'node',
  summary: 'Gould–Fernandez brokerage: counts of the roles Coordinator, Consultant, Gatekeeper, Representative and Liaison per node.',
  params,
  attributes: [...ROLES.map((r) => `Brokerage - ${r}`), 'Brokerage - Total'],
  validate(p, network) {
    const missing: string[] = [];
    for (const nd of network.nodes) {
      const id = String(nd.id);
      if (!Object.hasOwn(p.partition, id)) missing.push(id);
    }
    if (missing.length > 0) {
      const shown = missing.slice(0, 100).map((s) => JSON.stringify(s)).join(', ');
      const message = `partition is missing ${missing.length} node id(s): ${shown}${missing.length > 100 ? ', …' : ''}`;
      throw new EngineError('INVALID_ARGS', `partition: ${message}`, [{ path: '/partition', message }]);
    }
  },
  run(ctx) {
    const weight = weightAttribute(ctx.params.metricEdgeWeights);
    const g = buildGraph(ctx.network, { directed: ctx.networkDirected, weight, selfLoops: false });
    const group = new Int32Array(g.n);
    const codes = new Map<string, number>();
    for (let i = 0; i < g.n; i++) {
      const key = String(ctx.params.partition[g.ids[i]]);
      let c = codes.get(key);
      if (c === undefined) codes.set(key, (c = codes.size));
      group[i] = c;
    }
    const counts = brokerageCounts(g, group, weight !== null, ctx.checkpoint);
    const values: Record<string, Float64Array> = {};
    ROLES.forEach((r, k) => (values[`Brokerage - ${r}`] = counts[k]));
    values['Brokerage - Total'] = counts[5];
    return { values };
  },
};
