/**
 * The embedded viewer's access token is checked in an onRequest hook, before any body is read
 * (docs/security.md, "Request bodies"): a request to /api/v2/embed/viewer/... without a valid
 * `Authorization: Bearer nla_…` is 401 (410 when the session ended) without its body being decompressed
 * or parsed, and an unauthenticated body is never inflated past the anonymous limit. A refused token
 * counts as a failed authentication of the client's address (http/auth-failures.ts).
 * Handlers take the live session with `viewerOf(request)`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EmbedContext } from '../../domain/embedding/context.ts';
import { authenticateViewer, type LiveSession } from '../../domain/embedding/sessions.ts';
import { DomainError } from '../../domain/errors.ts';

export type ViewerSession = LiveSession & { accessTokenExpiresAt: number };

declare module 'fastify' {
  interface FastifyRequest {
    viewerSession: ViewerSession | null;
  }
}

export const VIEWER_PREFIX = '/api/v2/embed/viewer/';

export function registerViewerAuth(app: FastifyInstance, ctx: EmbedContext): void {
  if (!app.hasRequestDecorator('viewerSession')) app.decorateRequest('viewerSession', null);
  app.addHook('onRequest', (request, _reply, done) => {
    if (!request.routeOptions.url?.startsWith(VIEWER_PREFIX)) return done();
    const limited = app.authFailures.refused(request.ip);
    if (limited) return done(limited);
    authenticateViewer(ctx, request.headers.authorization).then(
      (live) => {
        request.viewerSession = live;
        request.authenticated = true;
        done();
      },
      (err: unknown) => {
        if (!(err instanceof DomainError && err.code === 'UNAUTHENTICATED')) return done(err as Error);
        app.authFailures.fail(request.ip).then((over) => done(over ?? err), () => done(err));
      },
    );
  });
}

/** The live session of a viewer route's request (authenticated by the hook above). */
export function viewerOf(request: FastifyRequest): ViewerSession {
  if (!request.viewerSession) throw new Error(`viewerOf: ${request.routeOptions.url} is not under ${VIEWER_PREFIX}`);
  return request.viewerSession;
}
