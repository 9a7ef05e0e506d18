/**
 * Ordinary-credential routes that embedding adds:
 * - `GET /api/v2/organization/members`: the organization's members for its admins (an organization
 *   credential, or a user credential of an Owner/Admin), managed users flagged `embedded: true`; the
 *   credential needs `employees:read` (names, e-mails and roles are people data; docs/spec/decisions.md §9);
 * - `GET /api/v2/networks/:id/views`: the saved views of a network (`networks:read`, same visibility as
 *   `GET /networks/:id`).
 */
import type { App } from '../../http/app-type.ts';
import { EmbedViewSchema, OrganizationMembersSchema, problemResponses, ref } from '@netloom/protocol/http';
import { Type } from 'typebox';
import type { EmbedContext } from '../../domain/embedding/context.ts';
import { membersForCredential } from '../../domain/organizations/members.ts';
import { viewsOfNetwork } from '../../domain/embedding/views.ts';
import { presentView } from '../../presenters/embed.ts';
import { principalOf } from '../../plugins/principal.ts';

export function orgMemberRoutes(app: App, ctx: EmbedContext): void {
  app.get(
    '/api/v2/organization/members',
    { config: { auth: { resource: 'employees', action: 'read' } }, schema: { summary: "The organization's members (managed users flagged embedded); needs employees:read", tags: ['organization'], response: { 200: ref(OrganizationMembersSchema), ...problemResponses(403) } } },
    async (request) => ({ members: await membersForCredential(ctx.db, principalOf(request, 'credential')) }),
  );
}

export function networkViewRoutes(app: App, ctx: EmbedContext): void {
  app.get(
    '/api/v2/networks/:id/views',
    {
      config: { auth: { resource: 'networks', anonymous: true } },
      schema: { summary: "A network's saved views (EmbedView v1)", tags: ['networks'], params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }), response: { 200: Type.Array(ref(EmbedViewSchema)), ...problemResponses(404) } },
    },
    async (request) => (await viewsOfNetwork(ctx.db, principalOf(request, 'credential-or-anonymous'), request.params.id)).map(presentView),
  );
}
