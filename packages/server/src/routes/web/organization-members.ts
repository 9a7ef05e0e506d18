/**
 * The organization console's members part (docs/web-app.md "Organization console"), session-authenticated:
 *   GET   /app/api/organization                          overview (any member; `canManage` for Owners/Admins)
 *   GET   /app/api/organization/members                  members and roles (any member, read-only)
 *   POST  /app/api/organization/members                  invite { email, role } → a link   (Owner/Admin)
 *   PATCH /app/api/organization/members/:userId          change role { role }                      (Owner/Admin)
 *   POST  /app/api/organization/members/:userId/suspend  suspend: ends web sessions, disables own credentials
 *   POST  /app/api/organization/members/:userId/reinstate
 *   GET   /app/api/organization/invitations              pending invitations             (Owner/Admin)
 *   DELETE /app/api/organization/invitations/:id         revoke one (its link stops working) → the rest (Owner/Admin)
 *   POST  /app/api/organization/leave                    leave (any member but the last active Owner)
 *   POST  /app/api/organization/networks/:networkId/move-in   move one of your personal networks in
 * Rules live in domain/organizations/members.ts; admin checks are made here, on the server, for every
 * action (hidden buttons are not a control). Nobody joins without consent (issue 19 finding 2): adding a
 * member by e-mail creates the same invitation as POST /app/api/organization/invitations, which an
 * existing account accepts signed in as itself (domain/identity/user-links.ts).
 */
import type { App } from '../../http/app-type.ts';
import type { EmbedContext } from '../../domain/embedding/context.ts';
import {
  changeMemberRole,
  leaveOrganization,
  listOrganizationMembers,
  moveNetworkIntoOrganization,
  organizationOverview,
  reinstateMember,
  suspendMember,
} from '../../domain/organizations/members.ts';
import { createInvitation } from '../../domain/identity/user-links.ts';
import { auditOrgEvent, pendingInvitations, revokePendingInvitation } from '../../domain/organizations/audit-events.ts';
import { InvitationIdParams, PendingInvitationListSchema, AddMemberBody, ChangeRoleBody, CreatedLinkSchema, LeftOrganizationSchema, MemberListSchema, MemberParams, MovedNetworkSchema, ConsoleNetworkIdParams, OrganizationMemberSchema, OrganizationOverviewSchema, cookieSecurity, WebTag, webProblems, ref } from '@netloom/protocol/http';
import { ConsoleTag } from '../../schemas/tags.ts';
import { principalOf } from '../../plugins/principal.ts';

