/**
 * OpenAPI operationIds, derived from method and path so every operation has a stable, unique name that
 * client generators can use: verb + the static path segments after `/api/v2` in PascalCase + `By<Param>`
 * for path parameters. `GET /api/v2/networks/:id` → `getNetworksById`,
 * `POST /api/v2/embed/sessions/:sessionId/launch-tokens` → `postEmbedSessionsBySessionIdLaunchTokens`,
 * `POST /api/v2/metrics/nodes/pageRank` → `postMetricsNodesPageRank`.
 * A route schema that sets `operationId` itself keeps it.
 */
import type { SwaggerTransform } from '@fastify/swagger';

const pascal = (s: string) => s.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join('');

export function operationId(method: string, url: string): string {
  const segments = url.replace(/^\/api\/v2(?=\/|$)/, '').split('/').filter(Boolean);
  const name = segments.map((s) => (s.startsWith(':') ? `By${pascal(s.slice(1))}` : pascal(s))).join('');
  return method.toLowerCase() + (name || 'Root');
}

/** `transform` for @fastify/swagger: adds the derived operationId to routes that have none. */
export const withOperationId: SwaggerTransform = ({ schema, url, route }) => {
  const s = (schema ?? {}) as Record<string, unknown>;
  if (s.operationId || s.hide) return { schema, url };
  const method = Array.isArray(route.method) ? route.method[0] : route.method;
  return { schema: { ...s, operationId: operationId(method, url) } as typeof schema, url };
};
