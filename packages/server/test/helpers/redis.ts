/**
 * Redis for tests: the URL (NETLOOM_TEST_REDIS_URL, else the local server), whether it answers, and the
 * environment that puts an app's metric jobs on BullMQ with keys of their own (a unique
 * NETLOOM_REDIS_PREFIX per call, so runs never see each other's queues).
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Dialect } from './app.ts';

export const REDIS_URL = process.env.NETLOOM_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Why Redis cannot be used (a skip reason), or null when it answers. */
export async function redisUnavailable(url = REDIS_URL): Promise<string | null> {
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await r.connect();
    await r.ping();
    return null;
  } catch (err) {
    return `Redis not reachable at ${url}: ${(err as Error).message}`;
  } finally {
    r.disconnect();
  }
}

/** A fresh key prefix for one test run. */
export function redisPrefix(): string {
  return `nltest:${process.pid}:${randomBytes(4).toString('hex')}:`;
}

/**
 * The job tests run twice: SQLite with the table queue, PostgreSQL with BullMQ on Redis. The environment
 * for a dialect (PostgreSQL: REDIS_URL and a unique prefix).
 */
export function queueEnv(dialect: Dialect): Record<string, string> {
  return dialect === 'postgres' ? { REDIS_URL, NETLOOM_REDIS_PREFIX: redisPrefix() } : {};
}

/** Deletes every key under a prefix (test clean-up). */
export async function dropPrefix(prefix: string, url = REDIS_URL): Promise<void> {
  const r = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await r.del(...keys);
    } while (cursor !== '0');
  } finally {
    r.disconnect();
  }
}
