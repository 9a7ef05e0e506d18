/**
 * 0009: the people directory (docs/spec/decisions.md §9): custom fields and employees, each keyed by
 * its directory (`org:<id>` or `user:<id>`). `employee_id` is unique per directory, and so is the
 * lower-cased e-mail when present (both databases allow several NULLs in a unique index).
 */
import { createTable, dropTables, id, index, nullable, text, timestamps, uniqueIndex, withDefault, type AnyDb } from './tables.ts';

export async function up(db: AnyDb): Promise<void> {
  await createTable(db, 'custom_fields', [id, text('dir', 'key', 'label', 'type'), nullable('text', 'options'), withDefault('sensitive', 'integer', 0), timestamps], {
    indexes: [uniqueIndex('custom_fields_dir_key_ux', 'dir', 'key')],
  });
  await createTable(db, 'employees', [
    id,
    text('dir', 'employee_id', 'name'),
    nullable('text', 'email', 'email_lc', 'manager_id', 'photo_url'),
    text('fields', 'status'),
    timestamps,
  ], {
    indexes: [
      uniqueIndex('employees_dir_eid_ux', 'dir', 'employee_id'),
      uniqueIndex('employees_dir_email_ux', 'dir', 'email_lc'),
      index('employees_dir_name_ix', 'dir', 'name'),
    ],
  });
}

export async function down(db: AnyDb): Promise<void> {
  await dropTables(db, 'employees', 'custom_fields');
}
