/**
 * The account page's endpoints (docs/web-app.md "Account"):
 *   GET    /app/api/account                               plan, counts and maxima, organization, MFA state
 *   PATCH  /app/api/account                               { name } change your display name
 *   POST   /app/api/account/password                      { currentPassword, newPassword } (ends other sessions)
 *   GET    /app/api/account/sessions                      active web sessions
 *   DELETE /app/api/account/sessions/:id                  end one
 *   POST   /app/api/account/sessions/sign-out-everywhere  end all, this one included
 *   POST   /app/api/account/mfa/setup | enable | disable | recovery-codes
 */
import { auditUserEvent } from '../../domain/organizations/audit-events.ts';
import type { App } from '../../http/app-type.ts';
import { accountSummary, changePassword, renameAccount } from '../../domain/identity/account.ts';
import { disableMfa, enableMfa, mfaEnabled, regenerateRecoveryCodes, remainingRecoveryCodes, setupMfa } from '../../domain/identity/mfa.ts';
import { confirmPassword, type SignInDeps } from '../../domain/identity/sign-in.ts';
import { DomainError } from '../../domain/errors.ts';
import { endWebSession, endWebSessionsOfUser, listWebSessions } from '../../domain/web/sessions.ts';
import { clearSessionCookie } from '../../http/web-session.ts';
import { AccountNameBody, AccountSchema, cookieSecurity, EndedCountSchema, MfaDisabledSchema, MfaEnableBody, MfaSetupSchema, PasswordBody, PasswordChangeBody, PasswordChangedSchema, RecoveryCodesSchema, SessionEndedSchema, WebSessionIdParams, WebSessionListSchema, WebTag, webProblems, ref } from '@netloom/protocol/http';
import { webOrganization, webUser } from '../../presenters/web.ts';
import { principalOf } from '../../plugins/principal.ts';

