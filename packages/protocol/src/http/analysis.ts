/**
 * Wire schemas of organizational network analysis (docs/spec/decisions.md §11; docs/api/analysis.md): the
 * group report's answer (`GroupReport`, the response of the engine registry's `groups` report, defined in
 * packages/engine/src/metrics/groups.ts) and network compare's body and answer.
 */
import { Type, type Static } from 'typebox';

const NullableNumber = (description?: string) => Type.Union([Type.Number(), Type.Null()], description ? { description } : {});


export const GroupRowSchema = Type.Object(
  {
    value: Type.String({ description: 'The attribute value, `(no value)` or `Other (< k)`.' }),
    size: Type.Integer({ description: 'Members.' }),
    internal: Type.Number({ description: 'Ties with both ends in the group (sum of weights with `metricEdgeWeights`).' }),
    external: Type.Number({ description: 'Ties with exactly one end in the group.' }),
    density: NullableNumber('internal ÷ possible ties within the group; null for a group of one.'),
    ei: NullableNumber('(external − internal) ÷ (external + internal) (Krackhardt & Stern); null when the group has no ties.'),
  },
  { additionalProperties: false },
);

export const GroupReportSchema = Type.Object(
  {
    attribute: Type.String(),
    groups: Type.Array(GroupRowSchema),
    matrix: Type.Object(
      {
        values: Type.Array(Type.String(), { description: 'Group values, in the order of `groups`: rows and columns of the matrices.' }),
        counts: Type.Array(Type.Array(Type.Number()), { description: 'counts[a][b] = ties from group a to group b (undirected: symmetric; the diagonal holds internal ties).' }),
        densities: Type.Array(Type.Array(Type.Union([Type.Number(), Type.Null()])), { description: 'counts ÷ possible ties (n_a·n_b; within-group pairs on the diagonal); null when none are possible.' }),
      },
      { additionalProperties: false },
    ),
    ei: NullableNumber('Whole-network E-I index: (Σ external − Σ internal) ÷ all ties; null without ties.'),
    suppressed: Type.Integer({ description: 'Nodes in groups below `minGroupSize` (merged into `Other (< k)`).' }),
    directed: Type.Boolean({ description: 'Whether ties (and the matrix) are directed.' }),
    ties: Type.Number({ description: 'All ties (sum of weights with `metricEdgeWeights`), each counted once.' }),
    meta: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Provenance (as every metric answer).' })),
  },
  { $id: 'GroupReport', additionalProperties: false, description: 'Group report (docs/metrics.md "groups").' },
);
/** One group of a group report, and the report: the engine computes them, the viewer's Groups panel shows them. */
export type GroupRow = Static<typeof GroupRowSchema>;
export type GroupReport = Static<typeof GroupReportSchema>;



export const NetworkCompareBody = Type.Object(
  {
    a: Type.String({ minLength: 1, maxLength: 200, description: 'The earlier network (its id).' }),
    b: Type.String({ minLength: 1, maxLength: 200, description: 'The later network (its id).' }),
    metrics: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        maxItems: 8,
        description: 'Node-metric ids (e.g. `totalDegree`, `betweennessCentrality`) run with their default parameters on both networks; per node `{ a, b, delta }` of the metric\'s first attribute. Needs the metrics plan and scope `metrics:write`.',
      }),
    ),
    attribute: Type.Optional(Type.String({ minLength: 1, description: 'Node attribute whose groups are compared (density and E-I of each group in both networks).' })),
    minGroupSize: Type.Optional(Type.Integer({ minimum: 1, description: 'Groups below it merge into `Other (< k)` in each network (default 1).' })),
    metricEdgeWeights: Type.Optional(
      Type.Union([Type.Boolean(), Type.String({ minLength: 1 })], { description: 'Tie weights as for metrics (default true: `weight`, else `Weight`); false: every tie weighs 1 and no weight change is reported.' }),
    ),
  },
  { $id: 'NetworkCompareBody', additionalProperties: false },
);

const Pair = Type.Array(Type.String(), { minItems: 2, maxItems: 2 });
const Side = Type.Union([GroupRowSchema, Type.Null()]);

export const NetworkCompareSchema = Type.Object(
  {
    directed: Type.Boolean({ description: 'Ties compared as directed (both networks directed) or undirected.' }),
    nodes: Type.Object(
      {
        joined: Type.Array(Type.String(), { description: 'Node ids in b only.' }),
        left: Type.Array(Type.String(), { description: 'Node ids in a only.' }),
        kept: Type.Integer({ description: 'Nodes in both.' }),
      },
      { additionalProperties: false },
    ),
    ties: Type.Object(
      {
        added: Type.Array(Pair, { description: 'Ties of b not in a, `[u, v]` (undirected: u < v in string order).' }),
        removed: Type.Array(Pair, { description: 'Ties of a not in b.' }),
        kept: Type.Integer({ description: 'Ties in both.' }),
        weightChanged: Type.Array(Type.Array(Type.Union([Type.String(), Type.Number()]), { minItems: 4, maxItems: 4 }), { description: '`[u, v, before, after]` of kept ties whose weight changed.' }),
      },
      { additionalProperties: false },
    ),
    metrics: Type.Optional(
      Type.Record(Type.String(), Type.Record(Type.String(), Type.Object({ a: Type.Union([Type.Number(), Type.String(), Type.Null()]), b: Type.Union([Type.Number(), Type.String(), Type.Null()]), delta: NullableNumber() }, { additionalProperties: false })), {
        description: 'Metric id → node id → `{ a, b, delta }` (delta = b − a when both are numbers).',
      }),
    ),
    groups: Type.Optional(
      Type.Array(Type.Object({ value: Type.String(), a: Side, b: Side, densityChange: NullableNumber(), eiChange: NullableNumber() }, { additionalProperties: false }), {
        description: 'Per group of `attribute` in either network: its group-report row in a and b (null where it is not reported) and the changes.',
      }),
    ),
    ei: Type.Optional(Type.Object({ a: NullableNumber(), b: NullableNumber(), change: NullableNumber() }, { additionalProperties: false, description: 'Whole-network E-I index of both.' })),
    suppressed: Type.Optional(Type.Object({ a: Type.Integer(), b: Type.Integer() }, { additionalProperties: false, description: 'Nodes in groups below `minGroupSize`.' })),
    meta: Type.Record(Type.String(), Type.Unknown(), { description: 'Node and edge counts of both, elapsedMs, engineVersion.' }),
  },
  { $id: 'NetworkCompare', additionalProperties: false, description: 'What changed from network a to network b.' },
);

export const DifferenceNetworkBody = Type.Object(
  { a: Type.String({ minLength: 1, maxLength: 200, description: 'The earlier network.' }), b: Type.String({ minLength: 1, maxLength: 200, description: 'The later network.' }) },
  { $id: 'DifferenceNetworkBody', additionalProperties: false },
);
export const DifferenceNetworkSchema = Type.Object(
  { _id: Type.String(), name: Type.String(), nodeCount: Type.Integer({ minimum: 0 }), edgeCount: Type.Integer({ minimum: 0 }) },
  { $id: 'DifferenceNetwork', additionalProperties: false },
);

export const ANALYSIS_SCHEMAS = [GroupReportSchema, NetworkCompareBody, NetworkCompareSchema, DifferenceNetworkBody, DifferenceNetworkSchema] as const;
