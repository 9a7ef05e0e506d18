/**
 * Web sign-in (docs/web-app.md "Sign-in"): e-mail + password (+ TOTP or recovery code when the account
 * has MFA). Failed attempts are counted per account (the e-mail, whether or not it exists) and per IP
 * address in fixed windows of the shared ephemeral store (Redis when configured, else the database), so
 * every instance counts together. Once either count reaches its limit every further attempt of that
 * account / address is 429 RATE_LIMITED with `Retry-After` until the window ends — a right password
 * included, so guessing gains nothing from the throttle's answers.
 *
 * An unknown e-mail costs one scrypt like a known one and answers the same 401 INVALID_CREDENTIALS.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { WebConfig } from '../../config.ts';
import type { EmbedEphemeralStore } from '../../store/embed-ephemeral.ts';
import type { Database } from '../../store/schema.ts';
import { getUserByEmail, type UserRecord } from '../../store/users.ts';
import { RateLimitedError } from '../embedding/context.ts';
import { DomainError } from '../errors.ts';
import { mfaEnabled, verifySecondFactor } from './mfa.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

export interface SignInDeps {
  db: Kysely<Database>;
  config: WebConfig;
  state: EmbedEphemeralStore;
  now: () => number;
}

export interface SignInInput {
  email: string;
  password: string;
  totp?: string;
  recoveryCode?: string;
}

/** A stored hash that matches no password: unknown e-mails cost the same scrypt as known ones. */
let dummyHash: Promise<string> | null = null;
const dummy = () => (dummyHash ??= hashPassword('netloom: no such account'));

const accountKey = (email: string) => `web:signin:acct:${createHash('sha256').update(email).digest('hex').slice(0, 32)}`;
const ipKey = (ip: string) => `web:signin:ip:${ip}`;

export async function checkThrottle(deps: SignInDeps, email: string, ip: string): Promise<void> {
  const now = deps.now();
  const w = deps.config.signInWindowMs;
  const [acct, addr] = await Promise.all([deps.state.peek(accountKey(email), w, now), deps.state.peek(ipKey(ip), w, now)]);
  const over = [
    acct.count >= deps.config.signInFailuresPerAccount ? { w: acct, what: 'for this account' } : null,
    addr.count >= deps.config.signInFailuresPerIp ? { w: addr, what: 'from this address' } : null,
  ].filter((x) => x !== null);
  if (over.length) {
    const resetAt = Math.max(...over.map((o) => o.w.resetAt));
    const retry = Math.max(1, Math.ceil((resetAt - now) / 1000));
    throw new RateLimitedError(`too many failed sign-ins ${over.map((o) => o.what).join(' and ')}; retry in ${retry} s`, retry);
  }
}

export async function countFailure(deps: SignInDeps, email: string, ip: string): Promise<void> {
  const now = deps.now();
  const w = deps.config.signInWindowMs;
  await Promise.all([deps.state.hit(accountKey(email), w, now), deps.state.hit(ipKey(ip), w, now)]);
}

/**
 * A password-reset link of an account with MFA still needs the second factor (a link alone never
 * bypasses MFA): throttled and counted like a sign-in; 401 MFA_REQUIRED when missing or wrong.
 */
export async function requireResetSecondFactor(deps: SignInDeps, email: string, factor: { totp?: string; recoveryCode?: string }, ip: string): Promise<void> {
  const user = await getUserByEmail(deps.db, email);
  if (!user || !(await mfaEnabled(deps.db, user.id))) return;
  await checkThrottle(deps, user.email, ip);
  if (!factor.totp && !factor.recoveryCode) throw new DomainError('MFA_REQUIRED', 'this account has two-factor authentication: enter the current code (or a recovery code)');
  if (!(await verifySecondFactor(deps.db, user.id, factor, deps.now()))) {
    await countFailure(deps, user.email, ip);
    throw new DomainError('MFA_REQUIRED', 'that code is not valid (or was already used)');
  }
}

/** Normalises a typed e-mail for lookup (no format check: a malformed one is simply unknown). */
export function signInEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Checks a password (and second factor) for `email`; returns the user. Throws 429 RATE_LIMITED when
 * throttled, 401 INVALID_CREDENTIALS, 401 MFA_REQUIRED (password right; code missing or wrong), 403
 * FORBIDDEN for a suspended account (told only after the right password).
 */
export async function signIn(deps: SignInDeps, input: SignInInput, ip: string): Promise<UserRecord> {
  const email = signInEmail(input.email);
  await checkThrottle(deps, email, ip);
  const user = email ? await getUserByEmail(deps.db, email) : null;
  const usable = user !== null && user.kind === 'regular' && user.password_hash !== null;
  const ok = await verifyPassword(input.password, usable ? user.password_hash : await dummy());
  if (!usable || !ok) {
    await countFailure(deps, email, ip);
    throw new DomainError('INVALID_CREDENTIALS', 'e-mail or password is not right');
  }
  if (user.status === 'suspended') throw new DomainError('FORBIDDEN', 'this account is suspended; ask your organization\'s admin');
  if (await mfaEnabled(deps.db, user.id)) {
    const given = Boolean(input.totp) || Boolean(input.recoveryCode);
    if (!given) throw new DomainError('MFA_REQUIRED', 'enter the 6-digit code of your authenticator app (or a recovery code)');
    if (!(await verifySecondFactor(deps.db, user.id, input, deps.now()))) {
      await countFailure(deps, email, ip);
      throw new DomainError('MFA_REQUIRED', 'that code is not valid (or was already used); enter the current code or an unused recovery code');
    }
  }
  return user;
}

/**
 * Re-entered password of a signed-in user (credential creation, MFA changes, password change): counted
 * against the same per-account and per-IP throttle as sign-in. 401 INVALID_CREDENTIALS when wrong.
 */
export async function confirmPassword(deps: SignInDeps, user: UserRecord, password: string, ip: string, field = 'password'): Promise<void> {
  await checkThrottle(deps, user.email, ip);
  if (!(await verifyPassword(password, user.password_hash ?? (await dummy())))) {
    await countFailure(deps, user.email, ip);
    throw new DomainError('INVALID_CREDENTIALS', 'the password is not right', [{ path: `/${field}`, message: 'is not your current password' }]);
  }
}
