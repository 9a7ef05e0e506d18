/**
 * 0009: the people directory (docs/spec/decisions.md §9): custom fields and employees, each keyed by
 * its directory (`org:<id>` or `user:<id>`). `employee_id` is unique per directory, and so is the
 * lower-cased e-mail when present (both databases allow several NULLs in a unique index).
 */
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('custom_fields')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('dir', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('options', 'text')
    .addColumn('sensitive', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('custom_fields_dir_key_ux').on('custom_fields').columns(['dir', 'key']).unique().execute();
  await db.schema
    .createTable('employees')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('dir', 'text', (c) => c.notNull())
    .addColumn('employee_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('email_lc', 'text')
    .addColumn('manager_id', 'text')
    .addColumn('photo_url', 'text')
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('employees_dir_eid_ux').on('employees').columns(['dir', 'employee_id']).unique().execute();
  await db.schema.createIndex('employees_dir_email_ux').on('employees').columns(['dir', 'email_lc']).unique().execute();
  await db.schema.createIndex('employees_dir_name_ix').on('employees').columns(['dir', 'name']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('employees').ifExists().execute();
  await db.schema.dropTable('custom_fields').ifExists().execute();
}
