/**
 * Query shapes the repository modules share: counting rows (all, or per status), the outcome of a
 * conditional update, the "null or older than" condition of at-most-once bookkeeping writes, upserts,
 * and the rows of a table that belong to one scope (a directory, a network). Dialect-neutral Kysely like the modules that use
 * them (the dialect differences live in db.ts).
 *
 * The helpers that take a table name are typed for their callers (table, columns and rows are checked
 * against the schema); inside, Kysely cannot resolve its column types for a table that is a type
 * parameter, so they build the query on a loosely typed view of the same instance.
 */
import type {
  Expression,
  ExpressionBuilder,
  InsertObject,
  Kysely,
  OnConflictTables,
  OnConflictUpdateDatabase,
  Selectable,
  SelectQueryBuilder,
  SqlBool,
  UpdateObject,
  UpdateResult,
} from 'kysely';
import type { Database } from './schema.ts';

type Table = keyof Database & string;
type Column<T extends Table> = keyof Database[T] & string;
/** The tables that have a `status` column. */
type TableWithStatus = { [T in Table]: 'status' extends keyof Database[T] ? T : never }[Table];
/** A database whose tables and columns are any names: the view the table-generic helpers query through. */
type AnyTables = Record<string, Record<string, unknown>>;

/** The number of rows the (filtered) query selects. */
export async function countRows<TB extends Table>(query: SelectQueryBuilder<Database, TB, object>): Promise<number> {
  const r = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** True when the UPDATE changed a row: the outcome of a conditional write (a one-time mark, a claim). */
export async function updatedAny(query: { executeTakeFirst(): Promise<UpdateResult> }): Promise<boolean> {
  return Number((await query.executeTakeFirst()).numUpdatedRows) > 0;
}

/**
 * `column` is null or before `staleBefore`: the condition of a bookkeeping write (last used, last
 * active) made at most once per interval, so that concurrent requests do not all write.
 */
export function nullOrBefore<T extends Table>(eb: ExpressionBuilder<Database, T>, column: Column<T>, staleBefore: string): Expression<SqlBool> {
  const any = eb as unknown as ExpressionBuilder<AnyTables, string>;
  const name: string = column;
  const ref = any.ref(name);
  return any.or([any(ref, 'is', null), any(ref, '<', staleBefore)]);
}

/** The number of rows per `status` among the rows of `table` where `column` = `value` (statuses without rows absent). */
export async function countByStatus<T extends TableWithStatus>(db: Kysely<Database>, table: T, column: Column<T>, value: string): Promise<Map<string, number>> {
  const any = db as unknown as Kysely<AnyTables>;
  const [from, where]: string[] = [table, column];
  const rows = await any
    .selectFrom(from)
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where(where, '=', value)
    .groupBy('status')
    .execute();
  return new Map(rows.map((r) => [String(r.status), Number(r.n)]));
}

/** Inserts `row`, or sets `update` on the row that has the same `key` columns. */
export async function upsert<T extends Table>(
  db: Kysely<Database>,
  table: T,
  key: readonly Column<T>[],
  row: InsertObject<Database, T>,
  update: UpdateObject<OnConflictUpdateDatabase<Database, T>, OnConflictTables<T>, OnConflictTables<T>>,
): Promise<void> {
  await db.insertInto(table).values(row).onConflict((oc) => oc.columns(key).doUpdateSet(update)).execute();
}

/** The rows of `table` in one scope (`scopeColumn` = `scope`), oldest first (`created`, then `id`). */
export function listInScope<T extends Table>(db: Kysely<Database>, table: T, scopeColumn: Column<T>, scope: string): Promise<Selectable<Database[T]>[]> {
  const any = db as unknown as Kysely<AnyTables>;
  const scoped: string = scopeColumn;
  return any.selectFrom(table).selectAll().where(scoped, '=', scope).orderBy('created').orderBy('id').execute() as Promise<Selectable<Database[T]>[]>;
}

/** The row `id` of `table` when it is in the scope (`scopeColumn` = `scope`), else null. */
export async function getInScope<T extends Table>(db: Kysely<Database>, table: T, scopeColumn: Column<T>, scope: string, id: string): Promise<Selectable<Database[T]> | null> {
  const any = db as unknown as Kysely<AnyTables>;
  const scoped: string = scopeColumn;
  const row = await any.selectFrom(table).selectAll().where(scoped, '=', scope).where('id', '=', id).executeTakeFirst();
  return (row as Selectable<Database[T]> | undefined) ?? null;
}
