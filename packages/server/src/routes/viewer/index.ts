/**
 * The viewer API (issue 4 item 4), used by the embedded viewer page with its access token
 * (`Authorization: Bearer nla_…`; `config.auth.skip`, authenticated here):
 *   POST /api/v2/embed/sessions/:sessionId/access-tokens  { launchToken } → { accessToken, expiresAt }
 *   GET  /api/v2/embed/viewer/session                      session info (display name, capabilities, network, ui, expiry)
 *   GET  /api/v2/embed/viewer/network                      network metadata + signed data link (5 min)
 *   GET  /api/v2/embed/data/:sessionId?network&exp&sig     the network JSON behind a signed link (no bearer)
 *   GET  /api/v2/embed/viewer/views[/:viewId]              saved views of the network
 *   POST /api/v2/embed/viewer/views                        save (Edit; billing.maxViews)
 *   PUT  /api/v2/embed/viewer/views/:viewId                update (Edit)
 *   POST /api/v2/embed/viewer/metrics/:kind/:metricId      run a metric on the session's network (with
 *        `Prefer: respond-async`: as a job → 202 + Location /api/v2/embed/viewer/jobs/:jobId, see jobs.ts)
 *   POST /api/v2/embed/viewer/heartbeat                    activity
 *   GET  /api/v2/embed/sessions/:sessionId/status          { live, checkAfterMs } — no credential, CORS *,
 *        NOT activity: the SDK asks when the embed page did not load (an ended session's page is never
 *        framed), the viewer polls it to notice an end while idle. Tells no more than the embed page.
 * Every other call first checks that the session still lives (410 SESSION_EXPIRED otherwise) and counts as
 * activity. Responses are never cached and carry `Referrer-Policy: no-referrer`.
 */
import type { FastifyRequest } from 'fastify';
import type { App } from '../../http/app-type.ts';
import { checkedByDomain } from '../../http/route-contract.ts';
import { problemResponses, ref, NetworkJSONSchema, NetworkMetricValueSchema, NodeMetricValuesSchema, AccessTokenBodySchema, AccessTokenSchema, DataLinkQuery, EmbedViewBodySchema, EmbedViewSchema, HeartbeatSchema, SessionIdParams, SessionStatusSchema, ViewerNetworkSchema, ViewerSessionSchema, ViewerJobSchema } from '@netloom/protocol/http';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { Type } from 'typebox';
import type { EmbedContext } from '../../domain/embedding/context.ts';
import { exchangeLaunchToken, pageOrigin } from '../../domain/embedding/sessions.ts';
import { saveView, updateSavedView, viewOfSession, viewsOfSession } from '../../domain/embedding/views.ts';
import { networkOfDataLink, viewerHeartbeat, viewerNetwork, viewerSessionInfo } from '../../domain/embedding/viewer.ts';
import { networkSummary } from '../../presenters/network.ts';
import { acceptsGzip } from '../../http/accept-encoding.ts';
import { runSessionMetric } from '../../domain/metrics/runs.ts';
import { prefersAsync } from '../../http/metric-reply.ts';
import { submitSessionMetricJob } from '../../domain/metrics/viewer-jobs.ts';
import { presentViewerJob } from '../../presenters/viewer-job.ts';
import { presentView } from '../../presenters/embed.ts';
import { principalOf } from '../../plugins/principal.ts';

const gunzipAsync = promisify(gunzip);
const skip = { auth: { skip: true } };
const tags = ['embedded viewer'];
/** The viewer's access token (`nla_…`), not an API credential. */
const security = [{ viewerToken: [] }];
/** Every viewer call: missing/invalid access token (401), ended session (410). */
const viewerProblems = problemResponses(401, 410);
const ViewIdParams = Type.Object({ viewId: Type.String({ maxLength: 100 }) });
const EmbedView = ref(EmbedViewSchema);

