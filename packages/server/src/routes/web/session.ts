/**
 * Sign-in, the current session, sign-out (docs/web-app.md "Session"):
 *   GET    /app/api/session   → SessionInfo (401 when signed out)
 *   POST   /app/api/session   { email, password, totp?, recoveryCode? } → SessionInfo + a new cookie
 *   DELETE /app/api/session   → { signedOut: true } (clears the cookie)
 */
import type { FastifyRequest } from 'fastify';
import type { App } from '../../http/app-type.ts';
import { signIn, type SignInDeps } from '../../domain/identity/sign-in.ts';
import { endWebSession, resolveWebSession, startWebSession } from '../../domain/web/sessions.ts';
import { clearSessionCookie, sessionCookie, setSessionCookie, webStateOf } from '../../http/web-session.ts';
import { cookieSecurity, optionalCookieSecurity, SessionInfoSchema, SignedOutSchema, SignInBody, WebTag, webProblems, ref } from '@netloom/protocol/http';
import { sessionInfo } from '../../presenters/web.ts';
import { principalOf } from '../../plugins/principal.ts';

export function webSessionRoutes(app: App, deps: SignInDeps): void {
  const tags = [WebTag];

  app.get(
    '/app/api/session',
    {
      config: { web: { mfaExempt: true } },
      schema: { summary: 'The signed-in user, organization and CSRF token', tags, security: cookieSecurity, response: { 200: ref(SessionInfoSchema), ...webProblems(401, 429) } },
    },
    async (request) => sessionInfo(app, principalOf(request, 'web')),
  );

  app.post(
    '/app/api/session',
    {
      config: { web: { session: 'none' } },
      schema: {
        summary: 'Sign in (sets the session cookie; a new session id on every sign-in)',
        tags,
        security: [],
        body: ref(SignInBody),
        response: { 200: ref(SessionInfoSchema), ...webProblems(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const user = await signIn(deps, body, request.ip);
      const { secret } = await startWebSession(app.database.db, app.config.web, {
        userId: user.id,
        userAgent: String(request.headers['user-agent'] ?? ''),
        ip: request.ip,
        now: app.now(),
        replacing: sessionCookie(app, request),
      });
      const state = await resolveWebSession(app.database.db, app.config.web, secret, app.now());
      if (!state) throw new Error('the new session could not be read back');
      setSessionCookie(reply, app.config, secret);
      request.log.info({ userId: user.id, sessionId: state.session.id }, 'web sign-in');
      return sessionInfo(app, webStateOf(state, app.config.web.sessionIdleMs));
    },
  );

  app.delete(
    '/app/api/session',
    {
      config: { web: { session: 'optional', mfaExempt: true } },
      schema: { summary: 'Sign out (ends this session, clears the cookie)', tags, security: optionalCookieSecurity, response: { 200: ref(SignedOutSchema), ...webProblems(403, 429) } },
    },
    async (request: FastifyRequest, reply) => {
      const web = principalOf(request, 'web-or-signed-out');
      if (web) await endWebSession(app.database.db, web.userId, web.sessionId).catch(() => undefined);
      clearSessionCookie(reply, app.config);
      return { signedOut: true as const };
    },
  );
}
