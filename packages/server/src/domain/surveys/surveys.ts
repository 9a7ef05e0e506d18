/**
 * The Surveys commands (docs/spec/decisions.md §9, "Surveys"): create, list, read, change (`PUT`
 * replaces only what is sent), the status machine (`draft → collecting` = launch; `collecting ⇄
 * offline`; `→ completed`), versioned question edits after launch, privacy only ever stricter after
 * launch, copy and copy as a new wave, delete, shares. Access: access.ts.
 */
import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import { inTransaction, nowIso } from '../../store/db.ts';
import { allEmployees } from '../../store/people.ts';
import type { Database, SurveyPrivacy, SurveyStatus } from '../../store/schema.ts';
import {
  deleteRespondents,
  deleteSurvey as removeSurvey,
  insertRespondents,
  insertSurvey,
  insertVersion,
  listRespondents,
  listSurveysForUser,
  listSurveysOfDirectory,
  updateSurvey as storeUpdate,
  updateSurveyIfStatus,
  type RespondentRecord,
  type SurveyRecord,
} from '../../store/surveys.ts';
import { getUserById } from '../../store/users.ts';
import { DomainError, invalidArgs, type ProblemItem } from '../errors.ts';
import { newId } from '../ids.ts';
import { auditDirectory, type Directory } from '../people/directory.ts';
import { fieldsByKey } from '../people/fields.ts';
import { loadSurvey, type SurveyAccess } from './access.ts';
import { surveyNetworksOf } from './generate.ts';
import { linkKey, openLinkToken, openUrl, pseudonymOf, respondentToken, tokenHash } from './links.ts';
import { checkQuestions, type Question } from './questions.ts';
import { checkSelector, select, type Selector } from './roster.ts';

export interface SurveyDeps {
  db: Kysely<Database>;
  config: Config;
}

export const PRIVACY_ORDER: readonly SurveyPrivacy[] = ['identified', 'confidential', 'pseudonymised'];

export interface Template {
  subject: string;
  body: string;
}
export interface EmailTemplates {
  launch: Template;
  reminder: Template;
}
export interface Schedule {
  opensAt?: string;
  closesAt?: string;
  reminders: { everyDays: number; max: number };
}

/** Default messages: the survey's name is never shown to respondents, so it is not in them. */
export const DEFAULT_EMAIL: EmailTemplates = {
  launch: { subject: 'Your input is requested', body: 'Hello {{name}},\n\nplease answer a short survey about who you work with:\n\n{{link}}\n\nYour answers are saved as you go; the link is personal.\n\nThank you.' },
  reminder: { subject: 'Reminder: your input is requested', body: 'Hello {{name}},\n\na reminder to answer the survey about who you work with:\n\n{{link}}\n\nThank you.' },
};
const DEFAULT_SCHEDULE: Schedule = { reminders: { everyDays: 3, max: 2 } };

export interface SurveyResource {
  _id: string;
  name: string;
  status: SurveyStatus;
  intro: string;
  consent: { text: string; required: boolean } | null;
  privacy: SurveyPrivacy;
  minGroupSize: number;
  roster: Selector;
  respondents: Selector | null;
  questions: Question[];
  version: number;
  schedule: Schedule;
  email: EmailTemplates & { enabled: boolean };
  openLink: { enabled: boolean; url?: string };
  wave: number;
  previousWaveId: string | null;
  owner: { _id: string; name: string };
  access: 'owner' | 'edit' | 'view';
  created: string;
  modified: string;
  launchedAt: string | null;
  closedAt: string | null;
  networks: Awaited<ReturnType<typeof surveyNetworksOf>>;
}

