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
import type { FastifyInstance } from 'fastify';
import { metrics } from '@netloom/engine';
import { checkMetricPlan, runPostedMetric } from '../../domain/metrics/runs.ts';
import { submitMetricJob } from '../../domain/metrics/jobs.ts';
import { metricPath } from '../../domain/metrics/paths.ts';
import { presentJob } from '../../presenters/job.ts';
import { metricBodySchema, metricDescription, metricResponseSchemas } from '../../schemas/metrics.ts';
import { prefersAsync, withDisconnect } from '../../http/metric-reply.ts';
import { principalOf } from '../../plugins/principal.ts';

export async function metricRoutes(app: FastifyInstance): Promise<void> {
  const deps = app.metricRunDeps;
  const jobs = app.jobDeps;

  // Keep metric bodies as bytes: parsed here when small, in a worker when big (see the header).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  for (const metric of metrics.values()) {
    const url = `/metrics/${metricPath(metric)}`;
    app.post(
      url,
      {
        // big bodies are counted (nodes, edges) and parsed in the metric worker, not on the event loop
        config: { auth: { resource: 'metrics' }, networkBodyCountedInWorker: true },
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
        const p = principalOf(request, 'credential');
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
