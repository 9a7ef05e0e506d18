/** Managed users and grants (docs/spec/api.md "Embedding: managed users"; docs/spec/decisions.md §5). */
import { Type } from 'typebox';
import type { App } from '../../http/app-type.ts';
import { checkedByDomain } from '../../http/route-contract.ts';
import type { EmbedContext } from '../../domain/embedding/context.ts';
import { getManagedUserWithGrants, listManagedUsersPage } from '../../domain/embedding/users.ts';
import { provisionDeactivation, provisionGrant, provisionGrantRemoval, provisionManagedUser } from '../../domain/embedding/provisioning.ts';
import { presentManagedUser } from '../../presenters/embed.ts';
import { paging } from '../../http/paging.ts';
import { ExternalIdSchema, GrantBodySchema, ManagedUserBodySchema, ManagedUserListQuery, ManagedUserListSchema, ManagedUserSchema, problemResponses, ref } from '@netloom/protocol/http';
import { principalOf } from '../../plugins/principal.ts';

const auth = { resource: 'embed', action: 'manage' } as const;
const tags = ['embedding'];
const UserParams = Type.Object({ externalId: ExternalIdSchema });
const GrantParams = Type.Object({ externalId: ExternalIdSchema, networkId: Type.String({ maxLength: 100 }) });
const User = ref(ManagedUserSchema);
/** Embedding off (EMBEDDING_DISABLED), not an organization credential (FORBIDDEN); the hourly allowance (429). */
const provisioningProblems = problemResponses(403, 429);

export function managedUserRoutes(app: App, ctx: EmbedContext): void {

  app.put(
    '/api/v2/embed/users/:externalId',
    {
      config: { auth },
      validatorCompiler: checkedByDomain,
      schema: {
        summary: 'Create (201) or update (200) a managed user; reactivates a deactivated one',
        tags,
        params: UserParams,
        body: ref(ManagedUserBodySchema),
        response: { 200: User, 201: User, ...provisioningProblems, ...problemResponses(402, 409) },
      },
    },
    async (request, reply) => {
      const { orgId, actor } = principalOf(request, 'organization');
      const { created, result } = await provisionManagedUser(ctx, orgId, actor, request.params.externalId, request.body ?? {});
      return reply.code(created ? 201 : 200).send(presentManagedUser(result));
    },
  );

  app.get(
    '/api/v2/embed/users/:externalId',
    { config: { auth }, schema: { summary: 'One managed user', tags, params: UserParams, response: { 200: User, ...problemResponses(403, 404) } } },
    async (request) => {
      const { orgId } = principalOf(request, 'organization');
      return presentManagedUser(await getManagedUserWithGrants(ctx, orgId, request.params.externalId));
    },
  );

  app.get(
    '/api/v2/embed/users',
    { config: { auth }, schema: { summary: 'List managed users (status, limit ≤ 500, offset; oldest first)', tags, querystring: ManagedUserListQuery, response: { 200: ref(ManagedUserListSchema), ...problemResponses(403) } } },
    async (request) => {
      const { orgId } = principalOf(request, 'organization');
      const q = request.query;
      const page = await listManagedUsersPage(ctx, orgId, { status: q.status, ...paging(q) });
      return { total: page.total, offset: page.offset, limit: page.limit, users: page.users.map(presentManagedUser) };
    },
  );

  app.put(
    '/api/v2/embed/users/:externalId/networks/:networkId',
    {
      config: { auth },
      validatorCompiler: checkedByDomain,
      schema: { summary: 'Grant View or Edit on an embeddable network', tags, params: GrantParams, body: ref(GrantBodySchema), response: { 200: User, ...provisioningProblems, ...problemResponses(404) } },
    },
    async (request) => {
      const { orgId, actor } = principalOf(request, 'organization');
      const { externalId, networkId } = request.params;
      return presentManagedUser(await provisionGrant(ctx, orgId, actor, externalId, networkId, request.body ?? {}));
    },
  );

  app.delete(
    '/api/v2/embed/users/:externalId/networks/:networkId',
    { config: { auth }, schema: { summary: "Remove a grant (effective on the viewer's next request)", tags, params: GrantParams, response: { 200: User, ...provisioningProblems, ...problemResponses(404) } } },
    async (request) => {
      const { orgId, actor } = principalOf(request, 'organization');
      const { externalId, networkId } = request.params;
      return presentManagedUser(await provisionGrantRemoval(ctx, orgId, actor, externalId, networkId));
    },
  );

  app.post(
    '/api/v2/embed/users/:externalId/deactivate',
    { config: { auth }, schema: { summary: 'Deactivate: ends sessions, removes access, frees the seat (idempotent)', tags, params: UserParams, response: { 200: User, ...provisioningProblems, ...problemResponses(404) } } },
    async (request) => {
      const { orgId, actor } = principalOf(request, 'organization');
      return presentManagedUser(await provisionDeactivation(ctx, orgId, actor, request.params.externalId));
    },
  );
}
