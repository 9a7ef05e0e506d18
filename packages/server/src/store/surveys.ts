/** Surveys, their question versions, shares, respondents, answers and e-mail deliveries (repository). */
import { sql, type Kysely, type Selectable } from 'kysely';
import { dialectOf, runPrepared } from './db.ts';
import { countByStatus } from './queries.ts';
import { turnBatcher } from './turn-batch.ts';
import type { Database, SharePermission, SurveyAnswersTable, SurveyDeliveriesTable, SurveyNetworksTable, SurveyRespondentsTable, SurveysTable } from './schema.ts';

export type SurveyRecord = Selectable<SurveysTable>;
export type RespondentRecord = Selectable<SurveyRespondentsTable>;
export type AnswerRecord = Selectable<SurveyAnswersTable>;
export type DeliveryRecord = Selectable<SurveyDeliveriesTable>;
export type SurveyNetworkRecord = Selectable<SurveyNetworksTable>;
export type SurveyWithShare = SurveyRecord & { share_permission: SharePermission | null };

const CHUNK = 500;

/* ----------------------------------------------------------------------- surveys */

export async function insertSurvey(db: Kysely<Database>, row: SurveyRecord): Promise<void> {
  await db.insertInto('surveys').values(row).execute();
}

export async function getSurvey(db: Kysely<Database>, id: string): Promise<SurveyRecord | null> {
  return (await db.selectFrom('surveys').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** The fixed roster (JSON of employeeIds) of a launched survey, read apart: it can be large. */
export async function getRosterIds(db: Kysely<Database>, id: string): Promise<string | null> {
  return (await db.selectFrom('surveys').select('roster_ids').where('id', '=', id).executeTakeFirst())?.roster_ids ?? null;
}

/** Surveys (`s`) with the share of `userId` on each (`sh`, left join: share_permission null when not shared). */
function surveysWithShare(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('surveys as s')
    .leftJoin('survey_shares as sh', (j) => j.onRef('sh.survey_id', '=', 's.id').on('sh.user_id', '=', userId))
    .selectAll('s')
    .select('sh.permission as share_permission');
}

/** The survey with the share of `userId` on it (null when not shared with them). */
export async function getSurveyForUser(db: Kysely<Database>, id: string, userId: string): Promise<SurveyWithShare | null> {
  const row = await surveysWithShare(db, userId).where('s.id', '=', id).executeTakeFirst();
  return (row as SurveyWithShare | undefined) ?? null;
}

export async function updateSurvey(db: Kysely<Database>, id: string, patch: Partial<Omit<SurveyRecord, 'id' | 'dir' | 'created'>>): Promise<void> {
  await db.updateTable('surveys').set(patch).where('id', '=', id).execute();
}

/** Moves a survey from one status to another only if it still has the first (concurrent launches). */
export async function updateSurveyIfStatus(db: Kysely<Database>, id: string, from: SurveyRecord['status'], patch: Partial<Omit<SurveyRecord, 'id' | 'dir' | 'created'>>): Promise<boolean> {
  const r = await db.updateTable('surveys').set(patch).where('id', '=', id).where('status', '=', from).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function deleteSurvey(db: Kysely<Database>, id: string): Promise<void> {
  for (const t of ['survey_deliveries', 'survey_answers', 'survey_respondents', 'survey_shares', 'survey_versions', 'survey_link_history', 'survey_networks'] as const) await db.deleteFrom(t).where('survey_id', '=', id).execute();
  await db.deleteFrom('surveys').where('id', '=', id).execute();
}

export function listSurveysOfDirectory(db: Kysely<Database>, dir: string): Promise<SurveyRecord[]> {
  return db.selectFrom('surveys').selectAll().where('dir', '=', dir).orderBy('created', 'desc').orderBy('id').execute();
}

/** Surveys of a directory the user owns or that are shared with them. */
export async function listSurveysForUser(db: Kysely<Database>, dir: string, userId: string): Promise<SurveyWithShare[]> {
  const rows = await surveysWithShare(db, userId)
    .where('s.dir', '=', dir)
    .where((eb) => eb.or([eb('s.owner_id', '=', userId), eb('sh.user_id', '=', userId)]))
    .orderBy('s.created', 'desc')
    .orderBy('s.id')
    .execute();
  return rows as SurveyWithShare[];
}

export async function getSurveyByOpenLinkHash(db: Kysely<Database>, hash: string): Promise<SurveyRecord | null> {
  return (await db.selectFrom('surveys').selectAll().where('open_link_hash', '=', hash).executeTakeFirst()) ?? null;
}

/** Surveys that are collecting (the reminder scheduler looks at their schedule). */
export function listCollectingSurveys(db: Kysely<Database>): Promise<SurveyRecord[]> {
  return db.selectFrom('surveys').selectAll().where('status', '=', 'collecting').execute();
}

/** Every survey id of a directory. */
export async function surveyIdsOfDirectory(db: Kysely<Database>, dir: string): Promise<string[]> {
  return (await db.selectFrom('surveys').select('id').where('dir', '=', dir).execute()).map((r) => r.id);
}

/* ------------------------------------------------------------------- versions */

export async function insertVersion(db: Kysely<Database>, row: { survey_id: string; version: number; questions: string; created: string }): Promise<void> {
  await db.insertInto('survey_versions').values(row).execute();
}

export function listVersions(db: Kysely<Database>, surveyId: string): Promise<{ version: number; questions: string; created: string }[]> {
  return db.selectFrom('survey_versions').select(['version', 'questions', 'created']).where('survey_id', '=', surveyId).orderBy('version').execute();
}

/* --------------------------------------------------------------------- shares */

export async function upsertSurveyShare(db: Kysely<Database>, surveyId: string, userId: string, permission: SharePermission, created: string): Promise<void> {
  await db
    .insertInto('survey_shares')
    .values({ survey_id: surveyId, user_id: userId, permission, created })
    .onConflict((oc) => oc.columns(['survey_id', 'user_id']).doUpdateSet({ permission }))
    .execute();
}

export async function deleteSurveyShare(db: Kysely<Database>, surveyId: string, userId: string): Promise<boolean> {
  const r = await db.deleteFrom('survey_shares').where('survey_id', '=', surveyId).where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export function listSurveyShares(db: Kysely<Database>, surveyId: string): Promise<{ user_id: string; permission: SharePermission; created: string; email: string; name: string }[]> {
  return db
    .selectFrom('survey_shares as sh')
    .innerJoin('users as u', 'u.id', 'sh.user_id')
    .select(['sh.user_id', 'sh.permission', 'sh.created', 'u.email', 'u.name'])
    .where('sh.survey_id', '=', surveyId)
    .orderBy('sh.created')
    .execute();
}

/* ---------------------------------------------------------------- respondents */

export async function insertRespondents(db: Kysely<Database>, rows: readonly RespondentRecord[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await db.insertInto('survey_respondents').values(rows.slice(i, i + CHUNK)).execute();
}

export function listRespondents(db: Kysely<Database>, surveyId: string): Promise<RespondentRecord[]> {
  return db.selectFrom('survey_respondents').selectAll().where('survey_id', '=', surveyId).orderBy('employee_id').execute();
}

export async function getRespondent(db: Kysely<Database>, surveyId: string, employeeId: string): Promise<RespondentRecord | null> {
  return (await db.selectFrom('survey_respondents').selectAll().where('survey_id', '=', surveyId).where('employee_id', '=', employeeId).executeTakeFirst()) ?? null;
}

/** What the respondent API needs of a survey: no selectors, no fixed roster (the big columns). */
export type RespondentSurveyRecord = Pick<SurveyRecord, 'id' | 'dir' | 'status' | 'privacy' | 'intro' | 'consent' | 'questions' | 'version' | 'schedule' | 'modified'>;

const LINK_COLUMNS = [
  'r.survey_id',
  'r.employee_id',
  'r.token_hash',
  'r.token_gen',
  'r.pseudonym',
  'r.status',
  'r.started_at',
  'r.submitted_at',
  'r.entered_by',
  'r.modified',
  's.dir as s_dir',
  's.status as s_status',
  's.privacy as s_privacy',
  's.intro as s_intro',
  's.consent as s_consent',
  's.questions as s_questions',
  's.version as s_version',
  's.schedule as s_schedule',
  's.modified as s_modified',
] as const;
const linkQuery = (db: Kysely<Database>) => db.selectFrom('survey_respondents as r').innerJoin('surveys as s', 's.id', 'r.survey_id').select(LINK_COLUMNS);
type LinkRow = Awaited<ReturnType<ReturnType<typeof linkQuery>['executeTakeFirstOrThrow']>>;

/**
 * The respondent of a link token hash with their survey, in one indexed read (a prepared statement): the
 * respondent API's read on every request. Nothing of it is cached, so a revoked link, a re-issued one or
 * a survey paused, closed or edited on any instance is seen by the next request. On PostgreSQL the reads
 * of one event-loop turn go as one query (`token_hash = any($1)`, up to 64 a query): a burst of 1,000
 * respondents costs a few dozen round trips, not 1,000.
 */
export async function getRespondentLink(db: Kysely<Database>, hash: string): Promise<{ respondent: RespondentRecord; survey: RespondentSurveyRecord } | null> {
  const r = !db.isTransaction && dialectOf(db) === 'postgres' ? await linkReadBatched(db, hash) : (await runPrepared(db, 'getRespondentLink', (db, p) => linkQuery(db).where('r.token_hash', '=', p(0)), [hash]))[0];
  if (!r) return null;
  return {
    respondent: { survey_id: r.survey_id, employee_id: r.employee_id, token_hash: r.token_hash, token_gen: r.token_gen, pseudonym: r.pseudonym, status: r.status, started_at: r.started_at, submitted_at: r.submitted_at, entered_by: r.entered_by, modified: r.modified },
    survey: { id: r.survey_id, dir: r.s_dir, status: r.s_status, privacy: r.s_privacy, intro: r.s_intro, consent: r.s_consent, questions: r.s_questions, version: r.s_version, schedule: r.s_schedule, modified: r.s_modified },
  };
}

interface LinkWaiter {
  hash: string;
  resolve: (row: LinkRow | undefined) => void;
  reject: (err: unknown) => void;
}
/** Link reads a query at most (a text[] parameter; sent as soon as this many wait: store/turn-batch.ts). */
const LINK_READS_MAX = 64;
const enqueueLinkRead = turnBatcher<Kysely<Database>, LinkWaiter>(LINK_READS_MAX, (db, batch) => {
  const hashes = [...new Set(batch.map((w) => w.hash))];
  runPrepared(db, 'getRespondentLinks', (db, p) => linkQuery(db).where(sql<boolean>`r.token_hash = any(${p(0)}::text[])`), [hashes]).then(
    (rows) => {
      const byHash = new Map(rows.map((row) => [row.token_hash, row]));
      for (const w of batch) w.resolve(byHash.get(w.hash));
    },
    (err: unknown) => {
      for (const w of batch) w.reject(err);
    },
  );
});

function linkReadBatched(db: Kysely<Database>, hash: string): Promise<LinkRow | undefined> {
  return new Promise<LinkRow | undefined>((resolve, reject) => enqueueLinkRead(db, { hash, resolve, reject }));
}

export async function updateRespondent(db: Kysely<Database>, surveyId: string, employeeId: string, patch: Partial<Omit<RespondentRecord, 'survey_id' | 'employee_id'>>): Promise<void> {
  await db.updateTable('survey_respondents').set(patch).where('survey_id', '=', surveyId).where('employee_id', '=', employeeId).execute();
}

/** The update that marks a respondent `inProgress` (a submitted one stays submitted); values or placeholders. */
export function markStartedQuery(db: Kysely<Database>, surveyId: string, employeeId: string, at: string) {
  return db
    .updateTable('survey_respondents')
    .set({ status: 'inProgress', started_at: at, modified: at })
    .where('survey_id', '=', surveyId)
    .where('employee_id', '=', employeeId)
    .where('status', '=', 'notStarted');
}

/** Marks a respondent `inProgress` the first time they save an answer (a submitted one stays submitted). */
export async function markStarted(db: Kysely<Database>, surveyId: string, employeeId: string, at: string): Promise<void> {
  await markStartedQuery(db, surveyId, employeeId, at).execute();
}

export async function deleteRespondents(db: Kysely<Database>, surveyId: string, employeeIds: readonly string[]): Promise<void> {
  for (let i = 0; i < employeeIds.length; i += CHUNK) {
    await db.deleteFrom('survey_respondents').where('survey_id', '=', surveyId).where('employee_id', 'in', employeeIds.slice(i, i + CHUNK)).execute();
  }
}

export async function countRespondentsByStatus(db: Kysely<Database>, surveyId: string): Promise<Record<string, number>> {
  return Object.fromEntries(await countByStatus(db, 'survey_respondents', 'survey_id', surveyId));
}

/* -------------------------------------------------------------------- answers */

/** The insert-or-replace of answers (the row's key: survey, person, question); values or placeholders. */
export function answerUpsert(db: Kysely<Database>, rows: AnswerRecord | AnswerRecord[]) {
  return db
    .insertInto('survey_answers')
    .values(rows)
    .onConflict((oc) => oc.columns(['survey_id', 'employee_id', 'question_id']).doUpdateSet((eb) => ({ value: eb.ref('excluded.value'), version: eb.ref('excluded.version'), saved_at: eb.ref('excluded.saved_at') })));
}

/** Saves one answer (insert or replace): idempotent, one statement. */
export async function upsertAnswer(db: Kysely<Database>, row: AnswerRecord): Promise<void> {
  await answerUpsert(db, row).execute();
}

export function getAnswers(db: Kysely<Database>, surveyId: string, employeeId: string): Promise<AnswerRecord[]> {
  return db.selectFrom('survey_answers').selectAll().where('survey_id', '=', surveyId).where('employee_id', '=', employeeId).execute();
}

export function listAnswers(db: Kysely<Database>, surveyId: string, employeeIds?: readonly string[]): Promise<AnswerRecord[]> {
  let q = db.selectFrom('survey_answers').selectAll().where('survey_id', '=', surveyId);
  if (employeeIds) {
    if (employeeIds.length === 0) return Promise.resolve([]);
    q = q.where('employee_id', 'in', employeeIds);
  }
  return q.orderBy('employee_id').orderBy('question_id').execute();
}

export async function deleteAnswers(db: Kysely<Database>, surveyId: string, employeeId: string): Promise<number> {
  const r = await db.deleteFrom('survey_answers').where('survey_id', '=', surveyId).where('employee_id', '=', employeeId).executeTakeFirst();
  return Number(r.numDeletedRows);
}

export async function deleteAnswer(db: Kysely<Database>, surveyId: string, employeeId: string, questionId: string): Promise<void> {
  await db.deleteFrom('survey_answers').where('survey_id', '=', surveyId).where('employee_id', '=', employeeId).where('question_id', '=', questionId).execute();
}

export async function countAnswers(db: Kysely<Database>, surveyId: string): Promise<number> {
  const r = await db.selectFrom('survey_answers').select((eb) => eb.fn.countAll<number>().as('n')).where('survey_id', '=', surveyId).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Respondents with at least one saved answer, by employeeId, paged. */
export async function pageAnswering(db: Kysely<Database>, surveyId: string, limit: number, offset: number): Promise<{ total: number; employeeIds: string[] }> {
  const base = db.selectFrom('survey_answers').where('survey_id', '=', surveyId);
  const [{ n }, rows] = await Promise.all([
    base.select((eb) => eb.fn.count<number>('employee_id').distinct().as('n')).executeTakeFirstOrThrow(),
    base.select('employee_id').distinct().orderBy('employee_id').limit(limit).offset(offset).execute(),
  ]);
  return { total: Number(n), employeeIds: rows.map((r) => r.employee_id) };
}

/** Answers in these surveys whose value mentions `text` (candidates for nomination erasure). */
export function answersMentioning(db: Kysely<Database>, surveyIds: readonly string[], text: string): Promise<AnswerRecord[]> {
  if (surveyIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('survey_answers').selectAll().where('survey_id', 'in', surveyIds).where('value', 'like', `%${text.replace(/[\\%_]/g, '_')}%`).execute();
}

export async function setAnswerValue(db: Kysely<Database>, a: Pick<AnswerRecord, 'survey_id' | 'employee_id' | 'question_id'>, value: string): Promise<void> {
  await db.updateTable('survey_answers').set({ value }).where('survey_id', '=', a.survey_id).where('employee_id', '=', a.employee_id).where('question_id', '=', a.question_id).execute();
}

/* ----------------------------------------------------------------- deliveries */

/**
 * Claims the delivery of one message: inserts its row unless it exists. True = this caller (and no
 * other, on any instance) sends it; the primary key makes the claim atomic on both databases.
 */
export async function claimDelivery(db: Kysely<Database>, row: Pick<DeliveryRecord, 'survey_id' | 'employee_id' | 'step' | 'claimed_by' | 'claimed_at'>): Promise<boolean> {
  const r = await db
    .insertInto('survey_deliveries')
    .values({ ...row, status: 'claimed', sent_at: null, error: null })
    .onConflict((oc) => oc.columns(['survey_id', 'employee_id', 'step']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function finishDelivery(db: Kysely<Database>, key: Pick<DeliveryRecord, 'survey_id' | 'employee_id' | 'step'>, patch: Pick<DeliveryRecord, 'status' | 'sent_at' | 'error'>): Promise<void> {
  await db.updateTable('survey_deliveries').set(patch).where('survey_id', '=', key.survey_id).where('employee_id', '=', key.employee_id).where('step', '=', key.step).execute();
}

export function listDeliveries(db: Kysely<Database>, surveyId: string): Promise<DeliveryRecord[]> {
  return db.selectFrom('survey_deliveries').selectAll().where('survey_id', '=', surveyId).orderBy('step').orderBy('employee_id').execute();
}

export async function deleteDeliveriesOf(db: Kysely<Database>, surveyIds: readonly string[], employeeId: string): Promise<void> {
  if (surveyIds.length === 0) return;
  await db.deleteFrom('survey_deliveries').where('survey_id', 'in', surveyIds).where('employee_id', '=', employeeId).execute();
}

export async function deleteRespondentEverywhere(db: Kysely<Database>, surveyIds: readonly string[], employeeId: string): Promise<{ answers: number; respondents: number }> {
  if (surveyIds.length === 0) return { answers: 0, respondents: 0 };
  const a = await db.deleteFrom('survey_answers').where('survey_id', 'in', surveyIds).where('employee_id', '=', employeeId).executeTakeFirst();
  const answering = await db.selectFrom('survey_respondents').select('survey_id').where('survey_id', 'in', surveyIds).where('employee_id', '=', employeeId).where('status', '!=', 'notStarted').execute();
  await db.deleteFrom('survey_respondents').where('survey_id', 'in', surveyIds).where('employee_id', '=', employeeId).execute();
  return { answers: Number(a.numDeletedRows), respondents: answering.length };
}

/* -------------------------------------------------------------- link history */

export async function insertLinkHistory(db: Kysely<Database>, row: { hash: string; survey_id: string; employee_id: string; revoked_at: string }): Promise<void> {
  await db.insertInto('survey_link_history').values(row).onConflict((oc) => oc.column('hash').doNothing()).execute();
}

export async function isRevokedLink(db: Kysely<Database>, hash: string): Promise<boolean> {
  return (await db.selectFrom('survey_link_history').select('hash').where('hash', '=', hash).executeTakeFirst()) !== undefined;
}

export async function deleteLinkHistory(db: Kysely<Database>, surveyIds: readonly string[], employeeId?: string): Promise<void> {
  if (surveyIds.length === 0) return;
  let q = db.deleteFrom('survey_link_history').where('survey_id', 'in', surveyIds);
  if (employeeId !== undefined) q = q.where('employee_id', '=', employeeId);
  await q.execute();
}

/* ------------------------------------------------------------ generated networks */

export function listSurveyNetworks(db: Kysely<Database>, surveyId: string): Promise<SurveyNetworkRecord[]> {
  return db.selectFrom('survey_networks').selectAll().where('survey_id', '=', surveyId).orderBy('question').execute();
}

export async function upsertSurveyNetwork(db: Kysely<Database>, row: SurveyNetworkRecord): Promise<void> {
  await db
    .insertInto('survey_networks')
    .values(row)
    .onConflict((oc) => oc.columns(['survey_id', 'question']).doUpdateSet({ network_id: row.network_id, options: row.options, preliminary: row.preliminary, generated_at: row.generated_at, network_version: row.network_version }))
    .execute();
}

/** The survey a network was generated from (null: not a survey network). */
export async function surveyOfNetwork(db: Kysely<Database>, networkId: string): Promise<(SurveyNetworkRecord & { min_group_size: number; wave: number; survey_name: string; previous_wave_id: string | null }) | null> {
  const row = await db
    .selectFrom('survey_networks as g')
    .innerJoin('surveys as s', 's.id', 'g.survey_id')
    .selectAll('g')
    .select(['s.min_group_size', 's.wave', 's.name as survey_name', 's.previous_wave_id'])
    .where('g.network_id', '=', networkId)
    .executeTakeFirst();
  return row ?? null;
}
