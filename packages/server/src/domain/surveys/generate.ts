/**
 * `POST /api/v2/surveys/:id/networks` (docs/spec/decisions.md §10.4; docs/surveys.md "Generate networks"):
 * one network per relationship question and optionally a combined one, built by network-build.ts from
 * the roster and the saved answers, stored as ordinary networks of the caller. Run again it updates the
 * same networks (same `_id`, new `networkUUID`); the options are recorded as provenance in each
 * network's description and in the survey (`networks` of `GET /surveys/:id`, table survey_networks).
 * While the survey is collecting or offline the networks are marked preliminary. `dryRun: true` builds
 * without storing and answers the node and edge counts of every non-respondent mode (the web app's
 * live preview).
 *
 * Body `{ questions?: [ids] | "each" (default "each"), combined?: Boolean, nonRespondents?: keep | drop |
 * reconstruct | reciprocated (default keep), minRating?: whole number ≥ 1, fields?: [custom field keys]
 * (default: every non-sensitive field), dryRun?: Boolean }`. A sensitive field goes into the network only
 * when `fields` names it, never in a pseudonymised survey (400). In `pseudonymised` surveys node ids and
 * labels are stable pseudonyms (links.ts; seeded by the first wave, so every wave gives a person the same
 * code and waves compare) and no name, e-mail, sensitive field or free-text answer
 * is written. Scopes: `surveys:write` (route) and `networks:write` (here; not for a dry run); Edit access
 * to the survey (View for a dry run). Audited as `survey.networks.generated` (ids and counts only).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import { inTransaction, nowIso } from '../../store/db.ts';
import { getNetwork, updateNetwork } from '../../store/networks.ts';
import { allEmployees, listCustomFields } from '../../store/people.ts';
import type { Database } from '../../store/schema.ts';
import { getRosterIds, getSurvey, listAnswers, listRespondents, listSurveyNetworks, updateSurvey, upsertSurveyNetwork, type SurveyRecord } from '../../store/surveys.ts';
import { DomainError, invalidArgs, type ProblemItem } from '../errors.ts';
import { requireScopeOf } from '../metrics/runs.ts';
import { createNetwork } from '../networks/create.ts';
import { auditDirectory, type Directory } from '../people/directory.ts';
import { loadSurvey } from './access.ts';
import { questionsOf } from './answers.ts';
import { linkKey, pseudonymOf } from './links.ts';
import { buildSurveyNetworks, NON_RESPONDENT_MODES, type BuildInput, type BuiltNetwork, type NonRespondentMode } from './network-build.ts';
import type { Question } from './questions.ts';

export interface GenerateDeps {
  db: Kysely<Database>;
  config: Config;
}

export interface GenerateOptions {
  questions: string[] | 'each';
  combined: boolean;
  nonRespondents: NonRespondentMode;
  minRating?: number;
  fields: string[];
}

const BODY_KEYS = new Set(['questions', 'combined', 'nonRespondents', 'minRating', 'fields', 'dryRun']);
const ATTRIBUTE_NAME_MAX = 80;

interface Checked {
  options: GenerateOptions;
  chosen: Question[];
  dryRun: boolean;
}

function checkBody(body: unknown, survey: SurveyRecord, fieldRows: { key: string; sensitive: number }[]): Checked {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidArgs([{ path: '', message: 'must be { questions?, combined?, nonRespondents?, minRating?, fields?, dryRun? }' }]);
  const o = body as Record<string, unknown>;
  const problems: ProblemItem[] = [];
  for (const k of Object.keys(o)) if (!BODY_KEYS.has(k)) problems.push({ path: `/${k}`, message: 'is not a parameter (questions, combined, nonRespondents, minRating, fields, dryRun)' });
  const relationship = questionsOf(survey).filter((q) => q.type === 'relationship');
  let chosen: Question[] = relationship;
  const questions = o.questions ?? 'each';
  if (questions !== 'each') {
    if (!Array.isArray(questions) || questions.length === 0) problems.push({ path: '/questions', message: 'must be "each" or a non-empty array of relationship question ids' });
    else {
      const byId = new Map(relationship.map((q) => [q.id, q]));
      chosen = [];
      questions.forEach((id, i) => {
        const q = typeof id === 'string' ? byId.get(id) : undefined;
        if (!q) problems.push({ path: `/questions/${i}`, message: `${JSON.stringify(id)} is not a relationship question of this survey (${relationship.map((r) => r.id).join(', ') || 'it has none'})` });
        else if (chosen.includes(q)) problems.push({ path: `/questions/${i}`, message: `${JSON.stringify(id)} is named twice` });
        else chosen.push(q);
      });
    }
  }
  if (questions === 'each' && relationship.length === 0) problems.push({ path: '/questions', message: 'the survey has no relationship question' });
  if (o.combined !== undefined && typeof o.combined !== 'boolean') problems.push({ path: '/combined', message: 'must be a Boolean' });
  const mode = (o.nonRespondents ?? 'keep') as NonRespondentMode;
  if (!NON_RESPONDENT_MODES.includes(mode)) problems.push({ path: '/nonRespondents', message: `must be one of ${NON_RESPONDENT_MODES.join(', ')}` });
  if (o.minRating !== undefined && (typeof o.minRating !== 'number' || !Number.isInteger(o.minRating) || o.minRating < 1 || o.minRating > 11)) {
    problems.push({ path: '/minRating', message: 'must be a whole number from 1 to 11 (1 = the lowest rating label that is not "I don\'t know")' });
  }
  let fields = fieldRows.filter((f) => f.sensitive === 0).map((f) => f.key);
  if (o.fields !== undefined) {
    if (!Array.isArray(o.fields)) problems.push({ path: '/fields', message: 'must be an array of custom field keys' });
    else {
      const byKey = new Map(fieldRows.map((f) => [f.key, f]));
      fields = [];
      o.fields.forEach((k, i) => {
        const f = typeof k === 'string' ? byKey.get(k) : undefined;
        if (!f) problems.push({ path: `/fields/${i}`, message: `${JSON.stringify(k)} is not a custom field of this directory` });
        else if (f.sensitive && survey.privacy === 'pseudonymised') problems.push({ path: `/fields/${i}`, message: `${JSON.stringify(k)} is sensitive and the survey is pseudonymised: no sensitive field leaves it` });
        else if (!fields.includes(f.key)) fields.push(f.key);
      });
    }
  }
  if (o.dryRun !== undefined && typeof o.dryRun !== 'boolean') problems.push({ path: '/dryRun', message: 'must be a Boolean' });
  if (problems.length) throw invalidArgs(problems);
  if (survey.status === 'draft') throw new DomainError('CONFLICT', 'the survey has not been launched: there are no answers to make networks from');
  return { options: { questions: questions === 'each' ? 'each' : chosen.map((q) => q.id), combined: o.combined === true, nonRespondents: mode, ...(o.minRating !== undefined ? { minRating: o.minRating as number } : {}), fields }, chosen, dryRun: o.dryRun === true };
}

/**
 * The first wave of a survey's chain of waves (`previousWaveId`): its id seeds the pseudonyms of
 * generated networks, so a person has the same code in every wave and waves compare by node id.
 */
