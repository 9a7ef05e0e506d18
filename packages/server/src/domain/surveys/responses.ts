/**
 * Responses and tracking (docs/spec/decisions.md §9, "Responses"): the paged list of people with at
 * least one saved answer, owner entry on someone's behalf (audited, `enteredBy`), erasure of one
 * response, and tracking — the response rate with its confidence band, per group of each non-sensitive
 * field (groups below the survey's minimum size merged into `Other (< k)`, or left out when that too is
 * below it), who has not started (named only in identified and confidential surveys), reminders sent.
 *
 * In `pseudonymised` surveys people appear as their stable pseudonym (links.ts), in responses and in
 * the nominations of relationship answers alike.
 */
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import { inTransaction, nowIso } from '../../store/db.ts';
import { allEmployees, listCustomFields } from '../../store/people.ts';
import type { Database, ResponseStatus } from '../../store/schema.ts';
import { getRespondent, listAnswers, listDeliveries, listRespondents, pageAnswering, updateRespondent, type SurveyRecord } from '../../store/surveys.ts';
import { DomainError, invalidArgs, type ProblemItem } from '../errors.ts';
import { auditDirectory, type Directory } from '../people/directory.ts';
import { parsePage } from '../people/employees.ts';
import { checkComplete, checkValue, questionsOf, rosterOf, saveAnswer } from './answers.ts';
import { loadSurvey } from './access.ts';
import { eraseResponse } from './erasure.ts';
import { linkKey, pseudonymOf } from './links.ts';

export interface ResponseDeps {
  db: Kysely<Database>;
  config: Config;
}

export interface ResponseResource {
  employeeId: string;
  status: ResponseStatus;
  answers: Record<string, unknown>;
  versions: Record<string, number>;
  submittedAt: string | null;
  enteredBy: string | null;
}

/** Maps employeeIds to what a survey shows (pseudonyms in pseudonymised surveys). */
async function identityOf(deps: ResponseDeps, s: SurveyRecord): Promise<(eid: string) => string> {
  if (s.privacy !== 'pseudonymised') return (eid) => eid;
  const key = await linkKey(deps.db, deps.config);
  return (eid) => pseudonymOf(key, s.id, eid);
}

function disguise(value: unknown, show: (eid: string) => string): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((v) => (typeof v === 'object' && v !== null && typeof (v as { employeeId?: unknown }).employeeId === 'string' ? { ...v, employeeId: show((v as { employeeId: string }).employeeId) } : v));
}

export async function listResponses(deps: ResponseDeps, dir: Directory, id: string, query: { limit?: string; offset?: string }) {
  const { survey } = await loadSurvey(deps.db, dir, id, 'read');
  const problems: ProblemItem[] = [];
  const page = parsePage(query, problems);
  if (problems.length) throw invalidArgs(problems, 'query');
  const { total, employeeIds } = await pageAnswering(deps.db, id, page.limit, page.offset);
  const rows = await listAnswers(deps.db, id, employeeIds);
  const respondents = new Map((await listRespondents(deps.db, id)).map((r) => [r.employee_id, r]));
  const show = await identityOf(deps, survey);
  const responses = employeeIds.map((eid): ResponseResource => {
    const r = respondents.get(eid);
    const mine = rows.filter((a) => a.employee_id === eid);
    return {
      employeeId: show(eid),
      status: r?.status ?? 'inProgress',
      answers: Object.fromEntries(mine.map((a) => [a.question_id, disguise(JSON.parse(a.value), show)])),
      versions: Object.fromEntries(mine.map((a) => [a.question_id, a.version])),
      submittedAt: r?.submitted_at ?? null,
      enteredBy: survey.privacy === 'pseudonymised' ? null : (r?.entered_by ?? null),
    };
  });
  return { total, offset: page.offset, limit: page.limit, responses };
}

function actorOf(dir: Directory): string {
  return dir.principal.via === 'session' ? `user:${dir.userId}` : `credential:${dir.principal.credentialId}`;
}

