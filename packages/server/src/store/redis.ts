/**
 * How the service talks to Redis (docs/operations.md, "Redis outage"): every connection that serves a
 * request fails fast — no offline queue (a command while disconnected rejects at once), one retry, a 2 s
 * connect and command timeout — so a Redis outage is a quick 503, never a hang; ioredis reconnects by
 * itself (every ≤ 2 s) and requests succeed again as soon as Redis answers.
 */
import type { Redis, RedisOptions } from 'ioredis';

export const FAIL_FAST: RedisOptions = { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2_000, commandTimeout: 2_000 };

/** Resolves true once the connection is ready, false after `timeoutMs`. */
export function redisReady(redis: Redis, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise<boolean>((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ok);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    redis.on('ready', onReady);
  });
}
