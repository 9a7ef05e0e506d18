/**
 * What every embedding command needs: the database, configuration, the shared ephemeral state
 * (Redis or database, store/embed-ephemeral.ts), the injectable clock and the data-link signing key;
 * plus the two cross-cutting helpers — per-organization/per-session rate limits and the audit log.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config, EmbedLimits } from '../../config.ts';
import type { Database } from '../../store/schema.ts';
import type { Redis } from 'ioredis';
import { databaseEphemeralStore, redisEphemeralStore, type EmbedEphemeralStore } from '../../store/embed-ephemeral.ts';
import { insertAudit } from '../../store/embed-audit.ts';
import { getMeta } from '../../store/meta.ts';
import { getEmbedSettings, type EmbedSettingsRecord } from '../../store/embed-settings.ts';
import { DomainError } from '../errors.ts';
import { effectiveLimits } from './rules.ts';

export interface EmbedContext {
  db: Kysely<Database>;
  config: Config;
  state: EmbedEphemeralStore;
  now: () => number;
  signingKey: () => Promise<Buffer>;
}

/** The embedding context of a process: its state in Redis (keys under NETLOOM_REDIS_PREFIX) when there is one, else in the database. */
export function createEmbedContext(deps: { db: Kysely<Database>; config: Config; redis: Redis | null; now: () => number }): EmbedContext {
  const state = deps.redis ? redisEphemeralStore(deps.redis, deps.config.embed.redisPrefix) : databaseEphemeralStore(deps.db);
  return { db: deps.db, config: deps.config, state, now: deps.now, signingKey: signingKeyLoader(deps.db, deps.config) };
}

/** Who did something, for the audit log. */
export interface Actor {
  /** `user`: a person signed in to the web application (organization console). */
  kind: 'credential' | 'managed_user' | 'operator' | 'cli' | 'user' | 'anonymous';
  id: string;
}

export const HOUR_MS = 3_600_000;

/** 429 RATE_LIMITED with `Retry-After` and `RateLimit-*` headers (rendered by the problem handler). */
export class RateLimitedError extends DomainError {
  readonly headers: Record<string, string>;
  constructor(detail: string, retryAfterSeconds: number, limit?: number) {
    super('RATE_LIMITED', detail);
    const retry = String(Math.max(1, retryAfterSeconds));
    this.headers = { 'retry-after': retry, ...(limit !== undefined ? { 'ratelimit-limit': String(limit), 'ratelimit-remaining': '0', 'ratelimit-reset': retry } : {}) };
  }
}

/** Counts one request against `limit` per hour for `key`; throws RateLimitedError beyond it. */
export async function checkRate(ctx: EmbedContext, key: string, limit: number, what: string): Promise<void> {
  const now = ctx.now();
  const w = await ctx.state.hit(key, HOUR_MS, now);
  if (w.count > limit) {
    const retry = Math.ceil((w.resetAt - now) / 1000);
    throw new RateLimitedError(`rate limit of ${limit} ${what} per hour reached; retry in ${retry} s`, retry, limit);
  }
}

export function limitsOf(ctx: EmbedContext, settings: EmbedSettingsRecord): EmbedLimits {
  return effectiveLimits(ctx.config.embed.limits, JSON.parse(settings.limits) as Partial<EmbedLimits>);
}

let auditSeq = 0;
/** Audit ids sort by time: 12 hex of ms, 4 hex of an in-process counter, 8 random hex. */
function auditId(now: number): string {
  auditSeq = (auditSeq + 1) & 0xffff;
  return now.toString(16).padStart(12, '0') + auditSeq.toString(16).padStart(4, '0') + randomBytes(4).toString('hex');
}

/**
 * Who acts in a viewer session (issue 23): the signed-in person in owner-mode Explore (a `user`, never a
 * managed user), "anonymous (Discover)" in a public Explore session (a signed-out visitor, not the
 * network's owner), else the session's managed user.
 */
export function sessionActor(session: { mode?: string | null; user_id: string }): Actor {
  if (session.mode === 'owner') return { kind: 'user', id: session.user_id };
  if (session.mode === 'public') return { kind: 'anonymous', id: 'discover' };
  return { kind: 'managed_user', id: session.user_id };
}

/** Appends to the organization's audit log. Never carries secrets (callers pass ids and facts only). */
export async function audit(
  ctx: EmbedContext,
  orgId: string,
  actor: Actor,
  action: string,
  target: string | null,
  details: Record<string, unknown> = {},
  db: Kysely<Database> = ctx.db,
): Promise<void> {
  const now = ctx.now();
  await insertAudit(db, {
    id: auditId(now),
    org_id: orgId,
    at: new Date(now).toISOString(),
    actor_kind: actor.kind,
    actor_id: actor.id,
    action,
    target,
    details: JSON.stringify(details),
  });
}

/** Settings of an organization whose embedding is on, else 403 EMBEDDING_DISABLED. */
export async function requireEnabled(ctx: EmbedContext, orgId: string, db: Kysely<Database> = ctx.db, opts: { forUpdate?: boolean } = {}): Promise<EmbedSettingsRecord> {
  const s = await getEmbedSettings(db, orgId, opts);
  if (s.enabled !== 1) throw new DomainError('EMBEDDING_DISABLED', 'embedding is not enabled for this organization; the service operator enables it on request');
  return s;
}

/**
 * The HMAC key of signed data links: NETLOOM_EMBED_SIGNING_KEY, else a random key created once and kept
 * in the database (`meta`), so every instance on the same database signs and verifies alike.
 */
export function signingKeyLoader(db: Kysely<Database>, config: Config): () => Promise<Buffer> {
  let cached: Promise<Buffer> | null = null;
  return () => {
    cached ??= (async () => {
      if (config.embed.signingKey) return Buffer.from(config.embed.signingKey, 'utf8');
      const existing = await getMeta(db, 'embed_signing_key');
      if (existing) return Buffer.from(existing, 'base64');
      const fresh = randomBytes(32).toString('base64');
      await db.insertInto('meta').values({ key: 'embed_signing_key', value: fresh }).onConflict((oc) => oc.column('key').doNothing()).execute();
      return Buffer.from((await getMeta(db, 'embed_signing_key')) ?? fresh, 'base64');
    })().catch((err) => {
      cached = null;
      throw err;
    });
    return cached;
  };
}
