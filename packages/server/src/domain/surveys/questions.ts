/**
 * Survey questions (docs/spec/decisions.md §9, "Questions"): checking a question list as sent (every
 * problem with its JSON pointer) and the value rule of each question type (answers.ts uses it).
 *
 * - relationship `{ id, type, text, directed? (true), minSelections? (0), maxSelections?, rating?: {
 *   labels, dontKnow? }, carryForwardFrom?, allowWriteIns?, noneOption?, required? }`;
 * - attribute `{ id, type: singleChoice | multipleChoice | number | scale | text, text, options?, min?,
 *   max?, customField?, required? }` (choices need options; scale has whole-number min/max, default 1–5).
 * A question sent with an `id` keeps it; others get the next free `q<n>`. `carryForwardFrom` names an
 * earlier relationship question. `customField` names a non-sensitive-or-not field of the directory whose
 * type fits the answer (number/scale → number field; single choice → category or text; text → text).
 */
import type { ProblemItem } from '../errors.ts';
import type { CustomField } from '../people/fields.ts';

export const QUESTION_TYPES = ['relationship', 'singleChoice', 'multipleChoice', 'number', 'scale', 'text'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
const QUESTION_ID = /^[A-Za-z0-9_-]{1,64}$/;

export interface Question {
  id: string;
  type: QuestionType;
  text: string;
  required: boolean;
  directed?: boolean;
  minSelections?: number;
  maxSelections?: number;
  rating?: { labels: string[]; dontKnow: boolean };
  carryForwardFrom?: string;
  allowWriteIns?: boolean;
  noneOption?: boolean;
  options?: string[];
  min?: number;
  max?: number;
  customField?: string;
}

const RELATIONSHIP_KEYS = new Set(['id', 'type', 'text', 'required', 'directed', 'minSelections', 'maxSelections', 'rating', 'carryForwardFrom', 'allowWriteIns', 'noneOption']);
const ATTRIBUTE_KEYS = new Set(['id', 'type', 'text', 'required', 'options', 'min', 'max', 'customField']);

function bool(o: Record<string, unknown>, k: string, at: string, problems: ProblemItem[]): boolean | undefined {
  const v = o[k];
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') {
    problems.push({ path: `${at}/${k}`, message: 'must be a Boolean' });
    return undefined;
  }
  return v;
}

function wholeNumber(o: Record<string, unknown>, k: string, at: string, problems: ProblemItem[], min: number): number | undefined {
  const v = o[k];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > 100_000) {
    problems.push({ path: `${at}/${k}`, message: `must be a whole number ≥ ${min}` });
    return undefined;
  }
  return v;
}

function stringList(v: unknown, at: string, problems: ProblemItem[], what: string, minItems: number, maxItems: number): string[] | undefined {
  if (!Array.isArray(v) || v.length < minItems || v.length > maxItems) {
    problems.push({ path: at, message: `must be ${minItems}–${maxItems} ${what} (Strings)` });
    return undefined;
  }
  const seen = new Set<string>();
  let ok = true;
  v.forEach((s, i) => {
    if (typeof s !== 'string' || s.trim() === '' || s.length > 500) {
      problems.push({ path: `${at}/${i}`, message: 'must be a non-empty String of at most 500 characters' });
      ok = false;
    } else if (seen.has(s)) {
      problems.push({ path: `${at}/${i}`, message: `duplicate ${JSON.stringify(s)}` });
      ok = false;
    } else seen.add(s);
  });
  return ok ? (v as string[]) : undefined;
}

