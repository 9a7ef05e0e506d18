/**
 * Authentication and scope checks (docs/spec/api.md Authentication, docs/spec/decisions.md §2).
 *
 * - `Authorization: Bearer nl_…` → user or organization token; `Authorization: Basic base64(pk:sk)` →
 *   legacy key pair (responses then carry `Deprecation` and `Link` headers).
 * - A malformed, unknown or revoked credential is always 401 with `WWW-Authenticate`, even on routes that
 *   allow anonymous access (Public networks).
 * - Each route declares in `config.auth` the resource it touches; the action follows the method (GET/HEAD
 *   read; POST/PUT/PATCH/DELETE write). The scope check runs before any existence check.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpProblem } from './error-codes.ts';
import type { AuthFailureLimiter } from './auth-failures.ts';
import type { Principal } from '../domain/identity/credentials/principal.ts';
import { authenticateBearerFast, authenticateBasicFast } from '../domain/identity/credentials/authenticate.ts';
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
    /**
     * Whoever sent this request proved a credential before its body is read (credential, web session,
     * viewer access token, operator token); an unauthenticated body is held to the anonymous body limit
     * (http/decompress.ts).
     */
    authenticated: boolean;
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

/** The request's principal: synchronous when it is cached (domain/identity/credentials/principal-cache.ts), else a promise. Throws 401. */
function authenticate(db: Kysely<Database>, request: FastifyRequest): Principal | null | Promise<Principal | null> {
  const header = request.headers.authorization;
  if (header === undefined || header === '') return null;
  const space = header.indexOf(' ');
  const scheme = (space < 0 ? header : header.slice(0, space)).toLowerCase();
  const value = space < 0 ? '' : header.slice(space + 1).trim();
  if (scheme === 'bearer') {
    if (!value) throw unauthenticated('empty bearer token');
    return orUnauthenticated(authenticateBearerFast(db, value), 'unknown or revoked token');
  }
  if (scheme === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon <= 0) throw unauthenticated('malformed Basic credentials (expected base64 of publicKey:privateKey)');
    return orUnauthenticated(authenticateBasicFast(db, decoded.slice(0, colon), decoded.slice(colon + 1)), 'unknown or revoked key pair');
  }
  throw unauthenticated(`unsupported authorization scheme ${JSON.stringify(scheme)}; use Bearer`);
}

function orUnauthenticated(p: Principal | null | Promise<Principal | null>, detail: string): Principal | Promise<Principal> {
  if (p instanceof Promise) {
    return p.then((q) => {
      if (!q) throw unauthenticated(detail);
      return q;
    });
  }
  if (!p) throw unauthenticated(detail);
  return p;
}

export function registerAuth(app: FastifyInstance, db: Kysely<Database>, publicUrl: string, failures: AuthFailureLimiter): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('authenticated', false);
  const deprecationLink = `<${publicUrl}/docs/api/credentials>; rel="deprecation"`;
  const authorize = (request: FastifyRequest, reply: FastifyReply, principal: Principal | null): void => {
    request.principal = principal;
    if (principal) request.authenticated = true;
    const auth = request.routeOptions.config?.auth;
    if (principal?.kind === 'basic') {
      reply.header('deprecation', 'true');
      reply.header('link', deprecationLink);
    }
    if (!auth) return;
    if (!principal) {
      if (auth.anonymous) return;
      throw unauthenticated('this endpoint needs a credential: Authorization: Bearer <token>');
    }
    if (auth.resource) {
      const action = auth.action ?? actionFor(request.method);
      requireScope(principal, `${auth.resource}:${action}`);
    }
  };
  // A failed authentication counts against the client's address; an address over the limit is refused
  // before its credential is looked at (http/auth-failures.ts).
  const failed = (request: FastifyRequest, err: unknown, done: (err?: Error) => void): void => {
    if (!(err instanceof HttpProblem && err.code === 'UNAUTHENTICATED')) return done(err as Error);
    failures.fail(request.ip).then((limited) => done(limited ?? err), () => done(err));
  };
  // A callback hook, not an async one: a cached principal is checked without a promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    // Web-app routes authenticate by session cookie only (http/web-session.ts), never by credential.
    if (request.routeOptions.config?.auth?.skip || request.routeOptions.config?.web) return done();
    let found: Principal | null | Promise<Principal | null>;
    if (request.headers.authorization) {
      const limited = failures.refused(request.ip);
      if (limited) return done(limited);
    }
    try {
      found = authenticate(db, request);
    } catch (err) {
      return failed(request, err, done);
    }
    if (found instanceof Promise) {
      found.then(
        (p) => {
          try {
            authorize(request, reply, p);
          } catch (err) {
            return done(err as Error);
          }
          done();
        },
        (err: unknown) => failed(request, err, done),
      );
      return;
    }
    try {
      authorize(request, reply, found);
    } catch (err) {
      return done(err as Error);
    }
    done();
  });
}
