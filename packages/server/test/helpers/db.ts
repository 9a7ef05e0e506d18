/**
 * A fresh, migrated database for tests, on either dialect: SQLite in a temp dir, or PostgreSQL in a
 * schema of its own (`t_<pid>_<time>_<random>`), dropped at close, so runs never collide.
 *
 * Env: NETLOOM_TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/test),
 *      NETLOOM_TEST_DIALECTS (default "sqlite,postgres").
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { loadConfig, type Config } from '../../src/config.ts';
import { openDatabase, type DatabaseHandle, type Dialect } from '../../src/store/db.ts';
import { migrate } from '../../src/store/migrations/index.ts';
import type { Database } from '../../src/store/schema.ts';

export type { Dialect };
export const PG_URL = process.env.NETLOOM_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_DIALECTS: Dialect[] = process.env.NETLOOM_TEST_DIALECTS
  ? (process.env.NETLOOM_TEST_DIALECTS.split(',').map((s) => s.trim()) as Dialect[])
  : ['sqlite', 'postgres'];

export interface TestDatabase {
  db: Kysely<Database>;
  dialect: Dialect;
  handle: DatabaseHandle;
  /** Configuration pointing at this database (for buildApp / CLI env). */
  config: Config;
  /** Environment variables that make loadConfig() point at this database (for child processes). */
  env: Record<string, string>;
  dataDir: string;
  /** PostgreSQL schema of this database (null on SQLite). */
  schema: string | null;
  close(): Promise<void>;
}

export async function openTestDatabase(
  dialect: Dialect = 'sqlite',
  extraEnv: Record<string, string> = {},
  opts: { migrate?: boolean } = {},
): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'netloom-db-'));
  const schema = dialect === 'postgres' ? `t_${process.pid}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}` : null;
  const env: Record<string, string> = {
    NETLOOM_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(schema ? { DATABASE_URL: PG_URL, NETLOOM_DB_SCHEMA: schema } : {}),
    ...extraEnv,
  };
  const config = loadConfig(env);
  const handle = await openDatabase(config);
  if (opts.migrate !== false) await migrate(handle.db);
  let closed = false;
  return {
    db: handle.db,
    dialect: handle.dialect,
    handle,
    config,
    env,
    dataDir,
    schema,
    async close() {
      if (closed) return;
      closed = true;
      try {
        if (schema) await sql.raw(`drop schema if exists "${schema}" cascade`).execute(handle.db);
      } finally {
        await handle.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

let pgProbe: Promise<string | null> | undefined;

/** Null when PostgreSQL answers at PG_URL, else the reason (tests then skip the postgres variant). */
export function postgresUnavailable(): Promise<string | null> {
  pgProbe ??= (async () => {
    try {
      const h = await openDatabase({ dataDir: tmpdir(), databaseUrl: PG_URL, databaseSchema: null }, { poolSize: 1 });
      try {
        await sql`select 1`.execute(h.db);
      } finally {
        await h.close();
      }
      return null;
    } catch (err) {
      return `PostgreSQL not reachable at ${PG_URL}: ${(err as Error).message}`;
    }
  })();
  return pgProbe;
}

/** The dialects to run a suite on, with a skip reason for those that are unavailable. */
export async function testDialects(): Promise<{ dialect: Dialect; skip: string | false }[]> {
  const out: { dialect: Dialect; skip: string | false }[] = [];
  for (const dialect of TEST_DIALECTS) {
    out.push({ dialect, skip: dialect === 'postgres' ? ((await postgresUnavailable()) ?? false) : false });
  }
  return out;
}