export function organizationMemberRoutes(app: App, ctx: EmbedContext): void {
  const tags = [ConsoleTag];
  const web = { web: true } as const;

  app.get(
    '/app/api/organization',
    { config: web, schema: { summary: "The organization: plan, counts, embedding seats, the caller's role", tags, security: cookieSecurity, response: { 200: ref(OrganizationOverviewSchema), ...webProblems(401, 403) } } },
    async (request) => {
      const m = principalOf(request, 'member');
      return { ...(await organizationOverview(ctx, m.orgId)), role: m.actor.role, canManage: m.admin, requireMfa: m.requireMfa };
    },
  );

  app.get(
    '/app/api/organization/members',
    { config: web, schema: { summary: 'Members and roles (managed users flagged embedded)', tags, security: cookieSecurity, response: { 200: ref(MemberListSchema), ...webProblems(401, 403) } } },
    async (request) => ({ members: await listOrganizationMembers(ctx.db, principalOf(request, 'member').orgId) }),
  );

  app.post(
    '/app/api/organization/members',
    {
      config: web,
      schema: {
        summary: 'Invite someone by e-mail: a one-time link they accept (an existing account signed in as itself); the same answer whether or not the e-mail has an account',
        tags: [ConsoleTag, WebTag],
        security: cookieSecurity,
        body: ref(AddMemberBody),
        response: { 201: ref(CreatedLinkSchema), ...webProblems(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const { orgId, actor } = principalOf(request, 'admin');
      const link = await createInvitation(ctx.db, app.config.publicUrl, { email: request.body.email, orgId, role: request.body.role, createdBy: `user:${actor.id}`, inviterUserId: actor.id }, ctx.now());
      await auditOrgEvent(ctx, orgId, { kind: 'user', id: actor.id }, 'invitation.create', link.email, { role: request.body.role ?? 'Standard User', expiresAt: link.expiresAt });
      return reply.code(201).send({ url: link.url, expiresAt: link.expiresAt });
    },
  );

  app.get(
    '/app/api/organization/invitations',
    { config: web, schema: { summary: 'Pending invitations: not yet accepted, revoked or expired (Owners and Admins)', tags, security: cookieSecurity, response: { 200: ref(PendingInvitationListSchema), ...webProblems(401, 403) } } },
    async (request) => ({ invitations: await pendingInvitations(ctx, principalOf(request, 'admin').orgId) }),
  );

  app.delete(
    '/app/api/organization/invitations/:id',
    { config: web, schema: { summary: 'Revoke a pending invitation: its link stops working at once (Owners and Admins)', tags, security: cookieSecurity, params: InvitationIdParams, response: { 200: ref(PendingInvitationListSchema), ...webProblems(401, 403, 404) } } },
    async (request) => {
      const { orgId, actor } = principalOf(request, 'admin');
      await revokePendingInvitation(ctx, orgId, { kind: 'user', id: actor.id }, request.params.id);
      return { invitations: await pendingInvitations(ctx, orgId) };
    },
  );

  app.patch(
    '/app/api/organization/members/:userId',
    { config: web, schema: { summary: "Change a member's role", tags, security: cookieSecurity, params: MemberParams, body: ref(ChangeRoleBody), response: { 200: ref(OrganizationMemberSchema), ...webProblems(400, 401, 403, 404, 409) } } },
    async (request) => {
      const { orgId, actor } = principalOf(request, 'admin');
      return changeMemberRole(ctx, orgId, actor, request.params.userId, request.body.role);
    },
  );

  app.post(
    '/app/api/organization/members/:userId/suspend',
    { config: web, schema: { summary: "Suspend a member: ends their web sessions and disables their own credentials", tags, security: cookieSecurity, params: MemberParams, response: { 200: ref(OrganizationMemberSchema), ...webProblems(401, 403, 404, 409) } } },
    async (request) => {
      const { orgId, actor } = principalOf(request, 'admin');
      return suspendMember(ctx, orgId, actor, request.params.userId);
    },
  );

  app.post(
    '/app/api/organization/members/:userId/reinstate',
    { config: web, schema: { summary: 'Reinstate a suspended member', tags, security: cookieSecurity, params: MemberParams, response: { 200: ref(OrganizationMemberSchema), ...webProblems(401, 403, 404) } } },
    async (request) => {
      const { orgId, actor } = principalOf(request, 'admin');
      return reinstateMember(ctx, orgId, actor, request.params.userId);
    },
  );

  app.post(
    '/app/api/organization/leave',
    {
      config: web,
      schema: {
        summary: 'Leave the organization (not the last active Owner); your organization credentials are revoked, the networks you created in it stay the organization’s',
        tags,
        security: cookieSecurity,
        response: { 200: ref(LeftOrganizationSchema), ...webProblems(401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { orgId, actor } = principalOf(request, 'member');
      const r = await leaveOrganization(ctx, orgId, actor);
      request.log.info({ userId: actor.id, orgId }, 'member left the organization');
      return r;
    },
  );

  app.post(
    '/app/api/organization/networks/:networkId/move-in',
    {
      config: web,
      schema: {
        summary: 'Move one of your personal networks into your organization (its credentials and embedding reach it from then on)',
        tags,
        security: cookieSecurity,
        params: ConsoleNetworkIdParams,
        response: { 200: ref(MovedNetworkSchema), ...webProblems(401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { orgId, actor } = principalOf(request, 'member');
      return moveNetworkIntoOrganization(ctx, orgId, actor, request.params.networkId);
    },
  );
}
