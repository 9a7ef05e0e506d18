/**
 * People of a directory (docs/spec/decisions.md §9, "Employees"): checking a person as sent, the list,
 * create, replace one, and the bulk upsert keyed by `employeeId` (merge, or replace: people absent from
 * the list are marked `left`, never deleted). Every problem of a body is reported with its JSON pointer,
 * and nothing is stored when there is any. Erasure is domain/people/erasure.ts.
 */
import type { Kysely } from 'kysely';
import { inTransaction, isUniqueViolation, nowIso } from '../../store/db.ts';
import {
  allEmployees,
  clearEmails,
  getEmployee,
  getEmployeeByEmail,
  getEmployeeByEmployeeId,
  insertEmployee,
  listEmployees,
  markLeft,
  updateEmployee,
  upsertEmployees,
  type EmployeeRecord,
} from '../../store/people.ts';
import type { Database, EmployeeStatus } from '../../store/schema.ts';
import { DomainError, invalidArgs, type ProblemItem } from '../errors.ts';
import { newId } from '../ids.ts';
import type { Directory } from './directory.ts';
import { checkFieldValue, fieldsByKey, type CustomField } from './fields.ts';

export interface Employee {
  _id: string;
  employeeId: string;
  name: string;
  email?: string;
  managerId?: string;
  photoUrl?: string;
  fields: Record<string, string | number>;
  status: EmployeeStatus;
  created: string;
  modified: string;
}

/** A person as checked (no ids, no timestamps). */
export interface EmployeeInput {
  employeeId: string;
  name: string;
  email: string | null;
  managerId: string | null;
  photoUrl: string | null;
  fields: Record<string, string | number>;
  status?: EmployeeStatus;
}

export function presentEmployee(r: EmployeeRecord): Employee {
  return {
    _id: r.id,
    employeeId: r.employee_id,
    name: r.name,
    ...(r.email !== null ? { email: r.email } : {}),
    ...(r.manager_id !== null ? { managerId: r.manager_id } : {}),
    ...(r.photo_url !== null ? { photoUrl: r.photo_url } : {}),
    fields: JSON.parse(r.fields) as Record<string, string | number>,
    status: r.status,
    created: r.created,
    modified: r.modified,
  };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const KNOWN_KEYS = new Set(['employeeId', 'name', 'email', 'managerId', 'photoUrl', 'fields', 'status', '_id', 'created', 'modified']);

export function isEmail(s: string): boolean {
  return s.length <= 254 && EMAIL.test(s);
}

export function isHttpUrl(s: string): boolean {
  if (s.length > 2048) return false;
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

const optionalText = (v: unknown): v is undefined | null | '' => v === undefined || v === null || v === '';

/**
 * Checks one person as sent at `at` (a JSON pointer); pushes every problem. Internal fields (`_id`,
 * `created`, `modified`) are ignored; other unknown keys are problems (a typo must not lose data).
 */
export function checkEmployee(raw: unknown, at: string, fields: ReadonlyMap<string, CustomField>, problems: ProblemItem[], opts: { status?: boolean } = {}): EmployeeInput | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.push({ path: at, message: 'must be an object { employeeId, name, email?, managerId?, photoUrl?, fields? }' });
    return null;
  }
  const o = raw as Record<string, unknown>;
  const before = problems.length;
  for (const k of Object.keys(o)) if (!KNOWN_KEYS.has(k) || (k === 'status' && !opts.status)) problems.push({ path: `${at}/${k}`, message: 'is not a field of a person' });
  if (typeof o.employeeId !== 'string' || o.employeeId.trim() === '' || o.employeeId.length > 128) problems.push({ path: `${at}/employeeId`, message: 'must be a String of 1–128 characters' });
  if (typeof o.name !== 'string' || o.name.trim() === '' || o.name.length > 300) problems.push({ path: `${at}/name`, message: 'must be a non-empty String of at most 300 characters' });
  if (!optionalText(o.email) && (typeof o.email !== 'string' || !isEmail(o.email.trim()))) problems.push({ path: `${at}/email`, message: 'must be an e-mail address' });
  if (!optionalText(o.managerId) && (typeof o.managerId !== 'string' || o.managerId.length > 128)) problems.push({ path: `${at}/managerId`, message: 'must be the employeeId of another person' });
  if (!optionalText(o.photoUrl) && (typeof o.photoUrl !== 'string' || !isHttpUrl(o.photoUrl))) problems.push({ path: `${at}/photoUrl`, message: 'must be an http: or https: URL' });
  if (o.status !== undefined && o.status !== 'active' && o.status !== 'left') problems.push({ path: `${at}/status`, message: 'must be "active" or "left"' });
  const values: Record<string, string | number> = {};
  if (o.fields !== undefined && o.fields !== null) {
    if (typeof o.fields !== 'object' || Array.isArray(o.fields)) problems.push({ path: `${at}/fields`, message: 'must be an object { <custom field key>: String | Number }' });
    else {
      for (const [k, v] of Object.entries(o.fields as Record<string, unknown>)) {
        const f = fields.get(k);
        if (!f) {
          problems.push({ path: `${at}/fields/${k}`, message: 'is not a custom field of this directory' });
          continue;
        }
        const c = checkFieldValue(f, v);
        if (c.problem) problems.push({ path: `${at}/fields/${k}`, message: c.problem });
        else if (c.value !== undefined) values[k] = c.value;
      }
    }
  }
  if (problems.length > before) return null;
  const employeeId = (o.employeeId as string).trim();
  const managerId = optionalText(o.managerId) ? null : (o.managerId as string).trim();
  if (managerId === employeeId) {
    problems.push({ path: `${at}/managerId`, message: 'cannot be the person themself' });
    return null;
  }
  return {
    employeeId,
    name: (o.name as string).trim(),
    email: optionalText(o.email) ? null : (o.email as string).trim(),
    managerId,
    photoUrl: optionalText(o.photoUrl) ? null : (o.photoUrl as string),
    fields: values,
    ...(o.status !== undefined ? { status: o.status as EmployeeStatus } : {}),
  };
}

