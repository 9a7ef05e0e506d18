/**
 * Bearer tokens: format, checksum and issue.
 *
 * Format: `nl_<43 base62>_<6 base62>`. The suffix is the CRC-32 of the random part in base62,
 * zero-padded to 6 characters, so secret scanners (and we) can reject a mistyped or truncated token
 * without a database query. Only SHA-256(token) is stored, with a display prefix `nl_` + the first 8
 * random characters (unique index; the lookup key).
 */
import { crc32 } from 'node:zlib';
import type { Kysely } from 'kysely';
import type { CredentialRecord } from '../../../store/credentials.ts';
import type { Database } from '../../../store/schema.ts';
import { issueCredential, type CreateCredentialInput } from './issue.ts';
import { BASE62, TOKEN_RANDOM_LENGTH, randomBase62 } from './secrets.ts';

const CHECKSUM_LENGTH = 6; // 62^6 ≈ 5.7e10 > 2^32
const DISPLAY_RANDOM_CHARS = 8;
const TOKEN_RE = /^nl_([0-9A-Za-z]{32,128})_([0-9A-Za-z]{6})$/;

function base62Fixed(value: number, width: number): string {
  let v = value >>> 0;
  let s = '';
  while (v > 0) {
    s = BASE62[v % 62] + s;
    v = Math.floor(v / 62);
  }
  return s.padStart(width, '0');
}

/** CRC-32 of the random part, base62, 6 characters. */
export function tokenChecksum(randomPart: string): string {
  return base62Fixed(crc32(randomPart), CHECKSUM_LENGTH);
}

export function generateToken(): string {
  const random = randomBase62(TOKEN_RANDOM_LENGTH);
  return `nl_${random}_${tokenChecksum(random)}`;
}

/** The random part of a well-formed token with a correct checksum, else null (no database needed). */
export function parseToken(token: string): { random: string; prefix: string } | null {
  const m = TOKEN_RE.exec(token);
  if (!m || tokenChecksum(m[1]) !== m[2]) return null;
  return { random: m[1], prefix: `nl_${m[1].slice(0, DISPLAY_RANDOM_CHARS)}` };
}

/** Creates a bearer token. The token is returned once and never stored. */
export async function createToken(
  db: Kysely<Database>,
  input: CreateCredentialInput,
): Promise<{ token: string; credential: CredentialRecord }> {
  const r = await issueCredential(db, 'token', input, () => {
    const token = generateToken();
    return { secret: token, prefix: parseToken(token)!.prefix };
  });
  return { token: r.secret, credential: r.credential };
}
