/**
 * Explore from the web app (docs/web-app.md "Explore"; domain/embedding/explore.ts): a viewer session the web app
 * hosts with the embed SDK.
 *   POST /app/api/networks/:id/explore                  owner mode (signed in; read-only with View access)
 *   POST /app/api/public-networks/:id/explore           Discover: a Public network, read-only, signed out ok
 *   POST /app/api/explore/:sessionId/launch-tokens      the next launch token for the SDK
 */
import type { FastifyRequest } from 'fastify';
import type { App } from '../../http/app-type.ts';
import { exploreLaunchToken, startOwnerExplore, startPublicExplore } from '../../domain/embedding/explore.ts';
import type { EmbedContext } from '../../domain/embedding/context.ts';
import { cookieSecurity, optionalCookieSecurity, ExploreParams, ExploreSessionParams, ExploreStartedSchema, ExploreLaunchTokenSchema, WebTag, webProblems, ref } from '@netloom/protocol/http';
import { principalOf } from '../../plugins/principal.ts';

/** The web app's origin as the browser sent it (already checked to be our own by http/web-session.ts). */
function appOrigin(request: FastifyRequest, publicUrl: string): string {
  for (const v of [request.headers.origin, request.headers.referer]) {
    if (typeof v !== 'string') continue;
    try {
      const o = new URL(v).origin;
      if (o !== 'null') return o;
    } catch {
      /* next */
    }
  }
  return new URL(publicUrl).origin;
}

export function webExploreRoutes(app: App, ctx: EmbedContext): void {
  const tags = [WebTag];

  app.post(
    '/app/api/networks/:id/explore',
    {
      config: { web: true },
      schema: { tags, security: cookieSecurity, summary: 'Open a network in the viewer in owner mode', params: ExploreParams, response: { 201: ref(ExploreStartedSchema), ...webProblems(401, 403, 404, 429) } },
    },
    async (request, reply) => {
      const w = principalOf(request, 'web');
      const started = await startOwnerExplore(ctx, {
        principal: w.principal,
        webSessionId: w.sessionId,
        webSessionEndsAt: Date.parse(w.expiresAt),
        networkId: request.params.id,
        origin: appOrigin(request, app.config.publicUrl),
      });
      return reply.code(201).send(started);
    },
  );

  app.post(
    '/app/api/public-networks/:id/explore',
    {
      config: { web: { session: 'optional' } },
      schema: { tags, security: [], summary: 'Open a Public network read-only in the viewer (Discover; signed out ok)', params: ExploreParams, response: { 201: ref(ExploreStartedSchema), ...webProblems(403, 404, 429) } },
    },
    async (request, reply) => {
      const started = await startPublicExplore(ctx, { networkId: request.params.id, origin: appOrigin(request, app.config.publicUrl), clientIp: request.ip });
      return reply.code(201).send(started);
    },
  );

  app.post(
    '/app/api/explore/:sessionId/launch-tokens',
    {
      config: { web: { session: 'optional' } },
      schema: { tags, security: optionalCookieSecurity, summary: 'A new launch token (60 s, single use) for an Explore viewer', params: ExploreSessionParams, response: { 200: ref(ExploreLaunchTokenSchema), ...webProblems(403, 404, 410, 429) } },
    },
    async (request) => exploreLaunchToken(ctx, request.params.sessionId, principalOf(request, 'web-or-signed-out')?.sessionId ?? null),
  );
}