export function viewerRoutes(app: App, ctx: EmbedContext): void {
  const viewer = (request: FastifyRequest) => principalOf(request, 'viewer');

  app.addHook('onSend', async (request, reply) => {
    const url = request.url;
    if (url.startsWith('/api/v2/embed/viewer/') || url.startsWith('/api/v2/embed/data/') || /^\/api\/v2\/embed\/sessions\/[^/]+\/(access-tokens|status)/.test(url)) {
      reply.header('cache-control', 'no-store');
      reply.header('referrer-policy', 'no-referrer');
    }
  });

  app.post(
    '/api/v2/embed/sessions/:sessionId/access-tokens',
    {
      config: skip,
      schema: {
        summary: 'Exchange a launch token (single use, 60 s) for an access token (15 min)',
        tags,
        security: [],
        params: SessionIdParams,
        body: ref(AccessTokenBodySchema),
        response: { 200: ref(AccessTokenSchema), ...viewerProblems, ...problemResponses(429) },
      },
    },
    async (request) => {
      return exchangeLaunchToken(ctx, request.params.sessionId, request.body.launchToken, request.ip);
    },
  );

  app.get(
    '/api/v2/embed/sessions/:sessionId/status',
    { config: skip, schema: { summary: 'Whether a session still lives (no credential; not activity)', tags, security: [], params: SessionIdParams, response: { 200: ref(SessionStatusSchema) } } },
    async (request, reply) => {
      const { sessionId } = request.params;
      reply.header('access-control-allow-origin', '*');
      const live = /^[0-9a-f]{24}$/.test(sessionId) && (await pageOrigin(ctx, sessionId)) !== null;
      return { live, checkAfterMs: ctx.config.embed.statusCheckMs };
    },
  );

  app.get('/api/v2/embed/viewer/session', { config: skip, schema: { summary: 'Session info for session.info()', tags, security, response: { 200: ref(ViewerSessionSchema), ...viewerProblems } } }, async (request) => {
    return viewerSessionInfo(ctx, await viewer(request));
  });

  app.post('/api/v2/embed/viewer/heartbeat', { config: skip, schema: { summary: 'Record viewer activity', tags, security, response: { 200: ref(HeartbeatSchema), ...viewerProblems } } }, async (request) => {
    return viewerHeartbeat(ctx, await viewer(request));
  });

  app.get('/api/v2/embed/viewer/network', { config: skip, schema: { summary: 'Network metadata and a signed data link valid 5 minutes', tags, security, response: { 200: ref(ViewerNetworkSchema), ...viewerProblems, ...problemResponses(404) } } }, async (request) => {
    const { network, dataUrl, dataUrlExpiresAt } = await viewerNetwork(ctx, await viewer(request));
    return { ...networkSummary(network), dataUrl, dataUrlExpiresAt };
  });

  app.get(
    '/api/v2/embed/data/:sessionId',
    {
      config: skip,
      schema: {
        summary: 'The network JSON behind a signed link (valid 5 minutes, also after revocation)',
        tags,
        security: [],
        params: SessionIdParams,
        querystring: DataLinkQuery,
        // the stored JSON is sent as is (not serialized against the schema)
        response: { 200: ref(NetworkJSONSchema), ...problemResponses(403, 404) },
      },
    },
    async (request, reply) => {
      const gz = await networkOfDataLink(ctx, request.params.sessionId, request.query);
      reply.type('application/json; charset=utf-8');
      reply.header('vary', 'accept-encoding');
      if (acceptsGzip(request.headers['accept-encoding'])) {
        reply.header('content-encoding', 'gzip');
        return reply.send(gz);
      }
      return reply.send(await gunzipAsync(gz));
    },
  );

  app.get('/api/v2/embed/viewer/views', { config: skip, schema: { summary: "The network's saved views", tags, security, response: { 200: Type.Array(EmbedView), ...viewerProblems } } }, async (request) => {
    const live = await viewer(request);
    return (await viewsOfSession(ctx, live)).map(presentView);
  });

  app.get('/api/v2/embed/viewer/views/:viewId', { config: skip, schema: { summary: 'One saved view (views.open)', tags, security, params: ViewIdParams, response: { 200: EmbedView, ...viewerProblems, ...problemResponses(404) } } }, async (request) => {
    const live = await viewer(request);
    return presentView(await viewOfSession(ctx, live, request.params.viewId));
  });

  app.post('/api/v2/embed/viewer/views', {
      config: skip,
      validatorCompiler: checkedByDomain,
      schema: { summary: 'Save the current state as a new view (Edit)', tags, security, body: ref(EmbedViewBodySchema), response: { 201: EmbedView, ...viewerProblems, ...problemResponses(400, 403, 404, 413, 415) } },
    }, async (request, reply) => {
    const live = await viewer(request);
    return reply.code(201).send(presentView(await saveView(ctx, live, request.body)));
  });

  app.put('/api/v2/embed/viewer/views/:viewId', {
      config: skip,
      validatorCompiler: checkedByDomain,
      schema: {
        summary: 'Save the current state onto a view (Edit); every field optional',
        tags,
        security,
        params: ViewIdParams,
        body: Type.Partial(ref(EmbedViewBodySchema)),
        response: { 200: EmbedView, ...viewerProblems, ...problemResponses(400, 403, 404, 413, 415) },
      },
    }, async (request) => {
    const live = await viewer(request);
    return presentView(await updateSavedView(ctx, live, request.params.viewId, request.body));
  });

  app.post(
    '/api/v2/embed/viewer/metrics/:kind/:metricId',
    {
      config: skip,
      schema: {
        summary: "Run a metric on the session's network (values returned, not written; one at a time per session; counted per organization)",
        description: 'With `Prefer: respond-async` the metric runs as a job of this session: 202 with the job and `Location: /api/v2/embed/viewer/jobs/<jobId>` (progress, ETA, Cancel; docs/embedding-api.md "Metric jobs").',
        tags,
        security,
        params: Type.Object({ kind: Type.Union([Type.Literal('network'), Type.Literal('nodes')]), metricId: Type.String({ maxLength: 100 }) }),
        body: Type.Record(Type.String(), Type.Unknown(), { description: "The metric's own parameters (docs/metrics.md); no networkId or networkJSON." }),
        // the answer is sent as the pool's bytes (not serialized against the schema)
        response: { 200: Type.Union([ref(NetworkMetricValueSchema), ref(NodeMetricValuesSchema)]), 202: ref(ViewerJobSchema), ...viewerProblems, ...problemResponses(403, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      const live = await viewer(request);
      const { kind, metricId } = request.params;
      if (prefersAsync(request)) {
        const job = await submitSessionMetricJob({ ...app.jobDeps, log: request.log }, ctx, live, kind, metricId, request.body, request.ip);
        return reply.code(202).header('location', `/api/v2/embed/viewer/jobs/${job.row.id}`).header('preference-applied', 'respond-async').send(presentViewerJob(job));
      }
      const answer = await runSessionMetric(app.metricRunDeps, ctx, live, kind, metricId, request.body, request.ip, { startedAt: Date.now() - reply.elapsedTime });
      return reply.code(200).type('application/json; charset=utf-8').send(Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength));
    },
  );
}
