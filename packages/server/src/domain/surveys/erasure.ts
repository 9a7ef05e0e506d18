/**
 * Erasing a person from the surveys of a directory (docs/spec/decisions.md §9): their respondent row
 * (link, status), their answers and deliveries, their place in fixed rosters and lists, and every
 * nomination of them in others' relationship answers. Also the erasure of one response (owner's
 * `DELETE /surveys/:id/responses/:employeeId`). Run inside the caller's transaction.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.ts';
import {
  answersMentioning,
  deleteAnswers,
  deleteDeliveriesOf,
  deleteLinkHistory,
  deleteRespondentEverywhere,
  getRespondent,
  listSurveysOfDirectory,
  setAnswerValue,
  updateRespondent,
  updateSurvey,
} from '../../store/surveys.ts';

export interface ErasureCounts {
  responsesRemoved: number;
  answersRemoved: number;
  nominationsRemoved: number;
}

/** Removes nominations of `employeeId` from relationship answers (`[{ employeeId, rating? }]`) in these surveys. */
async function removeNominations(db: Kysely<Database>, surveyIds: string[], employeeId: string): Promise<number> {
  let removed = 0;
  const needle = JSON.stringify(employeeId).slice(1, -1);
  for (const a of await answersMentioning(db, surveyIds, needle)) {
    const value = JSON.parse(a.value) as unknown;
    if (!Array.isArray(value)) continue;
    const kept = value.filter((v) => !(typeof v === 'object' && v !== null && (v as { employeeId?: unknown }).employeeId === employeeId));
    if (kept.length === value.length) continue;
    removed += value.length - kept.length;
    await setAnswerValue(db, a, JSON.stringify(kept));
  }
  return removed;
}

function withoutId(selector: string, employeeId: string): string | null {
  const s = JSON.parse(selector) as { employeeIds?: string[] } | null;
  if (!s || !Array.isArray(s.employeeIds) || !s.employeeIds.includes(employeeId)) return null;
  return JSON.stringify({ ...s, employeeIds: s.employeeIds.filter((e) => e !== employeeId) });
}

export async function eraseFromSurveys(db: Kysely<Database>, dir: string, employeeId: string): Promise<ErasureCounts> {
  const surveys = await listSurveysOfDirectory(db, dir);
  const ids = surveys.map((s) => s.id);
  const { answers, respondents } = await deleteRespondentEverywhere(db, ids, employeeId);
  await deleteDeliveriesOf(db, ids, employeeId);
  await deleteLinkHistory(db, ids, employeeId);
  const nominations = await removeNominations(db, ids, employeeId);
  for (const s of surveys) {
    const patch: { roster?: string; respondents?: string; roster_ids?: string; modified?: string } = {};
    const roster = withoutId(s.roster, employeeId);
    if (roster) patch.roster = roster;
    const resp = withoutId(s.respondents, employeeId);
    if (resp) patch.respondents = resp;
    if (s.roster_ids) {
      const list = JSON.parse(s.roster_ids) as string[];
      if (list.includes(employeeId)) patch.roster_ids = JSON.stringify(list.filter((e) => e !== employeeId));
    }
    // `modified` changes with the roster: cached rosters (answers.ts) are keyed by it
    if (Object.keys(patch).length) await updateSurvey(db, s.id, { ...patch, modified: new Date().toISOString() });
  }
  return { responsesRemoved: respondents, answersRemoved: answers, nominationsRemoved: nominations };
}

/** Erases one respondent's answers in one survey (they stay a respondent, back to `notStarted`). */
export async function eraseResponse(db: Kysely<Database>, surveyId: string, employeeId: string, at: string): Promise<number> {
  const removed = await deleteAnswers(db, surveyId, employeeId);
  if (await getRespondent(db, surveyId, employeeId)) {
    await updateRespondent(db, surveyId, employeeId, { status: 'notStarted', started_at: null, submitted_at: null, entered_by: null, modified: at });
  }
  return removed;
}
