/**
 * Named wire schemas of metric answers (docs/spec/decisions.md §4.3): the provenance `meta`, node values
 * (with `networkJSON`), the write-back answer (with `networkId`). Shared by the metric endpoints, the
 * embedded viewer's metric route and metric jobs (a job's `result` is what the synchronous call answers).
 */
import { Type, type Static } from 'typebox';
import { ref } from './ref.ts';

export const MetricMetaSchema = Type.Object(
  {
    metric: Type.String(),
    parameters: Type.Record(Type.String(), Type.Unknown(), { description: 'Every parameter, defaults filled in.' }),
    seed: Type.Optional(Type.Integer({ description: 'Randomised metrics.' })),
    nodeCount: Type.Integer(),
    edgeCount: Type.Integer(),
    elapsedMs: Type.Number(),
    engineVersion: Type.String(),
  },
  { $id: 'MetricMeta', additionalProperties: true, description: 'Provenance; metric-specific figures (docs/metrics.md) are added.' },
);

export const NodeMetricValuesSchema = Type.Object(
  {
    values: Type.Record(Type.String(), Type.Record(Type.String(), Type.Union([Type.Number(), Type.String()])), {
      description: 'Attribute name → node id (string form) → value. Nodes not scored are absent.',
    }),
    meta: ref(MetricMetaSchema),
  },
  { $id: 'NodeMetricValues', additionalProperties: false, description: 'A node metric on posted `networkJSON`.' },
);

export const MetricWriteBackSchema = Type.Object(
  {
    _id: Type.String(),
    networkUUID: Type.String({ description: 'New UUID: the stored network changed.' }),
    attributes: Type.Array(Type.String(), { description: 'Attribute names written on the nodes.' }),
    meta: ref(MetricMetaSchema),
  },
  { $id: 'MetricWriteBack', additionalProperties: false, description: 'A node metric with `networkId`: the values were written on the stored nodes.' },
);

export const NetworkMetricValueSchema = Type.Number({ $id: 'NetworkMetricValue', description: 'A network metric: the value as a bare JSON number (with networkId or networkJSON).' });

/** A metric the web app or the viewer offers to run (the engine registry's `offeredMetrics()`). */
export const OfferedMetricSchema = Type.Object(
  {
    id: Type.String({ description: 'The endpoint id (docs/metrics.md).' }),
    title: Type.String({ description: 'Its short name in lists.' }),
    kind: Type.Union([Type.Literal('node'), Type.Literal('network')], { description: '`node`: values per node (written to the network or added as node attributes); `network`: one number.' }),
  },
  { $id: 'OfferedMetric', additionalProperties: false },
);

export const OfferedMetricListSchema = Type.Object(
  { metrics: Type.Array(ref(OfferedMetricSchema), { description: "Every metric of the engine's registry that runs with its default parameters, in the registry's order." }) },
  { $id: 'OfferedMetricList', additionalProperties: false, description: 'The metrics offered to run with their defaults.' },
);

export type OfferedMetric = Static<typeof OfferedMetricSchema>;
export type OfferedMetricList = Static<typeof OfferedMetricListSchema>;

export const METRIC_SCHEMAS = [MetricMetaSchema, NodeMetricValuesSchema, MetricWriteBackSchema, NetworkMetricValueSchema, OfferedMetricSchema, OfferedMetricListSchema] as const;