export async function firstWaveOf(db: Kysely<Database>, survey: SurveyRecord): Promise<string> {
  let s = survey;
  for (let i = 0; i < 1000 && s.previous_wave_id; i++) {
    const prev = await getSurvey(db, s.previous_wave_id);
    if (!prev || prev.dir !== survey.dir) break;
    s = prev;
  }
  return s.id;
}

/** Everything a build needs from the store, for one survey and options. */
async function loadInput(deps: GenerateDeps, survey: SurveyRecord, c: Checked): Promise<Omit<BuildInput, 'nonRespondents'> & { respondents: number }> {
  const [rosterText, respondents, employees, fieldRows, answerRows] = await Promise.all([
    getRosterIds(deps.db, survey.id),
    listRespondents(deps.db, survey.id),
    allEmployees(deps.db, survey.dir),
    listCustomFields(deps.db, survey.dir),
    listAnswers(deps.db, survey.id),
  ]);
  const byEid = new Map(employees.map((e) => [e.employee_id, e]));
  const answers = new Map<string, Map<string, unknown>>();
  for (const a of answerRows) {
    let m = answers.get(a.employee_id);
    if (!m) answers.set(a.employee_id, (m = new Map()));
    m.set(a.question_id, JSON.parse(a.value) as unknown);
  }
  const order: string[] = [];
  const seen = new Set<string>();
  const add = (eid: string) => {
    if (!byEid.has(eid) || seen.has(eid)) return;
    seen.add(eid);
    order.push(eid);
  };
  for (const eid of JSON.parse(rosterText ?? '[]') as string[]) add(eid);
  for (const r of respondents) if (answers.has(r.employee_id)) add(r.employee_id);

  const pseudonymised = survey.privacy === 'pseudonymised';
  const used = new Set(['name', 'Responded']);
  const chosenFields = c.options.fields.map((k) => fieldRows.find((f) => f.key === k)!).map((f) => {
    const attribute = used.has(f.label) ? (used.has(f.key) ? `field:${f.key}` : f.key) : f.label;
    used.add(attribute);
    return { key: f.key, attribute };
  });
  const sensitiveKeys = new Set(fieldRows.filter((f) => f.sensitive).map((f) => f.key));
  const attributeQuestions = questionsOf(survey)
    .filter((q) => q.type !== 'relationship')
    .filter((q) => !(pseudonymised && q.type === 'text'))
    .filter((q) => !(q.customField && sensitiveKeys.has(q.customField) && (pseudonymised || !c.options.fields.includes(q.customField))))
    .map((q) => {
      let attribute = q.text.trim().replace(/\s+/g, ' ');
      if (attribute.length > ATTRIBUTE_NAME_MAX) attribute = `${attribute.slice(0, ATTRIBUTE_NAME_MAX - 1)}…`;
      if (attribute === '' || used.has(attribute)) attribute = `${attribute} (${q.id})`.trim();
      used.add(attribute);
      return { question: q, attribute };
    });
  const key = pseudonymised ? await linkKey(deps.db, deps.config) : null;
  const codeSurvey = pseudonymised ? await firstWaveOf(deps.db, survey) : survey.id;
  const people = order.map((eid) => {
    const e = byEid.get(eid)!;
    const values = JSON.parse(e.fields) as Record<string, unknown>;
    const attributes: Record<string, string | number> = {};
    for (const f of chosenFields) {
      const v = values[f.key];
      if ((typeof v === 'string' && v.trim() !== '') || (typeof v === 'number' && Number.isFinite(v))) attributes[f.attribute] = v;
    }
    return { employeeId: eid, name: e.name, attributes };
  });
  return {
    people,
    questions: c.chosen,
    attributeQuestions,
    answers,
    minRating: c.options.minRating,
    combined: c.options.combined,
    identity: key ? (eid) => ({ id: pseudonymOf(key, codeSurvey, eid), name: pseudonymOf(key, codeSurvey, eid) }) : (eid) => ({ id: eid, name: byEid.get(eid)?.name ?? eid }),
    respondents: respondents.length,
  };
}

