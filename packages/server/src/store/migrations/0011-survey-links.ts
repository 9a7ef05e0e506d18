/**
 * 0011: hashes of revoked or re-issued respondent links, so such a link gets a clear LINK_REVOKED
 * answer (docs/api/people-and-surveys.md, "Respondent API") rather than the answer to a guessed one.
 */
import { createTable, dropTables, index, key, text, type AnyDb } from './tables.ts';

export async function up(db: AnyDb): Promise<void> {
  await createTable(db, 'survey_link_history', [key('hash'), text('survey_id', 'employee_id', 'revoked_at')], {
    indexes: [index('survey_link_history_survey_ix', 'survey_id', 'employee_id')],
  });
}

export async function down(db: AnyDb): Promise<void> {
  await dropTables(db, 'survey_link_history');
}
