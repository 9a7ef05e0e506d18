/** Managed users (embed_users + their `users` row + membership) and their network grants (repository). */
import type { Kysely, Selectable } from 'kysely';
import { countRows, nullOrBefore } from './queries.ts';
import type { Database, EmbedGrantsTable, EmbedUsersTable, ManagedUserStatus, SharePermission } from './schema.ts';

export type EmbedUserRow = Selectable<EmbedUsersTable>;
export type ManagedUserRecord = EmbedUserRow & { display_name: string };
export type GrantRecord = Selectable<EmbedGrantsTable> & { network_name: string };

const COLS = [
  'e.user_id', 'e.org_id', 'e.external_id', 'e.chat_access', 'e.org_permission', 'e.read_only', 'e.status', 'e.created',
  'e.modified', 'e.last_active_at', 'e.deactivated_at', 'u.name as display_name',
] as const;

export async function getManagedUser(db: Kysely<Database>, orgId: string, externalId: string): Promise<ManagedUserRecord | null> {
  const r = await db
    .selectFrom('embed_users as e')
    .innerJoin('users as u', 'u.id', 'e.user_id')
    .select(COLS)
    .where('e.org_id', '=', orgId)
    .where('e.external_id', '=', externalId)
    .executeTakeFirst();
  return r ?? null;
}

export async function getManagedUserById(db: Kysely<Database>, userId: string): Promise<ManagedUserRecord | null> {
  const r = await db.selectFrom('embed_users as e').innerJoin('users as u', 'u.id', 'e.user_id').select(COLS).where('e.user_id', '=', userId).executeTakeFirst();
  return r ?? null;
}

export function countActiveManagedUsers(db: Kysely<Database>, orgId: string): Promise<number> {
  return countRows(db.selectFrom('embed_users').where('org_id', '=', orgId).where('status', '=', 'active'));
}

export async function listManagedUsers(
  db: Kysely<Database>,
  orgId: string,
  opts: { status?: ManagedUserStatus; limit: number; offset: number },
): Promise<{ total: number; rows: ManagedUserRecord[] }> {
  let count = db.selectFrom('embed_users').select((eb) => eb.fn.countAll<number>().as('n')).where('org_id', '=', orgId);
  let q = db.selectFrom('embed_users as e').innerJoin('users as u', 'u.id', 'e.user_id').select(COLS).where('e.org_id', '=', orgId);
  if (opts.status) {
    count = count.where('status', '=', opts.status);
    q = q.where('e.status', '=', opts.status);
  }
  const [{ n }, rows] = await Promise.all([
    count.executeTakeFirstOrThrow(),
    q.orderBy('e.created').orderBy('e.user_id').limit(opts.limit).offset(opts.offset).execute(),
  ]);
  return { total: Number(n), rows };
}

export async function insertManagedUser(db: Kysely<Database>, row: EmbedUserRow): Promise<void> {
  await db.insertInto('embed_users').values(row).execute();
}

export async function updateManagedUser(
  db: Kysely<Database>,
  userId: string,
  patch: Partial<Pick<EmbedUserRow, 'chat_access' | 'status' | 'modified' | 'deactivated_at' | 'last_active_at'>>,
): Promise<void> {
  await db.updateTable('embed_users').set(patch).where('user_id', '=', userId).execute();
}

/** Records viewer activity at most once per `minGapMs`. */
export async function touchManagedUser(db: Kysely<Database>, userId: string, at: string, olderThan: string): Promise<void> {
  await db.updateTable('embed_users').set({ last_active_at: at }).where('user_id', '=', userId).where((eb) => nullOrBefore(eb, 'last_active_at', olderThan)).execute();
}

/** Grants of the given users, with network names (for the managed-user body). */
export async function listGrants(db: Kysely<Database>, userIds: readonly string[]): Promise<GrantRecord[]> {
  if (userIds.length === 0) return [];
  return db
    .selectFrom('embed_grants as g')
    .innerJoin('networks as n', 'n.id', 'g.network_id')
    .select(['g.user_id', 'g.network_id', 'g.permission', 'g.created', 'n.name as network_name'])
    .where('g.user_id', 'in', [...userIds])
    .orderBy('g.created')
    .orderBy('g.network_id')
    .execute();
}

export async function getGrant(db: Kysely<Database>, userId: string, networkId: string): Promise<SharePermission | null> {
  const r = await db.selectFrom('embed_grants').select('permission').where('user_id', '=', userId).where('network_id', '=', networkId).executeTakeFirst();
  return r?.permission ?? null;
}

export async function upsertGrant(db: Kysely<Database>, userId: string, networkId: string, permission: SharePermission, at: string): Promise<void> {
  await db
    .insertInto('embed_grants')
    .values({ user_id: userId, network_id: networkId, permission, created: at })
    .onConflict((oc) => oc.columns(['user_id', 'network_id']).doUpdateSet({ permission }))
    .execute();
}

export async function deleteGrant(db: Kysely<Database>, userId: string, networkId: string): Promise<boolean> {
  const r = await db.deleteFrom('embed_grants').where('user_id', '=', userId).where('network_id', '=', networkId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function deleteAllGrants(db: Kysely<Database>, userId: string): Promise<void> {
  await db.deleteFrom('embed_grants').where('user_id', '=', userId).execute();
}

/** Managed-user facts of organization members (for the member list's Embedded badge). */
export async function managedFactsOfOrg(db: Kysely<Database>, orgId: string): Promise<Map<string, Pick<EmbedUserRow, 'external_id' | 'status'>>> {
  const rows = await db.selectFrom('embed_users').select(['user_id', 'external_id', 'status']).where('org_id', '=', orgId).execute();
  return new Map(rows.map((r) => [r.user_id, { external_id: r.external_id, status: r.status }]));
}