/** The survey accepts answers from its owner now (collecting or offline; never a draft or a completed survey). */
function checkEntryOpen(s: SurveyRecord): void {
  if (s.status === 'completed') throw new DomainError('SURVEY_CLOSED', 'the survey is completed; answers are no longer accepted');
  if (s.status === 'draft') throw new DomainError('SURVEY_NOT_OPEN', 'the survey has not been launched');
}

async function respondentOf(db: Kysely<Database>, surveyId: string, employeeId: string) {
  const r = await getRespondent(db, surveyId, employeeId);
  if (!r) throw new DomainError('NOT_FOUND', `${JSON.stringify(employeeId)} is not a respondent of this survey`);
  return r;
}

/**
 * Owner entry `PUT /surveys/:id/responses/:employeeId` `{ answers: { <questionId>: value }, submit? }`:
 * every value checked (400 naming the question), saved with the current version; `submit: true` also
 * checks completeness and submits. Recorded as `enteredBy` and in the audit log (question ids only).
 */
export async function enterResponse(deps: ResponseDeps, dir: Directory, id: string, employeeId: string, body: unknown): Promise<ResponseResource> {
  const { survey } = await loadSurvey(deps.db, dir, id, 'edit');
  checkEntryOpen(survey);
  await respondentOf(deps.db, id, employeeId);
  const o = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : null) as { answers?: unknown; submit?: unknown } | null;
  const problems: ProblemItem[] = [];
  if (!o) throw invalidArgs([{ path: '', message: 'must be { answers: { <questionId>: value }, submit?: true }' }]);
  for (const k of Object.keys(o)) if (k !== 'answers' && k !== 'submit') problems.push({ path: `/${k}`, message: 'is not a property (answers, submit)' });
  if (o.submit !== undefined && typeof o.submit !== 'boolean') problems.push({ path: '/submit', message: 'must be a Boolean' });
  if (typeof o.answers !== 'object' || o.answers === null || Array.isArray(o.answers)) problems.push({ path: '/answers', message: 'must be an object { <questionId>: value }' });
  if (problems.length) throw invalidArgs(problems);
  const questions = questionsOf(survey);
  const byId = new Map(questions.map((q) => [q.id, q]));
  const saved = new Map((await listAnswers(deps.db, id, [employeeId])).map((a) => [a.question_id, JSON.parse(a.value) as unknown]));
  const given = Object.entries(o.answers as Record<string, unknown>);
  const merged = new Map(saved);
  for (const [qid, v] of given) merged.set(qid, v);
  const roster = await rosterOf(deps.db, survey);
  for (const [qid, v] of given) {
    const q = byId.get(qid);
    if (!q) problems.push({ path: `/answers/${qid}`, message: `the survey has no question ${JSON.stringify(qid)}` });
    else checkValue(q, v, { roster, self: employeeId, answers: merged }, `/answers/${qid}`, problems);
  }
  if (o.submit === true) problems.push(...checkComplete(questions, merged, '/answers'));
  if (problems.length) throw invalidArgs(problems);
  const at = nowIso();
  const actor = actorOf(dir);
  await inTransaction(deps.db, async (trx) => {
    for (const [qid, v] of given) await saveAnswer(trx, survey, employeeId, byId.get(qid)!, v, at);
    await updateRespondent(trx, id, employeeId, { entered_by: actor, modified: at, ...(o.submit === true ? { status: 'submitted' as const, submitted_at: at } : {}) });
    await auditDirectory(trx, dir, 'response.entered', id, { employeeId, questions: given.map(([q]) => q), submitted: o.submit === true });
  });
  const page = await listAnswers(deps.db, id, [employeeId]);
  const r = await respondentOf(deps.db, id, employeeId);
  const show = await identityOf(deps, survey);
  return {
    employeeId: show(employeeId),
    status: r.status,
    answers: Object.fromEntries(page.map((a) => [a.question_id, disguise(JSON.parse(a.value), show)])),
    versions: Object.fromEntries(page.map((a) => [a.question_id, a.version])),
    submittedAt: r.submitted_at,
    enteredBy: r.entered_by,
  };
}

