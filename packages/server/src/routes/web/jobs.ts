/**
 * The web app's metric jobs (docs/web-app.md "Metric jobs"), web session only:
 *   GET    /app/api/jobs?limit&offset                 your jobs, newest first, with their networks' names
 *   DELETE /app/api/jobs/:id                          cancel (frees the worker); a finished job as it is
 *   POST   /app/api/networks/:id/metrics/:metricId    run a metric on the network as a job → 202
 *   POST   /app/api/networks/:id/metrics/:metricId/value  a network-level metric's number, computed now
 *   GET    /app/api/metrics                           the metrics offered to run (the engine registry's offeredMetrics())
 * Thin: schema → domain/metrics/web-jobs.ts (the public API's job commands with the session's principal).
 */
import type { App } from '../../http/app-type.ts';
import { DomainError } from '../../domain/errors.ts';
import { cancelWebJob, listWebJobs, runWebNetworkMetric, startWebMetricJob, type WebJob } from '../../domain/metrics/web-jobs.ts';
import { withDisconnectValue } from '../../http/metric-reply.ts';
import { presentJob } from '../../presenters/job.ts';
import { offeredMetrics } from '@netloom/engine';
import { OfferedMetricListSchema, WebJobIdParams, WebJobListQuery, WebJobListSchema, WebJobSchema, WebMetricJobBody, WebMetricJobParams, WebNetworkValueSchema, ref, webProblems } from '@netloom/protocol/http';
import { webRoutes } from '../../plugins/web-routes.ts';

function present(w: WebJob) {
  return { ...presentJob(w.job, { withResult: false }), networkName: w.networkName, value: w.value };
}

export function webJobRoutes(app: App): void {
  const web = webRoutes(app);

  web.get(
    '/app/api/jobs',
    { summary: 'Your metric jobs, newest first: status, progress, ETA, network', querystring: WebJobListQuery, response: { 200: ref(WebJobListSchema), ...webProblems(400, 401, 403, 429) } },
    async (request, _reply, w) => {
      const q = request.query;
      const limit = q.limit === undefined ? 50 : Number(q.limit);
      const offset = q.offset === undefined ? 0 : Number(q.offset);
      if (limit < 1 || limit > 200) throw new DomainError('INVALID_ARGS', 'query.limit: must be 1 to 200', [{ path: '/query/limit', message: 'must be 1 to 200' }]);
      const { jobs, total } = await listWebJobs(app.database.db, w.principal, limit, offset);
      return { jobs: jobs.map(present), total, limit, offset };
    },
  );

  web.get('/app/api/metrics', { summary: 'The metrics the app offers to run: every metric of the registry that runs with its defaults', response: { 200: ref(OfferedMetricListSchema), ...webProblems(401, 403, 429) } }, async () => ({
    metrics: offeredMetrics(),
  }));

  web.delete(
    '/app/api/jobs/:id',
    { summary: 'Cancel one of your metric jobs (frees its worker); a finished job is answered as it is', params: WebJobIdParams, response: { 200: ref(WebJobSchema), ...webProblems(401, 403, 404, 429) } },
    async (request, _reply, w) => present(await cancelWebJob(app.jobDeps, w.principal, request.params.id)),
  );

  web.post(
    '/app/api/networks/:id/metrics/:metricId',
    {
      summary: 'Run a metric on the network as a job (node values are written to it when it succeeds; edit access)',
      params: WebMetricJobParams,
      body: ref(WebMetricJobBody),
      response: { 202: ref(WebJobSchema), ...webProblems(400, 401, 403, 404, 429) },
    },
    async (request, reply, w) => {
      const { id, metricId } = request.params;
      const job = await startWebMetricJob({ ...app.jobDeps, log: request.log }, w.principal, id, metricId, request.body ?? {});
      return reply.code(202).send(present(job));
    },
  );

  web.post(
    '/app/api/networks/:id/metrics/:metricId/value',
    {
      summary: 'Compute a network-level metric now: its one number, parameters and time (node metrics run as jobs)',
      params: WebMetricJobParams,
      body: ref(WebMetricJobBody),
      response: { 200: ref(WebNetworkValueSchema), ...webProblems(400, 401, 403, 404, 409, 422, 429) },
    },
    async (request, reply, w) => {
      const { id, metricId } = request.params;
      const startedAt = Date.now();
      return withDisconnectValue(reply, (signal) => runWebNetworkMetric({ ...app.metricRunDeps, log: request.log }, w.principal, id, metricId, request.body ?? {}, { signal, startedAt }));
    },
  );
}
