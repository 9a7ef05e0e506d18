/**
 * Metric jobs (docs/jobs.md, docs/spec/decisions.md §8): `POST /metrics/batch`, `GET /jobs`, `GET /jobs/:id`,
 * `DELETE /jobs/:id`. Thin: the domain (domain/metrics/jobs.ts) checks scopes beyond the route's, tenancy and
 * bodies; `metrics:read` reads jobs, `metrics:write` creates and cancels them (the auth hook, by method).
 * `Prefer: respond-async` on the metric endpoints is in routes/metrics.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { App } from '../http/app-type.ts';
import type { Principal } from '../domain/identity/credentials/principal.ts';
import { DomainError } from '../domain/errors.ts';
import { cancelJob, getJob, listJobs, submitBatchJob, type JobDeps } from '../domain/metrics/jobs.ts';
import { JobRunner } from '../domain/metrics/job-runner.ts';
import { openJobQueue, type RedisJobQueue } from '../domain/metrics/job-queue.ts';
import { presentJob } from '../presenters/job.ts';
import { BatchBodySchema, JobIdParams, JobListQuery, JobListSchema, JobSchema, problemResponses, ref } from '@netloom/protocol/http';
import { metricRunDeps } from './metrics/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's job worker (null with NETLOOM_WORKERS=0). */
    jobRunner: JobRunner | null;
    /** The Redis job queue (BullMQ) when REDIS_URL is set, else null (the table queue). */
    jobQueue: RedisJobQueue | null;
  }
}

function me(request: FastifyRequest): Principal {
  if (!request.principal) throw new DomainError('UNAUTHENTICATED', 'a credential is required');
  return request.principal;
}

/** What the job domain needs, from an app. */
export function jobDeps(app: FastifyInstance): JobDeps {
  return { ...metricRunDeps(app), jobs: app.config.jobs, wake: () => app.jobRunner?.wake(), queue: app.jobQueue, now: app.now };
}

/**
 * Opens the job queue (Redis when REDIS_URL is set) and starts this process's job worker unless
 * NETLOOM_WORKERS=0 (it runs on the app's metric pool and stops, giving its rows back to the queue, when
 * the app closes).
 */
export function registerJobWorker(app: FastifyInstance): void {
  const queue = openJobQueue(app.config, app.log);
  app.decorate('jobQueue', queue);
  if (queue) {
    // jobs submitted right after start find the queue connected (or get 503 if Redis is not there)
    app.addHook('onReady', async () => void (await queue.ready(2_000)));
    app.addHook('onClose', async () => queue.close());
  }
  const slots = app.config.jobs.apiWorkers;
  const runner = slots > 0 ? new JobRunner({ db: app.database.db, pool: app.metricPool, config: app.config, concurrency: slots, log: app.log, queue }) : null;
  app.decorate('jobRunner', runner);
  if (!runner) return;
  app.addHook('onReady', async () => runner.start());
  app.addHook('preClose', async () => runner.stop());
}

export async function jobRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify as unknown as App;
  const deps = jobDeps(fastify);

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
      const job = await submitBatchJob(deps, me(request), request.body);
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
      const { jobs, total } = await listJobs(deps.db, me(request), limit, offset);
      return { jobs: jobs.map((j) => presentJob(j, { withResult: false })), total, limit, offset };
    },
  );

  app.get(
    '/jobs/:id',
    {
      config: { auth: { resource: 'metrics' } },
      schema: { summary: 'A metric job: status, progress, ETA, shard records, and its result once it succeeded', tags: ['jobs'], params: JobIdParams, response: { 200: ref(JobSchema), ...problemResponses(404) } },
    },
    async (request) => presentJob(await getJob(deps.db, me(request), request.params.id)),
  );

  app.delete(
    '/jobs/:id',
    {
      config: { auth: { resource: 'metrics' } },
      schema: { summary: 'Cancel a metric job (frees its worker at once); a finished job is answered as it is', tags: ['jobs'], params: JobIdParams, response: { 200: ref(JobSchema), ...problemResponses(404) } },
    },
    async (request) => presentJob(await cancelJob(deps, me(request), request.params.id)),
  );
}
