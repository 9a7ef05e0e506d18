/**
 * Versioned migrations. The list is static (no folder scan): add a module, then add it here with a name
 * that sorts after the previous ones. `migrate(db)` runs at server start and by `netloom migrate`; it is
 * idempotent and safe to run from several processes (PostgreSQL: Kysely takes an advisory lock; SQLite:
 * the migration transaction is BEGIN IMMEDIATE, and a concurrent runner's busy error is retried; see
 * isTransient for the other retried failure).
 */
import { sql, Migrator, type Kysely, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import type { Database } from '../schema.ts';
import { dialectOf } from '../db.ts';
import * as m0001 from './0001-initial.ts';
import * as m0002 from './0002-embedding.ts';
import * as m0003 from './0003-embed-chat.ts';
import * as m0004 from './0004-auth-epoch.ts';
import * as m0005 from './0005-web-app.ts';
import * as m0006 from './0006-explore-sessions.ts';
import * as m0007 from './0007-metric-jobs.ts';
import * as m0008 from './0008-viewer-jobs.ts';
import * as m0009 from './0009-directory.ts';
import * as m0010 from './0010-surveys.ts';
import * as m0011 from './0011-survey-links.ts';
import * as m0012 from './0012-network-organization.ts';
import * as m0013 from './0013-share-invites.ts';
import * as m0014 from './0014-survey-networks.ts';
import * as m0015 from './0015-survey-mail-tasks.ts';
import * as m0016 from './0016-survey-network-version.ts';

export const MIGRATIONS: Readonly<Record<string, Migration>> = Object.freeze({
  '0001-initial': m0001,
  '0002-embedding': m0002,
  '0003-embed-chat': m0003,
  '0004-auth-epoch': m0004,
  '0005-web-app': m0005,
  '0006-explore-sessions': m0006,
  '0007-metric-jobs': m0007,
  '0008-viewer-jobs': m0008,
  '0009-directory': m0009,
  '0010-surveys': m0010,
  '0011-survey-links': m0011,
  '0012-network-organization': m0012,
  '0013-share-invites': m0013,
  '0014-survey-networks': m0014,
  '0015-survey-mail-tasks': m0015,
  '0016-survey-network-version': m0016,
});

const provider: MigrationProvider = {
  async getMigrations() {
    return { ...MIGRATIONS };
  },
};

export interface MigrateResult {
  applied: string[];
  current: string | null;
}

/**
 * Transient failures worth another attempt: SQLite busy (a concurrent runner), and PostgreSQL 3F000
 * "schema does not exist" — Kysely's table-existence check introspects every schema of the database
 * (`has_schema_privilege(nspname, …)`), which fails when another schema is dropped while it runs (other
 * test runs do that; our own schema is created before migrating and never dropped under us). The same
 * introspection meets 42P01 "relation <other schema>.<table> does not exist" when it lists a table of a
 * schema that is being dropped (seen in a clean-clone run): transient too, but only for another schema's
 * relation — a missing table of our own schema is a real error.
 */
function isTransient(err: unknown, schema: string | undefined): boolean {
  const errcode = (err as { errcode?: number } | null)?.errcode;
  if (typeof errcode === 'number' && (errcode & 0xff) === 5) return true; // SQLITE_BUSY and its extended codes
  const code = (err as { code?: unknown } | null)?.code;
  if (code === '3F000') return true;
  if (code === '42P01' && schema) {
    const other = /relation "([^".]+)\./.exec(err instanceof Error ? err.message : '')?.[1];
    return other !== undefined && other !== schema;
  }
  return false;
}

/** Brings the schema to the latest version. Throws on failure (with the failing migration named). */
export async function migrate(db: Kysely<Database>): Promise<MigrateResult> {
  // PostgreSQL: pin Kysely's bookkeeping tables to the connection's schema. Without it Kysely's
  // existence check looks across all schemas and, when another schema (another instance or test run)
  // already has them, skips creating its own.
  const schema = dialectOf(db) === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s : undefined;
  const migrator = new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  let result: MigrationResultSet | undefined;
  for (let attempt = 0; ; attempt++) {
    result = await migrator.migrateToLatest();
    if (!result.error || !isTransient(result.error, schema) || attempt >= 20) break;
    await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
  }
  const failed = result.results?.find((r) => r.status === 'Error');
  if (result.error) {
    const why = result.error instanceof Error ? result.error.message : String(result.error);
    throw new Error(`migration ${failed ? failed.migrationName : ''} failed: ${why}`, { cause: result.error });
  }
  const applied = (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  const names = Object.keys(MIGRATIONS).sort();
  return { applied, current: names.length ? names[names.length - 1] : null };
}
