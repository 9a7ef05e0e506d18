/**
 * 0010: surveys (docs/spec/decisions.md §9): the survey, the questions of each version, shares,
 * respondents (link token hash, status), answers (one row per question, so saving one is one atomic
 * upsert) and e-mail deliveries (one row per survey, respondent and step, claimed before sending).
 */
import { createTable, dropTables, id, index, notNull, nullable, text, timestamps, uniqueIndex, type AnyDb } from './tables.ts';

export async function up(db: AnyDb): Promise<void> {
  await createTable(db, 'surveys', [
    id,
    text('dir', 'owner_id', 'name', 'status', 'privacy'),
    notNull('integer', 'min_group_size'),
    text('intro'),
    nullable('text', 'consent'),
    text('roster', 'respondents', 'questions'),
    notNull('integer', 'version'),
    text('schedule', 'email'),
    notNull('integer', 'wave'),
    nullable('text', 'previous_wave_id'),
    nullable('integer', 'open_link_gen'),
    nullable('text', 'open_link_hash', 'roster_ids'),
    timestamps,
    nullable('text', 'launched_at', 'closed_at'),
  ], {
    indexes: [index('surveys_dir_ix', 'dir', 'created'), index('surveys_owner_ix', 'owner_id'), uniqueIndex('surveys_open_link_ux', 'open_link_hash')],
  });
  await createTable(db, 'survey_versions', [text('survey_id'), notNull('integer', 'version'), text('questions', 'created')], {
    primaryKey: ['survey_id', 'version'],
  });
  await createTable(db, 'survey_shares', [text('survey_id', 'user_id', 'permission', 'created')], {
    primaryKey: ['survey_id', 'user_id'],
    indexes: [index('survey_shares_user_ix', 'user_id')],
  });
  await createTable(db, 'survey_respondents', [
    text('survey_id', 'employee_id'),
    nullable('text', 'token_hash'),
    notNull('integer', 'token_gen'),
    text('pseudonym', 'status'),
    nullable('text', 'started_at', 'submitted_at', 'entered_by'),
    text('modified'),
  ], {
    primaryKey: ['survey_id', 'employee_id'],
    indexes: [uniqueIndex('survey_respondents_token_ux', 'token_hash')],
  });
  await createTable(db, 'survey_answers', [text('survey_id', 'employee_id', 'question_id', 'value'), notNull('integer', 'version'), text('saved_at')], {
    primaryKey: ['survey_id', 'employee_id', 'question_id'],
  });
  await createTable(db, 'survey_deliveries', [text('survey_id', 'employee_id', 'step', 'status', 'claimed_by', 'claimed_at'), nullable('text', 'sent_at', 'error')], {
    primaryKey: ['survey_id', 'employee_id', 'step'],
  });
}

export async function down(db: AnyDb): Promise<void> {
  await dropTables(db, 'survey_deliveries', 'survey_answers', 'survey_respondents', 'survey_shares', 'survey_versions', 'surveys');
}
