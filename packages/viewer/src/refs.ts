/**
 * Node references `{ id }` / `{ label }` (docs/spec/api.md Rules 1) → resolved / ambiguous / fuzzy / hidden /
 * not_found. Labels: an exact match among visible nodes wins (one → resolved, several → ambiguous);
 * else exact matches that are all hidden → hidden; else approximate matches among visible nodes →
 * fuzzy (normalised equality: case, accents, spacing; then edit distance ≤ 2 on labels of 4+
 * characters; then substring for queries of 3+ characters), best first, at most 10 candidates.
 * Commands that change something accept only `resolved` (requireOne). No DOM.
 */
import { LIMITS, type NodeCandidate, type NodeRef, type NodeRefResult, type RefStatus } from '@netloom/protocol';
import type { NetworkModel } from './model.ts';
import { nodeSummary } from './model.ts';
import { CommandError } from './errors.ts';

export function normalizeLabel(s: string): string {
  return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Lookup tables over labels, built once per model. */
export interface LabelIndex {
  exact: Map<string, number[]>;
  normalized: Map<string, number[]>;
  normalizedList: string[];
}

export function buildLabelIndex(model: NetworkModel): LabelIndex {
  const exact = new Map<string, number[]>();
  const normalized = new Map<string, number[]>();
  const normalizedList: string[] = [];
  model.labels.forEach((label, i) => {
    (exact.get(label) ?? exact.set(label, []).get(label) as number[]).push(i);
    const n = normalizeLabel(label);
    normalizedList.push(n);
    (normalized.get(n) ?? normalized.set(n, []).get(n) as number[]).push(i);
  });
  return { exact, normalized, normalizedList };
}

/** Levenshtein distance, giving up (returning max + 1) once it must exceed `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}

export interface Resolution {
  status: RefStatus;
  /** The node (resolved, hidden, or the best fuzzy match). */
  index?: number;
  candidates?: number[];
}

function isRef(ref: unknown): ref is NodeRef {
  if (typeof ref !== 'object' || ref === null || Array.isArray(ref)) return false;
  const keys = Object.keys(ref);
  if (keys.length !== 1) return false;
  const r = ref as Record<string, unknown>;
  if ('id' in r) return typeof r.id === 'string' || (typeof r.id === 'number' && Number.isFinite(r.id));
  if ('label' in r) return typeof r.label === 'string' && r.label !== '';
  return false;
}

export function assertRef(ref: unknown, where = 'reference'): asserts ref is NodeRef {
  if (!isRef(ref)) throw new CommandError('INVALID_ARGS', `${where} must be { id } or { label }`);
}

export function assertRefs(refs: unknown, max: number, where: string): asserts refs is NodeRef[] {
  if (!Array.isArray(refs)) throw new CommandError('INVALID_ARGS', `${where} takes an array of node references`);
  if (refs.length > max) throw new CommandError('INVALID_ARGS', `${where} takes at most ${max} references (got ${refs.length})`);
  refs.forEach((r, k) => assertRef(r, `${where}[${k}]`));
}

export function resolveRef(model: NetworkModel, labels: LabelIndex, hidden: Uint8Array, ref: NodeRef): Resolution {
  if ('id' in ref) {
    const i = model.index.get(String(ref.id));
    if (i === undefined) return { status: 'not_found' };
    return { status: hidden[i] ? 'hidden' : 'resolved', index: i };
  }
  const exact = labels.exact.get(ref.label) ?? [];
  const visible = exact.filter((i) => !hidden[i]);
  if (visible.length === 1) return { status: 'resolved', index: visible[0] };
  if (visible.length > 1) return { status: 'ambiguous', candidates: visible.slice(0, LIMITS.maxCandidates) };
  if (exact.length > 0) return { status: 'hidden', index: exact[0], candidates: exact.length > 1 ? exact.slice(0, LIMITS.maxCandidates) : undefined };
  // Approximate matches among visible nodes, ranked.
  const q = normalizeLabel(ref.label);
  const ranked: { i: number; score: number }[] = [];
  const seen = new Set<number>();
  for (const i of labels.normalized.get(q) ?? []) {
    if (!hidden[i]) {
      ranked.push({ i, score: 0 });
      seen.add(i);
    }
  }
  const maxDist = q.length >= 8 ? 2 : q.length >= 4 ? 1 : 0;
  labels.normalizedList.forEach((label, i) => {
    if (hidden[i] || seen.has(i)) return;
    if (maxDist > 0) {
      const d = editDistance(q, label, maxDist);
      if (d <= maxDist) {
        ranked.push({ i, score: d });
        seen.add(i);
        return;
      }
    }
    if (q.length >= 3 && label.includes(q)) ranked.push({ i, score: 3 + (label.length - q.length) / 1000 });
  });
  if (ranked.length === 0) return { status: 'not_found' };
  ranked.sort((a, b) => a.score - b.score || a.i - b.i);
  const candidates = ranked.slice(0, LIMITS.maxCandidates).map((r) => r.i);
  return { status: 'fuzzy', index: candidates[0], candidates };
}

export function candidateList(model: NetworkModel, hidden: Uint8Array, indices: number[]): NodeCandidate[] {
  return indices.map((i) => ({ id: model.ids[i], label: model.labels[i], hidden: hidden[i] === 1 }));
}

export function describe(model: NetworkModel, hidden: Uint8Array, ref: NodeRef, r: Resolution): NodeRefResult {
  const out: NodeRefResult = { ref, status: r.status };
  if (r.index !== undefined) out.node = nodeSummary(model, r.index);
  if (r.candidates) out.candidates = candidateList(model, hidden, r.candidates);
  return out;
}

/** For commands that change something: exactly one visible node, else AMBIGUOUS_NODE or NOT_FOUND. */
export function requireOne(model: NetworkModel, labels: LabelIndex, hidden: Uint8Array, ref: NodeRef): number {
  const r = resolveRef(model, labels, hidden, ref);
  const text = 'id' in ref ? `id ${String(ref.id)}` : `label "${ref.label}"`;
  switch (r.status) {
    case 'resolved':
      return r.index as number;
    case 'ambiguous':
      throw new CommandError('AMBIGUOUS_NODE', `${text} matches several nodes`, { ref, candidates: candidateList(model, hidden, r.candidates ?? []) });
    case 'fuzzy':
      throw new CommandError('AMBIGUOUS_NODE', `${text} matches no node exactly; did you mean one of the candidates?`, { ref, candidates: candidateList(model, hidden, r.candidates ?? []) });
    case 'hidden':
      throw new CommandError('NOT_FOUND', `${text} is hidden by a filter`, { ref, hidden: true });
    default:
      throw new CommandError('NOT_FOUND', `no node with ${text}`, { ref });
  }
}
