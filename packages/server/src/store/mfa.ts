/** TOTP secrets and recovery codes of users (docs/web-app.md "MFA"). Plain data access. */
import type { Kysely, Selectable } from 'kysely';
import type { Database, UserMfaTable } from './schema.ts';

export type UserMfaRecord = Selectable<UserMfaTable>;

export async function getUserMfa(db: Kysely<Database>, userId: string): Promise<UserMfaRecord | null> {
  return (await db.selectFrom('user_mfa').selectAll().where('user_id', '=', userId).executeTakeFirst()) ?? null;
}

/** Stores a pending secret (setup); an enabled secret stays in force until the pending one is enabled. */
export async function setPendingSecret(db: Kysely<Database>, userId: string, secret: string, at: string): Promise<void> {
  await db
    .insertInto('user_mfa')
    .values({ user_id: userId, secret: null, pending_secret: secret, enabled_at: null, last_step: 0, modified: at })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ pending_secret: secret, modified: at }))
    .execute();
}

/** Pending secret → enabled secret; `step` is the time step of the code that confirmed it (not reusable). */
export async function enablePendingSecret(db: Kysely<Database>, userId: string, pending: string, step: number, at: string): Promise<boolean> {
  const res = await db
    .updateTable('user_mfa')
    .set({ secret: pending, pending_secret: null, enabled_at: at, last_step: step, modified: at })
    .where('user_id', '=', userId)
    .where('pending_secret', '=', pending)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Records the accepted time step only if it is newer than the last one (a code is accepted once). */
export async function useTimeStep(db: Kysely<Database>, userId: string, step: number): Promise<boolean> {
  const res = await db.updateTable('user_mfa').set({ last_step: step }).where('user_id', '=', userId).where('last_step', '<', step).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
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
export async function useRecoveryCode(db: Kysely<Database>, userId: string, hash: string, at: string): Promise<boolean> {
  const res = await db
    .updateTable('mfa_recovery_codes')
    .set({ used_at: at })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function countUnusedRecoveryCodes(db: Kysely<Database>, userId: string): Promise<number> {
  const r = await db
    .selectFrom('mfa_recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
