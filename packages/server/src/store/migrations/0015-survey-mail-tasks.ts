/**
 * 0015: the table queue of survey e-mail (docs/surveys.md "E-mail"; issue 21 item 4) — used when
 * REDIS_URL is not set (with it, BullMQ carries the same tasks). A row is "send step `step` of survey
 * `survey_id` to whoever still needs it": its id `<surveyId>:<step>` makes queueing idempotent; a worker
 * claims it with a lease (`lease_until`, ms since epoch) it renews while it sends, and deletes it when the
 * pass is done; a worker that dies leaves the lease to lapse and another takes the row. Who got which
 * message is not here: the delivery table's atomic claim per (survey, person, step) is the once-guarantee.
 */
import { createTable, dropTables, id, index, notNull, nullable, text, withDefault, type AnyDb } from './tables.ts';

export async function up(db: AnyDb): Promise<void> {
  await createTable(db, 'survey_mail_tasks', [
    id,
    text('survey_id', 'step'),
    notNull('bigint', 'queued_at'),
    nullable('text', 'worker_id'),
    nullable('bigint', 'lease_until'),
    withDefault('attempts', 'integer', 0),
  ], { indexes: [index('survey_mail_tasks_queued_ix', 'queued_at')] });
}

export async function down(db: AnyDb): Promise<void> {
  await dropTables(db, 'survey_mail_tasks');
}
