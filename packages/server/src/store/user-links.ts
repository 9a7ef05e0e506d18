/** One-time invitation and password-reset links (docs/web-app.md "Links"). Plain data access. */
import type { Kysely, Selectable } from 'kysely';
import type { Database, UserLinksTable } from './schema.ts';

export type UserLinkRecord = Selectable<UserLinksTable>;

export async function insertUserLink(db: Kysely<Database>, row: UserLinkRecord): Promise<void> {
  await db.insertInto('user_links').values(row).execute();
}

export async function getUserLink(db: Kysely<Database>, tokenHash: string): Promise<UserLinkRecord | null> {
  return (await db.selectFrom('user_links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst()) ?? null;
}

/** Marks an unused, unexpired link used; true for exactly one caller. */
export async function useUserLink(db: Kysely<Database>, tokenHash: string, at: string): Promise<boolean> {
  const res = await db
    .updateTable('user_links')
    .set({ used_at: at })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Ends the unused links of a kind for an e-mail (a new reset link replaces older ones). */
export async function retireUserLinks(db: Kysely<Database>, email: string, kind: UserLinksTable['kind'], at: string): Promise<void> {
  await db.updateTable('user_links').set({ used_at: at }).where('email', '=', email).where('kind', '=', kind).where('used_at', 'is', null).execute();
}
