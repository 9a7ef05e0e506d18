/**
 * 0015: the table queue of survey e-mail (docs/surveys.md "E-mail"; issue 21 item 4) — used when
 * REDIS_URL is not set (with it, BullMQ carries the same tasks). A row is "send step `step` of survey
 * `survey_id` to whoever still needs it": its id `<surveyId>:<step>` makes queueing idempotent; a worker
 * claims it with a lease (`lease_until`, ms since epoch) it renews while it sends, and deletes it when the
 * pass is done; a worker that dies leaves the lease to lapse and another takes the row. Who got which
 * message is not here: the delivery table's atomic claim per (survey, person, step) is the once-guarantee.
 */
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('survey_mail_tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('survey_id', 'text', (c) => c.notNull())
    .addColumn('step', 'text', (c) => c.notNull())
    .addColumn('queued_at', 'bigint', (c) => c.notNull())
    .addColumn('worker_id', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('survey_mail_tasks_queued_ix').on('survey_mail_tasks').column('queued_at').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('survey_mail_tasks').ifExists().execute();
}
