/**
 * The embed page `{embed_url}/<sessionId>` (`<service origin>/embed/<sessionId>`; issue 4 item 5):
 * `Content-Security-Policy: frame-ancestors <session origin>` while the session lives, `'none'` for an
 * ended or unknown session or a removed origin (so the page stops loading in a frame at once);
 * `Referrer-Policy: no-referrer`; no cookies; never cached. The viewer app comes in the next issue; this
 * page only carries the session id for it.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { EmbedContext } from '../../domain/embed-context.ts';
import { pageOrigin } from '../../domain/embed-sessions.ts';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function embedPageRoutes(app: FastifyInstance, ctx: EmbedContext): void {
  app.get(
    '/embed/:sessionId',
    { config: { auth: { skip: true } }, schema: { hide: true, params: Type.Object({ sessionId: Type.String({ maxLength: 100 }) }) } },
    async (request, reply) => {
      const { sessionId } = request.params as { sessionId: string };
      const origin = /^[0-9a-f]{24}$/.test(sessionId) ? await pageOrigin(ctx, sessionId) : null;
      reply.header('content-security-policy', `frame-ancestors ${origin ?? "'none'"}; base-uri 'none'; object-src 'none'`);
      reply.header('referrer-policy', 'no-referrer');
      reply.header('cache-control', 'no-store');
      reply.header('x-content-type-options', 'nosniff');
      reply.removeHeader('set-cookie');
      const body = origin
        ? `<!doctype html><html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>Netloom viewer</title></head><body><div id="netloom-viewer" data-session-id="${escape(sessionId)}"></div></body></html>`
        : '<!doctype html><html><head><meta charset="utf-8"><title>Session ended</title></head><body><p>This embedded session has ended.</p></body></html>';
      return reply.code(origin ? 200 : 410).type('text/html; charset=utf-8').send(body);
    },
  );
}
