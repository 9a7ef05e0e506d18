/**
 * Invitation and reset links (docs/web-app.md "Invitations and password resets"):
 *   GET  /app/api/links/:token          what the link is for (404 when used or expired); `acceptable`
 *                                       when signed in as the invited account
 *   POST /app/api/links/:token          signed out: { name?, password, totp?, recoveryCode? } → signs in
 *                                       (SessionInfo + cookie); an invitation of an existing account is
 *                                       refused (409, nothing changes, no session)
 *   POST /app/api/links/:token/accept   signed in as the invited account: joins the organization
 * A reset of an account with MFA still needs its second factor (a link alone never bypasses MFA).
 */
import type { App } from '../../http/app-type.ts';
import { audit, type EmbedContext } from '../../domain/embedding/context.ts';
import { DomainError } from '../../domain/errors.ts';
import { hashNewPassword, requireResetSecondFactor, type SignInDeps } from '../../domain/identity/sign-in.ts';
import { acceptInvitation, describeLink, redeemLink } from '../../domain/identity/user-links.ts';
import { resolveWebSession, startWebSession } from '../../domain/web/sessions.ts';
import { sessionCookie, setSessionCookie, webStateOf } from '../../http/web-session.ts';
import { principalOf } from '../../plugins/principal.ts';
import { cookieSecurity, InvitationAcceptedSchema, LinkInfoSchema, LinkParams, LinkRedeemBody, optionalCookieSecurity, SessionInfoSchema, WebTag, webProblems, ref } from '@netloom/protocol/http';
import { sessionInfo } from '../../presenters/web.ts';

export function webLinkRoutes(app: App, deps: SignInDeps, ctx: EmbedContext): void {
  const db = app.database.db;
  const base = { tags: [WebTag], security: [] };
  const none = { web: { session: 'none' as const } };

  app.get(
    '/app/api/links/:token',
    {
      config: { web: { session: 'optional' as const, mfaExempt: true } },
      schema: { ...base, security: optionalCookieSecurity, summary: 'What an invitation or reset link is for', params: LinkParams, response: { 200: ref(LinkInfoSchema), ...webProblems(404, 429) } },
    },
    async (request) => describeLink(db, request.params.token, app.now(), principalOf(request, 'web-or-signed-out')?.userId ?? null),
  );

  app.post(
    '/app/api/links/:token/accept',
    {
      config: { web: true },
      schema: {
        tags: [WebTag],
        security: cookieSecurity,
        summary: 'Accept an invitation as the signed-in account it is for (joins the organization; no credential changes)',
        params: LinkParams,
        response: { 200: ref(InvitationAcceptedSchema), ...webProblems(401, 403, 404, 409, 429) },
      },
    },
    async (request) => {
      const w = principalOf(request, 'web');
      const r = await acceptInvitation(db, request.params.token, w.userId, app.now());
      if (r.orgId) await audit(ctx, r.orgId, { kind: 'user', id: w.userId }, 'member.join', w.userId, { role: r.role });
      request.log.info({ userId: w.userId, orgId: r.orgId }, 'invitation accepted');
      return { accepted: true as const, organizationId: r.orgId, role: r.role };
    },
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
      const { user } = await redeemLink(db, token, body, app.now(), (p) => hashNewPassword(deps, p));
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
