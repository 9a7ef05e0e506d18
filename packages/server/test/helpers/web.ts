/**
 * Web-app test client over app.inject: keeps the session cookie like a browser, sends the CSRF token and
 * a same-origin Origin on non-GET requests (unless told otherwise).
 */
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

export const PASSWORD = 'correct horse battery staple';

export interface WebClient {
  cookie: string | null;
  csrf: string | null;
  origin: string;
  request(method: string, url: string, opts?: { body?: unknown; headers?: Record<string, string>; csrf?: boolean; origin?: string | null }): Promise<LightMyRequestResponse>;
  signIn(email: string, password?: string, extra?: Record<string, string>): Promise<LightMyRequestResponse>;
}

/** The value of `name` in the response's Set-Cookie headers (undefined when not set). */
export function setCookieOf(res: LightMyRequestResponse, name = 'nl_session'): { value: string; raw: string } | undefined {
  const h = res.headers['set-cookie'];
  const list = h === undefined ? [] : Array.isArray(h) ? h : [h];
  for (const raw of list) {
    const m = new RegExp(`^${name}=([^;]*)`).exec(raw);
    if (m) return { value: m[1], raw };
  }
  return undefined;
}

export function webClient(app: FastifyInstance, origin = app.config.publicUrl): WebClient {
  const c: WebClient = {
    cookie: null,
    csrf: null,
    origin,
    async request(method, url, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (c.cookie) headers.cookie = `nl_session=${c.cookie}`;
      const unsafe = !['GET', 'HEAD'].includes(method);
      const o = opts.origin === undefined ? c.origin : opts.origin;
      if (unsafe && o !== null) headers.origin = o;
      if (unsafe && opts.csrf !== false && c.csrf) headers['x-csrf-token'] = c.csrf;
      const res = await app.inject({ method: method as 'GET', url, headers, ...(opts.body !== undefined ? { payload: opts.body as object } : {}) });
      const set = setCookieOf(res);
      if (set) c.cookie = set.value === '' || /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(set.raw) ? null : set.value;
      if (res.statusCode === 200 && res.headers['content-type']?.toString().startsWith('application/json')) {
        const body = res.json() as { csrfToken?: unknown };
        if (typeof body?.csrfToken === 'string') c.csrf = body.csrfToken;
      }
      return res;
    },
    signIn(email, password = PASSWORD, extra = {}) {
      return c.request('POST', '/app/api/session', { body: { email, password, ...extra } });
    },
  };
  return c;
}

/** A web client signed in as `email` (asserts the sign-in answered 200). */
export async function signedInClient(app: FastifyInstance, email: string, password = PASSWORD): Promise<WebClient> {
  const c = webClient(app);
  const res = await c.signIn(email, password);
  assert.equal(res.statusCode, 200, res.body);
  return c;
}