/** The name a generated network gets: the survey, the wave (when past the first), the question. */
export function networkName(survey: Pick<SurveyRecord, 'name' | 'wave'>, q: Question | null): string {
  const wave = survey.wave > 1 && !survey.name.includes(`(wave ${survey.wave})`) ? ` (wave ${survey.wave})` : '';
  const what = q ? q.text.trim().replace(/\s+/g, ' ') : 'all questions combined';
  const name = `${survey.name}${wave} — ${what}`;
  return name.length > 300 ? `${name.slice(0, 299)}…` : name;
}

function description(survey: SurveyRecord, q: Question | null, n: BuiltNetwork, opts: GenerateOptions, at: string, people: number): string {
  const lines = [
    `Generated from the survey "${survey.name}"${survey.wave > 1 ? ` (wave ${survey.wave})` : ''}, ${q ? `question ${q.id} "${q.text}"` : `questions ${opts.questions === 'each' ? 'all relationship questions' : opts.questions.join(', ')} combined (edge attribute Question)`}, on ${at}.`,
    `Options: nonRespondents=${opts.nonRespondents}; minRating=${opts.minRating ?? 'none'}; fields=${opts.fields.join(', ') || 'none'}; combined=${opts.combined}; privacy=${survey.privacy}.`,
    `${n.responded} of ${people} people responded${q ? ' to this question' : ' to at least one question'}.`,
  ];
  if (survey.status !== 'completed') lines.push(`Preliminary: the survey was ${survey.status} when this was generated; generate again after it completes.`);
  return lines.join('\n');
}

