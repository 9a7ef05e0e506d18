/**
 * Table specs for the migrations: `createTable(db, name, columns, { primaryKey, indexes })` creates a
 * table from a list of column helpers (added in list order) and then its indexes. The helpers are the
 * column shapes our schema repeats: the `id` key, NOT NULL and nullable columns of a type, columns with
 * a default, `created`/`modified` timestamps (TEXT, ISO 8601 UTC) and references to another table's
 * `id` (NOT NULL, ON DELETE CASCADE unless told otherwise; docs/spec/decisions.md §3). A column of
 * another shape is an inline `(t) => t.addColumn(…)`.
 *
 * Frozen like the migrations themselves: migrations that have run in deployments are written with
 * these helpers, so what a helper emits must never change (a new shape is a new helper). The store
 * contract test pins the schema the migrations produce on both databases (test/helpers/schema.ts).
 */
import type { ColumnBuilderCallback, CreateTableBuilder, Kysely } from 'kysely';

// Migrations are frozen in time: they must not depend on the current Database type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDb = Kysely<any>;

type TableBuilder = CreateTableBuilder<string, string>;
type DataType = Parameters<TableBuilder['addColumn']>[1];
/** Adds one or more columns to a table being created. */
export type Columns = (t: TableBuilder) => TableBuilder;

function columns(type: DataType, names: string[], build?: ColumnBuilderCallback): Columns {
  return (t) => names.reduce((table, name) => table.addColumn(name, type, build), t);
}

/** A TEXT PRIMARY KEY column (the application makes the keys). */
export function key(name: string): Columns {
  return columns('text', [name], (c) => c.primaryKey());
}

/** `id` TEXT PRIMARY KEY. */
export const id: Columns = key('id');

/** NOT NULL columns of one type. */
export function notNull(type: DataType, ...names: string[]): Columns {
  return columns(type, names, (c) => c.notNull());
}

/** NOT NULL TEXT columns. */
export function text(...names: string[]): Columns {
  return notNull('text', ...names);
}

/** Nullable columns of one type. */
export function nullable(type: DataType, ...names: string[]): Columns {
  return columns(type, names);
}

/** A NOT NULL column with a default value. */
export function withDefault(name: string, type: DataType, value: string | number): Columns {
  return columns(type, [name], (c) => c.notNull().defaultTo(value));
}

/** `created` and `modified`, NOT NULL TEXT timestamps. */
export const timestamps: Columns = text('created', 'modified');

export interface RefOptions {
  /** The column is the table's primary key (then not declared NOT NULL, as before). */
  primaryKey?: boolean;
  /** The column may be NULL. */
  nullable?: boolean;
  /** ON DELETE action; null: no ON DELETE clause. Default 'cascade'. */
  onDelete?: 'cascade' | 'set null' | null;
}

/** TEXT column referencing `<table>.id`. */
export function ref(name: string, table: string, options: RefOptions = {}): Columns {
  const onDelete = options.onDelete === undefined ? 'cascade' : options.onDelete;
  return columns('text', [name], (c) => {
    const key = options.primaryKey ? c.primaryKey() : options.nullable ? c : c.notNull();
    const referencing = key.references(`${table}.id`);
    return onDelete ? referencing.onDelete(onDelete) : referencing;
  });
}

export interface IndexSpec {
  name: string;
  columns: string[];
  unique: boolean;
}

/** An index on the columns, in order. */
export function index(name: string, ...on: string[]): IndexSpec {
  return { name, columns: on, unique: false };
}

/** A unique index on the columns, in order. */
export function uniqueIndex(name: string, ...on: string[]): IndexSpec {
  return { name, columns: on, unique: true };
}

export interface TableOptions {
  /** Columns of a composite primary key (constraint `<table>_pk`). */
  primaryKey?: string[];
  /** Indexes created after the table, in order. */
  indexes?: IndexSpec[];
}

export async function createTable(db: AnyDb, table: string, spec: Columns[], options: TableOptions = {}): Promise<void> {
  let builder = db.schema.createTable(table) as TableBuilder;
  for (const add of spec) builder = add(builder);
  if (options.primaryKey) builder = builder.addPrimaryKeyConstraint(`${table}_pk`, options.primaryKey);
  await builder.execute();
  await createIndexes(db, table, options.indexes ?? []);
}

/** Creates the indexes on an existing table, in order. */
export async function createIndexes(db: AnyDb, table: string, indexes: IndexSpec[]): Promise<void> {
  for (const ix of indexes) {
    const builder = db.schema.createIndex(ix.name).on(table).columns(ix.columns);
    await (ix.unique ? builder.unique() : builder).execute();
  }
}

/** Drops the tables that exist, in order. */
export async function dropTables(db: AnyDb, ...tables: string[]): Promise<void> {
  for (const table of tables) await db.schema.dropTable(table).ifExists().execute();
}
