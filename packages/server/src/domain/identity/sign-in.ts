/**
 * Web sign-in (docs/web-app.md "Sign-in"): e-mail + password (+ TOTP or recovery code when the account
 * has MFA). Every attempt reserves its slot in the attempt counters *before* anything is verified
 * (domain/identity/sign-in-limits.ts: per (account, address), per address, and a per-account slow-down), so
 * concurrent attempts cannot overtake the limit; a refused attempt is 429 RATE_LIMITED with
 * `Retry-After` — a right password included, so guessing gains nothing from the throttle's answers.
 * Password hashing runs through a small bounded queue (domain/identity/password-queue.ts).
 *
 * An unknown e-mail costs one scrypt like a known one and answers the same 401 INVALID_CREDENTIALS.
 */
import type { Kysely } from 'kysely';
import type { WebConfig } from '../../config.ts';
import type { EmbedEphemeralStore } from '../../store/embed-ephemeral.ts';
import type { Database } from '../../store/schema.ts';
import { getUserByEmail, type UserRecord } from '../../store/users.ts';
import { DomainError } from '../errors.ts';
import { mfaEnabled, verifySecondFactor } from './mfa.ts';
import type { PasswordQueue } from './password-queue.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { reserveAttempt, type Reservation } from './sign-in-limits.ts';

export interface SignInDeps {
  db: Kysely<Database>;
  config: WebConfig;
  state: EmbedEphemeralStore;
  now: () => number;
  /** Bounds concurrent scrypt work (sign-in, re-entered passwords, new passwords). */
  passwords: PasswordQueue;
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

/** Checks a password through the bounded queue; a refusal by the full queue gives the reservation back. */
async function checkPassword(deps: SignInDeps, r: Reservation, password: string, stored: string | null): Promise<boolean> {
  const hash = stored ?? (await dummy());
  try {
    return await deps.passwords.run(() => verifyPassword(password, hash));
  } catch (err) {
    await r.release();
    throw err;
  }
}

/** Hashes a new password through the bounded queue. */
export function hashNewPassword(deps: Pick<SignInDeps, 'passwords'>, password: string): Promise<string> {
  return deps.passwords.run(() => hashPassword(password));
}

/**
 * A password-reset link of an account with MFA still needs the second factor (a link alone never
 * bypasses MFA): reserved and counted like a sign-in; 401 MFA_REQUIRED when missing or wrong.
 */
export async function requireResetSecondFactor(deps: SignInDeps, email: string, factor: { totp?: string; recoveryCode?: string }, ip: string): Promise<void> {
  const user = await getUserByEmail(deps.db, email);
  if (!user || !(await mfaEnabled(deps.db, user.id))) return;
  const r = await reserveAttempt(deps, user.email, ip);
  if (!factor.totp && !factor.recoveryCode) {
    await r.release();
    throw new DomainError('MFA_REQUIRED', 'this account has two-factor authentication: enter the current code (or a recovery code)');
  }
  if (!(await verifySecondFactor(deps.db, user.id, factor, deps.now()))) throw new DomainError('MFA_REQUIRED', 'that code is not valid (or was already used)');
  await r.release();
}

/** Normalises a typed e-mail for lookup (no format check: a malformed one is simply unknown). */
export function signInEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Checks a password (and second factor) for `email`; returns the user. Throws 429 RATE_LIMITED when
 * the attempt cannot be reserved (or the password queue is full), 401 INVALID_CREDENTIALS, 401 MFA_REQUIRED (password right; code missing or wrong), 403
 * FORBIDDEN for a suspended account (told only after the right password).
 */
export async function signIn(deps: SignInDeps, input: SignInInput, ip: string): Promise<UserRecord> {
  const email = signInEmail(input.email);
  const r = await reserveAttempt(deps, email, ip);
  const user = email ? await getUserByEmail(deps.db, email) : null;
  const usable = user !== null && user.kind === 'regular' && user.password_hash !== null;
  const ok = await checkPassword(deps, r, input.password, usable ? user.password_hash : null);
  if (!usable || !ok) throw new DomainError('INVALID_CREDENTIALS', 'e-mail or password is not right');
  if (user.status === 'suspended') {
    await r.release();
    throw new DomainError('FORBIDDEN', 'this account is suspended; ask your organization\'s admin');
  }
  if (await mfaEnabled(deps.db, user.id)) {
    const given = Boolean(input.totp) || Boolean(input.recoveryCode);
    if (!given) {
      // The password was proved: asking for the code does not use up an attempt.
      await r.release();
      throw new DomainError('MFA_REQUIRED', 'enter the 6-digit code of your authenticator app (or a recovery code)');
    }
    if (!(await verifySecondFactor(deps.db, user.id, input, deps.now()))) {
      throw new DomainError('MFA_REQUIRED', 'that code is not valid (or was already used); enter the current code or an unused recovery code');
    }
  }
  await r.succeeded();
  return user;
}

/**
 * Re-entered password of a signed-in user (credential creation, MFA changes, password change): counted
 * against the same per-account and per-IP throttle as sign-in. 401 INVALID_CREDENTIALS when wrong.
 */
export async function confirmPassword(deps: SignInDeps, user: UserRecord, password: string, ip: string, field = 'password'): Promise<void> {
  const r = await reserveAttempt(deps, user.email, ip);
  if (!(await checkPassword(deps, r, password, user.password_hash))) {
    throw new DomainError('INVALID_CREDENTIALS', 'the password is not right', [{ path: `/${field}`, message: 'is not your current password' }]);
  }
  await r.release();
}
