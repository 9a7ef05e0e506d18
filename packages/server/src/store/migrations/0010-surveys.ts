/**
 * 0010: surveys (docs/spec/decisions.md §9): the survey, the questions of each version, shares,
 * respondents (link token hash, status), answers (one row per question, so saving one is one atomic
 * upsert) and e-mail deliveries (one row per survey, respondent and step, claimed before sending).
 */
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('surveys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('dir', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('privacy', 'text', (c) => c.notNull())
    .addColumn('min_group_size', 'integer', (c) => c.notNull())
    .addColumn('intro', 'text', (c) => c.notNull())
    .addColumn('consent', 'text')
    .addColumn('roster', 'text', (c) => c.notNull())
    .addColumn('respondents', 'text', (c) => c.notNull())
    .addColumn('questions', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('schedule', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('wave', 'integer', (c) => c.notNull())
    .addColumn('previous_wave_id', 'text')
    .addColumn('open_link_gen', 'integer')
    .addColumn('open_link_hash', 'text')
    .addColumn('roster_ids', 'text')
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .addColumn('launched_at', 'text')
    .addColumn('closed_at', 'text')
    .execute();
  await db.schema.createIndex('surveys_dir_ix').on('surveys').columns(['dir', 'created']).execute();
  await db.schema.createIndex('surveys_owner_ix').on('surveys').column('owner_id').execute();
  await db.schema.createIndex('surveys_open_link_ux').on('surveys').column('open_link_hash').unique().execute();
  await db.schema
    .createTable('survey_versions')
    .addColumn('survey_id', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('questions', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('survey_versions_pk', ['survey_id', 'version'])
    .execute();
  await db.schema
    .createTable('survey_shares')
    .addColumn('survey_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('permission', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('survey_shares_pk', ['survey_id', 'user_id'])
    .execute();
  await db.schema.createIndex('survey_shares_user_ix').on('survey_shares').column('user_id').execute();
  await db.schema
    .createTable('survey_respondents')
    .addColumn('survey_id', 'text', (c) => c.notNull())
    .addColumn('employee_id', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text')
    .addColumn('token_gen', 'integer', (c) => c.notNull())
    .addColumn('pseudonym', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('submitted_at', 'text')
    .addColumn('entered_by', 'text')
    .addColumn('modified', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('survey_respondents_pk', ['survey_id', 'employee_id'])
    .execute();
  await db.schema.createIndex('survey_respondents_token_ux').on('survey_respondents').column('token_hash').unique().execute();
  await db.schema
    .createTable('survey_answers')
    .addColumn('survey_id', 'text', (c) => c.notNull())
    .addColumn('employee_id', 'text', (c) => c.notNull())
    .addColumn('question_id', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('saved_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('survey_answers_pk', ['survey_id', 'employee_id', 'question_id'])
    .execute();
  await db.schema
    .createTable('survey_deliveries')
    .addColumn('survey_id', 'text', (c) => c.notNull())
    .addColumn('employee_id', 'text', (c) => c.notNull())
    .addColumn('step', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('claimed_by', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .addColumn('error', 'text')
    .addPrimaryKeyConstraint('survey_deliveries_pk', ['survey_id', 'employee_id', 'step'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const t of ['survey_deliveries', 'survey_answers', 'survey_respondents', 'survey_shares', 'survey_versions', 'surveys']) await db.schema.dropTable(t).ifExists().execute();
}
