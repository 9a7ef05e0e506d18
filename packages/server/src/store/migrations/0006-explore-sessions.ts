/**
 * 0006: Explore in the web app uses the embed viewer (docs/web-app.md "Explore"): an embed session of
 * `mode` 'owner' (a signed-in web user, bound to the web session that opened it) or 'public' (Discover,
 * read-only, signed out allowed), with the user's `access` at opening ('owner' | 'edit' | 'read';
 * re-checked on every viewer request). Existing rows are 'embed' (managed users).
 */
import { createIndexes, index, type AnyDb } from './tables.ts';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('embed_sessions').addColumn('mode', 'text', (c) => c.notNull().defaultTo('embed')).execute();
  await db.schema.alterTable('embed_sessions').addColumn('web_session_id', 'text').execute();
  await db.schema.alterTable('embed_sessions').addColumn('access', 'text').execute();
  await createIndexes(db, 'embed_sessions', [index('embed_sessions_web_session_ix', 'web_session_id')]);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('embed_sessions_web_session_ix').ifExists().execute();
  for (const c of ['access', 'web_session_id', 'mode']) await db.schema.alterTable('embed_sessions').dropColumn(c).execute();
}
