/** Users repository. Plain data access; validation and rules live in domain/identity/users.ts. */
import type { Kysely, Selectable, Updateable } from 'kysely';
import { nowIso } from './db.ts';
import type { Database, Plan, UsersTable, UserStatus } from './schema.ts';

export type UserRecord = Selectable<UsersTable>;
export type NewUser = Omit<UsersTable, 'created' | 'modified'> & { created?: string };

export async function insertUser(db: Kysely<Database>, user: NewUser): Promise<UserRecord> {
  const created = user.created ?? nowIso();
  const row: UserRecord = { ...user, created, modified: created };
  await db.insertInto('users').values(row).execute();
  return row;
}

export async function getUserById(db: Kysely<Database>, id: string): Promise<UserRecord | null> {
  return (await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** `email` must already be lowercased (domain/identity/users.ts normalises). */
export async function getUserByEmail(db: Kysely<Database>, email: string): Promise<UserRecord | null> {
  return (await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst()) ?? null;
}

export async function getUsersByIds(db: Kysely<Database>, ids: readonly string[]): Promise<UserRecord[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('users').selectAll().where('id', 'in', [...ids]).execute();
}

export async function countUsers(db: Kysely<Database>): Promise<number> {
  const r = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Updates the given fields (and `modified`); returns the new record, or null when there is no such user. */
export async function updateUser(
  db: Kysely<Database>,
  id: string,
  patch: Pick<Updateable<UsersTable>, 'name' | 'password_hash' | 'plan' | 'status' | 'email'>,
): Promise<UserRecord | null> {
  const res = await db
    .updateTable('users')
    .set({ ...patch, modified: nowIso() })
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) return null;
  return getUserById(db, id);
}

export function setUserPlan(db: Kysely<Database>, id: string, plan: Plan): Promise<UserRecord | null> {
  return updateUser(db, id, { plan });
}

export function setUserStatus(db: Kysely<Database>, id: string, status: UserStatus): Promise<UserRecord | null> {
  return updateUser(db, id, { status });
}
