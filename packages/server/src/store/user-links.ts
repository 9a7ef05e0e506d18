/** One-time invitation and password-reset links (docs/web-app.md "Links"). Plain data access. */
import type { Kysely, Selectable } from 'kysely';
import { updatedAny } from './queries.ts';
import type { Database, UserLinksTable } from './schema.ts';

export type UserLinkRecord = Selectable<UserLinksTable>;

export async function insertUserLink(db: Kysely<Database>, row: UserLinkRecord): Promise<void> {
  await db.insertInto('user_links').values(row).execute();
}

export async function getUserLink(db: Kysely<Database>, tokenHash: string): Promise<UserLinkRecord | null> {
  return (await db.selectFrom('user_links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst()) ?? null;
}

/** Marks an unused, unexpired link used; true for exactly one caller. */
export function useUserLink(db: Kysely<Database>, tokenHash: string, at: string): Promise<boolean> {
  return updatedAny(db.updateTable('user_links').set({ used_at: at }).where('token_hash', '=', tokenHash).where('used_at', 'is', null).where('expires_at', '>', at));
}

/** Ends the unused links of a kind for an e-mail (a new reset link replaces older ones). */
export async function retireUserLinks(db: Kysely<Database>, email: string, kind: UserLinksTable['kind'], at: string): Promise<void> {
  await db.updateTable('user_links').set({ used_at: at }).where('email', '=', email).where('kind', '=', kind).where('used_at', 'is', null).execute();
}

/** An organization's invitations not yet accepted, revoked or expired, newest first (with the inviter's name and e-mail). */
export async function listPendingInvitations(db: Kysely<Database>, orgId: string, at: string): Promise<(UserLinkRecord & { inviter_name: string | null; inviter_email: string | null })[]> {
  const rows = await db.selectFrom('user_links').selectAll().where('kind', '=', 'invite').where('org_id', '=', orgId).where('used_at', 'is', null).where('expires_at', '>', at).orderBy('created', 'desc').execute();
  const inviters = [...new Set(rows.map((r) => r.created_by?.startsWith('user:') ? r.created_by.slice(5) : null).filter((x): x is string => x !== null))];
  const users = inviters.length ? await db.selectFrom('users').select(['id', 'name', 'email']).where('id', 'in', inviters).execute() : [];
  const byId = new Map(users.map((u) => [u.id, u]));
  return rows.map((r) => {
    const u = r.created_by?.startsWith('user:') ? byId.get(r.created_by.slice(5)) : undefined;
    return { ...r, inviter_name: u?.name ?? null, inviter_email: u?.email ?? null };
  });
}

/** Ends one pending invitation of an organization (by its token hash); true when there was one to end. */
export async function revokeInvitation(db: Kysely<Database>, orgId: string, tokenHash: string, at: string): Promise<UserLinkRecord | null> {
  const row = await db.selectFrom('user_links').selectAll().where('token_hash', '=', tokenHash).where('kind', '=', 'invite').where('org_id', '=', orgId).where('used_at', 'is', null).where('expires_at', '>', at).executeTakeFirst();
  if (!row) return null;
  return (await updatedAny(db.updateTable('user_links').set({ used_at: at }).where('token_hash', '=', tokenHash).where('used_at', 'is', null))) ? row : null;
}
