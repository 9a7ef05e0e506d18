/**
 * Tests that run with and without Redis: the test Redis (`NETLOOM_TEST_REDIS_URL`, default the local
 * one), why it cannot be used, the storage modes to run a suite in, and a unique key prefix per run whose
 * keys — and only those, nothing is flushed — are deleted afterwards.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { DIALECTS, type Dialect } from './app.ts';
import { postgresUnavailable } from './db.ts';

export const REDIS_URL = process.env.NETLOOM_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Why the test Redis cannot be used, or false when it answers. */
export async function redisUnavailable(): Promise<string | false> {
  const r = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await r.connect();
    await r.ping();
    return false;
  } catch (err) {
    return `Redis not reachable at ${REDIS_URL}: ${(err as Error).message}`;
  } finally {
    r.disconnect();
  }
}

export interface StorageMode {
  name: string;
  dialect: Dialect;
  /** Counters and tokens in Redis (under the run's prefix) rather than in the database. */
  redis: boolean;
  /** Why the mode is skipped (PostgreSQL or Redis unreachable), or false. */
  skip: string | false;
}

/** Every test dialect without Redis, plus PostgreSQL with Redis (two instances' shared state). */
export async function storageModes(): Promise<StorageMode[]> {
  const modes: StorageMode[] = DIALECTS.map((dialect) => ({ name: dialect, dialect, redis: false, skip: false }));
  if (DIALECTS.includes('postgres')) {
    const skip = (await postgresUnavailable()) ?? (await redisUnavailable());
    modes.push({ name: 'postgres + redis', dialect: 'postgres', redis: true, skip });
  }
  return modes;
}

/** A key prefix unique to this run (NETLOOM_REDIS_PREFIX). */
export function redisTestPrefix(): string {
  return `netloom-test:${process.pid}:${randomBytes(4).toString('hex')}:`;
}

/** Every key matching `match` (SCAN, not KEYS). */
export async function scanKeys(r: Redis, match: string): Promise<string[]> {
  const out: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await r.scan(cursor, 'MATCH', match, 'COUNT', 1000);
    cursor = next;
    out.push(...keys);
  } while (cursor !== '0');
  return out;
}

/** Deletes the keys under `prefix` (this run's only). */
export async function deleteRedisKeys(prefix: string): Promise<void> {
  const r = new Redis(REDIS_URL);
  try {
    const keys = await scanKeys(r, `${prefix}*`);
    for (let i = 0; i < keys.length; i += 1000) await r.del(...keys.slice(i, i + 1000));
  } finally {
    r.disconnect();
  }
}

/**
 * The job tests run twice: SQLite with the table queue, PostgreSQL with BullMQ on Redis. The environment
 * for a dialect (PostgreSQL: REDIS_URL and a unique prefix; delete its keys with deleteRedisKeys).
 */
export function queueEnv(dialect: Dialect): Record<string, string> {
  return dialect === 'postgres' ? { REDIS_URL, NETLOOM_REDIS_PREFIX: redisTestPrefix() } : {};
}
