/**
 * Answer values and saving them (docs/spec/decisions.md §9, wire shapes): relationship `[{ employeeId,
 * rating? }]` (with `allowWriteIns` also `{ writeIn, rating? }`; `[]` = "no one"), singleChoice a
 * String, multipleChoice String[], number and scale a Number, text a String. Saving stores the value as
 * given with the question version answered (one upsert: idempotent); completeness (required questions,
 * minimum selections, ratings) is checked at submit. An attribute answer with `customField` is also
 * stored into that field of the person.
 */
import type { Kysely } from 'kysely';
import { getEmployeeByEmployeeId, updateEmployee } from '../../store/people.ts';
import type { Database } from '../../store/schema.ts';
import { writeAnswer } from '../../store/answer-batch.ts';
import { getAnswers, getRosterIds, type SurveyRecord } from '../../store/surveys.ts';
import type { ProblemItem } from '../errors.ts';
import { checkAttributeValue, type Question } from './questions.ts';

/**
 * The fixed roster of a launched survey, cached per survey and `modified` (every change of the roster
 * changes it). The cache holds the read in flight, not only its result: a burst of saves arriving at once
 * (1,000 respondents, bench/surveys.ts) reads and parses the roster — 100,000 ids, ~1 MB of JSON — once,
 * not once per request (on PostgreSQL, whose reads are asynchronous, that herd cost 16 ms of CPU a save).
 */
const rosterCache = new Map<string, { modified: string; set: Promise<Set<string>> }>();

export function rosterOf(db: Kysely<Database>, s: Pick<SurveyRecord, 'id' | 'modified'>): Promise<Set<string>> {
  const hit = rosterCache.get(s.id);
  if (hit && hit.modified === s.modified) return hit.set;
  const set = getRosterIds(db, s.id).then((text) => new Set(JSON.parse(text ?? '[]') as string[]));
  // a failed read is not kept: the next request reads again
  set.catch(() => {
    if (rosterCache.get(s.id)?.set === set) rosterCache.delete(s.id);
  });
  if (!hit && rosterCache.size > 200) rosterCache.delete(rosterCache.keys().next().value as string);
  rosterCache.set(s.id, { modified: s.modified, set });
  return set;
}

export function questionsOf(s: Pick<SurveyRecord, 'questions'>): Question[] {
  return JSON.parse(s.questions) as Question[];
}

/** Named people of a relationship answer (write-ins excluded). */
export function namedIn(value: unknown): string[] {
  return Array.isArray(value) ? value.flatMap((v) => (typeof v === 'object' && v !== null && typeof (v as { employeeId?: unknown }).employeeId === 'string' ? [(v as { employeeId: string }).employeeId] : [])) : [];
}

/**
 * Checks one value for question `q` of the respondent `self`; `answers` are their other answers (for
 * carry forward). Pushes problems at `at`.
 */
