/**
 * API credentials (docs/spec/decisions.md §2): user bearer tokens, legacy Basic key pairs, organization-owned
 * credentials, scopes, the per-user maximum, revocation and authentication.
 *
 * Token format: `nl_<43 base62>_<6 base62>`. The random part has 43·log2(62) ≈ 256 bits; the suffix is
 * the CRC-32 of the random part in base62, zero-padded to 6 characters, so secret scanners (and we)
 * can reject a mistyped or truncated token without a database query. Only SHA-256(token) is stored,
 * with a display prefix `nl_` + the first 8 random characters (unique index; the lookup key).
 *
 * Basic key pairs: public key `pk_<24 hex>` (stored as `prefix`, shown in listings), private key
 * `sk_<43 base62>` (shown once). The private key is stored as SHA-256 hex, not scrypt: it is a 256-bit
 * random secret, so a slow KDF adds no protection (brute force of 2^256 is infeasible at any speed; a
 * KDF only helps low-entropy human passwords), while scrypt at ~50 ms of CPU per request would cap
 * Basic-authenticated traffic near 20 requests/s per core — far below the 8,000 GETs/s target.
 * Both kinds are looked up by their unique prefix/public key and the hash is compared with
 * crypto.timingSafeEqual (constant time).
 *
 * Authentication looks the credential up by its prefix in one indexed query (credential + user +
 * membership + organization). Principals are then cached per database handle and per prefix, valid for
 * one value of the authentication epoch (store/migrations/0004-auth-epoch.ts): a counter that triggers
 * increase in the same transaction as every change able to alter a principal (revocation, scopes,
 * user status or plan, membership, organization), whichever process or server instance makes it. Each
 * authentication reads the epoch first (one primary-key read: on SQLite a synchronous statement, no
 * Kysely; on PostgreSQL one round trip shared by the requests that arrived while the previous one was
 * under way, see readAuthEpoch) and drops the whole cache when it moved, so a revocation — also by `netloom tokens revoke` in
 * another process, or by another server on the same PostgreSQL — is effective on the very next request.
 * A cache hit still verifies the presented secret: SHA-256 compared in constant time with the stored
 * hash, exactly like the database path; unknown or invalid credentials are never cached.
 *
 * `lastUsedAt` is written at most once a minute per credential and process (conditional UPDATE,
 * deduplicated in-process, also on cache hits); so it is exact to the minute. That column is the one
 * credential change that does not move the epoch.
 */
import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { Kysely } from 'kysely';
import { dialectOf, inTransaction, isUniqueViolation, nowIso } from '../store/db.ts';
import {
  countActiveCredentialsOfUser,
  findCredentialByPrefix,
  getCredentialById,
  insertCredential,
  listCredentials as storeListCredentials,
  readAuthEpoch,
  readAuthEpochSync,
  revokeCredentialRow,
  touchCredential,
  type CredentialRecord,
} from '../store/credentials.ts';
import { getMembershipOfUser, getOrganizationById, type MembershipRecord, type OrganizationRecord } from '../store/organizations.ts';
import type { CredentialKind, Database, Plan } from '../store/schema.ts';
import type { UserRecord } from '../store/users.ts';
import { DomainError } from './errors.ts';
import { METRIC_PLANS, isOrgAdmin } from './identity.ts';
import { newId } from './ids.ts';

/* ------------------------------------------------------------------ scopes */

export const SCOPE_RESOURCES = ['networks', 'metrics', 'employees', 'customFields', 'responses', 'surveys'] as const;
export type ScopeResource = (typeof SCOPE_RESOURCES)[number];
export const SCOPES = [
  ...SCOPE_RESOURCES.flatMap((r) => [`${r}:read`, `${r}:write`] as const),
  'embed:manage',
] as readonly string[];
export type Scope = string;
/** Full API access: read and write on every resource plus `embed:manage` (docs/spec/api.md Authentication 5). */
export const FULL_ACCESS: readonly string[] = Object.freeze([...SCOPES]);

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && SCOPES.includes(value);
}