/* ------------------------------------------------------------------------- reads */

export interface ListQuery {
  limit?: string;
  offset?: string;
  q?: string;
  status?: string;
}

/** `limit` (1–500, default 100) and `offset` of a list query; 400 naming the parameter. */
export function parsePage(q: { limit?: string; offset?: string }, problems: ProblemItem[], def = 100): { limit: number; offset: number } {
  const limit = q.limit === undefined ? def : Number(q.limit);
  const offset = q.offset === undefined ? 0 : Number(q.offset);
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) problems.push({ path: '/query/limit', message: 'must be a whole number from 1 to 500' });
  if (!Number.isInteger(offset) || offset < 0) problems.push({ path: '/query/offset', message: 'must be a whole number ≥ 0' });
  return { limit, offset };
}

export async function listPeople(db: Kysely<Database>, dir: Directory, q: ListQuery): Promise<{ total: number; offset: number; limit: number; employees: Employee[] }> {
  const problems: ProblemItem[] = [];
  const page = parsePage(q, problems);
  if (q.status !== undefined && q.status !== 'active' && q.status !== 'left') problems.push({ path: '/query/status', message: 'must be "active" or "left"' });
  if (q.q !== undefined && q.q.length > 200) problems.push({ path: '/query/q', message: 'must be at most 200 characters' });
  if (problems.length) throw invalidArgs(problems, 'query');
  const { total, rows } = await listEmployees(db, dir.key, { ...page, q: q.q?.trim() || undefined, status: q.status as EmployeeStatus | undefined });
  return { total, offset: page.offset, limit: page.limit, employees: rows.map(presentEmployee) };
}

export async function loadPerson(db: Kysely<Database>, dir: Directory, id: string): Promise<EmployeeRecord> {
  const e = await getEmployee(db, dir.key, id);
  if (!e) throw new DomainError('NOT_FOUND', `no person ${JSON.stringify(id)}`);
  return e;
}

/* ------------------------------------------------------------------------ writes */

function conflict(field: 'employeeId' | 'email', value: string, at = ''): DomainError {
  return new DomainError('CONFLICT', `${field}: ${JSON.stringify(value)} already belongs to another person of this directory`, [{ path: `${at}/${field}`, message: 'is taken' }]);
}

async function checkManager(db: Kysely<Database>, dir: Directory, input: EmployeeInput): Promise<void> {
  if (input.managerId === null) return;
  if (!(await getEmployeeByEmployeeId(db, dir.key, input.managerId))) throw invalidArgs([{ path: '/managerId', message: `no person with employeeId ${JSON.stringify(input.managerId)}` }]);
}

