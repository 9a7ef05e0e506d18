/**
 * Authenticated principals cached per database handle and per credential prefix, valid for one value of
 * the authentication epoch (store/migrations/0004-auth-epoch.ts): a counter that triggers increase in the
 * same transaction as every change able to alter a principal (revocation, scopes, user status or plan,
 * membership, organization), whichever process or server instance makes it. Each authentication reads the
 * epoch first and the whole cache is dropped when it moved, so a revocation — also by `netloom tokens
 * revoke` in another process, or by another server on the same PostgreSQL — is effective on the very next
 * request. A hit still verifies the presented secret (authenticate.ts); unknown or invalid credentials
 * are never cached.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../store/schema.ts';
import type { Principal } from './principal.ts';

export interface CachedPrincipal {
  principal: Principal;
  /** SHA-256 of the secret, raw bytes (compared in constant time on every hit). */
  secretHash: Buffer;
}
interface PrincipalCache {
  epoch: number;
  /** By credential prefix (token display prefix or public key): the lookup key of the database too. */
  entries: Map<string, CachedPrincipal>;
}
/** Per database handle (tests open many in one process). */
const principalCaches = new WeakMap<Kysely<Database>, PrincipalCache>();
const MAX_CACHED_PRINCIPALS = 10_000;

/**
 * The cache valid at `epoch`, emptied when the epoch moved on; null when `epoch` is older than the
 * cache's (a concurrent request already saw a newer one): then nothing is read from or stored in it.
 */
function cacheAt(db: Kysely<Database>, epoch: number): PrincipalCache | null {
  let cache = principalCaches.get(db);
  if (!cache) principalCaches.set(db, (cache = { epoch, entries: new Map() }));
  else if (cache.epoch < epoch) {
    cache.epoch = epoch;
    cache.entries.clear();
  } else if (cache.epoch > epoch) return null;
  return cache;
}

/** The entry for `prefix` valid at `epoch`, if any. */
export function cachedPrincipal(db: Kysely<Database>, epoch: number, prefix: string): CachedPrincipal | undefined {
  return cacheAt(db, epoch)?.entries.get(prefix);
}

/** Remembers a principal loaded at `epoch` (unless a newer epoch was seen meanwhile). */
export function cachePrincipal(db: Kysely<Database>, epoch: number, prefix: string, entry: CachedPrincipal): void {
  const cache = cacheAt(db, epoch);
  if (!cache) return;
  if (cache.entries.size >= MAX_CACHED_PRINCIPALS) cache.entries.delete(cache.entries.keys().next().value as string);
  cache.entries.set(prefix, entry);
}
