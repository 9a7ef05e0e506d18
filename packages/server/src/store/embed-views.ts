/** Saved views (EmbedView v1) per network (repository). */
import type { Kysely, Selectable } from 'kysely';
import type { Database, EmbedViewsTable } from './schema.ts';
import { dialectOf } from './db.ts';
import { countRows, getInScope, listInScope } from './queries.ts';

export type EmbedViewRecord = Selectable<EmbedViewsTable>;

export function listViews(db: Kysely<Database>, networkId: string): Promise<EmbedViewRecord[]> {
  return listInScope(db, 'embed_views', 'network_id', networkId);
}

export function getView(db: Kysely<Database>, networkId: string, id: string): Promise<EmbedViewRecord | null> {
  return getInScope(db, 'embed_views', 'network_id', networkId, id);
}

export function countViews(db: Kysely<Database>, networkId: string): Promise<number> {
  return countRows(db.selectFrom('embed_views').where('network_id', '=', networkId));
}

/** Locks the network row (PostgreSQL) so concurrent saves cannot both pass the maxViews check. */
export async function lockNetworkRow(db: Kysely<Database>, networkId: string): Promise<{ max_views: number } | null> {
  let q = db.selectFrom('networks').select('max_views').where('id', '=', networkId);
  if (dialectOf(db) === 'postgres') q = q.forUpdate();
  return (await q.executeTakeFirst()) ?? null;
}

export async function insertView(db: Kysely<Database>, row: EmbedViewRecord): Promise<void> {
  await db.insertInto('embed_views').values(row).execute();
}

export async function updateView(db: Kysely<Database>, id: string, patch: Partial<Pick<EmbedViewRecord, 'name' | 'description' | 'data' | 'modified'>>): Promise<void> {
  await db.updateTable('embed_views').set(patch).where('id', '=', id).execute();
}
