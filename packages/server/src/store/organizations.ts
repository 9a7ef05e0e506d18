/** Organizations and memberships repository (a user belongs to at most one organization). */
import type { Kysely, Selectable } from 'kysely';
import { nowIso } from './db.ts';
import type { Database, MembershipsTable, OrganizationsTable, OrgRole, Plan } from './schema.ts';
import type { UserRecord } from './users.ts';

export type OrganizationRecord = Selectable<OrganizationsTable>;
export type MembershipRecord = Selectable<MembershipsTable>;

export async function insertOrganization(
  db: Kysely<Database>,
  org: Omit<OrganizationsTable, 'created' | 'modified'>,
): Promise<OrganizationRecord> {
  const created = nowIso();
  const row: OrganizationRecord = { ...org, created, modified: created };
  await db.insertInto('organizations').values(row).execute();
  return row;
}

export async function getOrganizationById(db: Kysely<Database>, id: string): Promise<OrganizationRecord | null> {
  return (await db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** All organizations with exactly this name (names are not unique). */
export function getOrganizationsByName(db: Kysely<Database>, name: string): Promise<OrganizationRecord[]> {
  return db.selectFrom('organizations').selectAll().where('name', '=', name).orderBy('created').execute();
}

export async function setOrganizationPlan(db: Kysely<Database>, id: string, plan: Plan): Promise<OrganizationRecord | null> {
  const res = await db.updateTable('organizations').set({ plan, modified: nowIso() }).where('id', '=', id).executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) return null;
  return getOrganizationById(db, id);
}

export async function insertMembership(
  db: Kysely<Database>,
  m: { org_id: string; user_id: string; role: OrgRole },
): Promise<MembershipRecord> {
  const row: MembershipRecord = { ...m, created: nowIso() };
  await db.insertInto('memberships').values(row).execute();
  return row;
}

export async function setMembershipRole(db: Kysely<Database>, orgId: string, userId: string, role: OrgRole): Promise<boolean> {
  const res = await db
    .updateTable('memberships')
    .set({ role })
    .where('org_id', '=', orgId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function deleteMembership(db: Kysely<Database>, orgId: string, userId: string): Promise<boolean> {
  const res = await db.deleteFrom('memberships').where('org_id', '=', orgId).where('user_id', '=', userId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** The membership of a user (at most one), or null. */
export async function getMembershipOfUser(db: Kysely<Database>, userId: string): Promise<MembershipRecord | null> {
  return (await db.selectFrom('memberships').selectAll().where('user_id', '=', userId).executeTakeFirst()) ?? null;
}

export interface MemberRow {
  user: UserRecord;
  role: OrgRole;
  joined: string;
}

/** Members of an organization with their user records, oldest first. */
export async function listMembers(db: Kysely<Database>, orgId: string): Promise<MemberRow[]> {
  const rows = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .selectAll('u')
    .select(['m.role as role', 'm.created as joined'])
    .where('m.org_id', '=', orgId)
    .orderBy('m.created')
    .orderBy('u.id')
    .execute();
  return rows.map(({ role, joined, ...user }) => ({ user, role, joined }));
}

/** Ids of all members (used for organization-credential visibility). */
export async function listMemberIds(db: Kysely<Database>, orgId: string): Promise<string[]> {
  const rows = await db.selectFrom('memberships').select('user_id').where('org_id', '=', orgId).execute();
  return rows.map((r) => r.user_id);
}

export interface OrganizationListRow extends OrganizationRecord {
  memberCount: number;
}

/** Every organization with its member count, oldest first (operator CLI). */
export async function listOrganizations(db: Kysely<Database>): Promise<OrganizationListRow[]> {
  const rows = await db
    .selectFrom('organizations as o')
    .leftJoin('memberships as m', 'm.org_id', 'o.id')
    .selectAll('o')
    .select((eb) => eb.fn.count<number>('m.user_id').as('memberCount'))
    .groupBy(['o.id', 'o.name', 'o.plan', 'o.created_by', 'o.created', 'o.modified'])
    .orderBy('o.created')
    .orderBy('o.id')
    .execute();
  return rows.map((r) => ({ ...r, memberCount: Number(r.memberCount) }));
}
