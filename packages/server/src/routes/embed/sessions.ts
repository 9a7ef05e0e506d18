/** Sessions and launch tokens for the host backend (docs/spec/api.md "Embedding: sessions"). */
import type { App } from '../../http/app-type.ts';
import { checkedByDomain } from '../../http/route-contract.ts';
import type { EmbedContext } from '../../domain/embedding/context.ts';
import { requireEnabled } from '../../domain/embedding/context.ts';
import { checkProvisioningRate, createSession, issueLaunchToken, revokeSession } from '../../domain/embedding/sessions.ts';
import { orgCredential } from './context.ts';
import { LaunchTokenSchema, SessionBodySchema, SessionIdParams, SessionRevokedSchema, SessionSchema, problemResponses, ref } from '@netloom/protocol/http';

const auth = { resource: 'embed', action: 'manage' } as const;
const tags = ['embedding'];

export function sessionRoutes(app: App, ctx: EmbedContext): void {
  app.post(
    '/api/v2/embed/sessions',
    {
      config: { auth },
      validatorCompiler: checkedByDomain,
      schema: {
        summary: 'Create a session for a managed user on one network; returns the first launch token',
        tags,
        body: ref(SessionBodySchema),
        response: { 201: ref(SessionSchema), ...problemResponses(403, 404, 429) },
      },
    },
    async (request, reply) => {
      const { orgId, actor } = orgCredential(request);
      const settings = await requireEnabled(ctx, orgId);
      await checkProvisioningRate(ctx, orgId, settings);
      return reply.code(201).send(await createSession(ctx, orgId, actor, request.body ?? {}));
    },
  );

  app.post(
    '/api/v2/embed/sessions/:sessionId/launch-tokens',
    { config: { auth }, schema: { summary: 'A new launch token (60 s, single use) for the viewer of a session', tags, params: SessionIdParams, response: { 200: ref(LaunchTokenSchema), ...problemResponses(403, 404, 410, 429) } } },
    async (request) => {
      const { orgId, actor } = orgCredential(request);
      const { launchToken } = await issueLaunchToken(ctx, orgId, actor, request.params.sessionId);
      return { launchToken };
    },
  );

  app.delete(
    '/api/v2/embed/sessions/:sessionId',
    { config: { auth }, schema: { summary: 'Revoke a session (idempotent)', tags, params: SessionIdParams, response: { 200: ref(SessionRevokedSchema), ...problemResponses(403, 404) } } },
    async (request) => {
      const { orgId, actor } = orgCredential(request);
      return revokeSession(ctx, orgId, actor, request.params.sessionId);
    },
  );
}