function rowOf(dir: Directory, input: EmployeeInput, id: string, created: string, modified: string, status: EmployeeStatus): EmployeeRecord {
  return {
    id,
    dir: dir.key,
    employee_id: input.employeeId,
    name: input.name,
    email: input.email,
    email_lc: input.email === null ? null : input.email.toLowerCase(),
    manager_id: input.managerId,
    photo_url: input.photoUrl,
    fields: JSON.stringify(input.fields),
    status,
    created,
    modified,
  };
}

export async function createPerson(db: Kysely<Database>, dir: Directory, body: unknown): Promise<Employee> {
  const problems: ProblemItem[] = [];
  const input = checkEmployee(body, '', await fieldsByKey(db, dir), problems, { status: true });
  if (!input) throw invalidArgs(problems);
  await checkManager(db, dir, input);
  if (await getEmployeeByEmployeeId(db, dir.key, input.employeeId)) throw conflict('employeeId', input.employeeId);
  if (input.email && (await getEmployeeByEmail(db, dir.key, input.email.toLowerCase()))) throw conflict('email', input.email);
  const now = nowIso();
  const row = rowOf(dir, input, newId(), now, now, input.status ?? 'active');
  try {
    await insertEmployee(db, row);
  } catch (err) {
    if (isUniqueViolation(err)) throw new DomainError('CONFLICT', 'employeeId or email: already belongs to another person of this directory');
    throw err;
  }
  return presentEmployee(row);
}

/** Replaces a person (`employeeId` and `name` required, the rest as sent; `status` kept unless sent). */
export async function replacePerson(db: Kysely<Database>, dir: Directory, id: string, body: unknown): Promise<Employee> {
  const current = await loadPerson(db, dir, id);
  const problems: ProblemItem[] = [];
  const input = checkEmployee(body, '', await fieldsByKey(db, dir), problems, { status: true });
  if (!input) throw invalidArgs(problems);
  await checkManager(db, dir, input);
  const same = await getEmployeeByEmployeeId(db, dir.key, input.employeeId);
  if (same && same.id !== id) throw conflict('employeeId', input.employeeId);
  if (input.email) {
    const holder = await getEmployeeByEmail(db, dir.key, input.email.toLowerCase());
    if (holder && holder.id !== id) throw conflict('email', input.email);
  }
  const row = rowOf(dir, input, id, current.created, nowIso(), input.status ?? current.status);
  const { id: _id, dir: _dir, created: _created, ...patch } = row;
  try {
    await updateEmployee(db, dir.key, id, patch);
  } catch (err) {
    if (isUniqueViolation(err)) throw new DomainError('CONFLICT', 'employeeId or email: already belongs to another person of this directory');
    throw err;
  }
  return presentEmployee(row);
}

/* ------------------------------------------------------------------- bulk upsert */

export type UpsertMode = 'merge' | 'replace';
export const MAX_BULK = 200_000;

export interface UpsertResult {
  created: number;
  updated: number;
  left: number;
}

/**
 * Checks a whole list (every problem, with `${base}/<i>/…` pointers): each person, duplicate employeeIds
 * and e-mails within the list and against the people not in it, and managers that name nobody.
 */
export function checkPeopleList(list: unknown[], base: string, fields: ReadonlyMap<string, CustomField>, existing: readonly EmployeeRecord[], problems: ProblemItem[]): EmployeeInput[] {
  const inputs: EmployeeInput[] = [];
  const firstIndex = new Map<string, number>();
  const emailIndex = new Map<string, number>();
  list.forEach((raw, i) => {
    const input = checkEmployee(raw, `${base}/${i}`, fields, problems);
    if (!input) return;
    const prev = firstIndex.get(input.employeeId);
    if (prev !== undefined) problems.push({ path: `${base}/${i}/employeeId`, message: `${JSON.stringify(input.employeeId)} is also at ${base}/${prev}` });
    else firstIndex.set(input.employeeId, i);
    if (input.email) {
      const lc = input.email.toLowerCase();
      const p = emailIndex.get(lc);
      if (p !== undefined) problems.push({ path: `${base}/${i}/email`, message: `${JSON.stringify(input.email)} is also at ${base}/${p}` });
      else emailIndex.set(lc, i);
    }
    inputs.push(input);
  });
  const known = new Set(firstIndex.keys());
  for (const e of existing) {
    known.add(e.employee_id);
    // an address kept by someone not in the list cannot be given to someone in it
    if (e.email_lc !== null && !firstIndex.has(e.employee_id)) {
      const i = emailIndex.get(e.email_lc);
      if (i !== undefined) problems.push({ path: `${base}/${i}/email`, message: `${JSON.stringify(e.email)} belongs to ${JSON.stringify(e.employee_id)}, who is not in this list` });
    }
  }
  // managers are checked on every item (also those with other problems), so one call lists them all
  list.forEach((raw) => {
    const r = (typeof raw === 'object' && raw !== null ? raw : {}) as { employeeId?: unknown; managerId?: unknown };
    if (typeof r.employeeId === 'string') known.add(r.employeeId.trim());
  });
  list.forEach((raw, i) => {
    const m = (typeof raw === 'object' && raw !== null ? (raw as { managerId?: unknown }).managerId : undefined);
    if (typeof m === 'string' && m.trim() !== '' && !known.has(m.trim())) problems.push({ path: `${base}/${i}/managerId`, message: `no person with employeeId ${JSON.stringify(m.trim())}` });
  });
  return inputs;
}

