/** The people directory (repository): custom fields and employees, always within one directory key. */
import { sql, type Kysely, type Selectable } from 'kysely';
import { dialectOf } from './db.ts';
import { getInScope, listInScope } from './queries.ts';
import type { CustomFieldsTable, Database, EmployeesTable, EmployeeStatus } from './schema.ts';

export type CustomFieldRecord = Selectable<CustomFieldsTable>;
export type EmployeeRecord = Selectable<EmployeesTable>;

/* ------------------------------------------------------------------ custom fields */

export function listCustomFields(db: Kysely<Database>, dir: string): Promise<CustomFieldRecord[]> {
  return listInScope(db, 'custom_fields', 'dir', dir);
}

export function getCustomField(db: Kysely<Database>, dir: string, id: string): Promise<CustomFieldRecord | null> {
  return getInScope(db, 'custom_fields', 'dir', dir, id);
}

export async function insertCustomField(db: Kysely<Database>, row: CustomFieldRecord): Promise<void> {
  await db.insertInto('custom_fields').values(row).execute();
}

export async function updateCustomField(db: Kysely<Database>, dir: string, id: string, patch: Partial<Pick<CustomFieldRecord, 'label' | 'options' | 'sensitive' | 'modified'>>): Promise<void> {
  await db.updateTable('custom_fields').set(patch).where('dir', '=', dir).where('id', '=', id).execute();
}

export async function deleteCustomField(db: Kysely<Database>, dir: string, id: string): Promise<void> {
  await db.deleteFrom('custom_fields').where('dir', '=', dir).where('id', '=', id).execute();
}

/* ----------------------------------------------------------------------- employees */

export interface EmployeeQuery {
  q?: string;
  status?: EmployeeStatus;
  limit: number;
  offset: number;
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A page of a directory's people by name (then id), filtered by a case-insensitive part of name/e-mail/employeeId and by status. */
export async function listEmployees(db: Kysely<Database>, dir: string, query: EmployeeQuery): Promise<{ total: number; rows: EmployeeRecord[] }> {
  let base = db.selectFrom('employees').where('dir', '=', dir);
  if (query.status) base = base.where('status', '=', query.status);
  if (query.q) {
    const like = `%${escapeLike(query.q.toLowerCase())}%`;
    const esc = dialectOf(db) === 'sqlite' ? sql` escape '\\'` : sql``;
    base = base.where((eb) =>
      eb.or([
        eb(sql`lower(name)`, 'like', sql`${like}${esc}`),
        eb(sql`coalesce(email_lc, '')`, 'like', sql`${like}${esc}`),
        eb(sql`lower(employee_id)`, 'like', sql`${like}${esc}`),
      ]),
    );
  }
  const [{ n }, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    base.selectAll().orderBy('name').orderBy('id').limit(query.limit).offset(query.offset).execute(),
  ]);
  return { total: Number(n), rows };
}

/** Every person of a directory (bulk upsert, surveys' roster). */
export function allEmployees(db: Kysely<Database>, dir: string): Promise<EmployeeRecord[]> {
  return db.selectFrom('employees').selectAll().where('dir', '=', dir).orderBy('name').orderBy('id').execute();
}

export function getEmployee(db: Kysely<Database>, dir: string, id: string): Promise<EmployeeRecord | null> {
  return getInScope(db, 'employees', 'dir', dir, id);
}

export async function getEmployeeByEmployeeId(db: Kysely<Database>, dir: string, employeeId: string): Promise<EmployeeRecord | null> {
  return (await db.selectFrom('employees').selectAll().where('dir', '=', dir).where('employee_id', '=', employeeId).executeTakeFirst()) ?? null;
}

export function getEmployeesByEmployeeIds(db: Kysely<Database>, dir: string, employeeIds: readonly string[]): Promise<EmployeeRecord[]> {
  if (employeeIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('employees').selectAll().where('dir', '=', dir).where('employee_id', 'in', employeeIds).execute();
}

/** The person holding this e-mail (lower-cased) in the directory, if any. */
export async function getEmployeeByEmail(db: Kysely<Database>, dir: string, emailLc: string): Promise<EmployeeRecord | null> {
  return (await db.selectFrom('employees').selectAll().where('dir', '=', dir).where('email_lc', '=', emailLc).executeTakeFirst()) ?? null;
}

export async function insertEmployee(db: Kysely<Database>, row: EmployeeRecord): Promise<void> {
  await db.insertInto('employees').values(row).execute();
}

export async function updateEmployee(db: Kysely<Database>, dir: string, id: string, patch: Partial<Omit<EmployeeRecord, 'id' | 'dir' | 'created'>>): Promise<void> {
  await db.updateTable('employees').set(patch).where('dir', '=', dir).where('id', '=', id).execute();
}

export async function deleteEmployee(db: Kysely<Database>, dir: string, id: string): Promise<boolean> {
  const r = await db.deleteFrom('employees').where('dir', '=', dir).where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Rows per multi-row statement: 12 parameters a row stays far below both databases' parameter limits. */
const UPSERT_CHUNK = 1000;

/**
 * Inserts or updates (by directory + employee_id) many people in chunks of multi-row
 * `INSERT … ON CONFLICT DO UPDATE` statements (the same SQL on SQLite and PostgreSQL); an existing row
 * keeps its `id` and `created`. Run it inside a transaction.
 */
export async function upsertEmployees(db: Kysely<Database>, rows: readonly EmployeeRecord[]): Promise<void> {
  for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
    await db
      .insertInto('employees')
      .values(rows.slice(i, i + UPSERT_CHUNK))
      .onConflict((oc) =>
        oc.columns(['dir', 'employee_id']).doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          email: eb.ref('excluded.email'),
          email_lc: eb.ref('excluded.email_lc'),
          manager_id: eb.ref('excluded.manager_id'),
          photo_url: eb.ref('excluded.photo_url'),
          fields: eb.ref('excluded.fields'),
          status: eb.ref('excluded.status'),
          modified: eb.ref('excluded.modified'),
        })),
      )
      .execute();
  }
}

/** Clears the e-mail of these rows (a bulk upsert moves an address from one person to another). */
export async function clearEmails(db: Kysely<Database>, dir: string, ids: readonly string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += UPSERT_CHUNK) {
    await db.updateTable('employees').set({ email: null, email_lc: null }).where('dir', '=', dir).where('id', 'in', ids.slice(i, i + UPSERT_CHUNK)).execute();
  }
}

/** Marks these rows `left` (replace mode of the bulk upsert). */
export async function markLeft(db: Kysely<Database>, dir: string, ids: readonly string[], modified: string): Promise<void> {
  for (let i = 0; i < ids.length; i += UPSERT_CHUNK) {
    await db.updateTable('employees').set({ status: 'left', modified }).where('dir', '=', dir).where('id', 'in', ids.slice(i, i + UPSERT_CHUNK)).execute();
  }
}
