/**
 * Authentication and scope checks (API.md Authentication, DECISIONS.md §2).
 *
 * - `Authorization: Bearer nl_…` → user or organization token; `Authorization: Basic base64(pk:sk)` →
 *   legacy key pair (responses then carry `Deprecation` and `Link` headers).
 * - A malformed, unknown or revoked credential is always 401 with `WWW-Authenticate`, even on routes that
 *   allow anonymous access (Public networks).
 * - Each route declares in `config.auth` the resource it touches; the action follows the method (GET/HEAD
 *   read; POST/PUT/PATCH/DELETE write). The scope check runs before any existence check.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpProblem } from './error-codes.ts';
import type { Principal } from '../domain/credentials.ts';
import { authenticateBearer, authenticateBasic } from '../domain/credentials.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';

export type Resource = 'networks' | 'metrics' | 'employees' | 'customFields' | 'responses' | 'surveys' | 'embed';

export interface RouteAuth {
  /** Resource whose scope is needed; none = any authenticated credential. */
  resource?: Resource;
  /** Overrides the action derived from the method. */
  action?: 'read' | 'write' | 'manage';
  /** Route answers anonymous requests too (the handler decides what they may see). */
  anonymous?: boolean;
  /** Route does its own authentication (embed viewer tokens) or none at all (health). */
  skip?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
}

export const WWW_AUTHENTICATE = 'Bearer realm="netloom", Basic realm="netloom"';

export function unauthenticated(detail: string): HttpProblem {
  return new HttpProblem('UNAUTHENTICATED', detail, { headers: { 'www-authenticate': WWW_AUTHENTICATE } });
}

export function actionFor(method: string): 'read' | 'write' {
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}

export function requireScope(principal: Principal, scope: string): void {
  if (!principal.scopes.has(scope)) {
    throw new HttpProblem('INSUFFICIENT_SCOPE', `this credential lacks the scope ${scope}`);
  }
}

async function authenticate(db: Kysely<Database>, request: FastifyRequest): Promise<Principal | null> {
  const header = request.headers.authorization;
  if (header === undefined || header === '') return null;
  const space = header.indexOf(' ');
  const scheme = (space < 0 ? header : header.slice(0, space)).toLowerCase();
  const value = space < 0 ? '' : header.slice(space + 1).trim();
  if (scheme === 'bearer') {
    if (!value) throw unauthenticated('empty bearer token');
    const p = await authenticateBearer(db, value);
    if (!p) throw unauthenticated('unknown or revoked token');
    return p;
  }
  if (scheme === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon <= 0) throw unauthenticated('malformed Basic credentials (expected base64 of publicKey:privateKey)');
    const p = await authenticateBasic(db, decoded.slice(0, colon), decoded.slice(colon + 1));
    if (!p) throw unauthenticated('unknown or revoked key pair');
    return p;
  }
  throw unauthenticated(`unsupported authorization scheme ${JSON.stringify(scheme)}; use Bearer`);
}

export function registerAuth(app: FastifyInstance, db: Kysely<Database>, publicUrl: string): void {
  app.decorateRequest('principal', null);
  const deprecationLink = `<${publicUrl}/docs/api/credentials>; rel="deprecation"`;
  app.addHook('onRequest', async (request, reply) => {
    const auth = request.routeOptions.config?.auth;
    if (auth?.skip) return;
    request.principal = await authenticate(db, request);
    if (request.principal?.kind === 'basic') {
      reply.header('deprecation', 'true');
      reply.header('link', deprecationLink);
    }
    if (!auth) return;
    if (!request.principal) {
      if (auth.anonymous) return;
      throw unauthenticated('this endpoint needs a credential: Authorization: Bearer <token>');
    }
    if (auth.resource) {
      const action = auth.action ?? actionFor(request.method);
      requireScope(request.principal, `${auth.resource}:${action}`);
    }
  });
}
