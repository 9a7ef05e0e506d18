/**
 * Short-lived embedding state that several instances must share (docs/spec/decisions.md §6): rate-limit counters,
 * single-use launch tokens, access tokens, session activity and per-session leases ("one metric at a
 * time"). Two implementations behind one interface:
 *
 * - Redis (when `REDIS_URL` is set): counters are `INCR` + `PEXPIRE` in one Lua script (atomic); a launch
 *   token is a key `lt:<sessionId>:<sha256>` consumed with `GETDEL` (exactly one caller gets it, on any
 *   instance; a token of another session is simply another key); access tokens are keys with a TTL;
 *   activity is a key per session; leases are `SET NX PX` / `DEL`.
 * - The database otherwise: counters through store/rate-limits.ts (`INSERT … ON CONFLICT … RETURNING`),
 *   tokens in `embed_tokens` with a conditional UPDATE for redemption, activity in
 *   `embed_sessions.last_activity_at`, leases in `embed_locks` (insert, or take over an expired lease).
 *
 * Every timestamp comes from the caller (the app's injectable clock), so expiry and inactivity are
 * decided by the same clock on both implementations; Redis TTLs only garbage-collect (with slack).
 * Only SHA-256 digests of tokens are stored, never tokens.
 */
import type { Kysely } from 'kysely';
import type { Redis } from 'ioredis';
import type { Database } from './schema.ts';
import { decrementWindow, incrementWindow, peekWindow, type WindowCount } from './rate-limits.ts';
import { getAccessToken, insertToken, touchSession, useLaunchToken } from './embed-sessions.ts';