/** The options recorded with a generation (provenance). */
export type StoredOptions = GenerateOptions & { privacy: SurveyRecord['privacy']; wave: number; status: SurveyRecord['status'] };

export interface GeneratedNetwork {
  _id: string;
  name: string;
  question: string;
  networkUUID: string;
  nodeCount: number;
  edgeCount: number;
  created: boolean;
}

export interface PreviewNetwork {
  question: string;
  name: string;
  directed: boolean;
  responded: number;
  nodes: number;
  edges: number;
  modes: Record<NonRespondentMode, { nodes: number; edges: number }>;
}

export async function generateNetworks(deps: GenerateDeps, dir: Directory, id: string, body: unknown) {
  const dryRunAsked = typeof body === 'object' && body !== null && (body as { dryRun?: unknown }).dryRun === true;
  const { survey } = await loadSurvey(deps.db, dir, id, dryRunAsked ? 'read' : 'edit');
  const c = checkBody(body, survey, await listCustomFields(deps.db, survey.dir));
  const preliminary = survey.status !== 'completed';
  const { respondents, ...input } = await loadInput(deps, survey, c);
  const questionOf = (qid: string) => c.chosen.find((q) => q.id === qid) ?? null;

  if (c.dryRun) {
    // Counts do not depend on node attributes or labels: build lean (no attributes, plain ids).
    const lean = { ...input, attributeQuestions: [], people: input.people.map((p) => ({ ...p, attributes: {} })), identity: (eid: string) => ({ id: eid, name: eid }) };
    const byMode = new Map(NON_RESPONDENT_MODES.map((m) => [m, buildSurveyNetworks({ ...lean, nonRespondents: m })]));
    const chosen = byMode.get(c.options.nonRespondents)!;
    const networks: PreviewNetwork[] = chosen.map((n, i) => ({
      question: n.question,
      name: networkName(survey, questionOf(n.question)),
      directed: n.directed,
      responded: n.responded,
      nodes: n.nodes.length,
      edges: n.edges.length,
      modes: Object.fromEntries(NON_RESPONDENT_MODES.map((m) => [m, { nodes: byMode.get(m)![i].nodes.length, edges: byMode.get(m)![i].edges.length }])) as PreviewNetwork['modes'],
    }));
    return { status: 200 as const, body: { dryRun: true as const, preliminary, people: input.people.length, respondents, options: c.options, networks } };
  }

  requireScopeOf(dir.principal, 'networks:write');
  const built = buildSurveyNetworks({ ...input, nonRespondents: c.options.nonRespondents });
  const at = nowIso();
  const options: StoredOptions = { ...c.options, privacy: survey.privacy, wave: survey.wave, status: survey.status };
  const out = await inTransaction(deps.db, async (trx) => {
    // Claim the survey first: concurrent generations of one survey run one after the other, so a
    // question never gets two networks.
    await updateSurvey(trx, survey.id, { modified: at });
    const existing = new Map((await listSurveyNetworks(trx, survey.id)).map((r) => [r.question, r.network_id]));
    const made: GeneratedNetwork[] = [];
    for (const n of built) {
      const q = questionOf(n.question);
      const name = networkName(survey, q);
      const text = JSON.stringify({ nodes: n.nodes, edges: n.edges });
      const desc = description(survey, q, n, c.options, at, input.people.length);
      const prior = existing.get(n.question);
      const current = prior ? await getNetwork(trx, prior) : null;
      let rec;
      if (current) {
        rec = await updateNetwork(trx, current.id, { name, description: desc, is_directed: n.directed ? 1 : 0, network_uuid: randomUUID(), node_count: n.nodes.length, edge_count: n.edges.length, json: text });
      } else {
        rec = await createNetwork(trx, deps.config, dir.principal, { name, description: desc, isDirected: n.directed, status: 'Private', networkJSONText: text, owner: undefined, nodeCount: n.nodes.length, edgeCount: n.edges.length });
      }
      if (!rec) throw new DomainError('CONFLICT', 'a generated network was deleted meanwhile; generate again');
      await upsertSurveyNetwork(trx, { survey_id: survey.id, question: n.question, network_id: rec.id, options: JSON.stringify(options), preliminary: preliminary ? 1 : 0, generated_at: at, network_version: rec.version });
      made.push({ _id: rec.id, name, question: n.question, networkUUID: rec.network_uuid, nodeCount: n.nodes.length, edgeCount: n.edges.length, created: !current });
    }
    await auditDirectory(trx, dir, 'survey.networks.generated', survey.id, {
      networks: made.map((m) => ({ _id: m._id, question: m.question, nodes: m.nodeCount, edges: m.edgeCount, created: m.created })),
      nonRespondents: c.options.nonRespondents,
      combined: c.options.combined,
      preliminary,
    });
    return made;
  });
  return { status: 201 as const, body: { networks: out, preliminary, options, generatedAt: at } };
}