/**
 * Parses a scope list: an array of scope strings or a comma/space separated string. `undefined`, `"full"`
 * or `"*"` mean full access. Duplicates are dropped; the result is in canonical order. Every unknown
 * scope is reported (INVALID_ARGS); an empty list is refused (a credential must be able to do something).
 */
export function parseScopes(input: string | readonly string[] | undefined | null): string[] {
  if (input === undefined || input === null) return [...FULL_ACCESS];
  const items = (typeof input === 'string' ? input.split(/[\s,]+/) : [...input]).map((s) => (typeof s === 'string' ? s.trim() : s));
  const list = items.filter((s) => s !== '');
  if (list.length === 1 && (list[0] === 'full' || list[0] === '*')) return [...FULL_ACCESS];
  const unknown = list.filter((s) => !isScope(s));
  if (unknown.length) {
    throw new DomainError(
      'INVALID_ARGS',
      `unknown scope${unknown.length > 1 ? 's' : ''} ${unknown.map((s) => JSON.stringify(s)).join(', ')}; valid: ${SCOPES.join(', ')}`,
      unknown.map((s) => ({ path: `/scopes/${list.indexOf(s)}`, message: `unknown scope ${JSON.stringify(s)}` })),
    );
  }
  if (list.length === 0) throw new DomainError('INVALID_ARGS', 'scopes: at least one scope is required');
  const set = new Set(list);
  return SCOPES.filter((s) => set.has(s));
}

/** The scope a request needs (docs/spec/api.md Authentication 4): GET/HEAD read, anything else write. */
export function requiredScope(resource: ScopeResource, method: string): string {
  const m = method.toUpperCase();
  return `${resource}:${m === 'GET' || m === 'HEAD' ? 'read' : 'write'}`;
}

/* ------------------------------------------------------------ token format */

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const TOKEN_RANDOM_LENGTH = 43;
const CHECKSUM_LENGTH = 6; // 62^6 ≈ 5.7e10 > 2^32
const DISPLAY_RANDOM_CHARS = 8;
const TOKEN_RE = /^nl_([0-9A-Za-z]{32,128})_([0-9A-Za-z]{6})$/;
const PUBLIC_KEY_RE = /^pk_[0-9a-f]{24}$/;
const PRIVATE_KEY_RE = /^sk_[0-9A-Za-z]{32,128}$/;

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

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/* ------------------------------------------------------- create/list/revoke */

export interface CreateCredentialInput {
  /** The owner (user credential) or creator (organization credential). */
  userId: string;
  /** Organization-owned when set: the user must be its Owner or Admin; plan enterprise or partner. */
  orgId?: string | null;
  /** Scope list (see parseScopes); default full access. */
  scopes?: string | readonly string[] | null;
  name?: string;
  /** `config.limits.maxCredentialsPerUser` (default 20). */
  maxPerUser?: number;
}