export function webAccountRoutes(app: App, deps: SignInDeps): void {
  const db = app.database.db;
  const base = { tags: [WebTag], security: cookieSecurity };
  const web = { web: true };
  const mfaExempt = { web: { mfaExempt: true } };

  app.get('/app/api/account', { config: web, schema: { ...base, summary: 'Plan, network counts and maxima, organization, MFA', response: { 200: ref(AccountSchema), ...webProblems(401, 403, 429) } } }, async (request) => {
    const w = principalOf(request, 'web');
    const [summary, organization, left] = await Promise.all([accountSummary(db, app.config, w.user), webOrganization(app, w), remainingRecoveryCodes(db, w.userId)]);
    return { user: webUser(w), ...summary, organization, mfa: { enabled: w.mfaEnabled, recoveryCodesLeft: w.mfaEnabled ? left : 0 } };
  });

  app.patch(
    '/app/api/account',
    { config: web, schema: { ...base, summary: 'Change your display name', body: ref(AccountNameBody), response: { 200: ref(AccountNameBody), ...webProblems(400, 401, 403, 429) } } },
    async (request) => renameAccount(db, principalOf(request, 'web').userId, request.body.name),
  );

  app.post(
    '/app/api/account/password',
    { config: web, schema: { ...base, summary: 'Change the password (ends the other sessions)', body: ref(PasswordChangeBody), response: { 200: ref(PasswordChangedSchema), ...webProblems(400, 401, 403, 429) } } },
    async (request) => {
      const w = principalOf(request, 'web');
      const r = await changePassword(deps, w.user, request.body, { ip: request.ip, keepSessionId: w.sessionId });
      return { changed: true as const, endedSessions: r.endedSessions };
    },
  );

  app.get('/app/api/account/sessions', { config: web, schema: { ...base, summary: 'Active web sessions of this account', response: { 200: ref(WebSessionListSchema), ...webProblems(401, 403, 429) } } }, async (request) => {
    const w = principalOf(request, 'web');
    return { sessions: await listWebSessions(db, app.config.web, w.userId, w.sessionId, app.now()) };
  });

  app.delete(
    '/app/api/account/sessions/:id',
    { config: web, schema: { ...base, summary: 'End one of your sessions', params: WebSessionIdParams, response: { 200: ref(SessionEndedSchema), ...webProblems(401, 403, 404, 429) } } },
    async (request, reply) => {
      const w = principalOf(request, 'web');
      const { id } = request.params;
      await endWebSession(db, w.userId, id);
      if (id === w.sessionId) clearSessionCookie(reply, app.config);
      return { id, ended: true as const };
    },
  );

  app.post(
    '/app/api/account/sessions/sign-out-everywhere',
    { config: mfaExempt, schema: { ...base, summary: 'End every session of this account, this one included', response: { 200: ref(EndedCountSchema), ...webProblems(401, 403, 429) } } },
    async (request, reply) => {
      const w = principalOf(request, 'web');
      const ended = await endWebSessionsOfUser(db, w.userId);
      clearSessionCookie(reply, app.config);
      return { ended };
    },
  );

  app.post('/app/api/account/mfa/setup', { config: mfaExempt, schema: { ...base, summary: 'Start TOTP enrolment: a new secret and otpauth URL', response: { 200: ref(MfaSetupSchema), ...webProblems(401, 403, 429) } } }, async (request) => {
    const w = principalOf(request, 'web');
    if (w.mfaEnabled) throw new DomainError('CONFLICT', 'MFA is already enabled; disable it first to enrol another device');
    return setupMfa(db, w.user, app.now());
  });

  app.post(
    '/app/api/account/mfa/enable',
    { config: mfaExempt, schema: { ...base, summary: 'Confirm enrolment with a current code and your password; returns 10 one-time recovery codes', body: ref(MfaEnableBody), response: { 200: ref(RecoveryCodesSchema), ...webProblems(400, 401, 403, 409, 429) } } },
    async (request) => {
      const w = principalOf(request, 'web');
      if (w.mfaEnabled) throw new DomainError('CONFLICT', 'MFA is already enabled');
      // A session alone never turns MFA on (issue 19 finding 10): whoever holds a stolen cookie could
      // otherwise lock the owner out with a second factor only they have.
      await confirmPassword(deps, w.user, request.body.password, request.ip);
      const codes = await enableMfa(db, w.userId, request.body.code, app.now());
      await auditUserEvent(app.embedContext, w.userId, 'mfa.enable', w.userId);
      return codes;
    },
  );

  app.post(
    '/app/api/account/mfa/disable',
    { config: web, schema: { ...base, summary: 'Turn MFA off (password required; refused while the organization requires MFA)', body: ref(PasswordBody), response: { 200: ref(MfaDisabledSchema), ...webProblems(400, 401, 403, 429) } } },
    async (request) => {
      const w = principalOf(request, 'web');
      if (w.requireMfa) throw new DomainError('FORBIDDEN', 'your organization requires MFA; it cannot be turned off');
      await confirmPassword(deps, w.user, request.body.password, request.ip);
      await disableMfa(db, w.userId);
      await auditUserEvent(app.embedContext, w.userId, 'mfa.disable', w.userId);
      return { mfaEnabled: false as const };
    },
  );

  app.post(
    '/app/api/account/mfa/recovery-codes',
    { config: web, schema: { ...base, summary: 'New recovery codes (password required); the old ones stop working', body: ref(PasswordBody), response: { 200: ref(RecoveryCodesSchema), ...webProblems(400, 401, 403, 429) } } },
    async (request) => {
      const w = principalOf(request, 'web');
      if (!(await mfaEnabled(db, w.userId))) throw new DomainError('FORBIDDEN', 'MFA is not enabled for this account');
      await confirmPassword(deps, w.user, request.body.password, request.ip);
      return regenerateRecoveryCodes(db, w.userId, app.now());
    },
  );
}
