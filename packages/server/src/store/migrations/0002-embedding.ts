/**
 * 0002: embedding — organization settings, embeddable networks, managed users, grants, sessions,
 * tokens (hashed), leases, saved views (EmbedView v1) and the audit log. Everything that hangs off a
 * network (grants, sessions and through them tokens, views) goes with it (ON DELETE CASCADE,
 * docs/spec/decisions.md §3); everything of an organization goes with the organization.
 */
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('embed_settings')
    .addColumn('org_id', 'text', (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('seats', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('allowed_origins', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('all_owned_networks', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('disclosure_accepted_at', 'text')
    .addColumn('disclosure_accepted_by', 'text')
    .addColumn('limits', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('modified', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('embed_networks')
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('network_id', 'text', (c) => c.notNull().references('networks.id').onDelete('cascade'))
    .addColumn('created', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('embed_networks_pk', ['org_id', 'network_id'])
    .execute();
  await db.schema.createIndex('embed_networks_network_ix').on('embed_networks').column('network_id').execute();

  await db.schema
    .createTable('embed_users')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('external_id', 'text', (c) => c.notNull())
    .addColumn('chat_access', 'text', (c) => c.notNull())
    .addColumn('org_permission', 'text', (c) => c.notNull())
    .addColumn('read_only', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .addColumn('last_active_at', 'text')
    .addColumn('deactivated_at', 'text')
    .execute();
  await db.schema.createIndex('embed_users_ext_uq').on('embed_users').columns(['org_id', 'external_id']).unique().execute();
  await db.schema.createIndex('embed_users_status_ix').on('embed_users').columns(['org_id', 'status', 'created']).execute();

  await db.schema
    .createTable('embed_grants')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('network_id', 'text', (c) => c.notNull().references('networks.id').onDelete('cascade'))
    .addColumn('permission', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('embed_grants_pk', ['user_id', 'network_id'])
    .execute();
  await db.schema.createIndex('embed_grants_network_ix').on('embed_grants').column('network_id').execute();

  await db.schema
    .createTable('embed_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('network_id', 'text', (c) => c.notNull().references('networks.id').onDelete('cascade'))
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('ui', 'text', (c) => c.notNull())
    .addColumn('header', 'text', (c) => c.notNull())
    .addColumn('max_minutes', 'integer', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('last_activity_at', 'text', (c) => c.notNull())
    .addColumn('ended_at', 'text')
    .addColumn('ended_reason', 'text')
    .execute();
  await db.schema.createIndex('embed_sessions_org_ix').on('embed_sessions').columns(['org_id', 'ended_at']).execute();
  await db.schema.createIndex('embed_sessions_user_ix').on('embed_sessions').column('user_id').execute();
  await db.schema.createIndex('embed_sessions_network_ix').on('embed_sessions').column('network_id').execute();

  await db.schema
    .createTable('embed_tokens')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull().references('embed_sessions.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('embed_tokens_session_ix').on('embed_tokens').column('session_id').execute();
  await db.schema.createIndex('embed_tokens_expiry_ix').on('embed_tokens').column('expires_at').execute();

  await db.schema
    .createTable('embed_locks')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('embed_views')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('network_id', 'text', (c) => c.notNull().references('networks.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('embed_views_network_ix').on('embed_views').columns(['network_id', 'created']).execute();

  await db.schema
    .createTable('embed_audit')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor_kind', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('details', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.createIndex('embed_audit_org_ix').on('embed_audit').columns(['org_id', 'at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const t of ['embed_audit', 'embed_views', 'embed_locks', 'embed_tokens', 'embed_sessions', 'embed_grants', 'embed_users', 'embed_networks', 'embed_settings']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
