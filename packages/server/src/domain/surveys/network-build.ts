/**
 * From responses to networks — the pure part (docs/spec/decisions.md §10.4; docs/surveys.md "Generate
 * networks"). No database: generate.ts loads the survey, roster and answers and stores what this builds;
 * the benchmark (bench/survey-networks.ts) and the property tests call it the same way.
 *
 * Nodes are the people: the roster, plus any respondent outside it who answered (a respondent is always a
 * node of their own answers). Node id = employeeId (the stable pseudonym in `pseudonymised` surveys),
 * attributes: `name` (the label; the pseudonym when pseudonymised), the custom fields chosen (by label),
 * the attribute answers (by question text, shortened), `Responded` "true" / "false".
 *
 * Edges are nominations u → v (u named v). A rated nomination's `Weight` is its position on the scale
 * counting the lowest real label as 1: with `dontKnow` the rating index itself (0 = "I don't know this
 * person" makes no tie), without it index + 1. `minRating` (same unit) drops weaker ties; a nomination
 * not yet rated makes no tie when `minRating` is set and a tie without `Weight` otherwise. `Rating` holds
 * the label. Write-ins never become nodes.
 *
 * Non-respondents (people without a saved answer to the question, docs/spec/decisions.md §10.2):
 * - `keep`: every node stays; ties are what respondents reported (so a non-respondent keeps the ties
 *   others reported to them);
 * - `drop`: non-respondents and their ties go;
 * - `reconstruct`: every node stays; each tie u → v a respondent reported to a non-respondent v is also
 *   given back as v → u (edge attribute `Reconstructed` "true", the same Weight) — the non-respondent's
 *   ties are exactly what others said of them, in both directions;
 * - `reciprocated`: only ties both ends named: u → v and v → u are kept when u named v and v named u
 *   (non-respondents keep their node and have no tie).
 * An undirected question gives one edge per pair: in `keep`, `drop` and `reconstruct` when either named
 * the other, in `reciprocated` when both did; its Weight is the mean of the Weights given.
 *
 * The combined network holds every chosen question's edges after its own non-respondent rule, each
 * with `Question` = the question's text (directed when any chosen question is; an undirected question's
 * tie then appears in both directions). A person responded to it when they answered any chosen question;
 * with `drop` its nodes are the people who responded to at least one.
 */
import type { Question } from './questions.ts';

export type NonRespondentMode = 'keep' | 'drop' | 'reconstruct' | 'reciprocated';
export const NON_RESPONDENT_MODES: readonly NonRespondentMode[] = ['keep', 'drop', 'reconstruct', 'reciprocated'];

export interface BuildPerson {
  employeeId: string;
  name: string;
  /** The custom field values that go into the network, by attribute name (already chosen and labelled). */
  attributes: Record<string, string | number>;
}

export interface BuildInput {
  /** Every node, in order (roster first). */
  people: readonly BuildPerson[];
  /** The relationship questions to build, in order. */
  questions: readonly Question[];
  /** The attribute questions whose answers become node attributes, with the attribute name each gets. */
  attributeQuestions: readonly { question: Question; attribute: string }[];
  /** Saved answers: employeeId → question id → value (as saved). */
  answers: ReadonlyMap<string, ReadonlyMap<string, unknown>>;
  nonRespondents: NonRespondentMode;
  minRating?: number;
  combined: boolean;
  /** The id and label a person has in the output (pseudonymised: their code for both). */
  identity: (employeeId: string) => { id: string; name: string };
}

type Attr = Record<string, string | number>;
export interface BuiltNode {
  id: string;
  attributes: Attr;
}
export interface BuiltEdge {
  id: string;
  source: string;
  target: string;
  attributes?: Attr;
}
export interface BuiltNetwork {
  /** Question id, or `combined`. */
  question: string;
  directed: boolean;
  nodes: BuiltNode[];
  edges: BuiltEdge[];
  /** Nodes that responded. */
  responded: number;
}

interface Tie {
  source: string;
  target: string;
  weight?: number;
  label?: string;
  reconstructed?: boolean;
}

/** The Weight of a rating index (see the header), or undefined for an unrated nomination; null = no tie ("don't know"). */
export function weightOf(q: Question, rating: unknown): number | undefined | null {
  if (!q.rating || typeof rating !== 'number') return undefined;
  if (q.rating.dontKnow) return rating === 0 ? null : rating;
  return rating + 1;
}

/** The nominations of one answer that make a tie: [target employeeId, Weight?, label?]. */
function nominations(q: Question, value: unknown, minRating: number | undefined, isNode: (eid: string) => boolean): { target: string; weight?: number; label?: string }[] {
  if (!Array.isArray(value)) return [];
  const out: { target: string; weight?: number; label?: string }[] = [];
  for (const n of value) {
    if (typeof n !== 'object' || n === null) continue;
    const { employeeId, rating } = n as { employeeId?: unknown; rating?: unknown };
    if (typeof employeeId !== 'string' || !isNode(employeeId)) continue; // write-ins, people gone
    const w = weightOf(q, rating);
    if (w === null) continue;
    if (minRating !== undefined && (w === undefined ? q.rating !== undefined : w < minRating)) continue;
    out.push({ target: employeeId, ...(w !== undefined ? { weight: w, label: q.rating!.labels[rating as number] } : {}) });
  }
  return out;
}

function attributeValue(q: Question, v: unknown): string | number | undefined {
  if (v === undefined || v === null) return undefined;
  if (q.type === 'multipleChoice') return Array.isArray(v) && v.length ? v.map(String).join('; ') : undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '') return v;
  return undefined;
}

