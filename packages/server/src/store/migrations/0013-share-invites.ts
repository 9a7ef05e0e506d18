/**
 * 0013: shares by e-mail for addresses without an account (issue 19, Low: "signed-in users learn which
 * e-mails have accounts from the share answer"; docs/security.md "Accounts and organizations"). Sharing
 * a network with an e-mail that has no account keeps the share here; it becomes a real share
 * (`network_shares`) when an account with that e-mail is created. So the share answer is the same
 * whether the address has an account or not.
 */
import { createTable, index, ref, text, type AnyDb } from './tables.ts';

export async function up(db: AnyDb): Promise<void> {
  await createTable(db, 'network_share_invites', [ref('network_id', 'networks'), text('email', 'permission', 'created')], {
    primaryKey: ['network_id', 'email'],
    indexes: [index('network_share_invites_email_ix', 'email')],
  });
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('network_share_invites').execute();
}
