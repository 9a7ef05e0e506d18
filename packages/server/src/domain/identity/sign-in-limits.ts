/**
 * Sign-in attempt limits (docs/security.md "Sign-in"). Every attempt to prove a password, a TOTP code or
 * a recovery code first *reserves* a slot in three fixed-window counters — one atomic increment each
 * (Redis `INCR`, or one `INSERT … ON CONFLICT … RETURNING` statement on SQLite/PostgreSQL) — and is
 * evaluated only if every count, this attempt included, is within its limit:
 *
 * - per (account, address): `signInFailuresPerAccount` (10) — the lock. It is keyed by the address too,
 *   so someone guessing from elsewhere never locks the owner out;
 * - per address: `signInFailuresPerIp` (50), across accounts;
 * - per account: past `signInAccountSlowdownAfter` (30) attempts in the window, an address that never
 *   signed in to this account is slowed to one evaluation per `signInAccountSlowdownMs` (3 s) for the
 *   account (a lease), so guessing from many addresses is slow, while addresses the account signed in
 *   from in the last 30–60 days are never slowed.
 *
 * Because the slot is taken before verifying, N concurrent attempts can never all be evaluated: the
 * (limit + 1)-th increment already sees the limit passed. A refused attempt gives its slots back (the
 * counts stay "attempts in flight or failed"), and so does an attempt that proved the secret (a
 * successful sign-in never counts) or was never evaluated (the password queue was full).
 */
import { createHash } from 'node:crypto';
import type { WebConfig } from '../../config.ts';
import type { EmbedEphemeralStore } from '../../store/embed-ephemeral.ts';
import { RateLimitedError } from '../embedding/context.ts';

/** How long an address that signed in to an account counts as known (one to two such windows). */
export const KNOWN_ADDRESS_MS = 30 * 24 * 3_600_000;

export interface LimitDeps {
  config: WebConfig;
  state: EmbedEphemeralStore;
  now: () => number;
}

const accountId = (email: string) => createHash('sha256').update(`netloom-signin\0${email}`).digest('hex').slice(0, 32);

export interface Reservation {
  /** Gives the slots back: the attempt succeeded or was not evaluated. */
  release(): Promise<void>;
  /** The attempt succeeded: gives the slots back and remembers the address for this account. */
  succeeded(): Promise<void>;
}

/**
 * Reserves one attempt for `email` from `ip`, or throws 429 RATE_LIMITED with Retry-After (the slots
 * are given back then). `email` must be normalised (signInEmail).
 */
export async function reserveAttempt(deps: LimitDeps, email: string, ip: string): Promise<Reservation> {
  const { config, state } = deps;
  const now = deps.now();
  const w = config.signInWindowMs;
  const acct = accountId(email);
  const keys = { pair: `web:signin:pair:${acct}:${ip}`, ip: `web:signin:ip:${ip}`, acct: `web:signin:acct:${acct}` };
  const [pair, addr, account] = await Promise.all([state.hit(keys.pair, w, now), state.hit(keys.ip, w, now), state.hit(keys.acct, w, now)]);
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    await Promise.all([state.unhit(keys.pair, pair.windowStart), state.unhit(keys.ip, addr.windowStart), state.unhit(keys.acct, account.windowStart)]);
  };
  const refuse = async (why: string, retryS: number): Promise<never> => {
    await release();
    throw new RateLimitedError(`too many sign-in attempts ${why}; retry in ${retryS} s`, retryS);
  };
  const retryIn = (resetAt: number) => Math.max(1, Math.ceil((resetAt - now) / 1000));
  const over = [pair.count > config.signInFailuresPerAccount ? 'for this account from this address' : null, addr.count > config.signInFailuresPerIp ? 'from this address' : null].filter((x) => x !== null);
  if (over.length) await refuse(over.join(' and '), retryIn(Math.max(pair.resetAt, addr.resetAt)));
  if (account.count > config.signInAccountSlowdownAfter && !(await knownAddress(deps, acct, ip, now))) {
    if (!(await state.acquire(`web:signin:slow:${acct}`, config.signInAccountSlowdownMs, now))) {
      await refuse('for this account (it is being slowed down)', Math.ceil(config.signInAccountSlowdownMs / 1000));
    }
  }
  return {
    release,
    async succeeded() {
      await release();
      await state.hit(`web:signin:known:${acct}:${ip}`, KNOWN_ADDRESS_MS, deps.now());
    },
  };
}

async function knownAddress(deps: LimitDeps, acct: string, ip: string, now: number): Promise<boolean> {
  const key = `web:signin:known:${acct}:${ip}`;
  const [cur, prev] = await Promise.all([deps.state.peek(key, KNOWN_ADDRESS_MS, now), deps.state.peek(key, KNOWN_ADDRESS_MS, now - KNOWN_ADDRESS_MS)]);
  return cur.count > 0 || prev.count > 0;
}
