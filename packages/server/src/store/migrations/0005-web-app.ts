/**
 * 0005: the web application's accounts (docs/web-app.md): browser sessions (the id stored as SHA-256
 * only), TOTP MFA per user with one-time recovery codes (hashed), organization settings (require MFA),
 * and one-time invitation / password-reset links (hashed). Everything of a user or organization goes
 * with it (ON DELETE CASCADE).
 */
import { createTable, dropTables, id, index, key, nullable, ref, text, withDefault, type AnyDb } from './tables.ts';

export async function up(db: AnyDb): Promise<void> {
  await createTable(db, 'web_sessions', [
    id,
    (t) => t.addColumn('secret_hash', 'text', (c) => c.notNull().unique()),
    ref('user_id', 'users'),
    text('created', 'last_seen_at', 'expires_at', 'user_agent', 'ip'),
  ], {
    indexes: [index('web_sessions_user_ix', 'user_id'), index('web_sessions_expiry_ix', 'expires_at')],
  });

  await createTable(db, 'user_mfa', [
    ref('user_id', 'users', { primaryKey: true }),
    nullable('text', 'secret', 'pending_secret', 'enabled_at'),
    withDefault('last_step', 'bigint', 0),
    text('modified'),
  ]);

  await createTable(db, 'mfa_recovery_codes', [ref('user_id', 'users'), text('code_hash', 'created'), nullable('text', 'used_at')], {
    primaryKey: ['user_id', 'code_hash'],
  });

  await createTable(db, 'organization_settings', [ref('org_id', 'organizations', { primaryKey: true }), withDefault('require_mfa', 'integer', 0), text('modified')]);

  await createTable(db, 'user_links', [
    key('token_hash'),
    text('kind', 'email'),
    ref('user_id', 'users', { nullable: true }),
    ref('org_id', 'organizations', { nullable: true }),
    nullable('text', 'role', 'created_by'),
    text('created', 'expires_at'),
    nullable('text', 'used_at'),
  ], { indexes: [index('user_links_email_ix', 'email')] });
}

export async function down(db: AnyDb): Promise<void> {
  await dropTables(db, 'user_links', 'organization_settings', 'mfa_recovery_codes', 'user_mfa', 'web_sessions');
}
