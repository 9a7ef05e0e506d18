/** Web-app sessions repository (docs/web-app.md). Plain data access; rules live in domain/web/sessions.ts. */
import type { Kysely, Selectable } from 'kysely';
import type { Database, MembershipsTable, OrganizationsTable, UsersTable, WebSessionsTable } from './schema.ts';

export type WebSessionRecord = Selectable<WebSessionsTable>;

export async function insertWebSession(db: Kysely<Database>, row: WebSessionRecord): Promise<void> {
  await db.insertInto('web_sessions').values(row).execute();
}

export interface WebSessionWithUser {
  session: WebSessionRecord;
  user: Selectable<UsersTable>;
  membership: Selectable<MembershipsTable> | null;
  org: Selectable<OrganizationsTable> | null;
  requireMfa: boolean;
  mfaEnabled: boolean;
}

/** A session by the SHA-256 of its cookie value, with its user, membership, organization and MFA state (one query). */
export async function findWebSession(db: Kysely<Database>, secretHash: string): Promise<WebSessionWithUser | null> {
  const row = await db
    .selectFrom('web_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('memberships as m', 'm.user_id', 'u.id')
    .leftJoin('organizations as o', 'o.id', 'm.org_id')
    .leftJoin('organization_settings as os', 'os.org_id', 'o.id')
    .leftJoin('user_mfa as f', 'f.user_id', 'u.id')
    .select([
      's.id as s_id', 's.secret_hash as s_secret_hash', 's.user_id as s_user_id', 's.created as s_created', 's.last_seen_at as s_last_seen_at',
      's.expires_at as s_expires_at', 's.user_agent as s_user_agent', 's.ip as s_ip',
      'u.id as u_id', 'u.email as u_email', 'u.name as u_name', 'u.password_hash as u_password_hash', 'u.plan as u_plan', 'u.status as u_status',
      'u.kind as u_kind', 'u.created as u_created', 'u.modified as u_modified',
      'm.org_id as m_org_id', 'm.role as m_role', 'm.created as m_created',
      'o.id as o_id', 'o.name as o_name', 'o.plan as o_plan', 'o.created_by as o_created_by', 'o.created as o_created', 'o.modified as o_modified',
      'os.require_mfa as os_require_mfa', 'f.enabled_at as f_enabled_at',
    ])
    .where('s.secret_hash', '=', secretHash)
    .executeTakeFirst();
  if (!row) return null;
  return {
    session: {
      id: row.s_id, secret_hash: row.s_secret_hash, user_id: row.s_user_id, created: row.s_created, last_seen_at: row.s_last_seen_at,
      expires_at: row.s_expires_at, user_agent: row.s_user_agent, ip: row.s_ip,
    },
    user: {
      id: row.u_id, email: row.u_email, name: row.u_name, password_hash: row.u_password_hash, plan: row.u_plan, status: row.u_status,
      kind: row.u_kind, created: row.u_created, modified: row.u_modified,
    },
    membership: row.m_org_id && row.m_role && row.m_created ? { org_id: row.m_org_id, user_id: row.u_id, role: row.m_role, created: row.m_created } : null,
    org:
      row.o_id && row.o_name && row.o_plan && row.o_created_by && row.o_created && row.o_modified
        ? { id: row.o_id, name: row.o_name, plan: row.o_plan, created_by: row.o_created_by, created: row.o_created, modified: row.o_modified }
        : null,
    requireMfa: Number(row.os_require_mfa ?? 0) === 1,
    mfaEnabled: row.f_enabled_at != null,
  };
}

/** Moves last_seen_at forward (only forward: a late request never moves it back). */
export async function touchWebSession(db: Kysely<Database>, id: string, at: string): Promise<void> {
  await db.updateTable('web_sessions').set({ last_seen_at: at }).where('id', '=', id).where('last_seen_at', '<', at).execute();
}

export async function listWebSessionsOfUser(db: Kysely<Database>, userId: string): Promise<WebSessionRecord[]> {
  return db.selectFrom('web_sessions').selectAll().where('user_id', '=', userId).orderBy('last_seen_at', 'desc').orderBy('id').execute();
}

export async function deleteWebSession(db: Kysely<Database>, id: string, userId?: string): Promise<boolean> {
  let q = db.deleteFrom('web_sessions').where('id', '=', id);
  if (userId !== undefined) q = q.where('user_id', '=', userId);
  const res = await q.executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** Deletes every session of a user except `keepId` (when given); returns how many. */
export async function deleteWebSessionsOfUser(db: Kysely<Database>, userId: string, keepId?: string): Promise<number> {
  let q = db.deleteFrom('web_sessions').where('user_id', '=', userId);
  if (keepId !== undefined) q = q.where('id', '!=', keepId);
  const res = await q.executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Deletes sessions (of one user, when given) past their absolute end or idle since before `idleBefore`. */
export async function pruneWebSessions(db: Kysely<Database>, now: string, idleBefore: string, userId?: string): Promise<number> {
  let q = db.deleteFrom('web_sessions').where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', idleBefore)]));
  if (userId !== undefined) q = q.where('user_id', '=', userId);
  const res = await q.executeTakeFirst();
  return Number(res.numDeletedRows);
}

export async function getWebSessionById(db: Kysely<Database>, id: string): Promise<WebSessionRecord | null> {
  return (await db.selectFrom('web_sessions').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}
