/**
 * Random secrets and their stored hash, shared by bearer tokens, Basic key pairs and embed tokens.
 *
 * Secrets are stored as SHA-256 hex, not scrypt: each is a ≥ 256-bit random value, so a slow KDF adds no
 * protection (brute force of 2^256 is infeasible at any speed; a KDF only helps low-entropy human
 * passwords), while scrypt at ~50 ms of CPU per request would cap authenticated traffic near 20
 * requests/s per core — far below the 8,000 GETs/s target.
 */
import { createHash, randomBytes } from 'node:crypto';

export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Characters of the random part of a token or private key: 43·log2(62) ≈ 256 bits. */
export const TOKEN_RANDOM_LENGTH = 43;

/** `n` uniformly random base62 characters (rejection sampling, no modulo bias). */
export function randomBase62(n: number): string {
  let out = '';
  while (out.length < n) {
    for (const b of randomBytes(n + 16)) {
      if (b < 248 && out.length < n) out += BASE62[b % 62]; // 248 = 4·62
    }
  }
  return out;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}
