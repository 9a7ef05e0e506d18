/** Saved views (EmbedView v1) per network (repository). */
import type { Kysely, Selectable } from 'kysely';
import type { Database, EmbedViewsTable } from './schema.ts';
import { dialectOf } from './db.ts';

export type EmbedViewRecord = Selectable<EmbedViewsTable>;

export function listViews(db: Kysely<Database>, networkId: string): Promise<EmbedViewRecord[]> {
  return db.selectFrom('embed_views').selectAll().where('network_id', '=', networkId).orderBy('created').orderBy('id').execute();
}

export async function getView(db: Kysely<Database>, networkId: string, id: string): Promise<EmbedViewRecord | null> {
  return (await db.selectFrom('embed_views').selectAll().where('network_id', '=', networkId).where('id', '=', id).executeTakeFirst()) ?? null;
}

export async function countViews(db: Kysely<Database>, networkId: string): Promise<number> {
  const r = await db.selectFrom('embed_views').select((eb) => eb.fn.countAll<number>().as('n')).where('network_id', '=', networkId).executeTakeFirstOrThrow();
  return Number(r.n);
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
