/**
 * Custom fields of a directory (docs/spec/decisions.md §9): `{ key, label, type, options?, sensitive }`.
 * `key` is 1–64 letters, digits, `_`, `-`, unique in the directory (409 CONFLICT when taken) and never
 * changes; `type` never changes either (values already stored were checked against it). Deleting a field
 * removes its values from every person of the directory.
 */
import type { Kysely } from 'kysely';
import { inTransaction, isUniqueViolation, nowIso } from '../../store/db.ts';
import { allEmployees, deleteCustomField, getCustomField, insertCustomField, listCustomFields, updateCustomField, updateEmployee, type CustomFieldRecord } from '../../store/people.ts';
import type { CustomFieldType, Database } from '../../store/schema.ts';
import { DomainError, invalidArgs, type ProblemItem } from '../errors.ts';
import { newId } from '../ids.ts';
import type { Directory } from './directory.ts';

export const FIELD_TYPES: readonly CustomFieldType[] = ['text', 'number', 'date', 'category'];
export const FIELD_KEY = /^[A-Za-z0-9_-]{1,64}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface CustomField {
  _id: string;
  key: string;
  label: string;
  type: CustomFieldType;
  options?: string[];
  sensitive: boolean;
  created: string;
  modified: string;
}

export function presentField(r: CustomFieldRecord): CustomField {
  return {
    _id: r.id,
    key: r.key,
    label: r.label,
    type: r.type,
    ...(r.options !== null ? { options: JSON.parse(r.options) as string[] } : {}),
    sensitive: r.sensitive === 1,
    created: r.created,
    modified: r.modified,
  };
}

/** The directory's fields by key (what employee values are checked against). */
export async function fieldsByKey(db: Kysely<Database>, dir: Directory): Promise<Map<string, CustomField>> {
  return new Map((await listCustomFields(db, dir.key)).map((r) => [r.key, presentField(r)]));
}

/**
 * One value of field `f` as stored, or a problem. Empty (`null`, `""`) means absent (undefined). Numbers
 * for `number`; `YYYY-MM-DD` for `date`; one of `options` for `category`; text takes Strings and Numbers.
 */
export function checkFieldValue(f: CustomField, value: unknown): { value?: string | number; problem?: string } {
  if (value === null || value === undefined || value === '') return {};
  if (f.type === 'number') {
    if (typeof value === 'number' && Number.isFinite(value)) return { value };
    return { problem: `must be a number (field ${JSON.stringify(f.key)} is of type number)` };
  }
  if (typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) return { problem: 'must be a String or a Number' };
  if (f.type === 'date') {
    const s = String(value);
    if (!DATE.test(s) || Number.isNaN(Date.parse(`${s}T00:00:00Z`)) || new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) !== s) return { problem: 'must be a date YYYY-MM-DD' };
    return { value: s };
  }
  if (f.type === 'category') {
    const s = String(value);
    if (!(f.options ?? []).includes(s)) return { problem: `must be one of ${JSON.stringify(f.options ?? [])}` };
    return { value: s };
  }
  if (typeof value === 'string' && value.length > 2000) return { problem: 'is longer than 2000 characters' };
  return { value };
}

interface FieldInput {
  key?: unknown;
  label?: unknown;
  type?: unknown;
  options?: unknown;
  sensitive?: unknown;
}

function checkOptions(options: unknown, problems: ProblemItem[]): string[] | undefined {
  if (!Array.isArray(options) || options.length === 0 || options.length > 500) {
    problems.push({ path: '/options', message: 'a category field needs 1 to 500 options (Strings)' });
    return undefined;
  }
  const seen = new Set<string>();
  options.forEach((o, i) => {
    if (typeof o !== 'string' || o.trim() === '' || o.length > 200) problems.push({ path: `/options/${i}`, message: 'must be a non-empty String of at most 200 characters' });
    else if (seen.has(o)) problems.push({ path: `/options/${i}`, message: `duplicate option ${JSON.stringify(o)}` });
    else seen.add(o);
  });
  return options as string[];
}

function checkLabel(label: unknown, problems: ProblemItem[]): void {
  if (typeof label !== 'string' || label.trim() === '' || label.length > 200) problems.push({ path: '/label', message: 'must be a non-empty String of at most 200 characters' });
}

export async function listFields(db: Kysely<Database>, dir: Directory): Promise<CustomField[]> {
  return (await listCustomFields(db, dir.key)).map(presentField);
}