/**
 * `PUT /employees` `{ employees, mode }` → `{ created, updated, left }`: people keyed by employeeId are
 * created or updated (updated counts only people whose stored values change; a `left` person in the
 * list becomes `active` again); in `replace` mode, active people absent from the list become `left`.
 * All or nothing: one transaction, after every problem of the body was reported.
 */
export async function upsertPeople(db: Kysely<Database>, dir: Directory, body: unknown, opts: { dryRun?: boolean } = {}): Promise<UpsertResult> {
  const problems: ProblemItem[] = [];
  const o = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) problems.push({ path: '', message: 'must be an object { employees: [...], mode: "merge" | "replace" }' });
  const mode = o.mode ?? 'merge';
  if (mode !== 'merge' && mode !== 'replace') problems.push({ path: '/mode', message: 'must be "merge" or "replace"' });
  for (const k of Object.keys(o)) if (k !== 'employees' && k !== 'mode') problems.push({ path: `/${k}`, message: 'is not a parameter (send employees and mode)' });
  if (!Array.isArray(o.employees)) problems.push({ path: '/employees', message: 'must be an array of people' });
  else if (o.employees.length > MAX_BULK) problems.push({ path: '/employees', message: `at most ${MAX_BULK} people per call` });
  if (problems.length) throw invalidArgs(problems);
  return applyPeople(db, dir, o.employees as unknown[], mode as UpsertMode, '/employees', opts);
}

/** The checked work of a bulk upsert (also the import's): every problem or nothing stored. */
export async function applyPeople(db: Kysely<Database>, dir: Directory, list: unknown[], mode: UpsertMode, base: string, opts: { dryRun?: boolean; problems?: ProblemItem[] } = {}): Promise<UpsertResult> {
  const fields = await fieldsByKey(db, dir);
  return inTransaction(db, async (trx) => {
    const existing = await allEmployees(trx, dir.key);
    const problems = opts.problems ?? [];
    const inputs = checkPeopleList(list, base, fields, existing, problems);
    if (problems.length) throw invalidArgs(problems);
    const byEid = new Map(existing.map((e) => [e.employee_id, e]));
    const now = nowIso();
    const rows: EmployeeRecord[] = [];
    const movingEmails: string[] = [];
    let created = 0;
    let updated = 0;
    for (const input of inputs) {
      const old = byEid.get(input.employeeId);
      const row = rowOf(dir, input, old?.id ?? newId(), old?.created ?? now, now, 'active');
      if (!old) created++;
      else {
        byEid.delete(input.employeeId);
        const same = old.name === row.name && old.email === row.email && old.manager_id === row.manager_id && old.photo_url === row.photo_url && old.fields === row.fields && old.status === 'active';
        if (same) continue;
        updated++;
        if (old.email_lc !== null && old.email_lc !== row.email_lc) movingEmails.push(old.id);
      }
      rows.push(row);
    }
    const leaving = mode === 'replace' ? [...byEid.values()].filter((e) => e.status === 'active').map((e) => e.id) : [];
    if (opts.dryRun) return { created, updated, left: leaving.length };
    // addresses that change hands inside the list are released first (the unique index holds at every row)
    if (movingEmails.length) await clearEmails(trx, dir.key, movingEmails);
    await upsertEmployees(trx, rows);
    if (leaving.length) await markLeft(trx, dir.key, leaving, now);
    return { created, updated, left: leaving.length };
  });
}
