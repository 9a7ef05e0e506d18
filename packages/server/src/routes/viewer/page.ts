/**
 * The embed page `{embed_url}/<sessionId>` (`<service origin>/embed/<sessionId>`; issue 4 item 5):
 * `Content-Security-Policy: frame-ancestors <session origin>` while the session lives, `'none'` for an
 * ended or unknown session or a removed origin (so the page stops loading in a frame at once; 410/404);
 * `Referrer-Policy: no-referrer`; no cookies; never cached; images only from the service and the
 * operator's allow-list (viewerCsp). The viewer app comes in the next issue; this
 * page loads its bundle (presenters/viewer-page.ts) with the session id and host origin.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { EmbedContext } from '../../domain/embedding/context.ts';
import { pageOrigin } from '../../domain/embedding/sessions.ts';
import { renderViewerPage } from '../../presenters/viewer-page.ts';

/**
 * The viewer page's CSP. Images: the service itself, `data:` and `blob:` (the viewer's own drawings), and
 * the operator's NETLOOM_VIEWER_IMAGE_ORIGINS — never `*`: a node's `image.url` is chosen by whoever
 * uploaded the network, and every viewer (anonymous Discover viewers included) would fetch it (issue 19,
 * Low; docs/security.md "The embedded viewer").
 */
export function viewerCsp(imageOrigins: readonly string[], frameOrigin: string | null): string {
  const img = ["'self'", 'data:', 'blob:', ...imageOrigins].join(' ');
  return `default-src 'self'; img-src ${img}; frame-ancestors ${frameOrigin ?? "'none'"}; base-uri 'none'; object-src 'none'`;
}

export function embedPageRoutes(app: FastifyInstance, ctx: EmbedContext): void {
  app.get(
    '/embed/:sessionId',
    { config: { auth: { skip: true } }, schema: { hide: true, params: Type.Object({ sessionId: Type.String({ maxLength: 100 }) }) } },
    async (request, reply) => {
      const { sessionId } = request.params as { sessionId: string };
      const origin = /^[0-9a-f]{24}$/.test(sessionId) ? await pageOrigin(ctx, sessionId) : null;
      reply.header('content-security-policy', viewerCsp(ctx.config.embed.imageOrigins, origin));
      reply.header('referrer-policy', 'no-referrer');
      reply.header('cache-control', 'no-store');
      reply.header('x-content-type-options', 'nosniff');
      reply.removeHeader('set-cookie');
      const body = origin
        ? renderViewerPage({ sessionId, hostOrigin: origin, imageOrigins: ctx.config.embed.imageOrigins })
        : '<!doctype html><html><head><meta charset="utf-8"><title>Session ended</title></head><body><p>This embedded session has ended.</p></body></html>';
      return reply.code(origin ? 200 : 410).type('text/html; charset=utf-8').send(body);
    },
  );
}