/** What `GET /surveys/:id` shows of the generated networks (provenance). */
export async function surveyNetworksOf(db: Kysely<Database>, surveyId: string) {
  return (await listSurveyNetworks(db, surveyId)).map((r) => ({ _id: r.network_id, question: r.question, options: JSON.parse(r.options) as StoredOptions, preliminary: r.preliminary === 1, generatedAt: r.generated_at }));
}

/**
 * Regenerates stored networks of a survey with the options recorded at their generation, as running the
 * generation again with those options would (same `_id`, new `networkUUID`, provenance and `preliminary`
 * updated): erasure of a person (people/erasure.ts, docs/spec/decisions.md §10.1) uses it, inside its
 * transaction, after the person's row, answers and nominations are gone. `rows` are rows of this survey
 * that share one options text (one generation run). Fields deleted since, and sensitive fields of a survey
 * pseudonymised since, are left out; a row whose question is no longer a relationship question of the
 * survey is not regenerated. Answers the ids of the networks regenerated.
 */
export async function regenerateNetworks(deps: GenerateDeps, survey: SurveyRecord, optionsText: string, rows: { network_id: string; question: string }[]): Promise<Set<string>> {
  const stored = JSON.parse(optionsText) as StoredOptions;
  const fieldRows = await listCustomFields(deps.db, survey.dir);
  const relationship = questionsOf(survey).filter((q) => q.type === 'relationship');
  const chosen = stored.questions === 'each' ? relationship : relationship.filter((q) => stored.questions.includes(q.id));
  const pseudonymised = survey.privacy === 'pseudonymised';
  const fields = stored.fields.filter((k) => fieldRows.some((f) => f.key === k && !(pseudonymised && f.sensitive)));
  const done = new Set<string>();
  if (chosen.length === 0) return done;
  const c: Checked = { options: { questions: stored.questions, combined: stored.combined, nonRespondents: stored.nonRespondents, ...(stored.minRating !== undefined ? { minRating: stored.minRating } : {}), fields }, chosen, dryRun: false };
  const { respondents: _respondents, ...input } = await loadInput(deps, survey, c);
  const built = buildSurveyNetworks({ ...input, nonRespondents: c.options.nonRespondents });
  const at = nowIso();
  const preliminary = survey.status !== 'completed';
  const options: StoredOptions = { ...c.options, privacy: survey.privacy, wave: survey.wave, status: survey.status };
  for (const row of rows) {
    const n = built.find((b) => b.question === row.question);
    if (!n) continue;
    const q = chosen.find((x) => x.id === n.question) ?? null;
    const text = JSON.stringify({ nodes: n.nodes, edges: n.edges });
    const desc = description(survey, q, n, c.options, at, input.people.length);
    const rec = await updateNetwork(deps.db, row.network_id, { name: networkName(survey, q), description: desc, is_directed: n.directed ? 1 : 0, network_uuid: randomUUID(), node_count: n.nodes.length, edge_count: n.edges.length, json: text });
    if (!rec) continue;
    await upsertSurveyNetwork(deps.db, { survey_id: survey.id, question: n.question, network_id: rec.id, options: JSON.stringify(options), preliminary: preliminary ? 1 : 0, generated_at: at, network_version: rec.version });
    done.add(rec.id);
  }
  return done;
}