/** `DELETE /surveys/:id/responses/:employeeId`: the person's answers in this survey (audited). */
export async function deleteResponse(deps: ResponseDeps, dir: Directory, id: string, employeeId: string): Promise<{ employeeId: string; deleted: true; answersRemoved: number }> {
  await loadSurvey(deps.db, dir, id, 'edit');
  await respondentOf(deps.db, id, employeeId);
  return inTransaction(deps.db, async (trx) => {
    const removed = await eraseResponse(trx, id, employeeId, nowIso());
    await auditDirectory(trx, dir, 'response.erased', id, { employeeId, answers: removed });
    return { employeeId, deleted: true as const, answersRemoved: removed };
  });
}

/* ---------------------------------------------------------------------- tracking */

export function bandOf(rate: number): 'high' | 'directional' | 'low' {
  if (rate >= 0.8) return 'high';
  if (rate >= 0.65) return 'directional';
  return 'low';
}

interface GroupRow {
  value: string;
  respondents: number;
  submitted: number;
  inProgress: number;
  notStarted: number;
  rate: number;
}

export async function tracking(deps: ResponseDeps, dir: Directory, id: string) {
  const { survey } = await loadSurvey(deps.db, dir, id, 'read');
  const respondents = await listRespondents(deps.db, id);
  const counts = { submitted: 0, inProgress: 0, notStarted: 0 };
  for (const r of respondents) counts[r.status]++;
  const rate = respondents.length ? counts.submitted / respondents.length : 0;
  const people = new Map((await allEmployees(deps.db, survey.dir)).map((p) => [p.employee_id, p]));
  const k = survey.min_group_size;
  const groups = [];
  for (const f of (await listCustomFields(deps.db, survey.dir)).filter((x) => x.sensitive === 0)) {
    const by = new Map<string, GroupRow>();
    for (const r of respondents) {
      const v = (JSON.parse(people.get(r.employee_id)?.fields ?? '{}') as Record<string, unknown>)[f.key];
      const value = v === undefined ? '(no value)' : String(v);
      const g = by.get(value) ?? { value, respondents: 0, submitted: 0, inProgress: 0, notStarted: 0, rate: 0 };
      g.respondents++;
      g[r.status]++;
      by.set(value, g);
    }
    const shown: GroupRow[] = [];
    const other: GroupRow = { value: `Other (< ${k})`, respondents: 0, submitted: 0, inProgress: 0, notStarted: 0, rate: 0 };
    for (const g of by.values()) {
      if (g.respondents >= k) shown.push(g);
      else for (const s of ['respondents', 'submitted', 'inProgress', 'notStarted'] as const) other[s] += g[s];
    }
    let suppressed = 0;
    if (other.respondents >= k) shown.push(other);
    else suppressed = other.respondents;
    for (const g of shown) g.rate = g.respondents ? g.submitted / g.respondents : 0;
    shown.sort((a, b) => b.respondents - a.respondents || (a.value < b.value ? -1 : 1));
    groups.push({ field: f.key, label: f.label, groups: shown.map((g) => ({ ...g, band: bandOf(g.rate) })), suppressed });
  }
  const deliveries = await listDeliveries(deps.db, id);
  const reminders = deliveries.filter((d) => d.step.startsWith('reminder-'));
  const named = survey.privacy !== 'pseudonymised';
  return {
    respondents: respondents.length,
    submitted: counts.submitted,
    inProgress: counts.inProgress,
    notStarted: counts.notStarted,
    rate,
    band: bandOf(rate),
    minGroupSize: k,
    groups,
    notStartedPeople: named
      ? respondents.filter((r) => r.status === 'notStarted').map((r) => ({ employeeId: r.employee_id, name: people.get(r.employee_id)?.name ?? '' }))
      : null,
    email: {
      enabled: deps.config.surveys.smtpUrl !== null,
      launch: { sent: deliveries.filter((d) => d.step === 'launch' && d.status === 'sent').length, failed: deliveries.filter((d) => d.step === 'launch' && d.status === 'failed').length },
      reminders: { sent: reminders.filter((d) => d.status === 'sent').length, failed: reminders.filter((d) => d.status === 'failed').length, rounds: new Set(reminders.map((d) => d.step)).size },
    },
  };
}
