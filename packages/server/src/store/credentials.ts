/** Credentials repository (bearer tokens and legacy Basic key pairs). Rules: domain/identity/credentials/. */
import type { Kysely, Selectable } from 'kysely';
import { runPrepared, runPreparedSync } from './db.ts';
import { countRows, nullOrBefore, updatedAny } from './queries.ts';
import type { CredentialsTable, Database } from './schema.ts';
import type { OrganizationRecord, MembershipRecord } from './organizations.ts';
import type { UserRecord } from './users.ts';

export type CredentialRecord = Selectable<CredentialsTable>;

export async function insertCredential(db: Kysely<Database>, row: CredentialRecord): Promise<CredentialRecord> {
  await db.insertInto('credentials').values(row).execute();
  return row;
}

export async function getCredentialById(db: Kysely<Database>, id: string): Promise<CredentialRecord | null> {
  return (await db.selectFrom('credentials').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** Non-revoked credentials created by a user (user- and organization-owned). */
export function countActiveCredentialsOfUser(db: Kysely<Database>, userId: string): Promise<number> {
  return countRows(db.selectFrom('credentials').where('user_id', '=', userId).where('revoked_at', 'is', null));
}

export interface CredentialFilter {
  /** Credentials created by this user (both kinds, user- and organization-owned). */
  userId?: string;
  /** Credentials owned by this organization. */
  orgId?: string;
  includeRevoked?: boolean;
}

export function listCredentials(db: Kysely<Database>, filter: CredentialFilter): Promise<CredentialRecord[]> {
  let q = db.selectFrom('credentials').selectAll();
  if (filter.userId !== undefined) q = q.where('user_id', '=', filter.userId);
  if (filter.orgId !== undefined) q = q.where('org_id', '=', filter.orgId);
  if (!filter.includeRevoked) q = q.where('revoked_at', 'is', null);
  return q.orderBy('created').orderBy('id').execute();
}

/** Marks a credential revoked; false when unknown or already revoked. */
export function revokeCredentialRow(db: Kysely<Database>, id: string, at: string): Promise<boolean> {
  return updatedAny(db.updateTable('credentials').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null));
}

/** Sets last_used_at only if it is older than `staleBefore` (so concurrent requests write at most once). */
export async function touchCredential(db: Kysely<Database>, id: string, at: string, staleBefore: string): Promise<void> {
  await db.updateTable('credentials').set({ last_used_at: at }).where('id', '=', id).where((eb) => nullOrBefore(eb, 'last_used_at', staleBefore)).execute();
}

export interface CredentialWithOwner {
  credential: CredentialRecord;
  user: UserRecord;
  membership: MembershipRecord | null;
  org: OrganizationRecord | null;
}

/**
 * One indexed query (credentials.prefix unique) returning the credential, its user, the user's
 * membership and the owning organization (for organization credentials). Revoked rows are returned too;
 * the caller decides.
 */
export async function findCredentialByPrefix(db: Kysely<Database>, prefix: string): Promise<CredentialWithOwner | null> {
  const [r] = await runPrepared(db, 'findCredentialByPrefix', (db, p) => db
    .selectFrom('credentials as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .leftJoin('memberships as m', 'm.user_id', 'c.user_id')
    .leftJoin('organizations as o', 'o.id', 'c.org_id')
    .select([
      'c.id as c_id', 'c.kind as c_kind', 'c.user_id as c_user_id', 'c.org_id as c_org_id', 'c.name as c_name',
      'c.prefix as c_prefix', 'c.secret_hash as c_secret_hash', 'c.scopes as c_scopes', 'c.created as c_created',
      'c.last_used_at as c_last_used_at', 'c.revoked_at as c_revoked_at',
      'u.id as u_id', 'u.email as u_email', 'u.name as u_name', 'u.password_hash as u_password_hash',
      'u.plan as u_plan', 'u.status as u_status', 'u.kind as u_kind', 'u.created as u_created', 'u.modified as u_modified',
      'm.org_id as m_org_id', 'm.role as m_role', 'm.created as m_created',
      'o.id as o_id', 'o.name as o_name', 'o.plan as o_plan', 'o.created_by as o_created_by',
      'o.created as o_created', 'o.modified as o_modified',
    ])
    .where('c.prefix', '=', p(0)), [prefix]);
  if (!r) return null;
  return {
    credential: {
      id: r.c_id, kind: r.c_kind, user_id: r.c_user_id, org_id: r.c_org_id, name: r.c_name, prefix: r.c_prefix,
      secret_hash: r.c_secret_hash, scopes: r.c_scopes, created: r.c_created, last_used_at: r.c_last_used_at,
      revoked_at: r.c_revoked_at,
    },
    user: {
      id: r.u_id, email: r.u_email, name: r.u_name, password_hash: r.u_password_hash, plan: r.u_plan,
      status: r.u_status, kind: r.u_kind, created: r.u_created, modified: r.u_modified,
    },
    membership:
      r.m_org_id !== null && r.m_role !== null && r.m_created !== null
        ? { org_id: r.m_org_id, user_id: r.u_id, role: r.m_role, created: r.m_created }
        : null,
    org:
      r.o_id !== null && r.o_name !== null && r.o_plan !== null && r.o_created_by !== null && r.o_created !== null && r.o_modified !== null
        ? { id: r.o_id, name: r.o_name, plan: r.o_plan, created_by: r.o_created_by, created: r.o_created, modified: r.o_modified }
        : null,
  };
}

const epochQuery = (db: Kysely<Database>) => db.selectFrom('auth_epoch').select('v').where('id', '=', 1);

interface EpochReads {
  /** The read under way, if any. */
  inFlight: Promise<number> | null;
  /** The read that starts when the one under way ends, shared by everyone who asked meanwhile. */
  next: Promise<number> | null;
}
const epochReads = new WeakMap<Kysely<Database>, EpochReads>();

function startEpochRead(db: Kysely<Database>, reads: EpochReads): Promise<number> {
  const p = runPrepared(db, 'readAuthEpoch', epochQuery, []).then(([r]) => Number(r?.v ?? 0));
  reads.inFlight = p;
  const done = () => {
    if (reads.inFlight === p) reads.inFlight = null;
  };
  p.then(done, done);
  return p;
}

/**
 * The authentication epoch (migration 0004): increases with every committed change that can alter a
 * principal. Read at the start of each authenticated request to validate the principal cache.
 *
 * The value returned always comes from a read that started after the call, so it reflects every
 * change committed before it; concurrent callers share reads (PostgreSQL: one round trip serves every
 * request that arrived while the previous one was under way, instead of one per request). A caller
 * arriving while a read is under way — which may have started before it — waits for the next one.
 */
export function readAuthEpoch(db: Kysely<Database>): Promise<number> {
  let reads = epochReads.get(db);
  if (!reads) epochReads.set(db, (reads = { inFlight: null, next: null }));
  const current = reads.inFlight;
  if (current === null) return startEpochRead(db, reads);
  const r = reads;
  const after = () => {
    r.next = null;
    return startEpochRead(db, r);
  };
  r.next ??= current.then(after, after);
  return r.next;
}

/** `readAuthEpoch` without a promise when the synchronous SQLite path applies (see runPreparedSync), else undefined. */
export function readAuthEpochSync(db: Kysely<Database>): number | undefined {
  const rows = runPreparedSync(db, 'readAuthEpoch', epochQuery, []);
  return rows === undefined ? undefined : Number(rows[0]?.v ?? 0);
}
