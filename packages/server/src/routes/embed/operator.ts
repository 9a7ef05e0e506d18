/**
 * The service operator's API (issue 4 item 1): enable/disable embedding, set managed-user seats and
 * per-organization limit overrides. Authenticated by `Authorization: Bearer <NETLOOM_OPERATOR_TOKEN>`
 * (constant-time comparison); absent configuration = the operator API does not exist (404).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { EmbedContext } from '../../domain/embed-context.ts';
import { setEnablement, settingsView } from '../../domain/embed-settings.ts';
import { requireOrganization } from '../../domain/identity.ts';
import { secretsEqual } from '../../domain/embed-tokens.ts';
import { DomainError } from '../../domain/errors.ts';
import { unauthenticated } from '../../http/auth.ts';
import { checkRate } from '../../domain/embed-context.ts';

const Params = Type.Object({ orgId: Type.String() });
const Body = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    seats: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000 })),
    limits: Type.Optional(Type.Record(Type.String(), Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]))),
  },
  { additionalProperties: false },
);

export function operatorRoutes(app: FastifyInstance, ctx: EmbedContext): void {
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
  const config = { auth: { skip: true } };
  const tags = ['operator'];

  app.get('/api/v2/operator/organizations/:orgId/embedding', { config, schema: { summary: "An organization's embedding enablement, seats and limits", tags, params: Params } }, async (request) => {
    await operator(request);
    const org = await requireOrganization(ctx.db, (request.params as { orgId: string }).orgId);
    return { orgId: org.id, ...(await settingsView(ctx, org.id)) };
  });

  app.put(
    '/api/v2/operator/organizations/:orgId/embedding',
    { config, schema: { summary: 'Enable/disable embedding, set seats and limit overrides (null = default)', tags, params: Params, body: Body } },
    async (request) => {
      await operator(request);
      const org = await requireOrganization(ctx.db, (request.params as { orgId: string }).orgId);
      const body = (request.body ?? {}) as { enabled?: boolean; seats?: number; limits?: Record<string, unknown> };
      return { orgId: org.id, ...(await setEnablement(ctx, org.id, { kind: 'operator', id: 'operator' }, body)) };
    },
  );
}
