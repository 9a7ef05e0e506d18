/** Builds the embedding context of an app (Redis-backed when REDIS_URL is set) and route helpers. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../../domain/identity/credentials/principal.ts';
import { DomainError, invalidArgs } from '../../domain/errors.ts';
import { createEmbedContext, type Actor, type EmbedContext } from '../../domain/embedding/context.ts';

/** The embedding context of an app (domain/embedding/context.ts). */
export function embedContextOf(app: FastifyInstance): EmbedContext {
  return createEmbedContext({ db: app.database.db, config: app.config, redis: app.redis, now: () => app.now() });
}

/** The organization of an organization-owned credential (embedding calls need one: docs/spec/api.md Authentication 7). */
export function orgCredential(request: FastifyRequest): { principal: Principal; orgId: string; actor: Actor } {
  const p = request.principal;
  if (!p) throw new DomainError('UNAUTHENTICATED', 'a credential is required');
  if (!p.orgId) throw new DomainError('FORBIDDEN', 'embedding calls need an organization-owned credential with the embed:manage scope; this is a user credential');
  return { principal: p, orgId: p.orgId, actor: { kind: 'credential', id: p.credentialId } };
}

/** `limit` (1..max, default 50) and `offset` (≥ 0, default 0) of a query string (no type coercion in this app). */
export function paging(q: { limit?: string; offset?: string }, max = 500): { limit: number; offset: number } {
  const problems: { path: string; message: string }[] = [];
  const num = (v: string | undefined, def: number, min: number, maxV: number, name: string) => {
    if (v === undefined) return def;
    const n = /^[0-9]{1,9}$/.test(v) ? Number(v) : NaN;
    if (!(n >= min && n <= maxV)) problems.push({ path: `/query/${name}`, message: `must be a whole number from ${min} to ${maxV}` });
    return n;
  };
  const limit = num(q.limit, 50, 1, max, 'limit');
  const offset = num(q.offset, 0, 0, 1e9, 'offset');
  if (problems.length) throw invalidArgs(problems);
  return { limit, offset };
}
