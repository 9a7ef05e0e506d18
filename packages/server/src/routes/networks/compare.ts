/**
 * `POST /api/v2/networks/compare` (docs/spec/decisions.md §11; docs/api/analysis.md): what changed from
 * network `a` to network `b`. Scope `networks:read` (plus `metrics:write` with `metrics`); read access
 * to both. Thin: schema → domain/networks/compare.ts → the answer's text.
 *
 * Registered twice (http/route-surface.ts): under /api/v2 for credentials, and under /app/api for the
 * web application's compare view (session cookie; the session's principal holds every scope).
 */
import type { FastifyInstance } from 'fastify';
import { compareStoredNetworks, createDifferenceNetwork, type CompareRequest } from '../../domain/networks/compare.ts';
import { DifferenceNetworkBody, DifferenceNetworkSchema, NetworkCompareBody, NetworkCompareSchema, problemResponses, ref } from '@netloom/protocol/http';
import { withDisconnect } from '../../http/metric-reply.ts';
import { surfaceOf, type SurfaceOptions } from '../../http/route-surface.ts';

export async function networkCompareRoutes(app: FastifyInstance, opts: SurfaceOptions): Promise<void> {
  const deps = app.metricRunDeps;
  const surface = surfaceOf(opts);
  app.post(
    '/networks/compare',
    {
      config: surface.config('networks', 'read'),
      schema: surface.schema({
        summary: 'Compare two networks: nodes joined and left, ties added, removed and reweighted, per-node metric changes, per-group density and E-I changes',
        description:
          'Nodes match by id; ties as in the group report (`POST /metrics/network/groups`): parallel edges merged, self-loops ignored, undirected pairs `[u, v]` with u < v in string order (directed when both networks are). ' +
          'Scope `networks:read` and read access to both networks (404 otherwise); with `metrics` also `metrics:write` and an Enterprise or Partner plan. Networks generated from a survey: groups never below the survey\'s minimum group size. Runs under the metric time limit (422 METRIC_TIMEOUT).',
        tags: ['networks'],
        body: ref(NetworkCompareBody),
        response: { 200: ref(NetworkCompareSchema), ...problemResponses(400, 403, 404, 422, 503) },
      }),
    },
    async (request, reply) => {
      const p = surface.principal(request);
      const startedAt = Date.now() - reply.elapsedTime;
      return withDisconnect(reply, async (signal) => ({ json: await compareStoredNetworks({ ...deps, log: request.log }, p, request.body as CompareRequest, { signal, startedAt }) }));
    },
  );

  app.post(
    '/networks/compare/network',
    {
      config: surface.config('networks', 'write'),
      schema: surface.schema({
        summary: 'Store the difference of two networks as a network (nodes and ties with `Change`: added / removed / kept) to view it',
        description: 'Every node and tie of either network, with `Change` = joined | left | kept (nodes) and added | removed | kept (ties, as in compare). The viewer colours `Change` with fixed colours and a legend. Scope `networks:write`, read access to both.',
        tags: ['networks'],
        body: ref(DifferenceNetworkBody),
        response: { 201: ref(DifferenceNetworkSchema), ...problemResponses(400, 403, 404) },
      }),
    },
    async (request, reply) => reply.code(201).send(await createDifferenceNetwork({ ...deps, config: app.config }, surface.principal(request), request.body as { a: string; b: string })),
  );
}
