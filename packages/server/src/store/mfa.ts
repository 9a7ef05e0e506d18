/** TOTP secrets and recovery codes of users (docs/web-app.md "MFA"). Plain data access. */
import type { Kysely, Selectable } from 'kysely';
import { countRows, updatedAny, upsert } from './queries.ts';
import type { Database, UserMfaTable } from './schema.ts';

export type UserMfaRecord = Selectable<UserMfaTable>;

export async function getUserMfa(db: Kysely<Database>, userId: string): Promise<UserMfaRecord | null> {
  return (await db.selectFrom('user_mfa').selectAll().where('user_id', '=', userId).executeTakeFirst()) ?? null;
}

/** Stores a pending secret (setup); an enabled secret stays in force until the pending one is enabled. */
export async function setPendingSecret(db: Kysely<Database>, userId: string, secret: string, at: string): Promise<void> {
  await upsert(db, 'user_mfa', ['user_id'], { user_id: userId, secret: null, pending_secret: secret, enabled_at: null, last_step: 0, modified: at }, { pending_secret: secret, modified: at });
}

/** Pending secret → enabled secret; `step` is the time step of the code that confirmed it (not reusable). */
export function enablePendingSecret(db: Kysely<Database>, userId: string, pending: string, step: number, at: string): Promise<boolean> {
  const enabled = { secret: pending, pending_secret: null, enabled_at: at, last_step: step, modified: at };
  return updatedAny(db.updateTable('user_mfa').set(enabled).where('user_id', '=', userId).where('pending_secret', '=', pending));
}

/** Records the accepted time step only if it is newer than the last one (a code is accepted once). */
export function useTimeStep(db: Kysely<Database>, userId: string, step: number): Promise<boolean> {
  return updatedAny(db.updateTable('user_mfa').set({ last_step: step }).where('user_id', '=', userId).where('last_step', '<', step));
}

export async function deleteUserMfa(db: Kysely<Database>, userId: string): Promise<void> {
  await db.deleteFrom('user_mfa').where('user_id', '=', userId).execute();
  await db.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId).execute();
}

/** Replaces every recovery code of the user with these hashes. */
export async function replaceRecoveryCodes(db: Kysely<Database>, userId: string, hashes: readonly string[], at: string): Promise<void> {
  await db.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId).execute();
  if (hashes.length) await db.insertInto('mfa_recovery_codes').values(hashes.map((code_hash) => ({ user_id: userId, code_hash, created: at, used_at: null }))).execute();
}

/** Marks an unused code used; true for exactly one caller. */
export function useRecoveryCode(db: Kysely<Database>, userId: string, hash: string, at: string): Promise<boolean> {
  return updatedAny(db.updateTable('mfa_recovery_codes').set({ used_at: at }).where('user_id', '=', userId).where('code_hash', '=', hash).where('used_at', 'is', null));
}

export function countUnusedRecoveryCodes(db: Kysely<Database>, userId: string): Promise<number> {
  return countRows(db.selectFrom('mfa_recovery_codes').where('user_id', '=', userId).where('used_at', 'is', null));
}
