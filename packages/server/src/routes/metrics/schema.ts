/**
 * OpenAPI/JSON schemas of the metric endpoints, generated from the engine registry: the body is the
 * common parameters plus the metric's own TypeBox parameters (closed), the responses follow
 * docs/spec/decisions.md §4.3. Validation itself is done by the engine's parseMetricRequest (the same code runs on
 * the event loop for small bodies and in a pool worker for big ones); these schemas document it.
 */
import { Type } from 'typebox';
import type { AnyMetric } from '@netloom/engine';
import { problemResponses, MetricWriteBackSchema, NetworkMetricValueSchema, NodeMetricValuesSchema, ref, JobSchema } from '@netloom/protocol/http';

type Json = Record<string, unknown>;

/** Plain JSON Schema copy (drops TypeBox's symbol keys, keeps keywords). */
function plain<T>(schema: T): T {
  return JSON.parse(JSON.stringify(schema)) as T;
}

export function metricBodySchema(metric: AnyMetric): Json {
  const own = plain(metric.params) as unknown as { properties?: Record<string, Json>; required?: string[] };
  const props = own.properties ?? {};
  // Parameters with a default are optional on the wire.
  const required = (own.required ?? []).filter((k) => props[k] && !('default' in props[k]));
  return {
    type: 'object',
    additionalProperties: false,
    description:
      'Exactly one of `networkId` and `networkJSON`. Unknown keys are 400 INVALID_ARGS. ' +
      'Every violation of a type, range or enum is 400 INVALID_ARGS naming the parameter in `errors[].path`.',
    properties: {
      networkId: { type: 'string', minLength: 1, description: 'Id of a stored network (its nodes get the result as attributes).' },
      networkJSON: { $ref: 'NetworkJSON#', description: 'Network data (Network JSON); the result is returned.' },
      isDirected: {
        anyOf: [{ type: 'boolean' }, { type: 'string', enum: ['true', 'false'] }],
        default: true,
        description: 'With `networkJSON`: whether the network is directed (default true). Ignored with `networkId` (the stored network says).',
      },
      ...props,
    },
    ...(required.length ? { required } : {}),
  };
}

const problems = problemResponses(403, 404, 409, 422, 503);
/** With `Prefer: respond-async`: the job (docs/jobs.md), `Location: /api/v2/jobs/<jobId>`. */
const accepted = { 202: ref(JobSchema) };

export function metricResponseSchemas(metric: AnyMetric): Json {
  if (metric.kind === 'network') return { 200: ref(NetworkMetricValueSchema), ...accepted, ...problems };
  if (metric.kind === 'report') return { 200: ref(metric.response), ...accepted, ...problems };
  return { 200: Type.Union([ref(NodeMetricValuesSchema), ref(MetricWriteBackSchema)]), ...accepted, ...problems };
}

export function metricDescription(metric: AnyMetric): string {
  const lines = [metric.summary, '', 'Enterprise and Partner plans only (403 PLAN_REQUIRED). Scope `metrics:write`; with `networkId` also `networks:read` and `networks:write`.'];
  if (metric.requiresOrganization) lines.push('Organization accounts only: the caller must belong to an organization (403 PLAN_REQUIRED).');
  if (metric.kind === 'node') lines.push('', `Attributes: ${metric.attributes.map((a) => `\`${a}\``).join(', ')}.`);
  if (metric.sampling) lines.push('', 'Large networks: lower `kPercent` to sample sources when the compute limit (422 METRIC_TIMEOUT) is reached.');
  return lines.join('\n');
}
