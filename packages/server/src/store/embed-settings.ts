/** Embedding settings of organizations and their chosen embeddable networks (repository; rules in domain/embedding/settings.ts). */
import type { Kysely, Selectable } from 'kysely';
import type { Database, EmbedSettingsTable } from './schema.ts';
import { dialectOf } from './db.ts';

export type EmbedSettingsRecord = Selectable<EmbedSettingsTable>;

/** The row for an organization, or defaults (embedding off, no seats, all owned networks) when none exists. */
export async function getEmbedSettings(db: Kysely<Database>, orgId: string, opts: { forUpdate?: boolean } = {}): Promise<EmbedSettingsRecord> {
  let q = db.selectFrom('embed_settings').selectAll().where('org_id', '=', orgId);
  if (opts.forUpdate && dialectOf(db) === 'postgres') q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row ?? defaultSettings(orgId);
}

export function defaultSettings(orgId: string): EmbedSettingsRecord {
  return {
    org_id: orgId,
    enabled: 0,
    seats: 0,
    allowed_origins: '[]',
    all_owned_networks: 1,
    disclosure_accepted_at: null,
    disclosure_accepted_by: null,
    limits: '{}',
    modified: new Date(0).toISOString(),
  };
}

/** Makes sure the row exists (so it can be locked), then applies `patch`. */
export async function ensureEmbedSettings(db: Kysely<Database>, orgId: string, at: string): Promise<void> {
  await db
    .insertInto('embed_settings')
    .values({ ...defaultSettings(orgId), modified: at })
    .onConflict((oc) => oc.column('org_id').doNothing())
    .execute();
}

export async function updateEmbedSettings(
  db: Kysely<Database>,
  orgId: string,
  patch: Partial<Omit<EmbedSettingsRecord, 'org_id'>>,
  at: string,
): Promise<void> {
  await ensureEmbedSettings(db, orgId, at);
  await db.updateTable('embed_settings').set({ ...patch, modified: at }).where('org_id', '=', orgId).execute();
}

export async function listEmbeddableNetworkIds(db: Kysely<Database>, orgId: string): Promise<string[]> {
  const rows = await db.selectFrom('embed_networks').select('network_id').where('org_id', '=', orgId).orderBy('created').orderBy('network_id').execute();
  return rows.map((r) => r.network_id);
}

export async function isListedEmbeddable(db: Kysely<Database>, orgId: string, networkId: string): Promise<boolean> {
  const r = await db.selectFrom('embed_networks').select('network_id').where('org_id', '=', orgId).where('network_id', '=', networkId).executeTakeFirst();
  return r !== undefined;
}

export async function replaceEmbeddableNetworks(db: Kysely<Database>, orgId: string, ids: readonly string[], at: string): Promise<void> {
  await db.deleteFrom('embed_networks').where('org_id', '=', orgId).execute();
  if (ids.length > 0) await db.insertInto('embed_networks').values(ids.map((network_id) => ({ org_id: orgId, network_id, created: at }))).execute();
}
