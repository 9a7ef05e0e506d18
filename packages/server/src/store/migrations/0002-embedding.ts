/**
 * 0002: embedding — organization settings, embeddable networks, managed users, grants, sessions,
 * tokens (hashed), leases, saved views (EmbedView v1) and the audit log. Everything that hangs off a
 * network (grants, sessions and through them tokens, views) goes with it (ON DELETE CASCADE,
 * docs/spec/decisions.md §3); everything of an organization goes with the organization.
 */
import { createTable, dropTables, id, index, key, notNull, nullable, ref, text, timestamps, uniqueIndex, withDefault, type AnyDb } from './tables.ts';

export async function up(db: AnyDb): Promise<void> {
  await createTable(db, 'embed_settings', [
    ref('org_id', 'organizations', { primaryKey: true }),
    withDefault('enabled', 'integer', 0),
    withDefault('seats', 'integer', 0),
    withDefault('allowed_origins', 'text', '[]'),
    withDefault('all_owned_networks', 'integer', 1),
    nullable('text', 'disclosure_accepted_at', 'disclosure_accepted_by'),
    withDefault('limits', 'text', '{}'),
    text('modified'),
  ]);

  await createTable(db, 'embed_networks', [ref('org_id', 'organizations'), ref('network_id', 'networks'), text('created')], {
    primaryKey: ['org_id', 'network_id'],
    indexes: [index('embed_networks_network_ix', 'network_id')],
  });

  await createTable(db, 'embed_users', [
    ref('user_id', 'users', { primaryKey: true }),
    ref('org_id', 'organizations'),
    text('external_id', 'chat_access', 'org_permission'),
    notNull('integer', 'read_only'),
    text('status'),
    timestamps,
    nullable('text', 'last_active_at', 'deactivated_at'),
  ], {
    indexes: [uniqueIndex('embed_users_ext_uq', 'org_id', 'external_id'), index('embed_users_status_ix', 'org_id', 'status', 'created')],
  });

  await createTable(db, 'embed_grants', [ref('user_id', 'users'), ref('network_id', 'networks'), text('permission', 'created')], {
    primaryKey: ['user_id', 'network_id'],
    indexes: [index('embed_grants_network_ix', 'network_id')],
  });

  await createTable(db, 'embed_sessions', [
    id,
    ref('org_id', 'organizations'),
    ref('user_id', 'users'),
    ref('network_id', 'networks'),
    text('origin', 'ui', 'header'),
    notNull('integer', 'max_minutes'),
    text('created', 'expires_at', 'last_activity_at'),
    nullable('text', 'ended_at', 'ended_reason'),
  ], {
    indexes: [
      index('embed_sessions_org_ix', 'org_id', 'ended_at'),
      index('embed_sessions_user_ix', 'user_id'),
      index('embed_sessions_network_ix', 'network_id'),
    ],
  });

  await createTable(db, 'embed_tokens', [key('hash'), text('kind'), ref('session_id', 'embed_sessions'), text('expires_at'), nullable('text', 'used_at')], {
    indexes: [index('embed_tokens_session_ix', 'session_id'), index('embed_tokens_expiry_ix', 'expires_at')],
  });

  await createTable(db, 'embed_locks', [key('key'), text('expires_at')]);

  await createTable(db, 'embed_views', [
    id,
    ref('network_id', 'networks'),
    text('name'),
    withDefault('description', 'text', ''),
    text('data'),
    ref('created_by', 'users', { nullable: true, onDelete: 'set null' }),
    timestamps,
  ], { indexes: [index('embed_views_network_ix', 'network_id', 'created')] });

  await createTable(db, 'embed_audit', [
    id,
    ref('org_id', 'organizations'),
    text('at', 'actor_kind', 'actor_id', 'action'),
    nullable('text', 'target'),
    withDefault('details', 'text', '{}'),
  ], { indexes: [index('embed_audit_org_ix', 'org_id', 'at')] });
}

export async function down(db: AnyDb): Promise<void> {
  await dropTables(db, 'embed_audit', 'embed_views', 'embed_locks', 'embed_tokens', 'embed_sessions', 'embed_grants', 'embed_users', 'embed_networks', 'embed_settings');
}
