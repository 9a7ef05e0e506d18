/**
 * 0004: `auth_epoch`, a one-row counter that every committed change able to alter an authenticated
 * principal increases, maintained by triggers so that every writer — this server, another instance,
 * the CLI in another process, plain SQL — bumps it in the same transaction as the change itself.
 * The server caches principals per credential and drops the cache whenever the epoch it reads at the
 * start of a request differs from the one the cache was filled at (domain/identity/credentials/principal-cache.ts): a
 * revocation, suspension, plan or membership change is effective on the next request everywhere.
 *
 * What bumps it: INSERT/UPDATE/DELETE on organizations and memberships; UPDATE/DELETE on users; DELETE
 * on credentials and UPDATE of any credential column except `last_used_at` (that bookkeeping write must
 * not flush the cache). Inserting a user or a credential cannot change an existing principal.
 *
 * PostgreSQL: the bump runs in a deferred constraint trigger, i.e. at commit, after every other lock
 * of the transaction is taken (so the shared counter row cannot take part in a lock-order deadlock),
 * and it becomes visible atomically with the change.
 */
import { sql } from 'kysely';
import { dialectOf } from '../db.ts';
import type { AnyDb } from './tables.ts';

/** Credential columns whose change alters a principal (everything but last_used_at). */
const CREDENTIAL_COLUMNS = ['kind', 'user_id', 'org_id', 'name', 'prefix', 'secret_hash', 'scopes', 'created', 'revoked_at'];
const EVENTS: [table: string, events: string[]][] = [
  ['organizations', ['INSERT', 'UPDATE', 'DELETE']],
  ['memberships', ['INSERT', 'UPDATE', 'DELETE']],
  ['users', ['UPDATE', 'DELETE']],
  ['credentials', [`UPDATE OF ${CREDENTIAL_COLUMNS.join(', ')}`, 'DELETE']],
];
const triggerName = (table: string, event: string) => `auth_epoch_${table}_${event.split(' ')[0].toLowerCase()}`;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('auth_epoch')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('v', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto('auth_epoch').values({ id: 1, v: 0 }).execute();
  if (dialectOf(db) === 'postgres') {
    await sql`
      CREATE FUNCTION netloom_bump_auth_epoch() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- the counter next to the changed table, whatever the session's search_path
        EXECUTE format('UPDATE %I.auth_epoch SET v = v + 1 WHERE id = 1', TG_TABLE_SCHEMA);
        RETURN NULL;
      END
      $$`.execute(db);
    for (const [table, events] of EVENTS) {
      for (const event of events) {
        await sql.raw(
          `CREATE CONSTRAINT TRIGGER ${triggerName(table, event)} AFTER ${event} ON ${table} ` +
            'DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION netloom_bump_auth_epoch()',
        ).execute(db);
      }
    }
  } else {
    for (const [table, events] of EVENTS) {
      for (const event of events) {
        await sql.raw(`CREATE TRIGGER ${triggerName(table, event)} AFTER ${event} ON ${table} BEGIN UPDATE auth_epoch SET v = v + 1 WHERE id = 1; END`).execute(db);
      }
    }
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const [table, events] of EVENTS) {
    for (const event of events) {
      await sql.raw(dialectOf(db) === 'postgres' ? `DROP TRIGGER IF EXISTS ${triggerName(table, event)} ON ${table}` : `DROP TRIGGER IF EXISTS ${triggerName(table, event)}`).execute(db);
    }
  }
  if (dialectOf(db) === 'postgres') await sql`DROP FUNCTION IF EXISTS netloom_bump_auth_epoch()`.execute(db);
  await db.schema.dropTable('auth_epoch').ifExists().execute();
}