/** What listings show: never the secret or its hash. */
export interface CredentialSummary {
  _id: string;
  kind: CredentialKind;
  name: string;
  /** Token display prefix (`nl_AbCd1234`) — for tokens. */
  prefix: string | null;
  /** Public key — for Basic key pairs. */
  publicKey: string | null;
  scopes: string[];
  userId: string;
  orgId: string | null;
  created: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export function credentialSummary(c: CredentialRecord): CredentialSummary {
  return {
    _id: c.id,
    kind: c.kind,
    name: c.name,
    prefix: c.kind === 'token' ? c.prefix : null,
    publicKey: c.kind === 'basic' ? c.prefix : null,
    scopes: JSON.parse(c.scopes) as string[],
    userId: c.user_id,
    orgId: c.org_id,
    created: c.created,
    lastUsedAt: c.last_used_at,
    revokedAt: c.revoked_at,
  };
}

async function createCredential(
  db: Kysely<Database>,
  kind: CredentialKind,
  input: CreateCredentialInput,
  makeSecret: () => { prefix: string; secret: string },
): Promise<{ secret: string; prefix: string; credential: CredentialRecord }> {
  const scopes = parseScopes(input.scopes ?? undefined);
  const name = (input.name ?? '').trim() || (kind === 'token' ? 'API token' : 'API key');
  if (name.length > 200) throw new DomainError('INVALID_ARGS', 'name: at most 200 characters');
  const max = input.maxPerUser ?? 20;
  for (let attempt = 0; ; attempt++) {
    const { prefix, secret } = makeSecret();
    try {
      return await inTransaction(db, async (trx) => {
        // Serialise concurrent creations for one user (SQLite: BEGIN IMMEDIATE already does).
        let q = trx.selectFrom('users').selectAll().where('id', '=', input.userId);
        if (dialectOf(trx) === 'postgres') q = q.forUpdate();
        const user = await q.executeTakeFirst();
        if (!user) throw new DomainError('NOT_FOUND', `no user ${JSON.stringify(input.userId)}`);
        if (user.status === 'suspended') throw new DomainError('FORBIDDEN', `${user.email} is suspended`);
        const orgId = input.orgId ?? null;
        if (orgId !== null) {
          const org = await getOrganizationById(trx, orgId);
          if (!org) throw new DomainError('NOT_FOUND', `no organization ${JSON.stringify(orgId)}`);
          const m = await getMembershipOfUser(trx, user.id);
          if (!m || m.org_id !== orgId || !isOrgAdmin(m)) {
            throw new DomainError('FORBIDDEN', `${user.email} is not an Owner or Admin of organization ${org.name}`);
          }
          if (!METRIC_PLANS.includes(org.plan)) {
            throw new DomainError('PLAN_REQUIRED', `organization credentials need an enterprise or partner plan; ${org.name} is on ${org.plan}`);
          }
        }
        const count = await countActiveCredentialsOfUser(trx, user.id);
        if (count >= max) {
          throw new DomainError('CREDENTIAL_LIMIT_REACHED', `${user.email} already has ${count} credentials (maximum ${max}); revoke one first`);
        }
        const credential = await insertCredential(trx, {
          id: newId(),
          kind,
          user_id: user.id,
          org_id: orgId,
          name,
          prefix,
          secret_hash: sha256Hex(secret),
          scopes: JSON.stringify(scopes),
          created: nowIso(),
          last_used_at: null,
          revoked_at: null,
        });
        return { secret, prefix, credential };
      });
    } catch (err) {
      // A display-prefix collision (1 in 2^47 per pair): draw a new secret.
      if (isUniqueViolation(err) && attempt < 5) continue;
      throw err;
    }
  }
}

/** Creates a bearer token. The token is returned once and never stored. */
export async function createToken(
  db: Kysely<Database>,
  input: CreateCredentialInput,
): Promise<{ token: string; credential: CredentialRecord }> {
  const r = await createCredential(db, 'token', input, () => {
    const token = generateToken();
    return { secret: token, prefix: parseToken(token)!.prefix };
  });
  return { token: r.secret, credential: r.credential };
}

/** Creates a legacy Basic key pair. The private key is returned once and never stored. */
export async function createBasicKey(
  db: Kysely<Database>,
  input: CreateCredentialInput,
): Promise<{ publicKey: string; privateKey: string; credential: CredentialRecord }> {
  const r = await createCredential(db, 'basic', input, () => ({
    prefix: `pk_${randomBytes(12).toString('hex')}`,
    secret: `sk_${randomBase62(TOKEN_RANDOM_LENGTH)}`,
  }));
  return { publicKey: r.prefix, privateKey: r.secret, credential: r.credential };
}

/** Active credentials created by a user, or owned by an organization (`includeRevoked` to see all). */
export async function listCredentials(
  db: Kysely<Database>,
  filter: { userId?: string; orgId?: string; includeRevoked?: boolean },
): Promise<CredentialSummary[]> {
  if (filter.userId === undefined && filter.orgId === undefined) throw new Error('listCredentials: userId or orgId required');
  return (await storeListCredentials(db, filter)).map(credentialSummary);
}

/**
 * Revokes a credential at once (effective on the next request). With `userId`/`orgId`, only a credential
 * of that user/organization can be revoked (others are NOT_FOUND). Revoking twice is NOT_FOUND.
 */
export async function revokeCredential(
  db: Kysely<Database>,
  id: string,
  scope: { userId?: string; orgId?: string } = {},
): Promise<CredentialSummary> {
  const c = await getCredentialById(db, id);
  const visible =
    c !== null &&
    c.revoked_at === null &&
    (scope.userId === undefined || c.user_id === scope.userId) &&
    (scope.orgId === undefined || c.org_id === scope.orgId);
  if (!c || !visible) throw new DomainError('NOT_FOUND', `no active credential ${JSON.stringify(id)}`);
  const at = nowIso();
  if (!(await revokeCredentialRow(db, id, at))) throw new DomainError('NOT_FOUND', `no active credential ${JSON.stringify(id)}`);
  return credentialSummary({ ...c, revoked_at: at });
}

/* ----------------------------------------------------------- authentication */

export interface Principal {
  /** The credential's id; `web:<session id>` for a web-app session. */
  credentialId: string;
  /** Credential kind, or `session` for a web-app session (http/web-session.ts). */
  kind: CredentialKind | 'session';
  /** How the request authenticated: an API credential, or a web-app session cookie (only on /app/api). */
  via: 'credential' | 'session';
  /** Owner of a user credential; creator of an organization credential. */
  userId: string;
  /** Set for organization-owned credentials. */
  orgId: string | null;
  scopes: ReadonlySet<string>;
  user: UserRecord;
  /** The owning organization of an organization credential (null for user credentials). */
  org: OrganizationRecord | null;
  /** The user's own membership (any credential kind), e.g. for owner resolution and informal* metrics. */
  membership: MembershipRecord | null;
  /** The plan that governs this credential: the organization's for org credentials, else the user's. */
  plan: Plan;
}

const TOUCH_INTERVAL_MS = 60_000;
const lastTouched = new Map<string, number>();

/** True when `lastUsedAt` of the credential is due to be written (and marks it written). */
function touchDue(id: string, storedLastUsedAt: string | null): boolean {
  const now = Date.now();
  let seen = lastTouched.get(id);
  if (seen === undefined) {
    seen = storedLastUsedAt ? Date.parse(storedLastUsedAt) : 0;
    lastTouched.set(id, seen);
  }
  if (now - seen < TOUCH_INTERVAL_MS) return false;
  if (lastTouched.size > 100_000) lastTouched.clear();
  lastTouched.set(id, now);
  return true;
}

async function touch(db: Kysely<Database>, id: string): Promise<void> {
  const now = lastTouched.get(id) ?? Date.now();
  try {
    await touchCredential(db, id, new Date(now).toISOString(), new Date(now - TOUCH_INTERVAL_MS).toISOString());
  } catch {
    // Bookkeeping only: never fail a request because lastUsedAt could not be written (e.g. busy database).
  }
}

async function principalFor(db: Kysely<Database>, prefix: string, kind: CredentialKind, secretHash: Buffer): Promise<{ principal: Principal; secretHash: Buffer; lastUsedAt: string | null } | null> {
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
  return { principal, secretHash: stored, lastUsedAt: c.last_used_at };
}

interface CachedPrincipal {
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

/**
 * The cached answer for this credential at `epoch`: the principal, null (cached credential, wrong
 * secret or kind), or undefined (not cached). Writes `lastUsedAt` when due (then a promise).
 */
function fromCache(db: Kysely<Database>, epoch: number, prefix: string, kind: CredentialKind, secretHash: Buffer): Principal | null | undefined | Promise<Principal> {
  const hit = cacheAt(db, epoch)?.entries.get(prefix);
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
  const cache = cacheAt(db, epoch);
  if (cache) {
    if (cache.entries.size >= MAX_CACHED_PRINCIPALS) cache.entries.delete(cache.entries.keys().next().value as string);
    cache.entries.set(prefix, { principal: found.principal, secretHash: found.secretHash });
  }
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
  if (!PUBLIC_KEY_RE.test(publicKey) || !PRIVATE_KEY_RE.test(privateKey)) return null;
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
