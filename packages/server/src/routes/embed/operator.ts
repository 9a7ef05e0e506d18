/**
 * The service operator's API (issue 4 item 1): enable/disable embedding, set managed-user seats and
 * per-organization limit overrides. Authenticated by `Authorization: Bearer <NETLOOM_OPERATOR_TOKEN>`
 * (constant-time comparison); absent configuration = the operator API does not exist (404).
 */
import type { FastifyRequest } from 'fastify';
import type { App } from '../../http/app-type.ts';
import { OperatorEmbeddingBodySchema, OperatorEmbeddingSchema, problemResponses, ref } from '@netloom/protocol/http';
import { Type } from 'typebox';
import type { EmbedContext } from '../../domain/embedding/context.ts';
import { setEnablement, settingsView } from '../../domain/embedding/settings.ts';
import { requireOrganization } from '../../domain/identity/users.ts';
import { secretsEqual } from '../../domain/embedding/tokens.ts';
import { DomainError } from '../../domain/errors.ts';
import { unauthenticated } from '../../http/auth.ts';
import { checkRate } from '../../domain/embedding/context.ts';

const Params = Type.Object({ orgId: Type.String() });
/** Operator token missing or wrong (401, failed attempts capped per address: 429); unknown organization or no operator token configured (404). */
const operatorProblems = problemResponses(401, 404, 429);

export function operatorRoutes(app: App, ctx: EmbedContext): void {
  async function operator(request: FastifyRequest): Promise<void> {
    const expected = ctx.config.embed.operatorToken;
    if (!expected) throw new DomainError('NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`);
    // Failed attempts are capped per address before the comparison.
    const m = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    if (!m || !secretsEqual(m[1], expected)) {
      await checkRate(ctx, `ip:${request.ip}:operator-fail`, 100, 'failed operator authentications');
      throw unauthenticated('the operator API needs Authorization: Bearer <operator token>');
    }
  }
  // Checked before any body is read (docs/security.md, "Request bodies").
  app.addHook('onRequest', async (request) => {
    if (!request.routeOptions.url?.startsWith('/api/v2/operator/')) return;
    await operator(request);
    request.authenticated = true;
  });
  const config = { auth: { skip: true } };
  const tags = ['operator'];
  const security = [{ operator: [] }];

  app.get('/api/v2/operator/organizations/:orgId/embedding', { config, schema: { summary: "An organization's embedding enablement, seats and limits", tags, params: Params, security, response: { 200: ref(OperatorEmbeddingSchema), ...operatorProblems } } }, async (request) => {
    const org = await requireOrganization(ctx.db, request.params.orgId);
    return { orgId: org.id, ...(await settingsView(ctx, org.id)) };
  });

  app.put(
    '/api/v2/operator/organizations/:orgId/embedding',
    { config, schema: { summary: 'Enable/disable embedding, set seats and limit overrides (null = default)', tags, params: Params, security, body: ref(OperatorEmbeddingBodySchema), response: { 200: ref(OperatorEmbeddingSchema), ...operatorProblems } } },
    async (request) => {
      const org = await requireOrganization(ctx.db, request.params.orgId);
      return { orgId: org.id, ...(await setEnablement(ctx, org.id, { kind: 'operator', id: 'operator' }, request.body ?? {})) };
    },
  );
}