export async function presentSurvey(deps: SurveyDeps, s: SurveyRecord, access: SurveyAccess): Promise<SurveyResource> {
  const owner = await getUserById(deps.db, s.owner_id);
  let openLink: SurveyResource['openLink'] = { enabled: s.open_link_gen !== null };
  if (s.open_link_gen !== null && access !== 'view') openLink = { enabled: true, url: openUrl(deps.config, openLinkToken(await linkKey(deps.db, deps.config), s.id, s.open_link_gen)) };
  return {
    _id: s.id,
    name: s.name,
    status: s.status,
    intro: s.intro,
    consent: s.consent === null ? null : (JSON.parse(s.consent) as { text: string; required: boolean }),
    privacy: s.privacy,
    minGroupSize: s.min_group_size,
    roster: JSON.parse(s.roster) as Selector,
    respondents: JSON.parse(s.respondents) as Selector | null,
    questions: JSON.parse(s.questions) as Question[],
    version: s.version,
    schedule: JSON.parse(s.schedule) as Schedule,
    email: { ...(JSON.parse(s.email) as EmailTemplates), enabled: deps.config.surveys.smtpUrl !== null },
    openLink,
    wave: s.wave,
    previousWaveId: s.previous_wave_id,
    owner: { _id: s.owner_id, name: owner?.name ?? '' },
    access: access === 'owner' ? 'owner' : access,
    created: s.created,
    modified: s.modified,
    launchedAt: s.launched_at,
    closedAt: s.closed_at,
    networks: await surveyNetworksOf(deps.db, s.id),
  };
}

/* --------------------------------------------------------------------- checks */

const BODY_KEYS = new Set(['name', 'questions', 'privacy', 'minGroupSize', 'roster', 'respondents', 'intro', 'consent', 'schedule', 'email', 'status', 'openLink']);
const IGNORED = new Set(['_id', 'created', 'modified', 'launchedAt', 'closedAt', 'owner', 'access', 'version', 'wave', 'previousWaveId', 'networks']);

function isoDate(v: unknown): boolean {
  return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(v) && Number.isFinite(Date.parse(v));
}

function checkSchedule(raw: unknown, problems: ProblemItem[]): Schedule | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.push({ path: '/schedule', message: 'must be { opensAt?, closesAt?, reminders?: { everyDays, max } }' });
    return undefined;
  }
  const o = raw as Record<string, unknown>;
  const out: Schedule = { reminders: { ...DEFAULT_SCHEDULE.reminders } };
  for (const k of Object.keys(o)) if (!['opensAt', 'closesAt', 'reminders'].includes(k)) problems.push({ path: `/schedule/${k}`, message: 'is not a property of a schedule' });
  for (const k of ['opensAt', 'closesAt'] as const) {
    if (o[k] === undefined || o[k] === null) continue;
    if (!isoDate(o[k])) problems.push({ path: `/schedule/${k}`, message: 'must be an ISO 8601 date-time (2026-12-01T09:00:00Z)' });
    else out[k] = new Date(o[k] as string).toISOString();
  }
  if (out.opensAt && out.closesAt && out.closesAt <= out.opensAt) problems.push({ path: '/schedule/closesAt', message: 'must be after opensAt' });
  if (o.reminders !== undefined) {
    const r = o.reminders as Record<string, unknown>;
    if (typeof r !== 'object' || r === null) problems.push({ path: '/schedule/reminders', message: 'must be { everyDays, max }' });
    else {
      if (typeof r.everyDays !== 'number' || r.everyDays <= 0 || r.everyDays > 60) problems.push({ path: '/schedule/reminders/everyDays', message: 'must be a Number of days, > 0 and ≤ 60 (0.5 = twelve hours)' });
      else out.reminders.everyDays = r.everyDays;
      if (typeof r.max !== 'number' || !Number.isInteger(r.max) || r.max < 0 || r.max > 10) problems.push({ path: '/schedule/reminders/max', message: 'must be a whole number from 0 to 10' });
      else out.reminders.max = r.max;
      for (const k of Object.keys(r)) if (k !== 'everyDays' && k !== 'max') problems.push({ path: `/schedule/reminders/${k}`, message: 'is not a property of reminders' });
    }
  }
  return out;
}