export interface EmbedEphemeralStore {
  readonly kind: 'redis' | 'database';
  /** Counts one hit on `key` in the fixed window containing `now`. */
  hit(key: string, windowMs: number, now: number): Promise<WindowCount>;
  /** Takes back one hit of `key` in the window that started at `windowStart` (a reservation given back). */
  unhit(key: string, windowStart: number): Promise<void>;
  /** The count of `key` in the fixed window containing `now`, without counting (sign-in throttling checks before it counts a failure). */
  peek(key: string, windowMs: number, now: number): Promise<WindowCount>;
  putLaunchToken(hash: string, sessionId: string, expiresAt: number): Promise<void>;
  /** Atomically consumes an unused, unexpired launch token of exactly this session; true for the one winner. */
  consumeLaunchToken(hash: string, sessionId: string, now: number): Promise<boolean>;
  putAccessToken(hash: string, sessionId: string, expiresAt: number): Promise<void>;
  /** The session of an unexpired access token, or null. */
  accessToken(hash: string, now: number): Promise<{ sessionId: string; expiresAt: number } | null>;
  /** Records viewer/bridge activity. */
  touch(sessionId: string, now: number, stored: { lastActivityAt: string }): Promise<void>;
  /** Last activity (ms), or null when only the stored value is known. */
  lastActivity(sessionId: string): Promise<number | null>;
  /** Takes a lease; false when someone holds an unexpired one. */
  acquire(key: string, ttlMs: number, now: number): Promise<boolean>;
  release(key: string): Promise<void>;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function databaseEphemeralStore(db: Kysely<Database>): EmbedEphemeralStore {
  return {
    kind: 'database',
    hit: (key, windowMs, now) => incrementWindow(db, `embed:${key}`, windowMs, now),
    unhit: (key, windowStart) => decrementWindow(db, `embed:${key}`, windowStart),
    peek: (key, windowMs, now) => peekWindow(db, `embed:${key}`, windowMs, now),
    async putLaunchToken(hash, sessionId, expiresAt) {
      await insertToken(db, { hash, kind: 'launch', session_id: sessionId, expires_at: iso(expiresAt) });
    },
    consumeLaunchToken: (hash, sessionId, now) => useLaunchToken(db, hash, sessionId, iso(now)),
    async putAccessToken(hash, sessionId, expiresAt) {
      await insertToken(db, { hash, kind: 'access', session_id: sessionId, expires_at: iso(expiresAt) });
    },
    async accessToken(hash, now) {
      const r = await getAccessToken(db, hash);
      if (!r || r.expires_at <= iso(now)) return null;
      return { sessionId: r.session_id, expiresAt: Date.parse(r.expires_at) };
    },
    async touch(sessionId, now) {
      await touchSession(db, sessionId, iso(now));
    },
    async lastActivity() {
      return null; // the stored embed_sessions.last_activity_at is the truth
    },
    async acquire(key, ttlMs, now) {
      const rows = await db
        .insertInto('embed_locks')
        .values({ key, expires_at: iso(now + ttlMs) })
        .onConflict((oc) => oc.column('key').doUpdateSet({ expires_at: iso(now + ttlMs) }).where('embed_locks.expires_at', '<=', iso(now)))
        .returning('key')
        .execute();
      return rows.length === 1;
    },
    async release(key) {
      await db.deleteFrom('embed_locks').where('key', '=', key).execute();
    },
  };
}

/** Deletes leases that expired before `before` (ISO); an expired lease is taken over anyway, this only frees the rows. */
export async function pruneLocks(db: Kysely<Database>, before: string): Promise<number> {
  const r = await db.deleteFrom('embed_locks').where('expires_at', '<', before).executeTakeFirst();
  return Number(r.numDeletedRows);
}

const HIT_SCRIPT = `local c = redis.call('INCR', KEYS[1]) if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return c`;
/** DECR only an existing counter above zero (a reservation given back after its key expired creates nothing). */
const UNHIT_SCRIPT = `local v = tonumber(redis.call('GET', KEYS[1]) or '0') if v > 0 then return redis.call('DECR', KEYS[1]) end return 0`;
/** Slack added to Redis TTLs: they only garbage-collect; validity is decided with the app's clock. */
const GC_SLACK_MS = 60_000;

export function redisEphemeralStore(redis: Redis, prefix: string): EmbedEphemeralStore {
  const k = (s: string) => `${prefix}embed:${s}`;
  return {
    kind: 'redis',
    async hit(key, windowMs, now) {
      const windowStart = Math.floor(now / windowMs) * windowMs;
      const count = Number(await redis.eval(HIT_SCRIPT, 1, k(`rl:${key}:${windowStart}`), String(windowMs + GC_SLACK_MS)));
      return { count, windowStart, resetAt: windowStart + windowMs };
    },
    async unhit(key, windowStart) {
      await redis.eval(UNHIT_SCRIPT, 1, k(`rl:${key}:${windowStart}`));
    },
    async peek(key, windowMs, now) {
      const windowStart = Math.floor(now / windowMs) * windowMs;
      const count = Number((await redis.get(k(`rl:${key}:${windowStart}`))) ?? 0);
      return { count, windowStart, resetAt: windowStart + windowMs };
    },
    async putLaunchToken(hash, sessionId, expiresAt) {
      await redis.set(k(`lt:${sessionId}:${hash}`), String(expiresAt), 'PX', Math.max(1, expiresAt - Date.now()) + GC_SLACK_MS);
    },
    async consumeLaunchToken(hash, sessionId, now) {
      const v = await redis.getdel(k(`lt:${sessionId}:${hash}`));
      return v !== null && Number(v) > now;
    },
    async putAccessToken(hash, sessionId, expiresAt) {
      await redis.set(k(`at:${hash}`), `${sessionId}|${expiresAt}`, 'PX', Math.max(1, expiresAt - Date.now()) + GC_SLACK_MS);
    },
    async accessToken(hash, now) {
      const v = await redis.get(k(`at:${hash}`));
      if (!v) return null;
      const [sessionId, exp] = v.split('|');
      const expiresAt = Number(exp);
      return expiresAt > now ? { sessionId, expiresAt } : null;
    },
    async touch(sessionId, now) {
      // Keep the maximum: a late request must not move activity backwards.
      await redis.eval(
        `local v = tonumber(redis.call('GET', KEYS[1]) or '0') if tonumber(ARGV[1]) > v then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end return 1`,
        1,
        k(`act:${sessionId}`),
        String(now),
        String(13 * 3_600_000),
      );
    },
    async lastActivity(sessionId) {
      const v = await redis.get(k(`act:${sessionId}`));
      return v === null ? null : Number(v);
    },
    async acquire(key, ttlMs) {
      return (await redis.set(k(`lock:${key}`), '1', 'PX', Math.max(1, ttlMs), 'NX')) === 'OK';
    },
    async release(key) {
      await redis.del(k(`lock:${key}`));
    },
  };
}
