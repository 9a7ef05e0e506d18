/**
 * 0011: hashes of revoked or re-issued respondent links, so such a link gets a clear LINK_REVOKED
 * answer (docs/api/people-and-surveys.md, "Respondent API") rather than the answer to a guessed one.
 */
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('survey_link_history')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('survey_id', 'text', (c) => c.notNull())
    .addColumn('employee_id', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('survey_link_history_survey_ix').on('survey_link_history').columns(['survey_id', 'employee_id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('survey_link_history').ifExists().execute();
}
