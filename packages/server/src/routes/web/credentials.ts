/**
 * The credentials page (docs/web-app.md "Credentials"), web session only — an API credential can never
 * reach these routes (http/web-session.ts ignores Authorization on /app/api):
 *   GET    /app/api/scopes            the scope list for the form
 *   GET    /app/api/credentials       own + the organization's (Owner/Admin)
 *   POST   /app/api/credentials       { name, password, scopes, owner? } → 201 { credential, token }
 *   DELETE /app/api/credentials/:id   revoke
 */
import type { App } from '../../http/app-type.ts';
import { SCOPE_RESOURCES, SCOPES } from '../../domain/identity/credentials/scopes.ts';
import { confirmPassword, type SignInDeps } from '../../domain/identity/sign-in.ts';
import { createWebToken, listWebCredentials, revokeWebCredential } from '../../domain/identity/credentials/web.ts';
import { auditUserEvent } from '../../domain/organizations/audit-events.ts';
import { CreateCredentialBody, CreatedCredentialSchema, CredentialIdParams, RevokedCredentialSchema, ScopeListSchema, WebCredentialListSchema, webProblems, ref } from '@netloom/protocol/http';
import { webRoutes } from '../../plugins/web-routes.ts';

export function webCredentialRoutes(app: App, deps: SignInDeps): void {
  const db = app.database.db;
  const web = webRoutes(app);

  web.get('/app/api/scopes', { summary: 'Resources and scopes a credential can hold', response: { 200: ref(ScopeListSchema), ...webProblems(401, 403, 429) } }, async () => ({
    resources: [...SCOPE_RESOURCES],
    scopes: [...SCOPES],
  }));

  web.get('/app/api/credentials', { summary: "Your API credentials, and the organization's for Owners/Admins", response: { 200: ref(WebCredentialListSchema), ...webProblems(401, 403, 429) } }, async (_request, _reply, w) => ({
    credentials: await listWebCredentials(db, w),
  }));

  web.post(
    '/app/api/credentials',
    { summary: 'Create a bearer token (password re-entered); the token is shown once', body: ref(CreateCredentialBody), response: { 201: ref(CreatedCredentialSchema), ...webProblems(400, 401, 403, 429) } },
    async (request, reply, w) => {
      const body = request.body;
      await confirmPassword(deps, w.user, body.password, request.ip);
      const created = await createWebToken(db, w, body, app.config.limits.maxCredentialsPerUser);
      request.log.info({ credentialId: created.credential.id, owner: created.credential.owner.type }, 'credential created in the web app');
      await auditUserEvent(app.embedContext, w.userId, 'credential.create', created.credential.id, { name: created.credential.name, owner: created.credential.owner.type });
      return reply.code(201).send(created);
    },
  );

  web.delete(
    '/app/api/credentials/:id',
    { summary: 'Revoke a credential (effective on its next request)', params: CredentialIdParams, response: { 200: ref(RevokedCredentialSchema), ...webProblems(401, 403, 404, 429) } },
    async (request, _reply, w) => {
      const { id } = request.params;
      await revokeWebCredential(db, w, id);
      await auditUserEvent(app.embedContext, w.userId, 'credential.revoke', id);
      return { id, revoked: true as const };
    },
  );
}
