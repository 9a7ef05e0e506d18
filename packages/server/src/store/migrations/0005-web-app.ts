/**
 * 0005: the web application's accounts (docs/web-app.md): browser sessions (the id stored as SHA-256
 * only), TOTP MFA per user with one-time recovery codes (hashed), organization settings (require MFA),
 * and one-time invitation / password-reset links (hashed). Everything of a user or organization goes
 * with it (ON DELETE CASCADE).
 */
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('web_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('web_sessions_user_ix').on('web_sessions').column('user_id').execute();
  await db.schema.createIndex('web_sessions_expiry_ix').on('web_sessions').column('expires_at').execute();

  await db.schema
    .createTable('user_mfa')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret', 'text')
    .addColumn('pending_secret', 'text')
    .addColumn('enabled_at', 'text')
    .addColumn('last_step', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('modified', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('mfa_recovery_codes')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addPrimaryKeyConstraint('mfa_recovery_codes_pk', ['user_id', 'code_hash'])
    .execute();

  await db.schema
    .createTable('organization_settings')
    .addColumn('org_id', 'text', (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('require_mfa', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('modified', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('user_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('org_id', 'text', (c) => c.references('organizations.id').onDelete('cascade'))
    .addColumn('role', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('user_links_email_ix').on('user_links').column('email').execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const t of ['user_links', 'organization_settings', 'mfa_recovery_codes', 'user_mfa', 'web_sessions']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
