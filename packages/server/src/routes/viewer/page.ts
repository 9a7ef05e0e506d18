/**
 * The embed page `{embed_url}/<sessionId>` (`<service origin>/embed/<sessionId>`; issue 4 item 5):
 * `Content-Security-Policy: frame-ancestors <session origin>` while the session lives, `'none'` for an
 * ended or unknown session or a removed origin (so the page stops loading in a frame at once; 410/404);
 * `Referrer-Policy: no-referrer`; no cookies; never cached. The viewer app comes in the next issue; this
 * page loads its bundle (routes/embed-assets.ts renderViewerPage) with the session id and host origin.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { EmbedContext } from '../../domain/embedding/context.ts';
import { pageOrigin } from '../../domain/embedding/sessions.ts';
import { renderViewerPage } from '../embed-assets.ts';

export function embedPageRoutes(app: FastifyInstance, ctx: EmbedContext): void {
  app.get(
    '/embed/:sessionId',
    { config: { auth: { skip: true } }, schema: { hide: true, params: Type.Object({ sessionId: Type.String({ maxLength: 100 }) }) } },
    async (request, reply) => {
      const { sessionId } = request.params as { sessionId: string };
      const origin = /^[0-9a-f]{24}$/.test(sessionId) ? await pageOrigin(ctx, sessionId) : null;
      reply.header('content-security-policy', `default-src 'self'; img-src * data:; frame-ancestors ${origin ?? "'none'"}; base-uri 'none'; object-src 'none'`);
      reply.header('referrer-policy', 'no-referrer');
      reply.header('cache-control', 'no-store');
      reply.header('x-content-type-options', 'nosniff');
      reply.removeHeader('set-cookie');
      const body = origin
        ? renderViewerPage({ sessionId, hostOrigin: origin })
        : '<!doctype html><html><head><meta charset="utf-8"><title>Session ended</title></head><body><p>This embedded session has ended.</p></body></html>';
      return reply.code(origin ? 200 : 410).type('text/html; charset=utf-8').send(body);
    },
  );
}