/** The ties of one question after its non-respondent rule, by employeeId, plus who responded. */
function tiesOf(input: BuildInput, q: Question, isNode: (eid: string) => boolean): { ties: Tie[]; responded: Set<string> } {
  const responded = new Set<string>();
  const named = new Map<string, Map<string, { weight?: number; label?: string }>>();
  for (const [eid, answers] of input.answers) {
    if (!isNode(eid) || !answers.has(q.id)) continue;
    responded.add(eid);
    const m = new Map<string, { weight?: number; label?: string }>();
    for (const n of nominations(q, answers.get(q.id), input.minRating, isNode)) if (n.target !== eid) m.set(n.target, n);
    named.set(eid, m);
  }
  const mode = input.nonRespondents;
  const ties: Tie[] = [];
  const directed = q.directed !== false;
  if (directed) {
    for (const [u, m] of named) {
      for (const [v, n] of m) {
        if (mode === 'drop' && !responded.has(v)) continue;
        if (mode === 'reciprocated' && !named.get(v)?.has(u)) continue;
        ties.push({ source: u, target: v, weight: n.weight, label: n.label });
        if (mode === 'reconstruct' && !responded.has(v)) ties.push({ source: v, target: u, weight: n.weight, label: n.label, reconstructed: true });
      }
    }
    return { ties, responded };
  }
  const pairs = new Map<string, { a: string; b: string; weights: number[]; labels: string[]; count: number }>();
  for (const [u, m] of named) {
    for (const [v, n] of m) {
      if (mode === 'drop' && !responded.has(v)) continue;
      const [a, b] = u < v ? [u, v] : [v, u];
      const key = `${a}\u0000${b}`;
      const p = pairs.get(key) ?? { a, b, weights: [], labels: [], count: 0 };
      p.count++;
      if (n.weight !== undefined) p.weights.push(n.weight);
      if (n.label !== undefined) p.labels.push(n.label);
      pairs.set(key, p);
    }
  }
  for (const p of pairs.values()) {
    if (mode === 'reciprocated' && p.count < 2) continue;
    const weight = p.weights.length ? p.weights.reduce((s, w) => s + w, 0) / p.weights.length : undefined;
    const label = p.labels.length === 1 || (p.labels.length === 2 && p.labels[0] === p.labels[1]) ? p.labels[0] : p.labels.length ? p.labels.join(' / ') : undefined;
    ties.push({ source: p.a, target: p.b, weight, label });
  }
  return { ties, responded };
}

function edgeAttributes(t: Tie, question?: string): Attr | undefined {
  const a: Attr = {};
  if (t.weight !== undefined) a.Weight = t.weight;
  if (t.label !== undefined) a.Rating = t.label;
  if (t.reconstructed) a.Reconstructed = 'true';
  if (question !== undefined) a.Question = question;
  return Object.keys(a).length ? a : undefined;
}

/** Builds one network per chosen question, and the combined one when asked (see the header). */
export function buildSurveyNetworks(input: BuildInput): BuiltNetwork[] {
  const byId = new Map(input.people.map((p) => [p.employeeId, p]));
  const isNode = (eid: string) => byId.has(eid);
  const ids = new Map(input.people.map((p) => [p.employeeId, input.identity(p.employeeId)]));
  const attrs = new Map<string, Attr>();
  for (const p of input.people) {
    const who = ids.get(p.employeeId)!;
    const a: Attr = { name: who.name, ...p.attributes };
    const answers = input.answers.get(p.employeeId);
    for (const { question: q, attribute } of input.attributeQuestions) {
      const v = attributeValue(q, answers?.get(q.id));
      if (v !== undefined) a[attribute] = v;
    }
    attrs.set(p.employeeId, a);
  }
  const nodesOf = (keep: (eid: string) => boolean, responded: Set<string>): BuiltNode[] =>
    input.people.filter((p) => keep(p.employeeId)).map((p) => ({ id: ids.get(p.employeeId)!.id, attributes: { ...attrs.get(p.employeeId)!, Responded: responded.has(p.employeeId) ? 'true' : 'false' } }));
  const out: BuiltNetwork[] = [];
  const all: { q: Question; ties: Tie[] }[] = [];
  const anyResponded = new Set<string>();
  for (const q of input.questions) {
    const { ties, responded } = tiesOf(input, q, isNode);
    for (const e of responded) anyResponded.add(e);
    all.push({ q, ties });
    const keep = input.nonRespondents === 'drop' ? (eid: string) => responded.has(eid) : () => true;
    out.push({
      question: q.id,
      directed: q.directed !== false,
      nodes: nodesOf(keep, responded),
      edges: ties.map((t, i) => ({ id: `e${i + 1}`, source: ids.get(t.source)!.id, target: ids.get(t.target)!.id, ...(edgeAttributes(t) ? { attributes: edgeAttributes(t)! } : {}) })),
      responded: responded.size,
    });
  }
  if (input.combined) {
    const directed = input.questions.some((q) => q.directed !== false);
    const edges: BuiltEdge[] = [];
    for (const { q, ties } of all) {
      for (const t of ties) {
        const add = (s: string, d: string) => edges.push({ id: `e${edges.length + 1}`, source: ids.get(s)!.id, target: ids.get(d)!.id, attributes: edgeAttributes(t, q.text)! });
        add(t.source, t.target);
        if (directed && q.directed === false) add(t.target, t.source);
      }
    }
    const keep = input.nonRespondents === 'drop' ? (eid: string) => anyResponded.has(eid) : () => true;
    out.push({ question: 'combined', directed, nodes: nodesOf(keep, anyResponded), edges, responded: anyResponded.size });
  }
  return out;
}