function checkTemplates(raw: unknown, current: EmailTemplates, problems: ProblemItem[]): EmailTemplates | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.push({ path: '/email', message: 'must be { launch?: { subject, body }, reminder?: { subject, body } }' });
    return undefined;
  }
  const out: EmailTemplates = { launch: { ...current.launch }, reminder: { ...current.reminder } };
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    if (k === 'enabled') continue;
    if (k !== 'launch' && k !== 'reminder') {
      problems.push({ path: `/email/${k}`, message: 'is not a message (launch, reminder)' });
      continue;
    }
    const t = v as Record<string, unknown>;
    if (typeof t?.subject !== 'string' || t.subject.trim() === '' || t.subject.length > 300 || /[\r\n]/.test(t.subject)) problems.push({ path: `/email/${k}/subject`, message: 'must be one line of 1–300 characters' });
    if (typeof t?.body !== 'string' || t.body.length > 20_000) problems.push({ path: `/email/${k}/body`, message: 'must be a String of at most 20,000 characters' });
    else if (!t.body.includes('{{link}}')) problems.push({ path: `/email/${k}/body`, message: 'must contain {{link}} (each person’s own link)' });
    if (typeof t?.subject === 'string' && typeof t?.body === 'string') out[k] = { subject: t.subject.trim(), body: t.body };
  }
  return out;
}

interface Changes {
  patch: Partial<SurveyRecord>;
  questions?: Question[];
  status?: SurveyStatus;
  roster?: Selector;
  respondents?: Selector | null;
  openLink?: boolean;
}

function checkBody(body: unknown, current: SurveyRecord | null, fields: Awaited<ReturnType<typeof fieldsByKey>>): Changes {
  const problems: ProblemItem[] = [];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidArgs([{ path: '', message: 'must be a survey object' }]);
  const o = body as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!BODY_KEYS.has(k) && !IGNORED.has(k)) problems.push({ path: `/${k}`, message: 'is not a property of a survey' });
  const launched = current !== null && current.status !== 'draft';
  const out: Changes = { patch: {} };
  const has = (k: string) => o[k] !== undefined;
  if (current === null || has('name')) {
    if (typeof o.name !== 'string' || o.name.trim() === '' || o.name.length > 300) problems.push({ path: '/name', message: 'must be a non-empty String of at most 300 characters' });
    else out.patch.name = o.name.trim();
  }
  if (current?.status === 'completed') {
    const other = Object.keys(o).filter((k) => BODY_KEYS.has(k) && k !== 'name' && !(k === 'status' && o.status === 'completed'));
    if (other.length) problems.push({ path: `/${other[0]}`, message: 'a completed survey cannot change (only its name); copy it to run it again' });
  }
  if (current === null || has('questions')) {
    const qs = checkQuestions(o.questions ?? [], '/questions', fields, problems);
    out.questions = qs;
    out.patch.questions = JSON.stringify(qs);
  }
  if (has('privacy')) {
    const p = o.privacy as SurveyPrivacy;
    if (!PRIVACY_ORDER.includes(p)) problems.push({ path: '/privacy', message: `must be one of ${PRIVACY_ORDER.join(', ')}` });
    else if (launched && PRIVACY_ORDER.indexOf(p) < PRIVACY_ORDER.indexOf(current!.privacy)) problems.push({ path: '/privacy', message: `after launch privacy may only become stricter (now ${current!.privacy}; order: ${PRIVACY_ORDER.join(' → ')})` });
    else out.patch.privacy = p;
  }
  if (has('minGroupSize')) {
    const m = o.minGroupSize;
    if (typeof m !== 'number' || !Number.isInteger(m) || m < 3 || m > 1000) problems.push({ path: '/minGroupSize', message: 'must be a whole number ≥ 3' });
    else if (launched && m < current!.min_group_size) problems.push({ path: '/minGroupSize', message: `after launch the minimum group size may only grow (now ${current!.min_group_size})` });
    else out.patch.min_group_size = m;
  }
  if (has('roster')) {
    const r = checkSelector(o.roster, '/roster', fields, problems);
    if (r) {
      out.roster = r;
      out.patch.roster = JSON.stringify(r);
    }
  }
  if (o.respondents !== undefined) {
    const r = o.respondents === null ? null : checkSelector(o.respondents, '/respondents', fields, problems);
    if (r || o.respondents === null) {
      out.respondents = r;
      out.patch.respondents = JSON.stringify(r);
    }
  }
  if (has('intro')) {
    if (typeof o.intro !== 'string' || o.intro.length > 20_000) problems.push({ path: '/intro', message: 'must be a String (Markdown) of at most 20,000 characters' });
    else out.patch.intro = o.intro;
  }
  if (o.consent !== undefined) {
    const c = o.consent as Record<string, unknown> | null;
    if (c === null) out.patch.consent = null;
    else if (typeof c !== 'object' || typeof c.text !== 'string' || c.text.trim() === '' || c.text.length > 20_000 || (c.required !== undefined && typeof c.required !== 'boolean') || Object.keys(c).some((k) => k !== 'text' && k !== 'required')) {
      problems.push({ path: '/consent', message: 'must be { text, required? } or null' });
    } else out.patch.consent = JSON.stringify({ text: c.text, required: c.required ?? true });
  }
  if (has('schedule')) {
    const s = checkSchedule(o.schedule, problems);
    if (s) out.patch.schedule = JSON.stringify(s);
  }
  if (has('email')) {
    const current_ = current ? (JSON.parse(current.email) as EmailTemplates) : DEFAULT_EMAIL;
    const e = checkTemplates(o.email, current_, problems);
    if (e) out.patch.email = JSON.stringify(e);
  }
  if (has('openLink')) {
    if (typeof o.openLink !== 'boolean') problems.push({ path: '/openLink', message: 'must be a Boolean (true: the survey has an open link /s/open/<token>)' });
    else out.openLink = o.openLink;
  }
  if (has('status')) {
    const st = o.status as SurveyStatus;
    if (!['draft', 'collecting', 'offline', 'completed'].includes(st)) problems.push({ path: '/status', message: 'must be one of draft, collecting, offline, completed' });
    else if (current === null && st !== 'draft') problems.push({ path: '/status', message: 'a new survey is a draft; launch it with PUT { status: "collecting" }' });
    else out.status = st;
  }
  if (problems.length) throw invalidArgs(problems);
  return out;
}

