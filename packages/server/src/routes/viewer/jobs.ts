/**
 * The embedded viewer's metric jobs (docs/embedding-api.md "Metric jobs"): the Metrics panel's progress
 * bar, ETA and Cancel. Started by `POST /api/v2/embed/viewer/metrics/:kind/:metricId` with
 * `Prefer: respond-async` (routes/viewer/index.ts); read and cancelled here, with the viewer's access
 * token, only the session's own jobs (any other id is 404). Thin: schema → domain/metrics/viewer-jobs.ts.
 * GET /api/v2/embed/viewer/metrics lists the metrics the Metrics panel offers (the engine registry's
 * offeredMetrics(): node metrics, whose values become node attributes, and network-level ones, whose
 * number the panel shows; a metric added to the registry appears there with no other edit).
 */
import type { App } from '../../http/app-type.ts';
import { Type } from 'typebox';
import type { EmbedContext } from '../../domain/embedding/context.ts';
import type { JobDeps } from '../../domain/metrics/jobs.ts';
import { cancelSessionMetricJob, getSessionMetricJob } from '../../domain/metrics/viewer-jobs.ts';
import { presentViewerJob } from '../../presenters/viewer-job.ts';
import { offeredMetrics } from '@netloom/engine';
import { OfferedMetricListSchema, problemResponses, ref, ViewerJobSchema } from '@netloom/protocol/http';
import { principalOf } from '../../plugins/principal.ts';

const JobIdParams = Type.Object({ jobId: Type.String({ minLength: 1, maxLength: 100 }) });

export function viewerJobRoutes(app: App, _ctx: EmbedContext, deps: () => JobDeps): void {
  const common = { config: { auth: { skip: true } }, tags: ['embedded viewer'], security: [{ viewerToken: [] }] };
  app.get('/api/v2/embed/viewer/metrics', {
    config: common.config,
    schema: {
      summary: 'The metrics the Metrics panel offers: every node and network-level metric of the registry that runs with its defaults',
      tags: common.tags,
      security: common.security,
      response: { 200: ref(OfferedMetricListSchema), ...problemResponses(401, 410) },
    },
  }, async (request) => {
    principalOf(request, 'viewer');
    return { metrics: offeredMetrics() };
  });

  app.get('/api/v2/embed/viewer/jobs/:jobId', {
    config: common.config,
    schema: {
      summary: "One of the session's metric jobs: status, progress, ETA, and the values once it succeeded",
      tags: common.tags,
      security: common.security,
      params: JobIdParams,
      response: { 200: ref(ViewerJobSchema), ...problemResponses(401, 404, 410) },
    },
  }, async (request) => presentViewerJob(await getSessionMetricJob(deps().db, principalOf(request, 'viewer'), request.params.jobId)));

  app.delete('/api/v2/embed/viewer/jobs/:jobId', {
    config: common.config,
    schema: {
      summary: "Cancel one of the session's metric jobs (frees its worker); a finished job is answered as it is",
      tags: common.tags,
      security: common.security,
      params: JobIdParams,
      response: { 200: ref(ViewerJobSchema), ...problemResponses(401, 404, 410) },
    },
  }, async (request) => presentViewerJob(await cancelSessionMetricJob(deps(), principalOf(request, 'viewer'), request.params.jobId)));
}
