/**
 * 0013: shares by e-mail for addresses without an account (issue 19, Low: "signed-in users learn which
 * e-mails have accounts from the share answer"; docs/security.md "Accounts and organizations"). Sharing
 * a network with an e-mail that has no account keeps the share here; it becomes a real share
 * (`network_shares`) when an account with that e-mail is created. So the share answer is the same
 * whether the address has an account or not.
 */
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('network_share_invites')
    .addColumn('network_id', 'text', (c) => c.notNull().references('networks.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('permission', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('network_share_invites_pk', ['network_id', 'email'])
    .execute();
  await db.schema.createIndex('network_share_invites_email_ix').on('network_share_invites').column('email').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('network_share_invites').execute();
}
