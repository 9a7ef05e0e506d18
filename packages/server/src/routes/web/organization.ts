/**
 * Organization settings the web app's account holders need now (docs/web-app.md "Organization"):
 *   PUT  /app/api/organization/settings     { requireMfa } (Owners/Admins)
 *   POST /app/api/organization/invitations  { email, role } → { url, expiresAt } (Owners/Admins; e-mailed too with SMTP_URL)
 */
import type { App } from '../../http/app-type.ts';
import { setOrganizationRequireMfa } from '../../domain/identity/account.ts';
import { DomainError } from '../../domain/errors.ts';
import { isOrgAdmin } from '../../domain/identity/users.ts';
import { createInvitation } from '../../domain/identity/user-links.ts';
import { auditOrgEvent, auditUserEvent } from '../../domain/organizations/audit-events.ts';
import { mailInvitation } from '../../domain/identity/reset-mail.ts';
import { CreatedLinkSchema, InvitationBody, OrgSettingsBody, OrgSettingsSchema, webProblems, ref } from '@netloom/protocol/http';
import { webRoutes } from '../../plugins/web-routes.ts';

export function webOrganizationRoutes(app: App): void {
  const db = app.database.db;
  const web = webRoutes(app);

  web.put(
    '/app/api/organization/settings',
    { summary: "Change the organization's settings (require MFA)", body: ref(OrgSettingsBody), response: { 200: ref(OrgSettingsSchema), ...webProblems(400, 401, 403, 429) } },
    async (request, _reply, w) => {
      const { requireMfa } = request.body;
      await setOrganizationRequireMfa(db, w.membership, requireMfa, app.now());
      request.log.info({ orgId: w.membership?.org_id, requireMfa }, 'organization require-MFA changed');
      await auditUserEvent(app.embedContext, w.userId, 'mfa.require', null, { requireMfa });
      return { requireMfa };
    },
  );

  web.post(
    '/app/api/organization/invitations',
    { summary: 'Invite someone into the organization: a one-time link valid 7 days', body: ref(InvitationBody), response: { 201: ref(CreatedLinkSchema), ...webProblems(400, 401, 403, 409, 429) } },
    async (request, reply, w) => {
      if (!w.membership || !isOrgAdmin(w.membership)) throw new DomainError('FORBIDDEN', 'only Owners and Admins of an organization invite members');
      const body = request.body;
      const link = await createInvitation(db, app.config.publicUrl, { email: body.email, orgId: w.membership.org_id, role: body.role ?? 'Standard User', createdBy: `user:${w.userId}`, inviterUserId: w.userId }, app.now());
      await auditOrgEvent(app.embedContext, w.membership.org_id, { kind: 'user', id: w.userId }, 'invitation.create', link.email, { role: body.role ?? 'Standard User', expiresAt: link.expiresAt });
      // with SMTP_URL the invitation is e-mailed too (best effort: the link is answered either way)
      await mailInvitation(app.mail, link, w.org?.name ?? 'your organization').catch((err: unknown) => request.log.warn({ err: { message: (err as Error).message } }, 'invitation e-mail failed'));
      return reply.code(201).send({ url: link.url, expiresAt: link.expiresAt });
    },
  );
}
