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
import { cookieSecurity, CreateCredentialBody, CreatedCredentialSchema, CredentialIdParams, RevokedCredentialSchema, ScopeListSchema, WebCredentialListSchema, WebTag, webProblems, ref } from '@netloom/protocol/http';
import { principalOf } from '../../plugins/principal.ts';

export function webCredentialRoutes(app: App, deps: SignInDeps): void {
  const db = app.database.db;
  const base = { tags: [WebTag], security: cookieSecurity };
  const web = { web: true };

  app.get('/app/api/scopes', { config: web, schema: { ...base, summary: 'Resources and scopes a credential can hold', response: { 200: ref(ScopeListSchema), ...webProblems(401, 403, 429) } } }, async (request) => {
    principalOf(request, 'web');
    return { resources: [...SCOPE_RESOURCES], scopes: [...SCOPES] };
  });

  app.get('/app/api/credentials', { config: web, schema: { ...base, summary: "Your API credentials, and the organization's for Owners/Admins", response: { 200: ref(WebCredentialListSchema), ...webProblems(401, 403, 429) } } }, async (request) => {
    const w = principalOf(request, 'web');
    return { credentials: await listWebCredentials(db, w) };
  });

  app.post(
    '/app/api/credentials',
    {
      config: web,
      schema: { ...base, summary: 'Create a bearer token (password re-entered); the token is shown once', body: ref(CreateCredentialBody), response: { 201: ref(CreatedCredentialSchema), ...webProblems(400, 401, 403, 429) } },
    },
    async (request, reply) => {
      const w = principalOf(request, 'web');
      const body = request.body;
      await confirmPassword(deps, w.user, body.password, request.ip);
      const created = await createWebToken(db, w, body, app.config.limits.maxCredentialsPerUser);
      request.log.info({ credentialId: created.credential.id, owner: created.credential.owner.type }, 'credential created in the web app');
      await auditUserEvent(app.embedContext, w.userId, 'credential.create', created.credential.id, { name: created.credential.name, owner: created.credential.owner.type });
      return reply.code(201).send(created);
    },
  );

  app.delete(
    '/app/api/credentials/:id',
    { config: web, schema: { ...base, summary: 'Revoke a credential (effective on its next request)', params: CredentialIdParams, response: { 200: ref(RevokedCredentialSchema), ...webProblems(401, 403, 404, 429) } } },
    async (request) => {
      const w = principalOf(request, 'web');
      const { id } = request.params;
      await revokeWebCredential(db, w, id);
      await auditUserEvent(app.embedContext, w.userId, 'credential.revoke', id);
      return { id, revoked: true as const };
    },
  );
}
