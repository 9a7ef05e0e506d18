/**
 * Web-app session plumbing (docs/web-app.md "Sessions and CSRF"). Routes opt in with route config
 * `web`:
 *
 *   config: { web: true }                          // signed-in session required (401 UNAUTHENTICATED)
 *   config: { web: { session: 'optional' } }       // works signed out too (Discover)
 *   config: { web: { session: 'none' } }           // sign-in, link redemption: no session is read
 *   config: { web: { mfaExempt: true } }           // answers while MFA enrolment is pending
 *
 * On such a route `request.web` is `{ sessionId, userId, principal, csrfToken, ... }` (null when signed
 * out on an optional route) and `request.principal` is the session's Principal (`via: 'session'`), so
 * domain commands work unchanged. Routes read it with `principalOf(request, 'web')` (plugins/principal.ts).
 *
 * Rules enforced here, before any handler or body parsing:
 * - the cookie `nl_session` is read ONLY on `web` routes: it never authenticates /api/v2 or /embed;
 *   API credentials (Authorization) are ignored on `web` routes — a credential can never act as a
 *   session (so never mint credentials);
 * - every non-GET/HEAD `web` request must come from our own origin (`Origin`, else `Referer`, equal to
 *   the public URL's origin or the request's own Host) and, when a session is present, carry its
 *   `X-CSRF-Token`; otherwise 403 CSRF_FAILED and nothing happens;
 * - while the organization requires MFA and the user has not enrolled, only `mfaExempt` routes answer
 *   (403 MFA_ENROLMENT_REQUIRED).
 */
import cookie from '@fastify/cookie';
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { DomainError } from '../domain/errors.ts';
import { resolveWebSession, SESSION_COOKIE, type WebSessionState } from '../domain/web/sessions.ts';

export interface WebRouteOptions {
  /** 'required' (default), 'optional' or 'none' (no session is read: sign-in, link redemption). */
  session?: 'required' | 'optional' | 'none';
  /** Answers while the organization's MFA enrolment is pending (session, MFA setup/enable, sign-out). */
  mfaExempt?: boolean;
}

/** What a web route sees of the signed-in session: the domain's WebSessionState without the stored row, plus its ids and end. */
export interface WebRequestState extends Omit<WebSessionState, 'session'> {
  sessionId: string;
  userId: string;
  /** The session's absolute / idle end (ISO). */
  expiresAt: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    web: WebRequestState | null;
  }
  interface FastifyContextConfig {
    web?: boolean | WebRouteOptions;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function webRouteOptions(request: FastifyRequest): WebRouteOptions | null {
  const w = request.routeOptions.config?.web;
  if (!w) return null;
  return w === true ? {} : w;
}

function csrfFailed(detail: string): DomainError {
  return new DomainError('CSRF_FAILED', detail);
}

function originOf(value: string): string | null {
  try {
    const u = new URL(value);
    return u.origin === 'null' ? null : u.origin;
  } catch {
    return null;
  }
}

/** Own origins: the public URL's, and the one the browser addressed (Host; the scheme as seen through trusted proxies). */
function sameOrigin(request: FastifyRequest, publicOrigin: string): boolean {
  const header = request.headers.origin ?? (typeof request.headers.referer === 'string' ? originOf(request.headers.referer) : undefined);
  if (typeof header !== 'string' || header === '' || header === 'null') return false;
  const origin = originOf(header);
  if (!origin) return false;
  if (origin === publicOrigin) return true;
  const host = request.host;
  return typeof host === 'string' && host !== '' && origin === `${request.protocol}://${host}`;
}

function equalTokens(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function cookieOptions(config: Pick<Config, 'publicUrl' | 'web'>): { httpOnly: true; sameSite: 'lax'; path: '/'; secure: boolean; maxAge: number } {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure: config.publicUrl.startsWith('https:'), maxAge: Math.floor(config.web.sessionMaxMs / 1000) };
}

export function setSessionCookie(reply: FastifyReply, config: Pick<Config, 'publicUrl' | 'web'>, secret: string): void {
  reply.setCookie(SESSION_COOKIE, secret, cookieOptions(config));
  reply.header('cache-control', 'no-store');
}

export function clearSessionCookie(reply: FastifyReply, config: Pick<Config, 'publicUrl' | 'web'>): void {
  reply.clearCookie(SESSION_COOKIE, { ...cookieOptions(config), maxAge: 0 });
}

/** The raw session cookie value of a request (parsed only here, only for web routes). */
export function sessionCookie(app: FastifyInstance, request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  return app.parseCookie(header)[SESSION_COOKIE];
}

/** The request state of a resolved session. */
export function webStateOf(s: WebSessionState, idleMs: number): WebRequestState {
  const { session, ...state } = s;
  return {
    ...state,
    sessionId: session.id,
    userId: s.user.id,
    expiresAt: new Date(Math.min(Date.parse(session.expires_at), Date.parse(session.last_seen_at) + idleMs)).toISOString(),
  };
}

/**
 * Registers @fastify/cookie (no global parsing hook: cookies are parsed only on web routes) and the
 * web-session check. Call right after registerAuth, before the rate limiter, so the limiter keys
 * signed-in web requests by session.
 */
export async function registerWebSessions(app: FastifyInstance): Promise<void> {
  await app.register(cookie, { hook: false });
  app.decorateRequest('web', null);
  const publicOrigin = new URL(app.config.publicUrl).origin;
  app.addHook('onRequest', async (request, reply) => {
    const opts = webRouteOptions(request);
    if (!opts) return;
    reply.header('cache-control', 'no-store');
    const unsafe = !SAFE_METHODS.has(request.method);
    if (unsafe && !sameOrigin(request, publicOrigin)) {
      throw csrfFailed('this request did not come from the Netloom web app (Origin/Referer missing or foreign)');
    }
    const mode = opts.session ?? 'required';
    request.principal = null; // an Authorization header never counts here
    if (mode === 'none') return;
    const raw = sessionCookie(app, request);
    const found = await resolveWebSession(app.database.db, app.config.web, raw, app.now());
    if (!found) {
      if (raw !== undefined) clearSessionCookie(reply, app.config);
      if (mode === 'required') throw new DomainError('UNAUTHENTICATED', raw === undefined ? 'sign in first' : 'your session has ended; sign in again');
      return;
    }
    if (unsafe) {
      const sent = request.headers['x-csrf-token'];
      if (typeof sent !== 'string' || !equalTokens(sent, found.csrfToken)) {
        throw csrfFailed('missing or wrong X-CSRF-Token header (take csrfToken from GET /app/api/session)');
      }
    }
    if (found.mfaEnrolmentRequired && !opts.mfaExempt) {
      throw new DomainError('MFA_ENROLMENT_REQUIRED', 'your organization requires two-factor authentication: set it up first (POST /app/api/account/mfa/setup, then /enable)');
    }
    request.web = webStateOf(found, app.config.web.sessionIdleMs);
    request.principal = found.principal;
    request.authenticated = true;
  });
}
