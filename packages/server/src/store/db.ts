/**
 * Opening the database: SQLite (Node 24's built-in `node:sqlite`, default) or PostgreSQL (`pg`, when `databaseUrl` is set).
 * Every difference between the two databases lives in this file (connection setup, transaction start,
 * the binary column type, integer parsing); the rest of the store is dialect-neutral Kysely.
 *
 * SQLite durability: WAL with `synchronous=NORMAL`. In WAL mode a commit appends the transaction to the
 * WAL file with write(2) before `COMMIT` returns, so a process that is killed (SIGKILL, OOM, crash) loses
 * nothing it acknowledged; only an operating-system crash or power loss can drop the last transactions
 * (never corrupt the file). `FULL` would fsync on every commit, which the per-request writes (rate-limit
 * counters, lastUsedAt) cannot afford; set `NETLOOM_SQLITE_SYNCHRONOUS=FULL` to trade throughput for
 * power-loss durability. `busy_timeout` lets the CLI write while the server runs; every transaction is
 * `BEGIN IMMEDIATE` so two processes never deadlock upgrading a read transaction to a write one.
 *
 * PostgreSQL: a `pg` Pool; `databaseSchema` (tests use one per run) is created if missing and set as the
 * `search_path` of every connection through the startup `options`. int8 (bigint, `count(*)`) is parsed
 * to a JS number (all our values are far below 2^53).
 */
import { mkdirSync } from 'node:fs';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  CompiledQuery,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type PostgresPool,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Closes the pool / file. Idempotent. */
  close(): Promise<void>;
}

export interface OpenOptions {
  /** SQLite `synchronous` pragma (default from NETLOOM_SQLITE_SYNCHRONOUS, else NORMAL). */
  sqliteSynchronous?: 'NORMAL' | 'FULL';
  /** SQLite busy timeout in ms (default 10 s). */
  busyTimeoutMs?: number;
  /** PostgreSQL pool size (default 10). */
  poolSize?: number;
}

/* pg is a CommonJS package without bundled types; these are the parts we use. */
interface PgPool extends PostgresPool {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
  on(event: 'error', listener: (err: Error) => void): void;
}
interface PgModule {
  Pool: new (config: Record<string, unknown>) => PgPool;
  types: { getTypeParser(oid: number, format?: string): (value: string) => unknown };
}
const require = createRequire(import.meta.url);

/** Binary column type for gzip payloads (`networks.json_gz`): BLOB on SQLite, BYTEA on PostgreSQL. */
export function binaryType(dialect: Dialect): 'blob' | 'bytea' {
  return dialect === 'postgres' ? 'bytea' : 'blob';
}

/** Dialect of an open Kysely instance (used by migrations, which receive only `db`). */
export function dialectOf<T>(db: Kysely<T>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** Bytes read from either driver (both give Buffers; normalise anyway). */
export function toBuffer(value: Uint8Array | Buffer): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

/** SQLite transactions start with BEGIN IMMEDIATE (take the write lock up front; busy_timeout applies). */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}
class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: ConstructorParameters<typeof SqliteDialect>[0];
  constructor(config: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

/**
 * Adapts `node:sqlite` to Kysely's SqliteDatabase interface (the better-sqlite3 shape): positional
 * parameters are spread, `reader` tells whether the statement returns rows. Prepared statements are
 * cached by SQL text (Kysely's query texts are a small fixed set). node:sqlite is used instead of
 * better-sqlite3 because better-sqlite3 12 aborts the process on Node 24 when a finalized statement is
 * garbage-collected (node::RemoveEnvironmentCleanupHook assertion), and it needs no native build.
 */
function adaptNodeSqlite(raw: DatabaseSync, max = 500): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  const wrap = (stmt: StatementSync): SqliteStatement => {
    const reader = stmt.columns().length > 0;
    return {
      reader,
      // node:sqlite rows have a null prototype; give callers ordinary objects (as pg and better-sqlite3 do).
      all: (params: ReadonlyArray<unknown>) => stmt.all(...(params as SQLInputValue[])).map((r) => ({ ...r })),
      run: (params: ReadonlyArray<unknown>) => {
        const r = stmt.run(...(params as SQLInputValue[]));
        return { changes: r.changes, lastInsertRowid: r.lastInsertRowid };
      },
      iterate: (params: ReadonlyArray<unknown>) => stmt.iterate(...(params as SQLInputValue[])) as IterableIterator<unknown>,
    };
  };
  return {
    prepare(sqlText: string): SqliteStatement {
      let stmt = cache.get(sqlText);
      if (!stmt) {
        stmt = wrap(raw.prepare(sqlText));
        if (cache.size >= max) cache.delete(cache.keys().next().value as string);
        cache.set(sqlText, stmt);
      }
      return stmt;
    },
    close(): void {
      cache.clear();
      if (raw.isOpen) raw.close();
    },
  };
}

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export async function openDatabase(
  config: Pick<Config, 'dataDir' | 'databaseUrl' | 'databaseSchema'>,
  options: OpenOptions = {},
): Promise<DatabaseHandle> {
  return config.databaseUrl
    ? openPostgres(config.databaseUrl, config.databaseSchema, options)
    : openSqlite(config.dataDir, options);
}

