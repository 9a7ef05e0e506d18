/**
 * Authentication of a bearer token or Basic key pair. The credential is looked up by its prefix (token
 * display prefix or public key) in one indexed query (credential + user + membership + organization) and
 * the SHA-256 of the presented secret is compared with the stored hash by crypto.timingSafeEqual.
 *
 * The epoch of principal-cache.ts is read first: on SQLite a synchronous statement (no Kysely), so a
 * cached principal is answered without a promise on the hot path; on PostgreSQL one round trip shared by
 * the requests that arrived while the previous one was under way (store readAuthEpoch). A cache hit
 * verifies the secret exactly like the database path.
 */
import { hash, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { findCredentialByPrefix, readAuthEpoch, readAuthEpochSync } from '../../../store/credentials.ts';
import type { CredentialKind, Database } from '../../../store/schema.ts';
import { isBasicKeyPairForm } from './basic-keys.ts';
import { touch, touchDue } from './last-used.ts';
import type { Principal } from './principal.ts';
import { cachePrincipal, cachedPrincipal } from './principal-cache.ts';
import { parseToken } from './tokens.ts';

async function principalFor(db: Kysely<Database>, prefix: string, kind: CredentialKind, secretHash: Buffer): Promise<{ principal: Principal; secretHash: Buffer } | null> {
  const found = await findCredentialByPrefix(db, prefix);
  if (!found) return null;
  const { credential: c, user, membership, org } = found;
  const stored = Buffer.from(c.secret_hash, 'hex');
  if (c.kind !== kind || stored.length !== secretHash.length || !timingSafeEqual(secretHash, stored)) return null;
  if (c.revoked_at !== null) return null;
  if (c.org_id === null && user.status === 'suspended') return null;
  if (c.org_id !== null && org === null) return null;
  if (touchDue(c.id, c.last_used_at)) await touch(db, c.id);
  // Shared by every request of this credential while cached: frozen.
  const principal: Principal = Object.freeze({
    credentialId: c.id,
    kind: c.kind,
    via: 'credential',
    userId: c.user_id,
    orgId: c.org_id,
    scopes: new Set(JSON.parse(c.scopes) as string[]),
    user: Object.freeze(user),
    org: org && Object.freeze(org),
    membership: membership && Object.freeze(membership),
    plan: org ? org.plan : user.plan,
  });
  return { principal, secretHash: stored };
}

/**
 * The cached answer for this credential at `epoch`: the principal, null (cached credential, wrong
 * secret or kind), or undefined (not cached). Writes `lastUsedAt` when due (then a promise).
 */
function fromCache(db: Kysely<Database>, epoch: number, prefix: string, kind: CredentialKind, secretHash: Buffer): Principal | null | undefined | Promise<Principal> {
  const hit = cachedPrincipal(db, epoch, prefix);
  if (!hit) return undefined;
  const p = hit.principal;
  if (p.kind !== kind || !timingSafeEqual(secretHash, hit.secretHash)) return null;
  if (touchDue(p.credentialId, null)) return touch(db, p.credentialId).then(() => p);
  return p;
}

async function authenticateSlow(db: Kysely<Database>, epochSeen: number | undefined, prefix: string, kind: CredentialKind, secretHash: Buffer): Promise<Principal | null> {
  // The epoch is read before the credential, so a change committed in between moves it past the value
  // the entry is stored under and the next request reloads.
  const epoch = epochSeen ?? (await readAuthEpoch(db));
  if (epochSeen === undefined) {
    const hit = fromCache(db, epoch, prefix, kind, secretHash);
    if (hit !== undefined) return hit;
  }
  const found = await principalFor(db, prefix, kind, secretHash);
  if (!found) return null;
  cachePrincipal(db, epoch, prefix, found);
  return found.principal;
}

/** Synchronous when the principal is cached and the SQLite fast path applies; else a promise. */
function authenticateCredential(db: Kysely<Database>, prefix: string, kind: CredentialKind, secret: string): Principal | null | Promise<Principal | null> {
  const secretHash = hash('sha256', secret, 'buffer');
  const epoch = readAuthEpochSync(db);
  if (epoch !== undefined) {
    const hit = fromCache(db, epoch, prefix, kind, secretHash);
    if (hit !== undefined) return hit;
  }
  return authenticateSlow(db, epoch, prefix, kind, secretHash);
}

/**
 * The principal of a bearer token, or null (malformed, bad checksum, unknown, revoked, suspended owner).
 * Synchronous on a cache hit over SQLite (the hot path of every authenticated request), else a promise.
 */
export function authenticateBearerFast(db: Kysely<Database>, token: string): Principal | null | Promise<Principal | null> {
  const parsed = parseToken(token);
  if (!parsed) return null;
  return authenticateCredential(db, parsed.prefix, 'token', token);
}

/** The principal of a Basic key pair, or null. Synchronous like authenticateBearerFast when it can be. */
export function authenticateBasicFast(db: Kysely<Database>, publicKey: string, privateKey: string): Principal | null | Promise<Principal | null> {
  if (!isBasicKeyPairForm(publicKey, privateKey)) return null;
  return authenticateCredential(db, publicKey, 'basic', privateKey);
}

/** The principal of a bearer token, or null (malformed, bad checksum, unknown, revoked, suspended owner). */
export async function authenticateBearer(db: Kysely<Database>, token: string): Promise<Principal | null> {
  return authenticateBearerFast(db, token);
}

/** The principal of a Basic key pair, or null. */
export async function authenticateBasic(db: Kysely<Database>, publicKey: string, privateKey: string): Promise<Principal | null> {
  return authenticateBasicFast(db, publicKey, privateKey);
}
