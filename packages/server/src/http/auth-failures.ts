/**
 * Failed authentication is limited per client address (docs/security.md, "Credentials"): every refused
 * credential — bearer token, Basic key pair, organization credential, embedded viewer's access token —
 * counts one failure of the request's IP address (as NETLOOM_TRUSTED_PROXIES decides) in a fixed
 * one-hour window; beyond `NETLOOM_AUTH_FAILURES_PER_IP_PER_HOUR` the address gets 429 RATE_LIMITED with
 * `Retry-After` for any credential until the window ends, before the credential is even looked at (so a
 * guess cannot succeed meanwhile). Other addresses are never affected.
 *
 * The counters live where the other shared limits do (Redis with REDIS_URL, else the database), so all
 * instances count together. Only failures touch them: an authenticated request costs one Map lookup here.
 * Each instance remembers the addresses it has seen over the limit until their window ends (bounded).
 */
import { HttpProblem } from './error-codes.ts';
import type { WindowCounters } from '../store/rate-limits.ts';

const WINDOW_MS = 3_600_000;
const MAX_REMEMBERED = 100_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** Failed-authentication limiter of this app, shared by every credential check (app.ts). */
    authFailures: AuthFailureLimiter;
  }
}

export interface AuthFailureLimiter {
  /** 429 problem when `ip` is over the limit now, else null. Synchronous (the hot path). */
  refused(ip: string): HttpProblem | null;
  /** Counts one failed authentication of `ip`; the 429 problem to answer instead when it went over the limit. */
  fail(ip: string): Promise<HttpProblem | null>;
}

export function authFailureLimiter(counters: WindowCounters, perHour: number, now: () => number): AuthFailureLimiter {
  /** Address → end of the window in which it went over the limit. */
  const over = new Map<string, number>();
  const problem = (until: number): HttpProblem => {
    const retry = String(Math.max(1, Math.ceil((until - now()) / 1000)));
    return new HttpProblem('RATE_LIMITED', `too many failed authentications from this address (limit ${perHour} per hour); retry in ${retry} s`, {
      headers: { 'retry-after': retry, 'ratelimit-limit': String(perHour), 'ratelimit-remaining': '0', 'ratelimit-reset': retry },
    });
  };
  const remember = (ip: string, until: number) => {
    if (over.size >= MAX_REMEMBERED) {
      const t = now();
      for (const [k, end] of over) if (end <= t) over.delete(k);
      if (over.size >= MAX_REMEMBERED) over.delete(over.keys().next().value as string);
    }
    over.set(ip, until);
  };
  return {
    refused(ip) {
      if (over.size === 0) return null;
      const until = over.get(ip);
      if (until === undefined) return null;
      if (until <= now()) {
        over.delete(ip);
        return null;
      }
      return problem(until);
    },
    async fail(ip) {
      const w = await counters.hit(`auth-fail:ip:${ip}`, WINDOW_MS, now());
      if (w.count <= perHour) return null;
      remember(ip, w.resetAt);
      return problem(w.resetAt);
    },
  };
}
