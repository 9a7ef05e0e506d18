/**
 * Metric endpoints, generated from the engine registry: `POST /api/v2/metrics/network/<id>` and
 * `POST /api/v2/metrics/nodes/<id>` (docs/spec/api.md Metrics; docs/spec/decisions.md §2, §4.3).
 *
 * Order of checks: credential and `metrics:write` (auth hook) → plan (enterprise/partner: the
 * organization's for organization credentials, `effectivePlan` of the user for user credentials) and
 * organization membership for `requiresOrganization` metrics (403 PLAN_REQUIRED) → body (400
 * INVALID_ARGS, every problem) → with `networkId`: `networks:read` + `networks:write` (403
 * INSUFFICIENT_SCOPE), visibility (404) and edit access (403) → compute in the worker pool.
 *
 * Bodies are kept as bytes (this plugin's JSON parser does not parse): a small body (≤ 1 MiB) is parsed
 * and validated on the event loop so bad requests and `networkId` calls never wait for a worker; a bigger
 * one goes to a worker as is. The run itself (stored-version check, write-back, 409 CONFLICT, timeout and
 * cancel mapping) is domain/metrics/runs.ts, shared with the viewer, the chat and the job workers.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { metrics } from '@netloom/engine';
import { MetricPool } from '@netloom/engine/pool/index.ts';
import type { Config } from '../../config.ts';
import type { Principal } from '../../domain/identity/credentials/principal.ts';
import { DomainError } from '../../domain/errors.ts';
import { checkMetricPlan, MetricCancelled, runPostedMetric, type MetricAnswer, type MetricRunDeps } from '../../domain/metrics/runs.ts';
import { submitMetricJob } from '../../domain/metrics/jobs.ts';
import { metricPath } from '../../domain/metrics/paths.ts';
import { presentJob } from '../../presenters/job.ts';
import { metricBodySchema, metricDescription, metricResponseSchemas } from './schema.ts';

export { SMALL_BODY_BYTES } from '../../domain/metrics/runs.ts';

declare module 'fastify' {
  interface FastifyInstance {
    metricPool: MetricPool;
  }
}

/** Creates the metric worker pool of an app (one per app; closed with it). */
export function registerMetricPool(app: FastifyInstance, config: Config): MetricPool {
  const pool = new MetricPool({
    workers: config.limits.metricWorkers,
    queueSize: config.limits.metricQueueSize,
    timeoutMs: config.limits.metricTimeoutMs,
    limits: { maxNodes: config.limits.maxNodes, maxEdges: config.limits.maxEdges },
  });
  app.decorate('metricPool', pool);
  app.addHook('onClose', async () => pool.close());
  return pool;
}

/** What domain/metrics/runs.ts needs, from an app. */
export function metricRunDeps(app: FastifyInstance): MetricRunDeps {
  const l = app.config.limits;
  return { db: app.database.db, pool: app.metricPool, limits: { maxNodes: l.maxNodes, maxEdges: l.maxEdges, metricTimeoutMs: l.metricTimeoutMs }, log: app.log };
}

function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new DomainError('UNAUTHENTICATED', 'a credential is required');
  return request.principal;
}

/** An AbortSignal that fires when the client goes away before the answer is sent. */
function disconnectSignal(reply: FastifyReply): { signal: AbortSignal; done: () => void } {
  const ac = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) ac.abort();
  };
  reply.raw.on('close', onClose);
  return { signal: ac.signal, done: () => reply.raw.off('close', onClose) };
}

export function sendJSONBytes(reply: FastifyReply, bytes: Uint8Array | string, status = 200): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(typeof bytes === 'string' ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

/** Runs `fn` with the client's disconnect as its cancel signal; a cancelled run answers 499 (nobody listens). */
export async function withDisconnect(reply: FastifyReply, fn: (signal: AbortSignal) => Promise<MetricAnswer>): Promise<FastifyReply> {
  const { signal, done } = disconnectSignal(reply);
  try {
    return sendJSONBytes(reply, (await fn(signal)).json);
  } catch (err) {
    if (err instanceof MetricCancelled) return reply.code(499).send();
    throw err;
  } finally {
    done();
  }
}

/** `Prefer: respond-async` (RFC 7240; other preferences may come along): run as a job (docs/jobs.md). */
export function prefersAsync(request: FastifyRequest): boolean {
  const prefer = request.headers.prefer;
  const text = Array.isArray(prefer) ? prefer.join(',') : (prefer ?? '');
  return /(^|[,\s])respond-async\s*(,|;|$)/i.test(text);
}

export async function metricRoutes(app: FastifyInstance): Promise<void> {
  const deps = metricRunDeps(app);
  const jobs = { ...deps, jobs: app.config.jobs, wake: () => app.jobRunner?.wake(), queue: app.jobQueue, now: app.now };

  // Keep metric bodies as bytes: parsed here when small, in a worker when big (see the header).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  for (const metric of metrics.values()) {
    const url = `/metrics/${metricPath(metric)}`;
    app.post(
      url,
      {
        config: { auth: { resource: 'metrics' } },
        validatorCompiler: () => () => true,
        schema: {
          summary: metric.summary,
          description: metricDescription(metric),
          tags: [metric.kind === 'node' ? 'node metrics' : 'network metrics'],
          body: metricBodySchema(metric),
          response: metricResponseSchemas(metric),
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        if (prefersAsync(request)) {
          const job = await submitMetricJob({ ...jobs, log: request.log }, p, metric, request.body as Buffer | undefined);
          return reply.code(202).header('location', `/api/v2/jobs/${job.row.id}`).header('preference-applied', 'respond-async').send(presentJob(job));
        }
        await checkMetricPlan(deps.db, p, metric);
        const startedAt = Date.now() - reply.elapsedTime;
        return withDisconnect(reply, (signal) => runPostedMetric({ ...deps, log: request.log }, p, metric, request.body as Buffer | undefined, { signal, startedAt }));
      },
    );
  }
}
