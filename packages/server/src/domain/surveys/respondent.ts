/**
 * What a respondent's link opens (docs/spec/decisions.md §9, "Respondent links"): only that person's
 * own answers, only while the survey is `collecting` (and between `opensAt` and `closesAt`), and only
 * what a respondent may see — the intro, consent and questions (never the survey's name, never a
 * question's custom field), the roster with names, photos and non-sensitive fields (never a sensitive
 * field), and the people carried forward from an earlier answer.
 *
 * Unknown links are 404 NOT_FOUND (the route counts them against the client's address); revoked or
 * re-issued ones 410 LINK_REVOKED; offline or not yet open 409 SURVEY_NOT_OPEN; completed or past
 * `closesAt` 410 SURVEY_CLOSED. None of these answers carries survey data.
 */
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import { allEmployees, listCustomFields } from '../../store/people.ts';
import type { Database } from '../../store/schema.ts';
import { deleteAnswer, getRespondent, getRespondentLink, getSurveyByOpenLinkHash, isRevokedLink, updateRespondent, type RespondentRecord, type RespondentSurveyRecord, type SurveyRecord } from '../../store/surveys.ts';
import { DomainError, invalidArgs, type ProblemItem } from '../errors.ts';
import { answerMap, checkComplete, checkValue, namedIn, questionsOf, rosterOf, saveAnswer } from './answers.ts';
import { linkKey, respondentToken, respondentUrl, TOKEN_SHAPE, tokenHash } from './links.ts';
import type { Question } from './questions.ts';

export interface RespondentDeps {
  db: Kysely<Database>;
  config: Config;
  now: () => number;
}

export interface Opened {
  survey: RespondentSurveyRecord;
  respondent: RespondentRecord;
}

/** An invalid (unknown, malformed) link: the caller counts it against the client's address. */
export class InvalidLinkError extends DomainError {
  constructor() {
    super('NOT_FOUND', 'this survey link is not valid; check that it was copied whole');
  }
}

/** The survey is open for answers now, or the problem that says why not. */
export function checkOpen(s: Pick<SurveyRecord, 'status' | 'schedule'>, now: number): void {
  const schedule = JSON.parse(s.schedule) as { opensAt?: string; closesAt?: string };
  if (s.status === 'completed' || (schedule.closesAt && Date.parse(schedule.closesAt) <= now)) throw new DomainError('SURVEY_CLOSED', 'this survey is closed; answers are no longer accepted');
  if (s.status === 'offline') throw new DomainError('SURVEY_NOT_OPEN', 'this survey is paused for the moment; please try again later');
  if (s.status !== 'collecting') throw new DomainError('SURVEY_NOT_OPEN', 'this survey is not open yet');
  if (schedule.opensAt && Date.parse(schedule.opensAt) > now) throw new DomainError('SURVEY_NOT_OPEN', `this survey opens at ${schedule.opensAt}`);
}

/**
 * The respondent and survey of a link token (`hash` = tokenHash(token), when the caller has it); throws
 * the problems of the module comment. One indexed read of both, never cached (store/surveys.ts
 * getRespondentLink): a revoke, re-issue, pause or close on any instance applies to the next request.
 */
export async function openLink(deps: RespondentDeps, token: string, hash = tokenHash(token)): Promise<Opened> {
  if (!TOKEN_SHAPE.test(token)) throw new InvalidLinkError();
  const opened = await getRespondentLink(deps.db, hash);
  if (!opened) {
    if (await isRevokedLink(deps.db, hash)) throw new DomainError('LINK_REVOKED', 'this survey link was replaced or withdrawn; ask the survey’s organizer for your current link');
    throw new InvalidLinkError();
  }
  checkOpen(opened.survey, deps.now());
  return opened;
}

/**
 * A survey's questions parsed once per survey and text (every save looks its question up): the entry is
 * used only while the stored text, read with the link on every request, is the same, so an edit is seen
 * at once. Callers never change what it returns.
 */
const questionCache = new Map<string, { text: string; list: Question[]; byId: Map<string, Question> }>();
const QUESTION_CACHE_SURVEYS = 200;

