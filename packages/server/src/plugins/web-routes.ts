/**
 * The signed-in web application's routes under /app/api (docs/web-app.md), declared through one helper so
 * that each says only its path, its schema and what it does. Every route declared here
 * - needs the signed-in session: `config.web` (http/web-session.ts: session cookie, same origin and
 *   X-CSRF-Token on every change, API credentials ignored);
 * - is documented in the web application's OpenAPI document (/app/api/openapi.json): tagged WebTag, with
 *   the cookie security;
 * - gets its caller from the one guard, principalOf(request, 'web') (plugins/principal.ts), as the
 *   handler's third argument: 401 UNAUTHENTICATED before the handler runs when signed out.
 *
 *   const web = webRoutes(app);
 *   web.get('/app/api/jobs', { summary, querystring, response }, async (request, reply, caller) => …);
 */
import type { ContextConfigDefault, FastifySchema, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault, RouteGenericInterface, RouteHandlerMethod, RouteOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { cookieSecurity, WebTag } from '@netloom/protocol/http';
import type { App } from '../http/app-type.ts';
import type { WebRequestState } from '../http/web-session.ts';
import { principalOf } from './principal.ts';

/** A web route's OpenAPI schema without what every web route shares (tags, security). */
export interface WebRouteSchema extends FastifySchema {
  summary: string;
  description?: string;
  consumes?: string[];
}

type Handler<S extends FastifySchema> = RouteHandlerMethod<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, RouteGenericInterface, ContextConfigDefault, S, TypeBoxTypeProvider>;

/** A Fastify handler (request and reply typed by the schema) that also gets the signed-in caller. */
export type WebHandler<S extends FastifySchema> = (request: Parameters<Handler<S>>[0], reply: Parameters<Handler<S>>[1], caller: WebRequestState) => ReturnType<Handler<S>>;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Route options beyond the schema that a web route may set (an upload turns validation off). */
type WebRouteOptions = Pick<RouteOptions, 'validatorCompiler'>;

export function webRoutes(app: App) {
  const declare =
    (method: Method) =>
    <S extends WebRouteSchema>(url: string, schema: S, handler: WebHandler<S>, options: WebRouteOptions = {}): void => {
      app.route<RouteGenericInterface, ContextConfigDefault, S>({
        method,
        url,
        config: { web: true },
        schema: { tags: [WebTag], security: cookieSecurity, ...schema },
        ...options,
        handler: (request, reply) => handler(request, reply, principalOf(request, 'web')),
      });
    };
  return { get: declare('GET'), post: declare('POST'), put: declare('PUT'), patch: declare('PATCH'), delete: declare('DELETE') };
}
