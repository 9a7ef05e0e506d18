/**
 * Wire shapes of metric jobs (docs/jobs.md, docs/spec/decisions.md §8): the job, its shard records, the job list and
 * the batch request. Named (registered in http/index.ts) so they appear in the OpenAPI document.
 */
import { Type, type Static } from 'typebox';
import { ref } from './ref.ts';
import { NetworkJSONSchema } from './network.ts';
import { ProblemSchema } from './problem.ts';
import { JobIdParams, JobPageQuery, pageCounters } from './paging.ts';

export const JobStatusSchema = Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('succeeded'), Type.Literal('failed'), Type.Literal('cancelled')], {
  $id: 'JobStatus',
  description: '`queued` → `running` → `succeeded` | `failed` | `cancelled`.',
});

export const JobShardSchema = Type.Object(
  {
    index: Type.Integer({ minimum: 0, description: 'Shard number: the shard computes the sources of this share of the source loop.' }),
    count: Type.Integer({ minimum: 1 }),
    status: ref(JobStatusSchema),
    progress: Type.Number({ minimum: 0, maximum: 1 }),
    workerId: Type.Union([Type.String(), Type.Null()], { description: 'The worker that took it last (`<host>:<pid>:<random>`); null while queued.' }),
    attempts: Type.Integer({ minimum: 0, description: 'Times it was claimed (a worker lost mid-shard → another claims it; at most 3).' }),
    startedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    finishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'JobShard', additionalProperties: false },
);

export const JobMetricSchema = Type.Object(
  { metric: Type.String({ description: 'Metric id, e.g. `betweennessCentrality`.' }), parameters: Type.Record(Type.String(), Type.Unknown(), { description: 'The metric’s parameters as sent (validated).' }) },
  { $id: 'JobMetric', additionalProperties: false },
);

/** A job's fields (JobSchema; the web app's WebJob adds the network's name). */
export const jobProperties = {
  jobId: Type.String(),
  status: ref(JobStatusSchema),
  progress: Type.Number({ minimum: 0, maximum: 1, description: 'Work done (sources done / total for source loops, iterations for iterative methods); never decreases.' }),
  etaSeconds: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], { description: 'Estimated seconds to completion from the progress so far; null until there is progress.' }),
  metric: Type.Optional(Type.String({ description: 'The metric of a single-metric job.' })),
  metrics: Type.Array(ref(JobMetricSchema), { description: 'The metrics of the job (one, or the batch’s in order).' }),
  batch: Type.Boolean({ description: 'Submitted by `POST /metrics/batch`.' }),
  networkId: Type.Optional(Type.String({ description: 'The stored network (absent with `networkJSON`).' })),
  createdAt: Type.String({ format: 'date-time' }),
  startedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  finishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When the finished job and its result are deleted (7 days after it finished, by default).' }),
  result: Type.Optional(Type.Unknown({ description: 'When succeeded (`GET /jobs/:id` only): what the synchronous call answers (a number, `{ values, meta }`, or the write-back summary); for a batch `{ results: [...] }` (docs/jobs.md).' })),
  error: Type.Optional(ref(ProblemSchema)),
  shards: Type.Optional(Type.Array(ref(JobShardSchema), { description: 'A split job’s shard records.' })),
};

export const JobSchema = Type.Object(jobProperties, { $id: 'Job', additionalProperties: false, description: 'A metric job (docs/jobs.md).' });
export type JobWire = Static<typeof JobSchema>;

export const JobListSchema = Type.Object(
  {
    jobs: Type.Array(ref(JobSchema), { description: 'Newest first; without `result` (read the job for it).' }),
    ...pageCounters(),
  },
  { $id: 'JobList', additionalProperties: false },
);

export const JobListQuery = JobPageQuery;
export { JobIdParams };

export const BatchMetricSchema = Type.Object(
  { metric: Type.String({ minLength: 1, maxLength: 100, description: 'Metric id; the other keys are its parameters (as on its endpoint).' }) },
  { $id: 'BatchMetric', additionalProperties: true },
);

export const BatchBodySchema = Type.Object(
  {
    networkId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    networkJSON: Type.Optional(ref(NetworkJSONSchema)),
    isDirected: Type.Optional(Type.Union([Type.Boolean(), Type.Literal('true'), Type.Literal('false')], { description: 'With `networkJSON` (default true).' })),
    metrics: Type.Array(ref(BatchMetricSchema), { minItems: 1, maxItems: 50 }),
  },
  { $id: 'MetricBatch', additionalProperties: false, description: 'Exactly one of `networkId` and `networkJSON`; the metrics run on one network as one job.' },
);

/** Every named schema of this file (registered in http/index.ts). */
export const JOB_SCHEMAS = [JobStatusSchema, JobShardSchema, JobMetricSchema, JobSchema, JobListSchema, BatchMetricSchema, BatchBodySchema] as const;