function questionsCached(s: Pick<SurveyRecord, 'id' | 'questions'>): { list: Question[]; byId: Map<string, Question> } {
  const hit = questionCache.get(s.id);
  if (hit && hit.text === s.questions) return hit;
  const list = questionsOf(s);
  const entry = { text: s.questions, list, byId: new Map(list.map((q) => [q.id, q])) };
  if (!hit && questionCache.size >= QUESTION_CACHE_SURVEYS) questionCache.delete(questionCache.keys().next().value as string);
  questionCache.set(s.id, entry);
  return entry;
}

/** A question as the respondent sees it (no custom field). */
function respondentQuestion(q: Question): Omit<Question, 'customField'> {
  const { customField: _f, ...rest } = q;
  return rest;
}

export async function respondentView(deps: RespondentDeps, o: Opened) {
  const { survey, respondent } = o;
  const questions = questionsCached(survey).list;
  const answers = await answerMap(deps.db, survey.id, respondent.employee_id);
  const person = (await allEmployees(deps.db, survey.dir)).find((p) => p.employee_id === respondent.employee_id);
  const schedule = JSON.parse(survey.schedule) as { closesAt?: string };
  const roster = await rosterOf(deps.db, survey);
  const carryForward: Record<string, string[]> = {};
  for (const q of questions) if (q.carryForwardFrom) carryForward[q.id] = namedIn(answers.get(q.carryForwardFrom));
  return {
    survey: {
      intro: survey.intro,
      consent: survey.consent === null ? null : (JSON.parse(survey.consent) as { text: string; required: boolean }),
      privacy: survey.privacy,
      closesAt: schedule.closesAt ?? null,
      version: survey.version,
      questions: questions.map(respondentQuestion),
      rosterSize: Math.max(0, roster.size - (roster.has(respondent.employee_id) ? 1 : 0)),
    },
    respondent: { employeeId: respondent.employee_id, name: person?.name ?? '', status: respondent.status, submittedAt: respondent.submitted_at },
    answers: Object.fromEntries(answers),
    carryForward,
  };
}

/**
 * The roster a respondent may name (themself left out): name, photo and non-sensitive fields (by key,
 * with their labels in `fields`), filtered by `q` over the name and those fields, paged (limit ≤ 10,000:
 * a page can search a whole roster of thousands locally).
 */
export async function respondentRoster(deps: RespondentDeps, o: Opened, query: { q?: string; limit?: string; offset?: string }) {
  const problems: ProblemItem[] = [];
  const limit = query.limit === undefined ? 10_000 : Number(query.limit);
  const offset = query.offset === undefined ? 0 : Number(query.offset);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) problems.push({ path: '/query/limit', message: 'must be a whole number from 1 to 10000' });
  if (!Number.isInteger(offset) || offset < 0) problems.push({ path: '/query/offset', message: 'must be a whole number ≥ 0' });
  if (query.q !== undefined && query.q.length > 200) problems.push({ path: '/query/q', message: 'at most 200 characters' });
  if (problems.length) throw invalidArgs(problems, 'query');
  const visible = (await listCustomFields(deps.db, o.survey.dir)).filter((f) => f.sensitive === 0);
  const roster = await rosterOf(deps.db, o.survey);
  const q = query.q?.trim().toLowerCase() ?? '';
  const people = (await allEmployees(deps.db, o.survey.dir))
    .filter((p) => roster.has(p.employee_id) && p.employee_id !== o.respondent.employee_id)
    .map((p) => {
      const all = JSON.parse(p.fields) as Record<string, string | number>;
      const fields: Record<string, string | number> = {};
      for (const f of visible) if (all[f.key] !== undefined) fields[f.key] = all[f.key];
      return { employeeId: p.employee_id, name: p.name, ...(p.photo_url ? { photoUrl: p.photo_url } : {}), fields };
    })
    .filter((p) => q === '' || p.name.toLowerCase().includes(q) || Object.values(p.fields).some((v) => String(v).toLowerCase().includes(q)));
  return { total: people.length, offset, limit, fields: visible.map((f) => ({ key: f.key, label: f.label })), people: people.slice(offset, offset + limit) };
}