const TRANSITIONS: Record<SurveyStatus, readonly SurveyStatus[]> = {
  draft: ['collecting'],
  collecting: ['offline', 'completed'],
  offline: ['collecting', 'completed'],
  completed: [],
};

/* ------------------------------------------------------------------- commands */

export async function listSurveys(deps: SurveyDeps, dir: Directory): Promise<SurveyResource[]> {
  const p = dir.principal;
  const rows = p.orgId ? (await listSurveysOfDirectory(deps.db, dir.key)).map((s) => ({ s, access: 'owner' as const })) : (await listSurveysForUser(deps.db, dir.key, dir.userId)).map((s) => ({ s, access: (s.owner_id === dir.userId ? 'owner' : s.share_permission === 'Edit' ? 'edit' : 'view') as SurveyAccess }));
  return Promise.all(rows.map(({ s, access }) => presentSurvey(deps, s, access)));
}

export async function createSurvey(deps: SurveyDeps, dir: Directory, body: unknown): Promise<SurveyResource> {
  const fields = await fieldsByKey(deps.db, dir);
  const c = checkBody(body, null, fields);
  return insertDraft(
    deps,
    {
      id: newId(),
      dir: dir.key,
      owner_id: dir.userId,
      name: c.patch.name!,
      privacy: c.patch.privacy ?? 'confidential',
      min_group_size: c.patch.min_group_size ?? 5,
      intro: c.patch.intro ?? '',
      consent: c.patch.consent ?? null,
      roster: c.patch.roster ?? JSON.stringify({ all: true }),
      respondents: c.patch.respondents ?? 'null',
      questions: c.patch.questions ?? '[]',
      schedule: c.patch.schedule ?? JSON.stringify(DEFAULT_SCHEDULE),
      email: c.patch.email ?? JSON.stringify(DEFAULT_EMAIL),
      wave: 1,
      previous_wave_id: null,
    },
    c.openLink === true,
  );
}

/** What a new draft starts with whatever it comes from (createSurvey, copySurvey). */
type FreshDraftField = 'status' | 'version' | 'open_link_gen' | 'open_link_hash' | 'roster_ids' | 'created' | 'modified' | 'launched_at' | 'closed_at';

/**
 * Stores a new draft: status draft, version 1, no open link (one is made when `openLink`), no roster
 * snapshot, never launched; answered as its owner sees it.
 */
async function insertDraft(deps: SurveyDeps, fields: Omit<SurveyRecord, FreshDraftField>, openLink: boolean): Promise<SurveyResource> {
  const now = nowIso();
  const row: SurveyRecord = {
    ...fields,
    status: 'draft',
    version: 1,
    open_link_gen: null,
    open_link_hash: null,
    roster_ids: null,
    created: now,
    modified: now,
    launched_at: null,
    closed_at: null,
  };
  if (openLink) await setOpenLink(deps, row, true);
  await insertSurvey(deps.db, row);
  return presentSurvey(deps, row, 'owner');
}

