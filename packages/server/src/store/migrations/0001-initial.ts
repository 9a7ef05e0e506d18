/**
 * 0001: users, organizations, memberships, credentials, networks, shares, rate limits, meta.
 * Exactly the tables of ../schema.ts. Timestamps are TEXT (ISO 8601 UTC), booleans INTEGER 0/1.
 */
import type { Kysely } from 'kysely';
import { binaryType, dialectOf } from '../db.ts';

// Migrations are frozen in time: they must not depend on the current Database type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const dialect = dialectOf(db);

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('regular'))
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_email_uq').on('users').column('email').unique().execute();

  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('organizations_name_ix').on('organizations').column('name').execute();

  await db.schema
    .createTable('memberships')
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('memberships_pk', ['org_id', 'user_id'])
    .execute();
  // A user belongs to at most one organization.
  await db.schema.createIndex('memberships_user_uq').on('memberships').column('user_id').unique().execute();

  await db.schema
    .createTable('credentials')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('org_id', 'text', (c) => c.references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('credentials_prefix_uq').on('credentials').column('prefix').unique().execute();
  await db.schema.createIndex('credentials_user_ix').on('credentials').column('user_id').execute();
  await db.schema.createIndex('credentials_org_ix').on('credentials').column('org_id').execute();

  await db.schema
    .createTable('networks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_directed', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('file_type', 'text', (c) => c.notNull())
    .addColumn('original_file_type', 'text', (c) => c.notNull())
    .addColumn('network_uuid', 'text', (c) => c.notNull())
    .addColumn('handpicked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_views', 'integer', (c) => c.notNull())
    .addColumn('node_count', 'integer', (c) => c.notNull())
    .addColumn('edge_count', 'integer', (c) => c.notNull())
    .addColumn('json_gz', binaryType(dialect), (c) => c.notNull())
    .addColumn('json_bytes', 'bigint', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('networks_owner_ix').on('networks').columns(['owner_id', 'status']).execute();
  await db.schema.createIndex('networks_public_ix').on('networks').columns(['status', 'handpicked']).execute();

  await db.schema
    .createTable('network_shares')
    .addColumn('network_id', 'text', (c) => c.notNull().references('networks.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('permission', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('network_shares_pk', ['network_id', 'user_id'])
    .execute();
  await db.schema.createIndex('network_shares_user_ix').on('network_shares').column('user_id').execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limits_window_ix').on('rate_limits').column('window_start').execute();

  await db.schema
    .createTable('meta')
    .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
      dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const t of ['meta', 'rate_limits', 'network_shares', 'networks', 'credentials', 'memberships', 'organizations', 'users']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