function questionOf(s: RespondentSurveyRecord, id: string): Question {
  const q = questionsCached(s).byId.get(id);
  if (!q) throw new DomainError('NOT_FOUND', `the survey has no question ${JSON.stringify(id)}`);
  return q;
}

/** `PUT …/answers/:questionId` `{ value }`: saves the answer as given (idempotent). */
export async function respondentSave(deps: RespondentDeps, o: Opened, questionId: string, body: unknown) {
  const q = questionOf(o.survey, questionId);
  const b = (typeof body === 'object' && body !== null ? body : {}) as { value?: unknown };
  if (!('value' in b)) throw invalidArgs([{ path: '/value', message: 'is required (the answer)' }]);
  const problems: ProblemItem[] = [];
  const answers = q.carryForwardFrom ? await answerMap(deps.db, o.survey.id, o.respondent.employee_id) : new Map<string, unknown>();
  checkValue(q, b.value, { roster: await rosterOf(deps.db, o.survey), self: o.respondent.employee_id, answers }, '/value', problems);
  if (problems.length) throw invalidArgs(problems);
  const at = new Date(deps.now()).toISOString();
  await saveAnswer(deps.db, o.survey, o.respondent.employee_id, q, b.value, at, o.respondent.status !== 'notStarted');
  return { questionId: q.id, value: b.value, version: o.survey.version, savedAt: at };
}

export async function respondentClear(deps: RespondentDeps, o: Opened, questionId: string) {
  const q = questionOf(o.survey, questionId);
  await deleteAnswer(deps.db, o.survey.id, o.respondent.employee_id, q.id);
  return { questionId: q.id, deleted: true as const };
}

/** Submit: complete answers (and consent when required); edits stay possible until the survey closes. */
export async function respondentSubmit(deps: RespondentDeps, o: Opened, body: unknown) {
  const b = (typeof body === 'object' && body !== null ? body : {}) as { consent?: unknown };
  const consent = o.survey.consent === null ? null : (JSON.parse(o.survey.consent) as { required: boolean });
  const problems: ProblemItem[] = [];
  if (consent?.required && b.consent !== true) problems.push({ path: '/consent', message: 'this survey asks for consent: send consent: true' });
  problems.push(...checkComplete(questionsCached(o.survey).list, await answerMap(deps.db, o.survey.id, o.respondent.employee_id), '/answers'));
  if (problems.length) throw invalidArgs(problems);
  const at = new Date(deps.now()).toISOString();
  await updateRespondent(deps.db, o.survey.id, o.respondent.employee_id, { status: 'submitted', submitted_at: at, started_at: o.respondent.started_at ?? at, modified: at });
  return { status: 'submitted' as const, submittedAt: at };
}

/**
 * The open link `/s/open/<token>` `{ employeeId }` → the respondent's own link (the shared-terminal
 * case). An unknown open link or an employeeId that is not a respondent is 404 (counted like a bad link).
 */
export async function openLinkEnter(deps: RespondentDeps, openToken: string, body: unknown): Promise<{ token: string; url: string }> {
  if (!TOKEN_SHAPE.test(openToken)) throw new InvalidLinkError();
  const survey = await getSurveyByOpenLinkHash(deps.db, tokenHash(openToken));
  if (!survey) throw new InvalidLinkError();
  checkOpen(survey, deps.now());
  const eid = (typeof body === 'object' && body !== null ? (body as { employeeId?: unknown }).employeeId : undefined);
  if (typeof eid !== 'string' || eid.trim() === '' || eid.length > 128) throw invalidArgs([{ path: '/employeeId', message: 'is required (your employee id)' }]);
  const r = await getRespondent(deps.db, survey.id, eid.trim());
  if (!r) throw new DomainError('NOT_FOUND', 'this employee id is not among the people asked in this survey');
  if (r.token_hash === null) throw new DomainError('LINK_REVOKED', 'your link was withdrawn; ask the survey’s organizer');
  const token = respondentToken(await linkKey(deps.db, deps.config), survey.id, r.employee_id, r.token_gen);
  return { token, url: respondentUrl(deps.config, token) };
}

