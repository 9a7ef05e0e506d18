/**
 * Completes every route's declared responses with the problem answers that come from the HTTP layer
 * rather than from the route itself, so the OpenAPI document lists every status a route can send:
 * - 400 INVALID_ARGS when the route has params, a query string or a body (validation, malformed JSON);
 * - 401 unless the route skips authentication (a malformed or revoked credential is 401 everywhere);
 * - 403 INSUFFICIENT_SCOPE when the route needs a scope;
 * - 413 / 415 on methods with a body (size limits, content type and encoding);
 * - 429 on rate-limited routes (all but `auth.skip` ones), and 503 there too: with REDIS_URL their rate
 *   limit lives in Redis, and Redis not answering is 503 UNAVAILABLE with Retry-After; 500 everywhere.
 * Route-specific problems (404, 409, 422, ...) are declared by the route with `problemResponses()`.
 * A route that declares a status itself keeps its declaration.
 */
import type { FastifyInstance, RouteOptions } from 'fastify';
import { problemResponse } from '@netloom/protocol/http';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function crossCuttingStatuses(route: Pick<RouteOptions, 'method' | 'schema' | 'config'>): number[] {
  const methods = (Array.isArray(route.method) ? route.method : [route.method]).map((m) => String(m).toUpperCase());
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const auth = (route.config as { auth?: { skip?: boolean; resource?: string } } | undefined)?.auth;
  const hasBody = methods.some((m) => BODY_METHODS.has(m));
  const out = new Set<number>();
  if (schema.params || schema.querystring || schema.body || hasBody) out.add(400);
  if (!auth?.skip) {
    out.add(401);
    if (auth?.resource) out.add(403);
    out.add(429);
    out.add(503);
  }
  if (hasBody) {
    out.add(413);
    out.add(415);
  }
  out.add(500);
  return [...out].sort((a, b) => a - b);
}

export function registerRouteContract(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    const response = { ...((schema.response as Record<string, unknown> | undefined) ?? {}) };
    // `400: ProblemSchema` (a bare reference to Problem) → the application/problem+json answer
    for (const [status, value] of Object.entries(response)) {
      if (Number(status) >= 400 && (value as { $ref?: unknown } | null)?.$ref === 'Problem#') response[status] = problemResponse(Number(status));
    }
    for (const status of crossCuttingStatuses(route)) if (!(status in response)) response[status] = problemResponse(status);
    route.schema = { ...schema, response };
  });
}

/**
 * `validatorCompiler` of routes whose body the domain checks itself (every problem at once, legacy
 * input, the messages of docs/errors.md): the route's `body` schema then documents the body and types
 * `request.body` for the handler, and Ajv does not run on it. Such a route must not rely on Ajv for its
 * params or query either.
 */
export const checkedByDomain = () => (): boolean => true;
