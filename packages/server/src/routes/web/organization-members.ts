/**
 * The organization console's members part (docs/web-app.md "Organization console"), session-authenticated:
 *   GET   /app/api/organization                          overview (any member; `canManage` for Owners/Admins)
 *   GET   /app/api/organization/members                  members and roles (any member, read-only)
 *   POST  /app/api/organization/members                  add an existing user { email, role }     (Owner/Admin)
 *   PATCH /app/api/organization/members/:userId          change role { role }                      (Owner/Admin)
 *   POST  /app/api/organization/members/:userId/suspend  suspend: ends web sessions, disables own credentials
 *   POST  /app/api/organization/members/:userId/reinstate
 * Rules live in domain/organizations/members.ts; admin checks are made here, on the server, for every
 * action (hidden buttons are not a control).
 */
import type { FastifyRequest } from 'fastify';
import type { App } from '../../http/app-type.ts';
import { DomainError } from '../../domain/errors.ts';
import { isOrgAdmin } from '../../domain/identity/users.ts';
import type { EmbedContext } from '../../domain/embedding/context.ts';
import {
  addExistingMember,
  changeMemberRole,
  listOrganizationMembers,
  organizationOverview,
  reinstateMember,
  suspendMember,
  type MemberActor,
} from '../../domain/organizations/members.ts';
import { requireWeb } from '../../http/web-session.ts';
import { AddMemberBody, ChangeRoleBody, MemberListSchema, MemberParams, OrganizationMemberSchema, OrganizationOverviewSchema, cookieSecurity, WebTag, webProblems, ref } from '@netloom/protocol/http';

export const ConsoleTag = 'Organization console (session)';

/** The signed-in member's organization (403 when the user belongs to none). */
export function orgMemberOf(request: FastifyRequest): { orgId: string; actor: MemberActor; admin: boolean; requireMfa: boolean } {
  const web = requireWeb(request);
  if (!web.org || !web.membership) throw new DomainError('FORBIDDEN', 'you do not belong to an organization');
  return {
    orgId: web.org.id,
    actor: { kind: 'user', id: web.userId, role: web.membership.role },
    admin: isOrgAdmin(web.membership),
    requireMfa: web.requireMfa,
  };
}

/** Owners and Admins only (403 FORBIDDEN otherwise). */
export function orgAdminOf(request: FastifyRequest): { orgId: string; actor: MemberActor } {
  const m = orgMemberOf(request);
  if (!m.admin) throw new DomainError('FORBIDDEN', 'only organization Owners and Admins may do this');
  return m;
}

export function organizationMemberRoutes(app: App, ctx: EmbedContext): void {
  const tags = [ConsoleTag];
  const web = { web: true } as const;

  app.get(
    '/app/api/organization',
    { config: web, schema: { summary: "The organization: plan, counts, embedding seats, the caller's role", tags, security: cookieSecurity, response: { 200: ref(OrganizationOverviewSchema), ...webProblems(401, 403) } } },
    async (request) => {
      const m = orgMemberOf(request);
      return { ...(await organizationOverview(ctx, m.orgId)), role: m.actor.role, canManage: m.admin, requireMfa: m.requireMfa };
    },
  );

  app.get(
    '/app/api/organization/members',
    { config: web, schema: { summary: 'Members and roles (managed users flagged embedded)', tags, security: cookieSecurity, response: { 200: ref(MemberListSchema), ...webProblems(401, 403) } } },
    async (request) => ({ members: await listOrganizationMembers(ctx.db, orgMemberOf(request).orgId) }),
  );

  app.post(
    '/app/api/organization/members',
    {
      config: web,
      schema: { summary: 'Add an existing user to the organization', tags: [ConsoleTag, WebTag], security: cookieSecurity, body: ref(AddMemberBody), response: { 201: ref(OrganizationMemberSchema), ...webProblems(400, 401, 403, 404, 409) } },
    },
    async (request, reply) => {
      const { orgId, actor } = orgAdminOf(request);
      return reply.code(201).send(await addExistingMember(ctx, orgId, actor, request.body));
    },
  );

  app.patch(
    '/app/api/organization/members/:userId',
    { config: web, schema: { summary: "Change a member's role", tags, security: cookieSecurity, params: MemberParams, body: ref(ChangeRoleBody), response: { 200: ref(OrganizationMemberSchema), ...webProblems(400, 401, 403, 404, 409) } } },
    async (request) => {
      const { orgId, actor } = orgAdminOf(request);
      return changeMemberRole(ctx, orgId, actor, request.params.userId, request.body.role);
    },
  );

  app.post(
    '/app/api/organization/members/:userId/suspend',
    { config: web, schema: { summary: "Suspend a member: ends their web sessions and disables their own credentials", tags, security: cookieSecurity, params: MemberParams, response: { 200: ref(OrganizationMemberSchema), ...webProblems(401, 403, 404, 409) } } },
    async (request) => {
      const { orgId, actor } = orgAdminOf(request);
      return suspendMember(ctx, orgId, actor, request.params.userId);
    },
  );

  app.post(
    '/app/api/organization/members/:userId/reinstate',
    { config: web, schema: { summary: 'Reinstate a suspended member', tags, security: cookieSecurity, params: MemberParams, response: { 200: ref(OrganizationMemberSchema), ...webProblems(401, 403, 404) } } },
    async (request) => {
      const { orgId, actor } = orgAdminOf(request);
      return reinstateMember(ctx, orgId, actor, request.params.userId);
    },
  );
}