export async function getSurveyResource(deps: SurveyDeps, dir: Directory, id: string): Promise<SurveyResource> {
  const { survey, access } = await loadSurvey(deps.db, dir, id, 'read');
  return presentSurvey(deps, survey, access);
}

async function setOpenLink(deps: SurveyDeps, row: SurveyRecord, on: boolean): Promise<void> {
  if (!on) {
    row.open_link_gen = null;
    row.open_link_hash = null;
    return;
  }
  if (row.open_link_gen !== null) return;
  const gen = randomInt(1, 2 ** 31 - 1);
  row.open_link_gen = gen;
  row.open_link_hash = tokenHash(openLinkToken(await linkKey(deps.db, deps.config), row.id, gen));
}

/**
 * Makes the respondent rows agree with the survey's respondents: new people get a row (and a link);
 * people no longer asked lose their row unless they have answered (then only their link is revoked).
 */
export async function syncRespondents(key: Buffer, trx: Kysely<Database>, s: SurveyRecord, at: string): Promise<{ roster: string[]; respondents: string[] }> {
  const people = await allEmployees(trx, s.dir);
  const roster = select(JSON.parse(s.roster) as Selector, people).map((p) => p.employee_id);
  const respSel = JSON.parse(s.respondents) as Selector | null;
  const respondents = respSel ? select(respSel, people).map((p) => p.employee_id) : roster;
  const existing = new Map((await listRespondents(trx, s.id)).map((r) => [r.employee_id, r]));
  const wanted = new Set(respondents);
  const fresh: RespondentRecord[] = [];
  for (const eid of respondents) {
    if (existing.has(eid)) continue;
    fresh.push({ survey_id: s.id, employee_id: eid, token_hash: tokenHash(respondentToken(key, s.id, eid, 1)), token_gen: 1, pseudonym: pseudonymOf(key, s.id, eid), status: 'notStarted', started_at: null, submitted_at: null, entered_by: null, modified: at });
  }
  await insertRespondents(trx, fresh);
  const gone = [...existing.values()].filter((r) => !wanted.has(r.employee_id));
  await deleteRespondents(trx, s.id, gone.filter((r) => r.status === 'notStarted').map((r) => r.employee_id));
  for (const r of gone.filter((g) => g.status !== 'notStarted' && g.token_hash !== null)) {
    await trx.updateTable('survey_respondents').set({ token_hash: null, modified: at }).where('survey_id', '=', s.id).where('employee_id', '=', r.employee_id).execute();
  }
  return { roster, respondents };
}

