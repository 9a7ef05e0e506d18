/**
 * 0008: metric jobs of the embedded viewer (issue 13 item 4). `session_id` ties a job to the viewer
 * session that started it (the viewer's job endpoints see only their session's jobs); `write_back` = 0
 * marks a job whose node values are answered, not written to the stored network (a viewer run on a
 * network the session may only view, like its synchronous metric call).
 */
import { createIndexes, index, type AnyDb } from './tables.ts';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('metric_jobs').addColumn('session_id', 'text').execute();
  await db.schema.alterTable('metric_jobs').addColumn('write_back', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await createIndexes(db, 'metric_jobs', [index('metric_jobs_session_ix', 'session_id', 'created_at')]);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('metric_jobs_session_ix').execute();
  await db.schema.alterTable('metric_jobs').dropColumn('write_back').execute();
  await db.schema.alterTable('metric_jobs').dropColumn('session_id').execute();
}
