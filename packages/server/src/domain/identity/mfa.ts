/**
 * TOTP MFA (RFC 6238, docs/web-app.md "MFA") with `otpauth`: SHA-1, 6 digits, 30 s — what every
 * authenticator app reads from the `otpauth://` URL. A code is accepted within ±1 step (clock drift)
 * and only once (the accepted step is recorded; an equal or older step is refused), so an observed code
 * cannot be replayed. Ten one-time recovery codes (`xxxxx-xxxxx`, 50 bits each), stored as SHA-256.
 *
 * Flow: setup → a pending secret (shown once as secret + URL); enable { code } → the pending secret
 * becomes the active one and fresh recovery codes are returned once; disable { password } (refused
 * while the organization requires MFA); regenerate { password } → new codes, the old ones stop working.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import { inTransaction } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import {
  countUnusedRecoveryCodes,
  deleteUserMfa,
  enablePendingSecret,
  getUserMfa,
  replaceRecoveryCodes,
  setPendingSecret,
  useRecoveryCode,
  useTimeStep,
} from '../../store/mfa.ts';
import { DomainError } from '../errors.ts';

export const TOTP_ISSUER = 'Netloom';
const PERIOD = 30;
const RECOVERY_CODES = 10;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'; // 31 symbols: no 0/o/1/l/i

const iso = (ms: number) => new Date(ms).toISOString();

function totpOf(secretBase32: string, label = ''): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secretBase32) });
}

/** The time step a code matches (±1 around `now`), or null. */
export function matchingStep(secretBase32: string, code: string, now: number): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^[0-9]{6}$/.test(token)) return null;
  const totp = totpOf(secretBase32);
  const delta = totp.validate({ token, timestamp: now, window: 1 });
  if (delta === null) return null;
  return totp.counter({ timestamp: now }) + delta;
}

export function normalizeRecoveryCode(code: string): string {
  return code.trim().toLowerCase().replace(/[\s-]+/g, '');
}

export function recoveryCodeHash(code: string): string {
  return createHash('sha256').update(`netloom-recovery\0${normalizeRecoveryCode(code)}`, 'utf8').digest('hex');
}

function newRecoveryCode(): string {
  let s = '';
  while (s.length < 10) {
    for (const b of randomBytes(16)) if (b < 248 && s.length < 10) s += RECOVERY_ALPHABET[b % 31];
  }
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}

async function freshRecoveryCodes(db: Kysely<Database>, userId: string, now: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  await replaceRecoveryCodes(db, userId, codes.map(recoveryCodeHash), iso(now));
  return codes;
}

export async function mfaEnabled(db: Kysely<Database>, userId: string): Promise<boolean> {
  return (await getUserMfa(db, userId))?.enabled_at != null;
}

/** Starts (or restarts) enrolment: a new pending secret, shown once. */
export async function setupMfa(db: Kysely<Database>, user: { id: string; email: string }, now: number): Promise<{ secret: string; otpauthUrl: string }> {
  const secret = new Secret({ size: 20 }).base32;
  await setPendingSecret(db, user.id, secret, iso(now));
  return { secret, otpauthUrl: totpOf(secret, user.email).toString() };
}

/** Confirms the pending secret with a current code; returns the recovery codes (shown once). */
export async function enableMfa(db: Kysely<Database>, userId: string, code: string, now: number): Promise<{ recoveryCodes: string[] }> {
  return inTransaction(db, async (trx) => {
    const mfa = await getUserMfa(trx, userId);
    if (!mfa?.pending_secret) throw new DomainError('INVALID_ARGS', 'no MFA setup in progress; call POST /app/api/account/mfa/setup first', [{ path: '/code', message: 'no setup in progress' }]);
    const step = matchingStep(mfa.pending_secret, code, now);
    if (step === null) throw new DomainError('INVALID_ARGS', 'code: not the current code of the authenticator app (check the phone\'s clock)', [{ path: '/code', message: 'is not the current code' }]);
    if (!(await enablePendingSecret(trx, userId, mfa.pending_secret, step, iso(now)))) throw new DomainError('CONFLICT', 'the MFA setup changed meanwhile; start again');
    return { recoveryCodes: await freshRecoveryCodes(trx, userId, now) };
  });
}

export async function disableMfa(db: Kysely<Database>, userId: string): Promise<void> {
  await deleteUserMfa(db, userId);
}

export async function regenerateRecoveryCodes(db: Kysely<Database>, userId: string, now: number): Promise<{ recoveryCodes: string[] }> {
  if (!(await mfaEnabled(db, userId))) throw new DomainError('FORBIDDEN', 'MFA is not enabled for this account');
  return inTransaction(db, async (trx) => ({ recoveryCodes: await freshRecoveryCodes(trx, userId, now) }));
}

export async function remainingRecoveryCodes(db: Kysely<Database>, userId: string): Promise<number> {
  return countUnusedRecoveryCodes(db, userId);
}

/**
 * Second factor at sign-in: a TOTP code (each time step once) or an unused recovery code (then used up).
 * True when accepted.
 */
export async function verifySecondFactor(db: Kysely<Database>, userId: string, input: { totp?: string; recoveryCode?: string }, now: number): Promise<boolean> {
  const mfa = await getUserMfa(db, userId);
  if (!mfa?.secret || !mfa.enabled_at) return true;
  if (input.totp !== undefined && input.totp !== '') {
    const step = matchingStep(mfa.secret, input.totp, now);
    return step !== null && (await useTimeStep(db, userId, step));
  }
  if (input.recoveryCode !== undefined && input.recoveryCode !== '') {
    return useRecoveryCode(db, userId, recoveryCodeHash(input.recoveryCode), iso(now));
  }
  return false;
}
