/**
 * Named wire schemas of metric answers (docs/spec/decisions.md §4.3): the provenance `meta`, node values
 * (with `networkJSON`), the write-back answer (with `networkId`). Shared by the metric endpoints, the
 * embedded viewer's metric route and metric jobs (a job's `result` is what the synchronous call answers).
 */
import { Type } from 'typebox';
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

export const METRIC_SCHEMAS = [MetricMetaSchema, NodeMetricValuesSchema, MetricWriteBackSchema, NetworkMetricValueSchema] as const;
