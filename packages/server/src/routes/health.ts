/**
 * Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the database answers, and Redis
 * when `REDIS_URL` is set — rate limits and the embedding state live there; docs/operations.md).
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { HttpProblem } from '../http/error-codes.ts';

/** How long /readyz waits for Redis to answer PING. */
const REDIS_PING_MS = 2_000;

async function redisAnswers(app: FastifyInstance): Promise<boolean> {
  const redis = app.redis;
  if (!redis) return true;
  if (redis.status !== 'ready') return false; // connecting, reconnecting or closed: not ready
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), REDIS_PING_MS);
  });
  try {
    return await Promise.race([redis.ping().then((r) => r === 'PONG', () => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/healthz', { config: { auth: { skip: true } }, schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { auth: { skip: true } }, schema: { hide: true } }, async () => {
    try {
      await sql`select 1`.execute(app.database.db);
    } catch {
      throw new HttpProblem('UNAVAILABLE', 'database unreachable');
    }
    if (!(await redisAnswers(app))) throw new HttpProblem('UNAVAILABLE', 'redis unreachable');
    return { status: 'ready', database: app.database.dialect, ...(app.redis ? { redis: 'ready' } : {}) };
  });
}
