/**
 * 0012: which organization a network belongs to (issue 19 finding 2; docs/security.md "Accounts and
 * organizations"). `networks.org_id` is set when a member of an organization creates the network (or
 * an organization credential does), or when its owner moves it into the organization — never by
 * joining. Organization credentials, the organization's embedding and its counts see exactly the
 * networks marked with it; what a person owned before joining stays theirs alone.
 *
 * Existing networks: marked with the owner's organization only when created after the owner joined it
 * (the membership's `created`), so nothing a person brought along becomes the organization's.
 */
import { sql } from 'kysely';
import { createIndexes, index, type AnyDb } from './tables.ts';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('networks').addColumn('org_id', 'text').execute();
  await sql`update networks set org_id = (select m.org_id from memberships m where m.user_id = networks.owner_id and m.created <= networks.created)`.execute(db);
  await createIndexes(db, 'networks', [index('networks_org_ix', 'org_id', 'created')]);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('networks_org_ix').execute();
  await db.schema.alterTable('networks').dropColumn('org_id').execute();
}
