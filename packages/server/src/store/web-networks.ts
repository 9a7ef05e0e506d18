/** Queries of the web app's networks pages: the sorted list of own + shared networks, and shares with the users' names. */
import type { Kysely } from 'kysely';
import type { Database, SharePermission } from './schema.ts';
import type { NetworkListRow } from './networks.ts';

const META = [
  'n.id', 'n.owner_id', 'n.name', 'n.description', 'n.is_directed', 'n.status', 'n.file_type', 'n.original_file_type',
  'n.network_uuid', 'n.handpicked', 'n.max_views', 'n.node_count', 'n.edge_count', 'n.json_bytes', 'n.version',
  'n.created', 'n.modified', 'n.org_id', 'u.name as owner_name',
] as const;

/** Networks owned by `userId` plus networks shared with `userId`: last modified first, or by name (case-insensitive). */
export function listUserNetworksSorted(db: Kysely<Database>, userId: string, sort: 'modified' | 'name'): Promise<NetworkListRow[]> {
  let q = db
    .selectFrom('networks as n')
    .innerJoin('users as u', 'u.id', 'n.owner_id')
    .leftJoin('network_shares as s', (j) => j.onRef('s.network_id', '=', 'n.id').on('s.user_id', '=', userId))
    .select([...META, 's.permission as share_permission'])
    .where((eb) => eb.or([eb('n.owner_id', '=', userId), eb('s.user_id', '=', userId)]));
  q = sort === 'name' ? q.orderBy((eb) => eb.fn('lower', ['n.name'])).orderBy('n.modified', 'desc') : q.orderBy('n.modified', 'desc');
  return q.orderBy('n.id').execute();
}

export interface ShareWithUser {
  user_id: string;
  email: string;
  name: string;
  permission: SharePermission;
}

export function listSharesWithUsers(db: Kysely<Database>, networkId: string): Promise<ShareWithUser[]> {
  return db
    .selectFrom('network_shares as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.user_id', 'u.email', 'u.name', 's.permission'])
    .where('s.network_id', '=', networkId)
    .orderBy('u.email')
    .execute();
}

/** A share with an e-mail that has no account yet (migration 0013); created or its permission changed. */
export async function upsertShareInvite(db: Kysely<Database>, networkId: string, email: string, permission: SharePermission, created: string): Promise<void> {
  await db
    .insertInto('network_share_invites')
    .values({ network_id: networkId, email, permission, created })
    .onConflict((oc) => oc.columns(['network_id', 'email']).doUpdateSet({ permission }))
    .execute();
}

export async function deleteShareInvite(db: Kysely<Database>, networkId: string, email: string): Promise<boolean> {
  const res = await db.deleteFrom('network_share_invites').where('network_id', '=', networkId).where('email', '=', email).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export function listShareInvites(db: Kysely<Database>, networkId: string): Promise<{ email: string; permission: SharePermission }[]> {
  return db.selectFrom('network_share_invites').select(['email', 'permission']).where('network_id', '=', networkId).orderBy('email').execute();
}

/** Turns the shares waiting for `email` into shares with the new account `userId` (one transaction by the caller or not: each statement is idempotent). */
export async function claimShareInvites(db: Kysely<Database>, userId: string, email: string, created: string): Promise<number> {
  const invites = await db.selectFrom('network_share_invites').select(['network_id', 'permission']).where('email', '=', email).execute();
  for (const i of invites) {
    await db
      .insertInto('network_shares')
      .values({ network_id: i.network_id, user_id: userId, permission: i.permission, created })
      .onConflict((oc) => oc.columns(['network_id', 'user_id']).doNothing())
      .execute();
  }
  if (invites.length > 0) await db.deleteFrom('network_share_invites').where('email', '=', email).execute();
  return invites.length;
}
