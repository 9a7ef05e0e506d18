/**
 * Metric jobs (docs/jobs.md, docs/spec/decisions.md §8): `POST /metrics/batch`, `GET /jobs`, `GET /jobs/:id`,
 * `DELETE /jobs/:id`. Thin: the domain (domain/metrics/jobs.ts) checks scopes beyond the route's, tenancy and
 * bodies; `metrics:read` reads jobs, `metrics:write` creates and cancels them (the auth hook, by method).
 * `Prefer: respond-async` on the metric endpoints is in routes/metrics.
 */
import type { FastifyInstance } from 'fastify';
import type { App } from '../http/app-type.ts';
import { cancelJob, getJob, listJobs, submitBatchJob } from '../domain/metrics/jobs.ts';
import { presentJob } from '../presenters/job.ts';
import { BatchBodySchema, JobIdParams, JobListQuery, JobListSchema, JobSchema, problemResponses, ref } from '@netloom/protocol/http';
import { DomainError } from '../domain/errors.ts';
import { principalOf } from '../plugins/principal.ts';

export async function jobRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify as unknown as App;
  const deps = fastify.jobDeps;

  app.post(
    '/metrics/batch',
    {
      config: { auth: { resource: 'metrics' } },
      schema: {
        summary: 'Run several metrics on one network as one job (always asynchronous: 202 + Location)',
        description: 'With `networkId` every node attribute is written at once (one `networkUUID` change). See docs/jobs.md.',
        tags: ['jobs'],
        body: ref(BatchBodySchema),
        response: { 202: ref(JobSchema), ...problemResponses(403, 404, 503) },
      },
    },
    async (request, reply) => {
      const job = await submitBatchJob(deps, principalOf(request, 'credential'), request.body);
      return reply.code(202).header('location', `/api/v2/jobs/${job.row.id}`).header('preference-applied', 'respond-async').send(presentJob(job));
    },
  );

  app.get(
    '/jobs',
    {
      config: { auth: { resource: 'metrics' } },
      schema: { summary: 'List your metric jobs, newest first', tags: ['jobs'], querystring: JobListQuery, response: { 200: ref(JobListSchema) } },
    },
    async (request) => {
      const limit = request.query.limit === undefined ? 50 : Number(request.query.limit);
      const offset = request.query.offset === undefined ? 0 : Number(request.query.offset);
      if (limit < 1 || limit > 200) throw new DomainError('INVALID_ARGS', 'query.limit: must be 1 to 200', [{ path: '/query/limit', message: 'must be 1 to 200' }]);
      const { jobs, total } = await listJobs(deps.db, principalOf(request, 'credential'), limit, offset);
      return { jobs: jobs.map((j) => presentJob(j, { withResult: false })), total, limit, offset };
    },
  );

  app.get(
    '/jobs/:id',
    {
      config: { auth: { resource: 'metrics' } },
      schema: { summary: 'A metric job: status, progress, ETA, shard records, and its result once it succeeded', tags: ['jobs'], params: JobIdParams, response: { 200: ref(JobSchema), ...problemResponses(404) } },
    },
    async (request) => presentJob(await getJob(deps.db, principalOf(request, 'credential'), request.params.id)),
  );

  app.delete(
    '/jobs/:id',
    {
      config: { auth: { resource: 'metrics' } },
      schema: { summary: 'Cancel a metric job (frees its worker at once); a finished job is answered as it is', tags: ['jobs'], params: JobIdParams, response: { 200: ref(JobSchema), ...problemResponses(404) } },
    },
    async (request) => presentJob(await cancelJob(deps, principalOf(request, 'credential'), request.params.id)),
  );
}
