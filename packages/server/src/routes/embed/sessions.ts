/** Sessions and launch tokens for the host backend (API.md "Embedding: sessions"). */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { EmbedContext } from '../../domain/embed-context.ts';
import { requireEnabled } from '../../domain/embed-context.ts';
import { checkProvisioningRate, createSession, issueLaunchToken, revokeSession } from '../../domain/embed-sessions.ts';
import { orgCredential } from './context.ts';

const auth = { resource: 'embed', action: 'manage' } as const;
const tags = ['embedding'];
const SessionParams = Type.Object({ sessionId: Type.String() });

export function sessionRoutes(app: FastifyInstance, ctx: EmbedContext): void {
  app.post(
    '/api/v2/embed/sessions',
    { config: { auth }, schema: { summary: 'Create a session for a managed user on one network; returns the first launch token', tags } },
    async (request, reply) => {
      const { orgId, actor } = orgCredential(request);
      const settings = await requireEnabled(ctx, orgId);
      await checkProvisioningRate(ctx, orgId, settings);
      return reply.code(201).send(await createSession(ctx, orgId, actor, request.body ?? {}));
    },
  );

  app.post(
    '/api/v2/embed/sessions/:sessionId/launch-tokens',
    { config: { auth }, schema: { summary: 'A new launch token (60 s, single use) for the viewer of a session', tags, params: SessionParams } },
    async (request) => {
      const { orgId, actor } = orgCredential(request);
      const { launchToken } = await issueLaunchToken(ctx, orgId, actor, (request.params as { sessionId: string }).sessionId);
      return { launchToken };
    },
  );

  app.delete(
    '/api/v2/embed/sessions/:sessionId',
    { config: { auth }, schema: { summary: 'Revoke a session (idempotent)', tags, params: SessionParams } },
    async (request) => {
      const { orgId, actor } = orgCredential(request);
      return revokeSession(ctx, orgId, actor, (request.params as { sessionId: string }).sessionId);
    },
  );
}
