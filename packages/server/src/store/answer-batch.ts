/**
 * Group commit of the respondents' saves (docs/benchmarks.md, "People and surveys (issue 21)"): the saves
 * that arrive in the same turn of the event loop are written together when the turn ends (or 32 are
 * waiting: store/turn-batch.ts) — on SQLite in
 * one transaction (one WAL append instead of one per save), on PostgreSQL as one multi-row upsert (one
 * round trip instead of one per save) — and each caller's promise settles only once its own row is
 * committed.
 *
 * - Order: within a batch the saves keep their arrival order, so two saves of the same question in one
 *   turn leave the later one, as when they come one after the other (on PostgreSQL, which cannot upsert
 *   the same row twice in one statement, the earlier one is dropped from the statement and answered when
 *   the later one commits).
 * - Failure: a save that fails, fails alone. On SQLite each save runs in its own savepoint, so a failed
 *   one rolls back by itself and the others commit; on PostgreSQL a failed multi-row statement is retried
 *   row by row. A failed COMMIT fails every save of the batch (none of them was stored).
 * - Marking the respondent `inProgress` (markStarted) goes with the save, only for those who were
 *   `notStarted` when their request read them (the update keeps its `status = 'notStarted'` condition).
 */
import { sql, type Kysely } from 'kysely';
import { dialectOf, sqliteTransactionSync } from './db.ts';
import type { Database } from './schema.ts';
import { turnBatcher } from './turn-batch.ts';
import { answerUpsert, markStarted, markStartedQuery, upsertAnswer, type AnswerRecord } from './surveys.ts';

export interface AnswerWrite {
  row: AnswerRecord;
  /** The respondent was `notStarted` when read: mark them `inProgress` with this save. */
  markStarted: boolean;
}

interface Pending {
  w: AnswerWrite;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** PostgreSQL: at most this many rows a statement (6 parameters a row; the protocol allows 65,535). */
const PG_ROWS = 1000;
/** Saves a batch at most: written as soon as this many wait (store/turn-batch.ts). */
const BATCH_MAX = 32;
const enqueue = turnBatcher<Kysely<Database>, Pending>(BATCH_MAX, (db, batch) => void flush(db, batch));

/** Saves one answer with the others of this turn; settles when it is committed (or failed). */
export function writeAnswer(db: Kysely<Database>, w: AnswerWrite): Promise<void> {
  // a transaction object is the caller's own unit of work: write in it, now
  if (db.isTransaction) return writeOne(db, w);
  return new Promise<void>((resolve, reject) => enqueue(db, { w, resolve, reject }));
}

async function writeOne(db: Kysely<Database>, w: AnswerWrite): Promise<void> {
  await upsertAnswer(db, w.row);
  if (w.markStarted) await markStarted(db, w.row.survey_id, w.row.employee_id, w.row.saved_at);
}

const upsertSql = (db: Kysely<Database>, p: (i: number) => string) =>
  answerUpsert(db, { survey_id: p(0), employee_id: p(1), question_id: p(2), value: p(3), version: p(4) as unknown as number, saved_at: p(5) });
const markStartedSql = (db: Kysely<Database>, p: (i: number) => string) => markStartedQuery(db, p(1), p(2), p(0));

async function flush(db: Kysely<Database>, batch: Pending[]): Promise<void> {
  try {
    const failed = new Map<Pending, unknown>();
    const applied = sqliteTransactionSync(db, (write) => {
      for (const item of batch) {
        const { row } = item.w;
        write('answerBatch:savepoint', (db) => ({ compile: () => sql`savepoint answer_save`.compile(db) }), []);
        try {
          write('answerBatch:upsert', upsertSql, [row.survey_id, row.employee_id, row.question_id, row.value, row.version, row.saved_at]);
          if (item.w.markStarted) write('answerBatch:markStarted', markStartedSql, [row.saved_at, row.survey_id, row.employee_id]);
          write('answerBatch:release', (db) => ({ compile: () => sql`release answer_save`.compile(db) }), []);
        } catch (err) {
          write('answerBatch:rollbackTo', (db) => ({ compile: () => sql`rollback to answer_save`.compile(db) }), []);
          write('answerBatch:release', (db) => ({ compile: () => sql`release answer_save`.compile(db) }), []);
          failed.set(item, err);
        }
      }
    });
    if (applied) {
      for (const item of batch) {
        if (failed.has(item)) item.reject(failed.get(item));
        else item.resolve();
      }
      return;
    }
  } catch (err) {
    for (const item of batch) item.reject(err);
    return;
  }
  if (dialectOf(db) === 'postgres') {
    for (let i = 0; i < batch.length; i += PG_ROWS) await flushPostgres(db, batch.slice(i, i + PG_ROWS));
    return;
  }
  // SQLite inside someone's transaction: one transaction of our own once theirs is done (Kysely's lock)
  await flushSqliteKysely(db, batch);
}

async function flushSqliteKysely(db: Kysely<Database>, batch: Pending[]): Promise<void> {
  const failed = new Map<Pending, unknown>();
  try {
    await db.transaction().execute(async (trx) => {
      for (const item of batch) {
        await sql`savepoint answer_save`.execute(trx);
        try {
          await writeOne(trx, item.w);
          await sql`release answer_save`.execute(trx);
        } catch (err) {
          await sql`rollback to answer_save`.execute(trx);
          await sql`release answer_save`.execute(trx);
          failed.set(item, err);
        }
      }
    });
  } catch (err) {
    for (const item of batch) item.reject(err);
    return;
  }
  for (const item of batch) {
    if (failed.has(item)) item.reject(failed.get(item));
    else item.resolve();
  }
}

/** One multi-row upsert (the last save of each row), then one update of those who started; row by row when it fails. */
async function flushPostgres(db: Kysely<Database>, batch: Pending[]): Promise<void> {
  const last = new Map<string, Pending>();
  for (const item of batch) {
    const { row } = item.w;
    const key = JSON.stringify([row.survey_id, row.employee_id, row.question_id]);
    last.delete(key); // keeps the map in the order of the last saves
    last.set(key, item);
  }
  const rows = [...last.values()].map((item) => item.w.row);
  try {
    await answerUpsert(db, rows).execute();
  } catch {
    // one bad row fails the statement: each save on its own, in order (the later save of a row wins), so
    // only that one fails
    for (const item of batch) {
      try {
        await writeOne(db, item.w);
        item.resolve();
      } catch (err) {
        item.reject(err);
      }
    }
    return;
  }
  const starts = new Map<string, { survey_id: string; employee_id: string; at: string }>();
  for (const item of batch) {
    const { row } = item.w;
    const key = JSON.stringify([row.survey_id, row.employee_id]);
    if (item.w.markStarted && !starts.has(key)) starts.set(key, { survey_id: row.survey_id, employee_id: row.employee_id, at: row.saved_at });
  }
  try {
    if (starts.size) {
      const values = sql.join([...starts.values()].map((s) => sql`(${s.survey_id}, ${s.employee_id}, ${s.at})`));
      await sql`update survey_respondents as r set status = 'inProgress', started_at = v.at, modified = v.at
        from (values ${values}) as v(survey_id, employee_id, at)
        where r.survey_id = v.survey_id and r.employee_id = v.employee_id and r.status = 'notStarted'`.execute(db);
    }
  } catch (err) {
    for (const item of batch) {
      if (item.w.markStarted) item.reject(err);
      else item.resolve();
    }
    return;
  }
  for (const item of batch) item.resolve();
}