/** Path of the SQLite file for a data directory. */
export function sqliteFile(dataDir: string): string {
  return join(dataDir, 'netloom.db');
}

function openSqlite(dataDir: string, options: OpenOptions): DatabaseHandle {
  mkdirSync(dataDir, { recursive: true });
  const busy = options.busyTimeoutMs ?? 10_000;
  const raw = new DatabaseSync(sqliteFile(dataDir), { timeout: busy });
  const syncEnv = (process.env.NETLOOM_SQLITE_SYNCHRONOUS || '').toUpperCase();
  const synchronous = options.sqliteSynchronous ?? (syncEnv === 'FULL' ? 'FULL' : 'NORMAL');
  raw.exec(`PRAGMA busy_timeout = ${Math.floor(busy)}`);
  raw.exec('PRAGMA journal_mode = WAL');
  raw.exec(`PRAGMA synchronous = ${synchronous}`);
  raw.exec('PRAGMA foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: adaptNodeSqlite(raw) }) });
  direct.set(db, { kind: 'sqlite', raw, statements: new Map() });
  // Kysely's destroy closes the file if Kysely initialised it; else close it here.
  return databaseHandle(db, 'sqlite', () => {
    if (raw.isOpen) raw.close();
  });
}

async function openPostgres(url: string, schema: string | null, options: OpenOptions): Promise<DatabaseHandle> {
  const pg = require('pg') as PgModule;
  if (schema !== null && !SCHEMA_NAME.test(schema)) {
    throw new Error(`config: NETLOOM_DB_SCHEMA must match ${SCHEMA_NAME}, got ${JSON.stringify(schema)}`);
  }
  const INT8 = 20;
  const types = {
    getTypeParser(oid: number, format?: string) {
      if (oid === INT8 && format !== 'binary') return (v: string) => Number(v);
      return pg.types.getTypeParser(oid, format);
    },
  };
  if (schema) {
    const admin = new pg.Pool({ connectionString: url, max: 1 });
    try {
      await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    } catch (err) {
      // Two processes creating the same schema at once: the loser sees a unique violation; fine.
      const code = (err as { code?: string }).code;
      if (code !== '23505' && code !== '42P06') throw err;
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    types,
    ...(schema ? { options: `-c search_path="${schema}"` } : {}),
  });
  pool.on('error', () => {
    /* idle client errors (server restart): the pool replaces the client; queries report their own errors */
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  direct.set(db, { kind: 'postgres', pool });
  return databaseHandle(db, 'postgres'); // Kysely's destroy ends the pool
}

/** The handle of an opened database: `close` destroys the Kysely instance once, then runs `afterDestroy`. */
function databaseHandle(db: Kysely<Database>, dialect: Dialect, afterDestroy: () => void = () => {}): DatabaseHandle {
  let closed = false;
  return {
    db,
    dialect,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
      afterDestroy();
    },
  };
}

/** True for a unique/primary-key violation on either database. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === '23505') return true;
  // node:sqlite: code ERR_SQLITE_ERROR with the extended result code in `errcode`
  const errcode = (err as { errcode?: unknown } | null)?.errcode;
  return errcode === 2067 /* SQLITE_CONSTRAINT_UNIQUE */ || errcode === 1555 /* SQLITE_CONSTRAINT_PRIMARYKEY */;
}

/** Current time as stored (ISO 8601 UTC, millisecond precision). */
export function nowIso(): string {
  return new Date().toISOString();
}

/** Runs `fn` in a transaction, or directly in the caller's transaction when `db` already is one. */
export async function inTransaction<T>(db: Kysely<Database>, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  return db.transaction().execute(fn);
}

/* ---------------------------------------------------------------- prepared queries */

/**
 * Direct access to the driver under a Kysely instance opened by this module (not its transactions):
 * the hot-path queries below run on it without Kysely's per-query machinery.
 */
type Direct =
  | { kind: 'sqlite'; raw: DatabaseSync; statements: Map<string, SqliteStatementEntry> }
  | { kind: 'postgres'; pool: PgPool };
const direct = new WeakMap<Kysely<Database>, Direct>();
interface SqliteStatementEntry {
  stmt: StatementSync;
  query: PreparedQuery;
  row: (values: unknown[]) => unknown;
}

/**
 * The prepared statement of a hot-path query on SQLite, made once per key: a read returns its rows as
 * arrays (made into objects by `row`), a write returns only its change count. The kind is part of the
 * cache key, so a read and a write never share an entry with the wrong row mode.
 */
function sqliteStatement<R>(
  db: Kysely<Database>,
  d: Extract<Direct, { kind: 'sqlite' }>,
  key: string,
  build: (db: Kysely<Database>, p: (i: number) => string) => { compile(): CompiledQuery<R> },
  kind: 'rows' | 'write',
): SqliteStatementEntry {
  const entryKey = `${kind}:${key}`;
  let prepared = d.statements.get(entryKey);
  if (!prepared) {
    const query = compiledFor(db, key, build);
    const stmt = d.raw.prepare(query.compiled.sql);
    if (kind === 'rows') stmt.setReturnArrays(true);
    prepared = { stmt, query, row: kind === 'rows' ? rowMaker(stmt.columns().map((c) => c.name)) : (v) => v };
    d.statements.set(entryKey, prepared);
  }
  return prepared;
}

/** A hot-path query compiled once per dialect, with where each of its parameters comes from. */
interface PreparedQuery {
  compiled: CompiledQuery;
  /** Per parameter: the index of the argument (placeholder `p(i)`), or -1 (a constant of the query). */
  slots: number[];
}
const compiledCache = new Map<string, PreparedQuery>();
const SENTINEL = '\u0000netloom-param-';

function compiledFor<R>(db: Kysely<Database>, key: string, build: (db: Kysely<Database>, p: (i: number) => string) => { compile(): CompiledQuery<R> }): PreparedQuery {
  const cacheKey = `${dialectOf(db)}:${key}`;
  let query = compiledCache.get(cacheKey);
  if (!query) {
    const compiled = build(db, (i) => `${SENTINEL}${i}`).compile() as CompiledQuery;
    const slots = compiled.parameters.map((v) => (typeof v === 'string' && v.startsWith(SENTINEL) ? Number(v.slice(SENTINEL.length)) : -1));
    compiledCache.set(cacheKey, (query = { compiled, slots }));
  }
  return query;
}

/** The query's parameters for these arguments: placeholders replaced, constants kept. */
function bindArgs(query: PreparedQuery, args: readonly unknown[]): unknown[] {
  const { slots, compiled } = query;
  return slots.map((j, i) => (j >= 0 ? args[j] : compiled.parameters[i]));
}

/**
 * The synchronous SQLite fast path of `runPrepared`: the rows, or undefined when it does not apply
 * (PostgreSQL, a transaction object, or the connection is inside a transaction — then the query must
 * wait for Kysely's connection lock so it never reads another caller's uncommitted changes).
 */
export function runPreparedSync<R>(
  db: Kysely<Database>,
  key: string,
  build: (db: Kysely<Database>, p: (i: number) => string) => { compile(): CompiledQuery<R> },
  args: readonly unknown[],
): R[] | undefined {
  const d = direct.get(db);
  if (d?.kind !== 'sqlite' || !d.raw.isOpen || d.raw.isTransaction) return undefined;
  const prepared = sqliteStatement(db, d, key, build, 'rows');
  const rows = prepared.stmt.all(...(bindArgs(prepared.query, args) as SQLInputValue[])) as unknown as unknown[][];
  const out = new Array<R>(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = prepared.row(rows[i]) as R;
  return out;
}

/**
 * Row arrays → ordinary objects with the columns as keys, through a function made once per statement
 * that builds one object literal (one hidden class): copying node:sqlite's null-prototype row objects
 * (`{ ...row }`) takes V8's slow generic path and showed in the profile of GET /networks/:id.
 */
function rowMaker(names: string[]): (values: unknown[]) => unknown {
  const body = `return { ${names.map((n, i) => `${JSON.stringify(n)}: v[${i}]`).join(', ')} };`;
  return new Function('v', body) as (values: unknown[]) => unknown;
}

/**
 * Hot-path queries (authentication, network lookup) built and compiled by Kysely once per dialect and
 * then executed with new parameters: Kysely's builder and compiler cost more CPU than the SQLite query
 * itself. `build` receives placeholders `p(0)`, `p(1)`, … to use where the arguments go.
 *
 * On a database opened by `openDatabase` (not a transaction), the compiled SQL runs directly on the
 * driver: SQLite synchronously on the one `node:sqlite` connection when it is not inside a transaction
 * (see runPreparedSync), PostgreSQL as a named prepared statement on the pool (parsed and planned once
 * per pooled connection). Otherwise it goes through Kysely (its connection lock, the transaction).
 */
export async function runPrepared<R>(
  db: Kysely<Database>,
  key: string,
  build: (db: Kysely<Database>, p: (i: number) => string) => { compile(): CompiledQuery<R> },
  args: readonly unknown[],
): Promise<R[]> {
  const d = direct.get(db);
  if (d?.kind === 'sqlite') {
    const rows = runPreparedSync(db, key, build, args);
    if (rows) return rows;
  }
  const query = compiledFor(db, key, build);
  const parameters = bindArgs(query, args);
  if (d?.kind === 'postgres') return (await d.pool.query({ name: `netloom_${key}`, text: query.compiled.sql, values: parameters })).rows as R[];
  const res = await db.executeQuery<R>({ ...(query.compiled as CompiledQuery<R>), parameters });
  return res.rows;
}

/** Runs one prepared write (see `runPrepared` for `key` and `build`) inside `sqliteTransactionSync`; the number of rows changed. */
export type PreparedWrite = (key: string, build: (db: Kysely<Database>, p: (i: number) => string) => { compile(): CompiledQuery<unknown> }, args: readonly unknown[]) => number;

/**
 * One SQLite transaction run synchronously on the driver (`BEGIN IMMEDIATE` … `COMMIT` within one call,
 * so nothing else runs on the connection meanwhile), with `write` running prepared statements. Returns
 * false without running `fn` when it does not apply: PostgreSQL, a transaction object, or the connection
 * is inside a Kysely transaction (the caller then takes the Kysely path, which waits for its lock).
 * A statement that throws inside `fn` and is caught there rolls back only itself (SQLite keeps the
 * transaction); an exception out of `fn`, or a failed COMMIT, rolls back everything and is rethrown.
 */
export function sqliteTransactionSync(db: Kysely<Database>, fn: (write: PreparedWrite) => void): boolean {
  const d = direct.get(db);
  if (d?.kind !== 'sqlite' || !d.raw.isOpen || d.raw.isTransaction) return false;
  const { raw } = d;
  const write: PreparedWrite = (key, build, args) => {
    const prepared = sqliteStatement(db, d, key, build, 'write');
    return Number(prepared.stmt.run(...(bindArgs(prepared.query, args) as SQLInputValue[])).changes);
  };
  raw.exec('BEGIN IMMEDIATE');
  try {
    fn(write);
    raw.exec('COMMIT');
  } catch (err) {
    if (raw.isTransaction) raw.exec('ROLLBACK');
    throw err;
  }
  return true;
}

/** `runPrepared` for a lookup: its first row, or null. */
export async function runPreparedFirst<R>(
  db: Kysely<Database>,
  key: string,
  build: (db: Kysely<Database>, p: (i: number) => string) => { compile(): CompiledQuery<R> },
  args: readonly unknown[],
): Promise<R | null> {
  const [row] = await runPrepared(db, key, build, args);
  return row ?? null;
}
