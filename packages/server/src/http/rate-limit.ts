/**
 * Per-credential request rate limit outside embedding (docs/spec/decisions.md §2/§6): a fixed window of one hour,
 * `limits.requestsPerHour` requests (default 6,000) per credential; anonymous requests are limited per
 * IP address. 429 RATE_LIMITED with `Retry-After` and the `RateLimit-Limit/Remaining/Reset` headers
 * (IETF draft), which are also sent on every limited response. Counters live in Redis when `REDIS_URL`
 * is set (shared by all instances; keys `<NETLOOM_REDIS_PREFIX>rl:…`), else in process memory.
 */
import type { FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import { HttpProblem } from './error-codes.ts';

export async function registerRateLimit(app: FastifyInstance, opts: { perHour: number; redis: Redis | null; redisPrefix: string }): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    max: opts.perHour,
    timeWindow: 3_600_000,
    enableDraftSpec: true,
    hook: 'onRequest',
    ...(opts.redis ? { redis: opts.redis, nameSpace: `${opts.redisPrefix}rl:` } : {}),
    keyGenerator: (request) => (request.principal ? `cred:${request.principal.credentialId}` : `ip:${request.ip}`),
    allowList: (request) => request.routeOptions.config?.auth?.skip === true,
    errorResponseBuilder: (_request, ctx) =>
      new HttpProblem('RATE_LIMITED', `rate limit of ${ctx.max} requests per hour reached; retry in ${Math.ceil(ctx.ttl / 1000)} s`),
  });
}
