/**
 * Invitation and reset links (docs/web-app.md "Invitations and password resets"), signed out:
 *   GET  /app/api/links/:token   what the link is for (404 when used or expired)
 *   POST /app/api/links/:token   { name?, password, totp?, recoveryCode? } → signs in (SessionInfo + cookie)
 * A reset of an account with MFA still needs its second factor (a link alone never bypasses MFA).
 */
import type { App } from '../../http/app-type.ts';
import { DomainError } from '../../domain/errors.ts';
import { requireResetSecondFactor, type SignInDeps } from '../../domain/identity/sign-in.ts';
import { describeLink, redeemLink } from '../../domain/identity/user-links.ts';
import { resolveWebSession, startWebSession } from '../../domain/web/sessions.ts';
import { sessionCookie, setSessionCookie, webStateOf } from '../../http/web-session.ts';
import { LinkInfoSchema, LinkParams, LinkRedeemBody, SessionInfoSchema, WebTag, webProblems, ref } from '@netloom/protocol/http';
import { sessionInfo } from './present.ts';

export function webLinkRoutes(app: App, deps: SignInDeps): void {
  const db = app.database.db;
  const base = { tags: [WebTag], security: [] };
  const none = { web: { session: 'none' as const } };

  app.get(
    '/app/api/links/:token',
    { config: none, schema: { ...base, summary: 'What an invitation or reset link is for', params: LinkParams, response: { 200: ref(LinkInfoSchema), ...webProblems(404, 429) } } },
    async (request) => describeLink(db, request.params.token, app.now()),
  );

  app.post(
    '/app/api/links/:token',
    {
      config: none,
      schema: { ...base, summary: 'Redeem a link: set the password (and name), then signed in', params: LinkParams, body: ref(LinkRedeemBody), response: { 200: ref(SessionInfoSchema), ...webProblems(400, 401, 403, 404, 409, 429) } },
    },
    async (request, reply) => {
      const { token } = request.params;
      const body = request.body;
      const info = await describeLink(db, token, app.now());
      if (info.kind === 'reset') await requireResetSecondFactor(deps, info.email, body, request.ip);
      const { user } = await redeemLink(db, token, body, app.now());
      const { secret } = await startWebSession(db, app.config.web, {
        userId: user.id,
        userAgent: String(request.headers['user-agent'] ?? ''),
        ip: request.ip,
        now: app.now(),
        replacing: sessionCookie(app, request),
      });
      const state = await resolveWebSession(db, app.config.web, secret, app.now());
      if (!state) throw new DomainError('FORBIDDEN', 'this account cannot sign in');
      setSessionCookie(reply, app.config, secret);
      return sessionInfo(app, webStateOf(state, app.config.web.sessionIdleMs));
    },
  );
}