export async function createField(db: Kysely<Database>, dir: Directory, body: FieldInput): Promise<CustomField> {
  const problems: ProblemItem[] = [];
  if (typeof body.key !== 'string' || !FIELD_KEY.test(body.key)) problems.push({ path: '/key', message: 'must be 1–64 letters, digits, "_" or "-"' });
  checkLabel(body.label, problems);
  if (!FIELD_TYPES.includes(body.type as CustomFieldType)) problems.push({ path: '/type', message: `must be one of ${FIELD_TYPES.join(', ')}` });
  let options: string[] | undefined;
  if (body.type === 'category') options = checkOptions(body.options, problems);
  else if (body.options !== undefined) problems.push({ path: '/options', message: 'only a category field has options' });
  if (body.sensitive !== undefined && typeof body.sensitive !== 'boolean') problems.push({ path: '/sensitive', message: 'must be a Boolean' });
  if (problems.length) throw invalidArgs(problems);
  const now = nowIso();
  const row: CustomFieldRecord = {
    id: newId(),
    dir: dir.key,
    key: body.key as string,
    label: (body.label as string).trim(),
    type: body.type as CustomFieldType,
    options: options ? JSON.stringify(options) : null,
    sensitive: body.sensitive === true ? 1 : 0,
    created: now,
    modified: now,
  };
  try {
    await insertCustomField(db, row);
  } catch (err) {
    if (isUniqueViolation(err)) throw new DomainError('CONFLICT', `key: the directory already has a field ${JSON.stringify(row.key)}`, [{ path: '/key', message: 'is taken' }]);
    throw err;
  }
  return presentField(row);
}

async function loadField(db: Kysely<Database>, dir: Directory, id: string): Promise<CustomFieldRecord> {
  const f = await getCustomField(db, dir.key, id);
  if (!f) throw new DomainError('NOT_FOUND', `no custom field ${JSON.stringify(id)}`);
  return f;
}

export async function getField(db: Kysely<Database>, dir: Directory, id: string): Promise<CustomField> {
  return presentField(await loadField(db, dir, id));
}

/** Changes `label`, `options` (category) and `sensitive` when sent; `key` and `type`, when sent, must be unchanged. */
export async function updateField(db: Kysely<Database>, dir: Directory, id: string, body: FieldInput): Promise<CustomField> {
  const f = await loadField(db, dir, id);
  const problems: ProblemItem[] = [];
  if (body.key !== undefined && body.key !== f.key) problems.push({ path: '/key', message: 'cannot change (create a new field instead)' });
  if (body.type !== undefined && body.type !== f.type) problems.push({ path: '/type', message: 'cannot change (create a new field instead)' });
  if (body.label !== undefined) checkLabel(body.label, problems);
  let options: string[] | undefined;
  if (body.options !== undefined) {
    if (f.type !== 'category') problems.push({ path: '/options', message: 'only a category field has options' });
    else options = checkOptions(body.options, problems);
  }
  if (body.sensitive !== undefined && typeof body.sensitive !== 'boolean') problems.push({ path: '/sensitive', message: 'must be a Boolean' });
  if (problems.length) throw invalidArgs(problems);
  const patch = {
    ...(body.label !== undefined ? { label: (body.label as string).trim() } : {}),
    ...(options ? { options: JSON.stringify(options) } : {}),
    ...(body.sensitive !== undefined ? { sensitive: body.sensitive ? 1 : 0 } : {}),
    modified: nowIso(),
  };
  await updateCustomField(db, dir.key, id, patch);
  return presentField({ ...f, ...patch });
}

/** Deletes a field and its values from every person of the directory; answers how many people held a value. */
export async function deleteField(db: Kysely<Database>, dir: Directory, id: string): Promise<{ _id: string; deleted: true; valuesRemoved: number }> {
  const f = await loadField(db, dir, id);
  return inTransaction(db, async (trx) => {
    let removed = 0;
    for (const e of await allEmployees(trx, dir.key)) {
      const fields = JSON.parse(e.fields) as Record<string, unknown>;
      if (!(f.key in fields)) continue;
      delete fields[f.key];
      removed++;
      await updateEmployee(trx, dir.key, e.id, { fields: JSON.stringify(fields) });
    }
    await deleteCustomField(trx, dir.key, id);
    return { _id: id, deleted: true as const, valuesRemoved: removed };
  });
}