export async function updateSurvey(deps: SurveyDeps, dir: Directory, id: string, body: unknown): Promise<SurveyResource> {
  const { survey, access } = await loadSurvey(deps.db, dir, id, 'edit');
  const fields = await fieldsByKey(deps.db, dir);
  const c = checkBody(body, survey, fields);
  const now = nowIso();
  const next: SurveyRecord = { ...survey, ...c.patch, modified: now };
  const launched = survey.status !== 'draft';
  if (c.openLink !== undefined) await setOpenLink(deps, next, c.openLink);
  const target = c.status ?? survey.status;
  if (target !== survey.status && !TRANSITIONS[survey.status].includes(target)) {
    throw invalidArgs([{ path: '/status', message: `a ${survey.status} survey cannot become ${target} (${survey.status} → ${TRANSITIONS[survey.status].join(' | ') || 'nothing'})` }]);
  }
  const questionsChanged = c.patch.questions !== undefined && c.patch.questions !== survey.questions;
  if (launched && questionsChanged) next.version = survey.version + 1;
  // read before the transaction: on SQLite the transaction holds the one connection
  const key = await linkKey(deps.db, deps.config);
  await inTransaction(deps.db, async (trx) => {
    if (target === 'collecting' && survey.status === 'draft') {
      // the launch: questions and respondents present, the roster fixed, a link for every respondent
      const problems: ProblemItem[] = [];
      const qs = JSON.parse(next.questions) as Question[];
      if (qs.length === 0) problems.push({ path: '/questions', message: 'a survey needs at least one question before launch' });
      const { roster, respondents } = await syncRespondents(key, trx, next, now);
      if (respondents.length === 0) problems.push({ path: '/respondents', message: 'nobody would be asked: the respondents (default: the roster) select no active person' });
      if (qs.some((q) => q.type === 'relationship') && roster.length === 0) problems.push({ path: '/roster', message: 'the roster selects no active person, so a relationship question has nobody to name' });
      if (problems.length) throw invalidArgs(problems);
      next.status = 'collecting';
      next.launched_at = now;
      next.roster_ids = JSON.stringify(roster);
      await insertVersion(trx, { survey_id: id, version: next.version, questions: next.questions, created: now });
      const { id: _i, dir: _d, created: _c, ...patch } = next;
      if (!(await updateSurveyIfStatus(trx, id, 'draft', patch))) throw new DomainError('CONFLICT', 'the survey was launched meanwhile');
      await auditDirectory(trx, dir, 'survey.launched', id, { respondents: respondents.length, roster: roster.length, version: next.version });
      return;
    }
    if (launched && (c.roster !== undefined || c.respondents !== undefined)) {
      const { roster } = await syncRespondents(key, trx, next, now);
      next.roster_ids = JSON.stringify(roster);
    }
    if (launched && questionsChanged) await insertVersion(trx, { survey_id: id, version: next.version, questions: next.questions, created: now });
    if (target !== survey.status) {
      next.status = target;
      if (target === 'completed') next.closed_at = now;
    }
    const { id: _i, dir: _d, created: _c, ...patch } = next;
    await storeUpdate(trx, id, patch);
    if (target !== survey.status) await auditDirectory(trx, dir, target === 'completed' ? 'survey.closed' : `survey.${target}`, id, { from: survey.status });
    if (launched && questionsChanged) await auditDirectory(trx, dir, 'survey.questions.versioned', id, { version: next.version });
  });
  return presentSurvey(deps, next, access);
}

export async function deleteSurvey(deps: SurveyDeps, dir: Directory, id: string): Promise<{ _id: string; deleted: true }> {
  const { survey } = await loadSurvey(deps.db, dir, id, 'owner');
  await inTransaction(deps.db, async (trx) => {
    await removeSurvey(trx, id);
    await auditDirectory(trx, dir, 'survey.deleted', id, { status: survey.status });
  });
  return { _id: id, deleted: true };
}

/**
 * Copies a survey into a new draft (same questions with their ids, privacy, roster and respondents
 * selectors, intro, consent, messages, reminders; no dates, answers or links). `wave: true` makes it
 * the next wave: `wave` + 1, `previousWaveId` = the source, the roster refreshed from the directory at
 * its launch (a list keeps the people still active).
 */
export async function copySurvey(deps: SurveyDeps, dir: Directory, id: string, body: unknown): Promise<SurveyResource> {
  const { survey } = await loadSurvey(deps.db, dir, id, 'read');
  const o = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const problems: ProblemItem[] = [];
  for (const k of Object.keys(o)) if (k !== 'name' && k !== 'wave') problems.push({ path: `/${k}`, message: 'is not a parameter of a copy (name, wave)' });
  if (o.name !== undefined && (typeof o.name !== 'string' || o.name.trim() === '' || o.name.length > 300)) problems.push({ path: '/name', message: 'must be a non-empty String of at most 300 characters' });
  if (o.wave !== undefined && typeof o.wave !== 'boolean') problems.push({ path: '/wave', message: 'must be a Boolean' });
  if (problems.length) throw invalidArgs(problems);
  const asWave = o.wave === true;
  const wave = asWave ? survey.wave + 1 : 1;
  const schedule = JSON.parse(survey.schedule) as Schedule;
  return insertDraft(
    deps,
    {
      ...survey,
      id: newId(),
      owner_id: dir.userId,
      name: typeof o.name === 'string' ? o.name.trim() : asWave ? `${survey.name.replace(/ \(wave \d+\)$/, '')} (wave ${wave})` : `${survey.name} (copy)`,
      schedule: JSON.stringify({ reminders: schedule.reminders }),
      wave,
      previous_wave_id: asWave ? survey.id : null,
    },
    survey.open_link_gen !== null,
  );
}
