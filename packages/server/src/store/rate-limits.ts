/**
 * Fixed-window counters in the database (used when no Redis is configured). One statement,
 * `INSERT … ON CONFLICT DO UPDATE … RETURNING`, atomic on SQLite and PostgreSQL: concurrent requests
 * (or processes) never lose an increment. A counter whose stored window is older than the current
 * one restarts at 1; a late request for an older window counts in the newer window (never resets it).
 * `WindowCounters` puts the same counting behind one interface for the database and Redis.
 */
import { sql, type Kysely } from 'kysely';
import type { Redis } from 'ioredis';
import type { Database } from './schema.ts';

export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Start of the current window (ms since epoch). */
  windowStart: number;
  /** When the window ends and the count restarts (ms since epoch). */
  resetAt: number;
}

export async function incrementWindow(
  db: Kysely<Database>,
  key: string,
  windowMs: number,
  now: number = Date.now(),
): Promise<WindowCount> {
  const start = Math.floor(now / windowMs) * windowMs;
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start: start, count: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`CASE WHEN rate_limits.window_start >= excluded.window_start THEN rate_limits.count + 1 ELSE 1 END`,
        window_start: sql<number>`CASE WHEN rate_limits.window_start >= excluded.window_start THEN rate_limits.window_start ELSE excluded.window_start END`,
      }),
    )
    .returning(['count', 'window_start'])
    .executeTakeFirstOrThrow();
  const windowStart = Number(row.window_start);
  return { count: Number(row.count), windowStart, resetAt: windowStart + windowMs };
}

/** The count of the window containing `now` without counting anything (0 when the stored window is older). */
export async function peekWindow(db: Kysely<Database>, key: string, windowMs: number, now: number = Date.now()): Promise<WindowCount> {
  const start = Math.floor(now / windowMs) * windowMs;
  const row = await db.selectFrom('rate_limits').select(['count', 'window_start']).where('key', '=', key).executeTakeFirst();
  const count = row && Number(row.window_start) >= start ? Number(row.count) : 0;
  return { count, windowStart: start, resetAt: start + windowMs };
}

/**
 * Takes back one hit counted in the window that started at `windowStart` (a reservation that was not
 * used up: a sign-in attempt that succeeded or was never evaluated). One conditional UPDATE; never below
 * zero, and a counter that has meanwhile moved to a newer window is left alone.
 */
export async function decrementWindow(db: Kysely<Database>, key: string, windowStart: number): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set({ count: sql<number>`count - 1` })
    .where('key', '=', key)
    .where('window_start', '=', windowStart)
    .where('count', '>', 0)
    .execute();
}

/** Deletes counters whose window started before `before` (ms); returns how many. */
export async function pruneWindows(db: Kysely<Database>, before: number): Promise<number> {
  const res = await db.deleteFrom('rate_limits').where('window_start', '<', before).executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Fixed-window counters behind one interface: the database (above) or Redis (shared by every instance). */
export interface WindowCounters {
  /** Counts one hit on `key` in the fixed window containing `now`. */
  hit(key: string, windowMs: number, now: number): Promise<WindowCount>;
}

export function databaseCounters(db: Kysely<Database>, prefix: string): WindowCounters {
  return { hit: (key, windowMs, now) => incrementWindow(db, `${prefix}${key}`, windowMs, now) };
}

const REDIS_HIT = `local c = redis.call('INCR', KEYS[1]) if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return c`;

/** `INCR` + `PEXPIRE` in one Lua script (atomic); the key names its window, the TTL only garbage-collects. */
export function redisCounters(redis: Redis, prefix: string): WindowCounters {
  return {
    async hit(key, windowMs, now) {
      const windowStart = Math.floor(now / windowMs) * windowMs;
      const count = Number(await redis.eval(REDIS_HIT, 1, `${prefix}${key}:${windowStart}`, String(windowMs + 60_000)));
      return { count, windowStart, resetAt: windowStart + windowMs };
    },
  };
}
