/**
 * Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the database answers, and Redis
 * when `REDIS_URL` is set — rate limits and the embedding state live there) for load balancers and
 * orchestrators (docs/operations.md). Not in the API's OpenAPI document: they are the platform's, not an
 * integration's (docs/spec/contract.md); their schemas still shape the answers.
 */
import { Type } from 'typebox';
import { sql } from 'kysely';
import type { App } from '../http/app-type.ts';
import { HttpProblem } from '../http/error-codes.ts';
import { UNAVAILABLE_RETRY_AFTER_S } from '../domain/errors.ts';
import { problemResponses } from '@netloom/protocol/http';

const Live = Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false });
const Ready = Type.Object(
  {
    status: Type.Literal('ready'),
    database: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
    redis: Type.Optional(Type.Literal('ready', { description: 'Present when REDIS_URL is set.' })),
  },
  { additionalProperties: true, description: 'Every dependency the instance needs answered.' },
);

const retryLater = { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_S) };

/** How long /readyz waits for Redis to answer PING. */
const REDIS_PING_MS = 2_000;

async function redisAnswers(app: App): Promise<boolean> {
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

export async function healthRoutes(app: App): Promise<void> {
  const open = { auth: { skip: true } };
  app.get('/healthz', { config: open, schema: { hide: true, summary: 'Liveness: the process answers', response: { 200: Live } } }, async () => ({ status: 'ok' as const }));
  app.get('/readyz', { config: open, schema: { hide: true, summary: 'Readiness: the database answers, and Redis when configured (503 otherwise)', response: { 200: Ready, ...problemResponses(503) } } }, async () => {
    try {
      await sql`select 1`.execute(app.database.db);
    } catch {
      throw new HttpProblem('UNAVAILABLE', 'database unreachable', { headers: retryLater });
    }
    if (!(await redisAnswers(app))) throw new HttpProblem('UNAVAILABLE', 'redis unreachable', { headers: retryLater });
    return { status: 'ready' as const, database: app.database.dialect, ...(app.redis ? { redis: 'ready' as const } : {}) };
  });
}
