/**
 * The pinned schema of the migrations (store-contract.test.ts): migrations that have run in
 * deployments must never change what they create (their shared column helpers,
 * src/store/migrations/tables.ts, included). The snapshot (../fixtures/migration-schema/<dialect>.txt)
 * lists the migration names in order and every table, column, index, constraint and trigger of a
 * freshly migrated database (Kysely's own bookkeeping tables left out). A new migration changes it on
 * purpose: regenerate it with `NETLOOM_UPDATE_SCHEMA_SNAPSHOT=1 npx node scripts/test.ts store-contract`
 * and review the diff.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/store/schema.ts';
import type { TestDatabase } from './db.ts';

const SNAPSHOTS = join(import.meta.dirname, '..', 'fixtures', 'migration-schema');

/** One line per object: `<kind> <JSON of its catalogue row>`, in a stable order. */
async function rows(db: Kysely<Database>, kind: string, query: ReturnType<typeof sql>): Promise<string[]> {
  const result = await query.execute(db);
  return result.rows.map((row) => `${kind} ${JSON.stringify(row)}`);
}

async function dumpSqlite(db: Kysely<Database>): Promise<string[]> {
  return rows(db, 'object', sql`select type, name, tbl_name, sql from sqlite_master where name not like 'kysely_%' and tbl_name not like 'kysely_%' order by name`);
}

async function dumpPostgres(db: Kysely<Database>, schema: string): Promise<string[]> {
  const ours = sql`table_name not like 'kysely_%'`;
  const lines = [
    ...(await rows(db, 'column', sql`select table_name, column_name, ordinal_position, data_type, is_nullable, column_default
      from information_schema.columns where table_schema = current_schema() and ${ours} order by table_name, ordinal_position`)),
    ...(await rows(db, 'index', sql`select tablename, indexname, indexdef from pg_indexes
      where schemaname = current_schema() and tablename not like 'kysely_%' order by tablename, indexname`)),
    ...(await rows(db, 'constraint', sql`select cl.relname as table_name, co.conname, pg_get_constraintdef(co.oid) as def, co.condeferrable, co.condeferred
      from pg_constraint co join pg_class cl on cl.oid = co.conrelid
      where cl.relnamespace = current_schema()::regnamespace and cl.relname not like 'kysely_%' order by cl.relname, co.conname`)),
    ...(await rows(db, 'trigger', sql`select c.relname as table_name, t.tgname, pg_get_triggerdef(t.oid) as def
      from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where c.relnamespace = current_schema()::regnamespace and not t.tgisinternal order by c.relname, t.tgname`)),
    ...(await rows(db, 'function', sql`select proname from pg_proc where pronamespace = current_schema()::regnamespace order by proname`)),
  ];
  // The run's schema name appears in defaults and definitions; the snapshot holds a placeholder.
  return lines.map((line) => line.replaceAll(schema, '<schema>'));
}

async function dump(t: TestDatabase): Promise<string> {
  const migrations = await rows(t.db, 'migration', sql`select name from kysely_migration order by timestamp, name`);
  const objects = t.schema ? await dumpPostgres(t.db, t.schema) : await dumpSqlite(t.db);
  return [...migrations, ...objects].join('\n') + '\n';
}

/** The database's schema as dumped, and the pinned one for its dialect (rewritten first when asked to). */
export async function schemaAndSnapshot(t: TestDatabase): Promise<{ actual: string; pinned: string }> {
  const file = join(SNAPSHOTS, `${t.dialect}.txt`);
  const actual = await dump(t);
  if (process.env.NETLOOM_UPDATE_SCHEMA_SNAPSHOT === '1') writeFileSync(file, actual);
  return { actual, pinned: readFileSync(file, 'utf8') };
}

