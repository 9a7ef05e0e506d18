/**
 * 0001: users, organizations, memberships, credentials, networks, shares, rate limits, meta.
 * Exactly the tables of ../schema.ts. Timestamps are TEXT (ISO 8601 UTC), booleans INTEGER 0/1.
 */
import { binaryType, dialectOf } from '../db.ts';
import { createTable, dropTables, id, index, key, notNull, nullable, ref, text, timestamps, uniqueIndex, withDefault, type AnyDb } from './tables.ts';

export async function up(db: AnyDb): Promise<void> {
  const dialect = dialectOf(db);

  await createTable(db, 'users', [id, text('email', 'name'), nullable('text', 'password_hash'), text('plan', 'status'), withDefault('kind', 'text', 'regular'), timestamps], {
    indexes: [uniqueIndex('users_email_uq', 'email')],
  });

  await createTable(db, 'organizations', [id, text('name', 'plan'), ref('created_by', 'users', { onDelete: null }), timestamps], {
    indexes: [index('organizations_name_ix', 'name')],
  });

  await createTable(db, 'memberships', [ref('org_id', 'organizations'), ref('user_id', 'users'), text('role', 'created')], {
    primaryKey: ['org_id', 'user_id'],
    // A user belongs to at most one organization.
    indexes: [uniqueIndex('memberships_user_uq', 'user_id')],
  });

  await createTable(db, 'credentials', [
    id,
    text('kind'),
    ref('user_id', 'users'),
    ref('org_id', 'organizations', { nullable: true }),
    text('name', 'prefix', 'secret_hash', 'scopes', 'created'),
    nullable('text', 'last_used_at', 'revoked_at'),
  ], {
    indexes: [uniqueIndex('credentials_prefix_uq', 'prefix'), index('credentials_user_ix', 'user_id'), index('credentials_org_ix', 'org_id')],
  });

  await createTable(db, 'networks', [
    id,
    ref('owner_id', 'users', { onDelete: null }),
    text('name'),
    withDefault('description', 'text', ''),
    notNull('integer', 'is_directed'),
    text('status', 'file_type', 'original_file_type', 'network_uuid'),
    withDefault('handpicked', 'integer', 0),
    notNull('integer', 'max_views', 'node_count', 'edge_count'),
    notNull(binaryType(dialect), 'json_gz'),
    notNull('bigint', 'json_bytes'),
    withDefault('version', 'integer', 1),
    timestamps,
  ], {
    indexes: [index('networks_owner_ix', 'owner_id', 'status'), index('networks_public_ix', 'status', 'handpicked')],
  });

  await createTable(db, 'network_shares', [ref('network_id', 'networks'), ref('user_id', 'users'), text('permission', 'created')], {
    primaryKey: ['network_id', 'user_id'],
    indexes: [index('network_shares_user_ix', 'user_id')],
  });

  await createTable(db, 'rate_limits', [
    key('key'),
    notNull('bigint', 'window_start'),
    notNull('integer', 'count'),
  ], { indexes: [index('rate_limits_window_ix', 'window_start')] });

  await createTable(db, 'meta', [
    (t) => t.addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement())),
    (t) => t.addColumn('key', 'text', (c) => c.notNull().unique()),
    text('value'),
  ]);
}

export async function down(db: AnyDb): Promise<void> {
  await dropTables(db, 'meta', 'rate_limits', 'network_shares', 'networks', 'credentials', 'memberships', 'organizations', 'users');
}
