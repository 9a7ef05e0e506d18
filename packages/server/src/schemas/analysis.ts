/**
 * Wire schemas of network compare (docs/spec/decisions.md §11 "Compare"; docs/api/analysis.md). The group
 * report's answer is the engine registry's `GroupReport` (packages/engine/src/metrics/groups.ts), which
 * this answer's `groups[].a` / `.b` rows repeat.
 */
import { Type } from 'typebox';
import { GroupRowSchema } from '@netloom/engine/metrics/groups.ts';

const NullableNumber = (description?: string) => Type.Union([Type.Number(), Type.Null()], description ? { description } : {});

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

export const ANALYSIS_SCHEMAS = [NetworkCompareBody, NetworkCompareSchema] as const;
