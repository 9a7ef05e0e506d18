/** Managed users and grants (API.md "Embedding: managed users"; DECISIONS.md §5). */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { EmbedContext } from '../../domain/embed-context.ts';
import { requireEnabled } from '../../domain/embed-context.ts';
import { checkProvisioningRate } from '../../domain/embed-sessions.ts';
import {
  deactivateManagedUser,
  getManagedUserWithGrants,
  grantNetwork,
  listManagedUsersPage,
  putManagedUser,
  removeGrant,
} from '../../domain/embed-users.ts';
import { presentManagedUser } from '../../presenters/embed.ts';
import { orgCredential, paging } from './context.ts';

const auth = { resource: 'embed', action: 'manage' } as const;
const tags = ['embedding'];
const UserParams = Type.Object({ externalId: Type.String() });
const GrantParams = Type.Object({ externalId: Type.String(), networkId: Type.String() });
const ListQuery = Type.Object(
  {
    status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('deactivated')])),
    limit: Type.Optional(Type.String({ description: '1 to 500, default 50' })),
    offset: Type.Optional(Type.String({ description: 'default 0' })),
  },
  { additionalProperties: false },
);

export function managedUserRoutes(app: FastifyInstance, ctx: EmbedContext): void {
  /** Provisioning calls: embedding on, then the per-organization hourly allowance. */
  async function provisioning(orgId: string): Promise<void> {
    const settings = await requireEnabled(ctx, orgId);
    await checkProvisioningRate(ctx, orgId, settings);
  }

  app.put(
    '/api/v2/embed/users/:externalId',
    { config: { auth }, schema: { summary: 'Create (201) or update (200) a managed user; reactivates a deactivated one', tags, params: UserParams } },
    async (request, reply) => {
      const { orgId, actor } = orgCredential(request);
      await provisioning(orgId);
      const { externalId } = request.params as { externalId: string };
      const { created, result } = await putManagedUser(ctx, orgId, actor, externalId, request.body ?? {});
      return reply.code(created ? 201 : 200).send(presentManagedUser(result));
    },
  );

  app.get(
    '/api/v2/embed/users/:externalId',
    { config: { auth }, schema: { summary: 'One managed user', tags, params: UserParams } },
    async (request) => {
      const { orgId } = orgCredential(request);
      return presentManagedUser(await getManagedUserWithGrants(ctx, orgId, (request.params as { externalId: string }).externalId));
    },
  );

  app.get(
    '/api/v2/embed/users',
    { config: { auth }, schema: { summary: 'List managed users (status, limit ≤ 500, offset; oldest first)', tags, querystring: ListQuery } },
    async (request) => {
      const { orgId } = orgCredential(request);
      const q = request.query as { status?: 'active' | 'deactivated'; limit?: string; offset?: string };
      const page = await listManagedUsersPage(ctx, orgId, { status: q.status, ...paging(q) });
      return { total: page.total, offset: page.offset, limit: page.limit, users: page.users.map(presentManagedUser) };
    },
  );

  app.put(
    '/api/v2/embed/users/:externalId/networks/:networkId',
    { config: { auth }, schema: { summary: 'Grant View or Edit on an embeddable network', tags, params: GrantParams } },
    async (request) => {
      const { orgId, actor } = orgCredential(request);
      await provisioning(orgId);
      const { externalId, networkId } = request.params as { externalId: string; networkId: string };
      return presentManagedUser(await grantNetwork(ctx, orgId, actor, externalId, networkId, request.body ?? {}));
    },
  );

  app.delete(
    '/api/v2/embed/users/:externalId/networks/:networkId',
    { config: { auth }, schema: { summary: "Remove a grant (effective on the viewer's next request)", tags, params: GrantParams } },
    async (request) => {
      const { orgId, actor } = orgCredential(request);
      await provisioning(orgId);
      const { externalId, networkId } = request.params as { externalId: string; networkId: string };
      return presentManagedUser(await removeGrant(ctx, orgId, actor, externalId, networkId));
    },
  );

  app.post(
    '/api/v2/embed/users/:externalId/deactivate',
    { config: { auth }, schema: { summary: 'Deactivate: ends sessions, removes access, frees the seat (idempotent)', tags, params: UserParams } },
    async (request) => {
      const { orgId, actor } = orgCredential(request);
      await provisioning(orgId);
      return presentManagedUser(await deactivateManagedUser(ctx, orgId, actor, (request.params as { externalId: string }).externalId));
    },
  );
}
