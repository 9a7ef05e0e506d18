/**
 * Ordinary-credential routes that embedding adds:
 * - `GET /api/v2/organization/members`: the organization's members for its admins (an organization
 *   credential, or a user credential of an Owner/Admin), managed users flagged `embedded: true`; the
 *   credential needs `employees:read` (names, e-mails and roles are people data; docs/api/decisions.md);
 * - `GET /api/v2/networks/:id/views`: the saved views of a network (`networks:read`, same visibility as
 *   `GET /networks/:id`).
 */
import type { App } from '../../http/app-type.ts';
import { EmbedViewSchema, OrganizationMembersSchema } from '../../schemas/embed.ts';
import { problemResponses } from '../../schemas/problem.ts';
import { ref } from '../../schemas/ref.ts';
import { Type } from 'typebox';
import type { EmbedContext } from '../../domain/embed-context.ts';
import { DomainError } from '../../domain/errors.ts';
import { isOrgAdmin } from '../../domain/identity.ts';
import { loadNetworkFor } from '../../domain/network-access.ts';
import { listMembers } from '../../store/organizations.ts';
import { managedFactsOfOrg } from '../../store/embed-users.ts';
import { listViews } from '../../store/embed-views.ts';
import { presentView } from '../../presenters/embed.ts';

export function orgMemberRoutes(app: App, ctx: EmbedContext): void {
  app.get(
    '/api/v2/organization/members',
    { config: { auth: { resource: 'employees', action: 'read' } }, schema: { summary: "The organization's members (managed users flagged embedded); needs employees:read", tags: ['organization'], response: { 200: ref(OrganizationMembersSchema), ...problemResponses(403) } } },
    async (request) => {
      const p = request.principal!;
      const orgId = p.orgId ?? (isOrgAdmin(p.membership) ? p.membership!.org_id : null);
      if (!orgId) throw new DomainError('FORBIDDEN', 'only organization admins (Owner or Admin) or organization credentials may list members');
      const [members, managed] = await Promise.all([listMembers(ctx.db, orgId), managedFactsOfOrg(ctx.db, orgId)]);
      return {
        members: members.map((m) => {
          const e = managed.get(m.user.id);
          return {
            _id: m.user.id,
            name: m.user.name,
            email: m.user.email,
            role: m.role,
            joined: m.joined,
            embedded: e !== undefined,
            ...(e ? { externalId: e.external_id, embedStatus: e.status } : {}),
          };
        }),
      };
    },
  );
}

export function networkViewRoutes(app: App, ctx: EmbedContext): void {
  app.get(
    '/api/v2/networks/:id/views',
    {
      config: { auth: { resource: 'networks', anonymous: true } },
      schema: { summary: "A network's saved views (EmbedView v1)", tags: ['networks'], params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }), response: { 200: Type.Array(ref(EmbedViewSchema)), ...problemResponses(404) } },
    },
    async (request) => {
      const { id } = request.params;
      await loadNetworkFor(ctx.db, request.principal, id, 'read');
      return (await listViews(ctx.db, id)).map(presentView);
    },
  );
}
