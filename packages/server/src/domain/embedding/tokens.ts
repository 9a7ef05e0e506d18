/**
 * Embedding secrets (docs/spec/api.md Session, Authentication 8):
 * - launch tokens `nll_<43 base62>` (≈256 bits, 60 s, single use) and access tokens `nla_<43 base62>`
 *   (15 min): random, returned once, stored only as SHA-256 hex. They are looked up by their digest, so
 *   the database/Redis comparison never touches the secret itself (no timing oracle on it); the format
 *   check happens before any lookup;
 * - signed network-data links: `…/embed/data/<sessionId>?exp=<ms>&sig=<HMAC-SHA256>`, valid
 *   `dataLinkTtlMs` (5 min); verified with a constant-time comparison and deliberately not tied to the
 *   session's state (docs/spec/api.md: already issued links stay valid up to 5 minutes after revocation);
 * - the operator credential (NETLOOM_OPERATOR_TOKEN), compared in constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomBase62, sha256Hex } from '../identity/credentials/secrets.ts';

const LAUNCH = /^nll_[0-9A-Za-z]{43}$/;
const ACCESS = /^nla_[0-9A-Za-z]{43}$/;

export const newLaunchToken = (): string => `nll_${randomBase62(43)}`;
export const newAccessToken = (): string => `nla_${randomBase62(43)}`;
export const isLaunchTokenFormat = (s: unknown): s is string => typeof s === 'string' && LAUNCH.test(s);
export const isAccessTokenFormat = (s: unknown): s is string => typeof s === 'string' && ACCESS.test(s);
export const tokenHash = (token: string): string => sha256Hex(token);

/** Constant-time equality of two strings (compares their SHA-256 digests, so lengths leak nothing either). */
export function secretsEqual(a: string, b: string): boolean {
  const da = Buffer.from(sha256Hex(a), 'hex');
  const dbuf = Buffer.from(sha256Hex(b), 'hex');
  return timingSafeEqual(da, dbuf) && a.length === b.length;
}

function mac(key: Buffer, sessionId: string, networkId: string, exp: number): string {
  return createHmac('sha256', key).update(`embed-data\n${sessionId}\n${networkId}\n${exp}`).digest('base64url');
}

export function signDataLink(key: Buffer, sessionId: string, networkId: string, exp: number): string {
  return mac(key, sessionId, networkId, exp);
}

/** True when `sig` is the MAC of (sessionId, networkId, exp) and `exp` has not passed. */
export function verifyDataLink(key: Buffer, sessionId: string, networkId: string, exp: number, sig: string, now: number): boolean {
  if (!Number.isSafeInteger(exp) || exp <= now) return false;
  const want = Buffer.from(mac(key, sessionId, networkId, exp));
  const got = Buffer.from(sig);
  return got.length === want.length && timingSafeEqual(got, want);
}