/** Checks a question list as sent at `base` (`/questions`); ids are kept or assigned. */
export function checkQuestions(raw: unknown, base: string, fields: ReadonlyMap<string, CustomField>, problems: ProblemItem[]): Question[] {
  if (!Array.isArray(raw)) {
    problems.push({ path: base, message: 'must be an array of questions' });
    return [];
  }
  if (raw.length > 200) {
    problems.push({ path: base, message: 'at most 200 questions' });
    return [];
  }
  const taken = new Set(raw.map((q) => (typeof q === 'object' && q !== null ? (q as { id?: unknown }).id : undefined)).filter((id): id is string => typeof id === 'string'));
  let next = 1;
  const fresh = () => {
    while (taken.has(`q${next}`)) next++;
    taken.add(`q${next}`);
    return `q${next}`;
  };
  const out: Question[] = [];
  const seenIds = new Map<string, number>();
  const relationshipBefore = new Set<string>();
  raw.forEach((item, i) => {
    const at = `${base}/${i}`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      problems.push({ path: at, message: 'must be a question object { type, text, ... }' });
      return;
    }
    const o = item as Record<string, unknown>;
    const before = problems.length;
    let id: string;
    if (o.id === undefined) id = fresh();
    else if (typeof o.id !== 'string' || !QUESTION_ID.test(o.id)) {
      problems.push({ path: `${at}/id`, message: 'must be 1–64 letters, digits, "_" or "-"' });
      id = '';
    } else id = o.id;
    if (id && seenIds.has(id)) problems.push({ path: `${at}/id`, message: `${JSON.stringify(id)} is also the id of ${base}/${seenIds.get(id)}` });
    else if (id) seenIds.set(id, i);
    const type = o.type as QuestionType;
    if (!QUESTION_TYPES.includes(type)) {
      problems.push({ path: `${at}/type`, message: `must be one of ${QUESTION_TYPES.join(', ')}` });
      return;
    }
    if (typeof o.text !== 'string' || o.text.trim() === '' || o.text.length > 2000) problems.push({ path: `${at}/text`, message: 'must be a non-empty String of at most 2000 characters' });
    const allowed = type === 'relationship' ? RELATIONSHIP_KEYS : ATTRIBUTE_KEYS;
    for (const k of Object.keys(o)) if (!allowed.has(k)) problems.push({ path: `${at}/${k}`, message: `is not a property of a ${type} question` });
    const required = bool(o, 'required', at, problems) ?? false;
    const q: Question = { id, type, text: typeof o.text === 'string' ? o.text.trim() : '', required };
    if (type === 'relationship') {
      q.directed = bool(o, 'directed', at, problems) ?? true;
      q.minSelections = wholeNumber(o, 'minSelections', at, problems, 0) ?? 0;
      const max = wholeNumber(o, 'maxSelections', at, problems, 1);
      if (max !== undefined) {
        q.maxSelections = max;
        if (max < q.minSelections) problems.push({ path: `${at}/maxSelections`, message: `must be ≥ minSelections (${q.minSelections})` });
      }
      if (o.rating !== undefined) {
        const r = o.rating as Record<string, unknown>;
        if (typeof r !== 'object' || r === null || Array.isArray(r)) problems.push({ path: `${at}/rating`, message: 'must be { labels: [String], dontKnow?: Boolean }' });
        else {
          for (const k of Object.keys(r)) if (k !== 'labels' && k !== 'dontKnow') problems.push({ path: `${at}/rating/${k}`, message: 'is not a property of a rating' });
          const labels = stringList(r.labels, `${at}/rating/labels`, problems, 'labels', 2, 11);
          const dontKnow = bool(r, 'dontKnow', `${at}/rating`, problems) ?? false;
          if (labels) q.rating = { labels, dontKnow };
        }
      }
      if (o.carryForwardFrom !== undefined) {
        if (typeof o.carryForwardFrom !== 'string' || !relationshipBefore.has(o.carryForwardFrom)) problems.push({ path: `${at}/carryForwardFrom`, message: 'must be the id of an earlier relationship question' });
        else q.carryForwardFrom = o.carryForwardFrom;
      }
      q.allowWriteIns = bool(o, 'allowWriteIns', at, problems) ?? false;
      q.noneOption = bool(o, 'noneOption', at, problems) ?? false;
      if (id) relationshipBefore.add(id);
    } else {
      if (type === 'singleChoice' || type === 'multipleChoice') {
        const options = stringList(o.options, `${at}/options`, problems, 'options', 1, 100);
        if (options) q.options = options;
      } else if (o.options !== undefined) problems.push({ path: `${at}/options`, message: `a ${type} question has no options` });
      if (type === 'number' || type === 'scale') {
        for (const k of ['min', 'max'] as const) {
          const v = o[k];
          if (v === undefined) continue;
          if (typeof v !== 'number' || !Number.isFinite(v) || (type === 'scale' && !Number.isInteger(v))) problems.push({ path: `${at}/${k}`, message: type === 'scale' ? 'must be a whole number' : 'must be a finite Number' });
          else q[k] = v;
        }
        if (type === 'scale') {
          q.min ??= 1;
          q.max ??= 5;
          if (q.max - q.min > 100) problems.push({ path: `${at}/max`, message: 'a scale has at most 101 points' });
        }
        if (q.min !== undefined && q.max !== undefined && q.max <= q.min) problems.push({ path: `${at}/max`, message: 'must be greater than min' });
      } else if (o.min !== undefined || o.max !== undefined) problems.push({ path: `${at}/${o.min !== undefined ? 'min' : 'max'}`, message: `a ${type} question has no min/max` });
      if (o.customField !== undefined) {
        const f = typeof o.customField === 'string' ? fields.get(o.customField) : undefined;
        if (!f) problems.push({ path: `${at}/customField`, message: 'must be the key of a custom field of this directory' });
        else if (!fieldFits(type, f)) problems.push({ path: `${at}/customField`, message: `a ${type} answer cannot be stored in the ${f.type} field ${JSON.stringify(f.key)}` });
        else q.customField = f.key;
      }
    }
    if (problems.length === before) out.push(q);
  });
  return out;
}

function fieldFits(type: QuestionType, f: CustomField): boolean {
  if (type === 'number' || type === 'scale') return f.type === 'number' || f.type === 'text';
  if (type === 'singleChoice') return f.type === 'category' || f.type === 'text';
  if (type === 'text') return f.type === 'text';
  return false; // multipleChoice: a list has no field type
}

/** The value of an attribute answer, or the problem (relationship answers: answers.ts, they need the roster). */
export function checkAttributeValue(q: Question, value: unknown): string | null {
  switch (q.type) {
    case 'singleChoice':
      return typeof value === 'string' && q.options!.includes(value) ? null : `must be one of ${JSON.stringify(q.options)}`;
    case 'multipleChoice': {
      if (!Array.isArray(value)) return `must be an array of options of ${JSON.stringify(q.options)}`;
      const bad = value.find((v) => typeof v !== 'string' || !q.options!.includes(v));
      if (bad !== undefined) return `${JSON.stringify(bad)} is not an option (${JSON.stringify(q.options)})`;
      if (new Set(value).size !== value.length) return 'lists an option twice';
      return null;
    }
    case 'number':
    case 'scale': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a Number';
      if (q.type === 'scale' && !Number.isInteger(value)) return 'must be a whole number';
      if (q.min !== undefined && value < q.min) return `must be ≥ ${q.min}`;
      if (q.max !== undefined && value > q.max) return `must be ≤ ${q.max}`;
      return null;
    }
    case 'text':
      return typeof value === 'string' && value.length <= 10_000 ? null : 'must be a String of at most 10,000 characters';
    default:
      return 'is not an attribute question';
  }
}
