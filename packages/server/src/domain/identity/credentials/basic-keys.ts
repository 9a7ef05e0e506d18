/**
 * Legacy Basic key pairs: public key `pk_<24 hex>` (stored as the credential's `prefix`, shown in
 * listings), private key `sk_<43 base62>` (shown once, stored as SHA-256 hex like a token).
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { CredentialRecord } from '../../../store/credentials.ts';
import type { Database } from '../../../store/schema.ts';
import { issueCredential, type CreateCredentialInput } from './issue.ts';
import { TOKEN_RANDOM_LENGTH, randomBase62 } from './secrets.ts';

const PUBLIC_KEY_RE = /^pk_[0-9a-f]{24}$/;
const PRIVATE_KEY_RE = /^sk_[0-9A-Za-z]{32,128}$/;

/** True when both halves have the form of a key pair (checked before any database query). */
export function isBasicKeyPairForm(publicKey: string, privateKey: string): boolean {
  return PUBLIC_KEY_RE.test(publicKey) && PRIVATE_KEY_RE.test(privateKey);
}

/** Creates a legacy Basic key pair. The private key is returned once and never stored. */
export async function createBasicKey(
  db: Kysely<Database>,
  input: CreateCredentialInput,
): Promise<{ publicKey: string; privateKey: string; credential: CredentialRecord }> {
  const r = await issueCredential(db, 'basic', input, () => ({
    prefix: `pk_${randomBytes(12).toString('hex')}`,
    secret: `sk_${randomBase62(TOKEN_RANDOM_LENGTH)}`,
  }));
  return { publicKey: r.prefix, privateKey: r.secret, credential: r.credential };
}