export function checkValue(q: Question, value: unknown, ctx: { roster: Set<string>; self: string; answers: ReadonlyMap<string, unknown> }, at: string, problems: ProblemItem[]): void {
  if (q.type !== 'relationship') {
    const p = checkAttributeValue(q, value);
    if (p) problems.push({ path: at, message: `question ${JSON.stringify(q.id)}: ${p}` });
    return;
  }
  if (!Array.isArray(value)) {
    problems.push({ path: at, message: `question ${JSON.stringify(q.id)}: must be an array of { employeeId, rating? } ([] = no one)` });
    return;
  }
  if (q.maxSelections !== undefined && value.length > q.maxSelections) problems.push({ path: at, message: `question ${JSON.stringify(q.id)}: at most ${q.maxSelections} people may be named (${value.length} given)` });
  const offered = q.carryForwardFrom ? new Set(namedIn(ctx.answers.get(q.carryForwardFrom))) : null;
  const seen = new Set<string>();
  value.forEach((item, i) => {
    const p = `${at}/${i}`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      problems.push({ path: p, message: `question ${JSON.stringify(q.id)}: must be { employeeId, rating? }` });
      return;
    }
    const o = item as Record<string, unknown>;
    for (const k of Object.keys(o)) if (k !== 'employeeId' && k !== 'rating' && !(k === 'writeIn' && q.allowWriteIns)) problems.push({ path: `${p}/${k}`, message: `question ${JSON.stringify(q.id)}: is not a property of a nomination` });
    if (o.writeIn !== undefined && q.allowWriteIns) {
      if (o.employeeId !== undefined) problems.push({ path: p, message: `question ${JSON.stringify(q.id)}: a nomination is either a person of the roster or a write-in` });
      if (typeof o.writeIn !== 'string' || o.writeIn.trim() === '' || o.writeIn.length > 200) problems.push({ path: `${p}/writeIn`, message: `question ${JSON.stringify(q.id)}: must be a name of 1–200 characters` });
      else if (seen.has(`w:${o.writeIn.trim().toLowerCase()}`)) problems.push({ path: `${p}/writeIn`, message: `question ${JSON.stringify(q.id)}: ${JSON.stringify(o.writeIn)} is named twice` });
      else seen.add(`w:${o.writeIn.trim().toLowerCase()}`);
    } else {
      const eid = o.employeeId;
      if (typeof eid !== 'string' || !ctx.roster.has(eid)) problems.push({ path: `${p}/employeeId`, message: `question ${JSON.stringify(q.id)}: ${JSON.stringify(eid)} is not a person of the roster` });
      else if (eid === ctx.self) problems.push({ path: `${p}/employeeId`, message: `question ${JSON.stringify(q.id)}: a respondent does not name themself` });
      else if (offered && !offered.has(eid)) problems.push({ path: `${p}/employeeId`, message: `question ${JSON.stringify(q.id)}: only people named in question ${JSON.stringify(q.carryForwardFrom)} are offered` });
      else if (seen.has(eid)) problems.push({ path: `${p}/employeeId`, message: `question ${JSON.stringify(q.id)}: ${JSON.stringify(eid)} is named twice` });
      else seen.add(eid);
    }
    if (o.rating !== undefined) {
      if (!q.rating) problems.push({ path: `${p}/rating`, message: `question ${JSON.stringify(q.id)}: has no rating` });
      else if (typeof o.rating !== 'number' || !Number.isInteger(o.rating) || o.rating < 0 || o.rating >= q.rating.labels.length) {
        problems.push({ path: `${p}/rating`, message: `question ${JSON.stringify(q.id)}: must be an index into the rating labels, 0–${q.rating.labels.length - 1}${q.rating.dontKnow ? ' (0 = "I don\'t know this person")' : ''}` });
      }
    }
  });
}

/** What submit requires: required questions answered, minimum selections reached (or "no one" where offered), every nomination rated. */
export function checkComplete(questions: readonly Question[], answers: ReadonlyMap<string, unknown>, base: string): ProblemItem[] {
  const problems: ProblemItem[] = [];
  for (const q of questions) {
    const v = answers.get(q.id);
    const at = `${base}/${q.id}`;
    if (v === undefined) {
      if (q.required || (q.type === 'relationship' && (q.minSelections ?? 0) > 0)) problems.push({ path: at, message: `question ${JSON.stringify(q.id)} needs an answer` });
      continue;
    }
    if (q.type !== 'relationship' || !Array.isArray(v)) continue;
    if (v.length === 0 && q.noneOption) continue;
    if (v.length < (q.minSelections ?? 0)) problems.push({ path: at, message: `question ${JSON.stringify(q.id)}: name at least ${q.minSelections} ${q.minSelections === 1 ? 'person' : 'people'}${q.noneOption ? ' (or "no one")' : ''}` });
    if (q.rating && v.some((n) => typeof n === 'object' && n !== null && (n as { rating?: unknown }).rating === undefined)) problems.push({ path: at, message: `question ${JSON.stringify(q.id)}: rate every person named` });
  }
  return problems;
}

/** The saved answers of a respondent by question id. */
export async function answerMap(db: Kysely<Database>, surveyId: string, employeeId: string): Promise<Map<string, unknown>> {
  return new Map((await getAnswers(db, surveyId, employeeId)).map((a) => [a.question_id, JSON.parse(a.value) as unknown]));
}

/**
 * Stores one checked answer (and its custom field), and marks the respondent started unless `started`
 * (they were read `inProgress` or `submitted`). Outside a transaction the save is group-committed with
 * the others of the same turn (store/answer-batch.ts) and returns once it is committed.
 */
export async function saveAnswer(db: Kysely<Database>, s: Pick<SurveyRecord, 'id' | 'dir' | 'version'>, employeeId: string, q: Question, value: unknown, at: string, started = false): Promise<void> {
  await writeAnswer(db, { row: { survey_id: s.id, employee_id: employeeId, question_id: q.id, value: JSON.stringify(value), version: s.version, saved_at: at }, markStarted: !started });
  if (q.customField && q.type !== 'multipleChoice') {
    const person = await getEmployeeByEmployeeId(db, s.dir, employeeId);
    if (person) {
      const fields = JSON.parse(person.fields) as Record<string, unknown>;
      fields[q.customField] = value as string | number;
      await updateEmployee(db, s.dir, person.id, { fields: JSON.stringify(fields), modified: at });
    }
  }
}
