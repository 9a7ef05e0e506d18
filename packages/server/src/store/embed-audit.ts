/** The embedding audit log of organizations (repository). */
import type { Kysely, Selectable } from 'kysely';
import type { Database, EmbedAuditTable } from './schema.ts';

export type AuditRecord = Selectable<EmbedAuditTable>;

export async function insertAudit(db: Kysely<Database>, row: AuditRecord): Promise<void> {
  await db.insertInto('embed_audit').values(row).execute();
}

export interface AuditFilter {
  action?: string;
  /** Actor id (credential, user, managed user, ...). */
  actorId?: string;
  /** Actor kind (`user`, `managed_user`, `credential`, `anonymous`, ...). */
  actorKind?: string;
  /** Target (a managed user's external id, a session id, a network id, ...). */
  target?: string;
  /** Inclusive ISO lower bound of `at`. */
  from?: string;
  /** Exclusive ISO upper bound of `at`. */
  to?: string;
}

/** Newest first. */
export async function listAudit(
  db: Kysely<Database>,
  orgId: string,
  opts: { limit: number; offset: number } & AuditFilter,
): Promise<{ total: number; rows: AuditRecord[] }> {
  let count = db.selectFrom('embed_audit').select((eb) => eb.fn.countAll<number>().as('n')).where('org_id', '=', orgId);
  let q = db.selectFrom('embed_audit').selectAll().where('org_id', '=', orgId);
  if (opts.action !== undefined && opts.action.endsWith('.')) {
    // a kind of event: every action starting with it (`invitation.` → invitation.create, invitation.revoke);
    // actions are letters, digits, dots, dashes and underscores (parseAuditFilter checks the filter)
    count = count.where('action', 'like', `${opts.action}%`);
    q = q.where('action', 'like', `${opts.action}%`);
  }
  const eq = [
    ['action', opts.action?.endsWith('.') ? undefined : opts.action],
    ['actor_kind', opts.actorKind],
    ['actor_id', opts.actorId],
    ['target', opts.target],
  ] as const;
  for (const [column, value] of eq) {
    if (value === undefined) continue;
    count = count.where(column, '=', value);
    q = q.where(column, '=', value);
  }
  if (opts.from !== undefined) {
    count = count.where('at', '>=', opts.from);
    q = q.where('at', '>=', opts.from);
  }
  if (opts.to !== undefined) {
    count = count.where('at', '<', opts.to);
    q = q.where('at', '<', opts.to);
  }
  const [{ n }, rows] = await Promise.all([
    count.executeTakeFirstOrThrow(),
    q.orderBy('at', 'desc').orderBy('id', 'desc').limit(opts.limit).offset(opts.offset).execute(),
  ]);
  return { total: Number(n), rows };
}

/**
 * Readable names of the actors of these rows, by `kind:id`: a user's "name <e-mail>", a managed user's
 * name and external id, a credential's name. Ids that no longer resolve are left out.
 */
export async function auditActorNames(db: Kysely<Database>, orgId: string, rows: AuditRecord[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const ids = (kind: string) => [...new Set(rows.filter((r) => r.actor_kind === kind).map((r) => r.actor_id))];
  const users = ids('user');
  if (users.length) {
    for (const u of await db.selectFrom('users').select(['id', 'name', 'email']).where('id', 'in', users).execute()) names.set(`user:${u.id}`, u.name ? `${u.name} <${u.email}>` : u.email);
  }
  const managed = ids('managed_user');
  if (managed.length) {
    const found = await db.selectFrom('embed_users').innerJoin('users', 'users.id', 'embed_users.user_id')
      .select(['embed_users.user_id as id', 'users.name as name', 'embed_users.external_id as external_id'])
      .where('embed_users.org_id', '=', orgId).where('embed_users.user_id', 'in', managed).execute();
    for (const u of found) names.set(`managed_user:${u.id}`, u.name ? `${u.name} (${u.external_id})` : u.external_id);
  }
  const credentials = ids('credential');
  if (credentials.length) {
    for (const c of await db.selectFrom('credentials').select(['id', 'name']).where('id', 'in', credentials).execute()) names.set(`credential:${c.id}`, `credential “${c.name || c.id}”`);
  }
  return names;
}
