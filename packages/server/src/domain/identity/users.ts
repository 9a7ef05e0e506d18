/**
 * Users, organizations, memberships and plans (issue 2, item 4). Roles are exactly the five of docs/spec/api.md;
 * a user belongs to at most one organization. Network ownership needs an active, verified user whose
 * role (if any) is not Access-only / Simplified Access-only (docs/spec/api.md: invalid `owner` cases).
 */
import type { Kysely } from 'kysely';
import { inTransaction, isUniqueViolation } from '../../store/db.ts';
import {
  getMembershipOfUser,
  getOrganizationById,
  getOrganizationsByName,
  insertMembership,
  insertOrganization,
  setMembershipRole,
  setOrganizationPlan,
  type MembershipRecord,
  type OrganizationRecord,
} from '../../store/organizations.ts';
import type { Database, OrgRole, Plan, UserKind, UserStatus } from '../../store/schema.ts';
import { getUserByEmail, getUserById, insertUser, setUserPlan as storeSetUserPlan, setUserStatus, type UserRecord } from '../../store/users.ts';
import { DomainError } from '../errors.ts';
import { isId, newId } from '../ids.ts';
import { hashPassword } from './passwords.ts';
import { claimShareInvites } from '../../store/web-networks.ts';

/** The organization roles and plans, for the layers above the domain (routes never import store/). */
export type { OrgRole, Plan } from '../../store/schema.ts';

export const PLANS: readonly Plan[] = ['free', 'pro', 'enterprise', 'partner'];
export const ROLES: readonly OrgRole[] = ['Owner', 'Admin', 'Standard User', 'Access-only', 'Simplified Access-only'];
export const USER_STATUSES: readonly UserStatus[] = ['active', 'suspended', 'unverified'];
/** Plans with metrics and organization credentials (docs/spec/decisions.md §2). */
export const METRIC_PLANS: readonly Plan[] = ['enterprise', 'partner'];

export function parsePlan(value: unknown): Plan {
  if (typeof value === 'string' && (PLANS as readonly string[]).includes(value)) return value as Plan;
  throw new DomainError('INVALID_ARGS', `plan must be one of ${PLANS.join(', ')}; got ${JSON.stringify(value)}`);
}

export function parseRole(value: unknown): OrgRole {
  if (typeof value === 'string' && (ROLES as readonly string[]).includes(value)) return value as OrgRole;
  throw new DomainError('INVALID_ARGS', `role must be one of ${ROLES.map((r) => `"${r}"`).join(', ')}; got ${JSON.stringify(value)}`);
}

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]+$/;

/** Trims and lowercases an e-mail address; INVALID_ARGS when it is not one. */
export function normalizeEmail(value: unknown): string {
  const email = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (!email || email.length > 254 || !EMAIL.test(email)) {
    throw new DomainError('INVALID_ARGS', `email: not a valid e-mail address: ${JSON.stringify(value)}`);
  }
  return email;
}

function cleanName(value: unknown, what: string): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (!name || name.length > 200) throw new DomainError('INVALID_ARGS', `${what}: 1 to 200 characters required`);
  return name;
}

export interface CreateUserInput {
  email: string;
  name: string;
  plan?: Plan;
  /** Plain password (hashed with scrypt); omitted = the user cannot sign in with a password yet. */
  password?: string | null;
  status?: UserStatus;
  kind?: UserKind;
}

/** Creates a user. CONFLICT when the e-mail is taken; INVALID_ARGS for a bad e-mail/name/plan/password. */
export async function createUser(db: Kysely<Database>, input: CreateUserInput): Promise<UserRecord> {
  const email = normalizeEmail(input.email);
  const name = cleanName(input.name, 'name');
  const plan = parsePlan(input.plan ?? 'free');
  const status = input.status ?? 'active';
  if (!USER_STATUSES.includes(status)) throw new DomainError('INVALID_ARGS', `status must be one of ${USER_STATUSES.join(', ')}`);
  if (input.password != null && (typeof input.password !== 'string' || input.password.length < 8 || input.password.length > 1024)) {
    throw new DomainError('INVALID_ARGS', 'password: 8 to 1024 characters required');
  }
  const password_hash = input.password != null ? await hashPassword(input.password) : null;
  if (await getUserByEmail(db, email)) throw new DomainError('CONFLICT', `a user with e-mail ${email} already exists`);
  try {
    const user = await insertUser(db, { id: newId(), email, name, password_hash, plan, status, kind: input.kind ?? 'regular' });
    // networks shared with this e-mail before it had an account (domain/networks/web.ts shareWebNetwork)
    if (user.kind === 'regular') await claimShareInvites(db, user.id, email, user.created);
    return user;
  } catch (err) {
    if (isUniqueViolation(err)) throw new DomainError('CONFLICT', `a user with e-mail ${email} already exists`);
    throw err;
  }
}

/** The user with this e-mail (normalised first), or NOT_FOUND. */
export async function requireUserByEmail(db: Kysely<Database>, email: string): Promise<UserRecord> {
  const user = await getUserByEmail(db, normalizeEmail(email));
  if (!user) throw new DomainError('NOT_FOUND', `no user with e-mail ${JSON.stringify(email)}`);
  return user;
}

/** The user with this id, or NOT_FOUND. */
export async function requireUser(db: Kysely<Database>, id: string): Promise<UserRecord> {
  const user = await getUserById(db, id);
  if (!user) throw new DomainError('NOT_FOUND', `no user ${JSON.stringify(id)}`);
  return user;
}

export async function setUserPlan(db: Kysely<Database>, userId: string, plan: Plan): Promise<UserRecord> {
  const user = await storeSetUserPlan(db, userId, parsePlan(plan));
  if (!user) throw new DomainError('NOT_FOUND', `no user ${JSON.stringify(userId)}`);
  return user;
}

async function setStatus(db: Kysely<Database>, userId: string, status: UserStatus): Promise<UserRecord> {
  const user = await setUserStatus(db, userId, status);
  if (!user) throw new DomainError('NOT_FOUND', `no user ${JSON.stringify(userId)}`);
  return user;
}
/** Suspended users cannot use their own credentials nor own networks. */
export const suspendUser = (db: Kysely<Database>, userId: string) => setStatus(db, userId, 'suspended');
/** Unverified users cannot own networks. */
export const unverifyUser = (db: Kysely<Database>, userId: string) => setStatus(db, userId, 'unverified');
/** Back to active (verified, not suspended). */
export const activateUser = (db: Kysely<Database>, userId: string) => setStatus(db, userId, 'active');

export interface CreateOrganizationInput {
  name: string;
  plan: Plan;
  /** The first member, with role Owner. Must not belong to another organization. */
  ownerUserId: string;
}

/** Creates an organization and its owner's membership in one transaction. */
export async function createOrganization(
  db: Kysely<Database>,
  input: CreateOrganizationInput,
): Promise<{ org: OrganizationRecord; membership: MembershipRecord }> {
  const name = cleanName(input.name, 'name');
  const plan = parsePlan(input.plan);
  return inTransaction(db, async (trx) => {
    const owner = await requireUser(trx, input.ownerUserId);
    const existing = await getMembershipOfUser(trx, owner.id);
    if (existing) throw new DomainError('CONFLICT', `${owner.email} already belongs to organization ${existing.org_id}`);
    const org = await insertOrganization(trx, { id: newId(), name, plan, created_by: owner.id });
    try {
      const membership = await insertMembership(trx, { org_id: org.id, user_id: owner.id, role: 'Owner' });
      return { org, membership };
    } catch (err) {
      if (isUniqueViolation(err)) throw new DomainError('CONFLICT', `${owner.email} already belongs to an organization`);
      throw err;
    }
  });
}

/**
 * Adds a user to an organization with a role, or changes the role of an existing member.
 * CONFLICT when the user belongs to another organization.
 */
export async function addMember(
  db: Kysely<Database>,
  input: { orgId: string; userId: string; role: OrgRole },
): Promise<MembershipRecord> {
  const role = parseRole(input.role);
  return inTransaction(db, async (trx) => {
    await requireOrganization(trx, input.orgId);
    const user = await requireUser(trx, input.userId);
    const existing = await getMembershipOfUser(trx, user.id);
    if (existing && existing.org_id !== input.orgId) {
      throw new DomainError('CONFLICT', `${user.email} already belongs to organization ${existing.org_id}`);
    }
    if (existing) {
      await setMembershipRole(trx, input.orgId, user.id, role);
      return { ...existing, role };
    }
    try {
      return await insertMembership(trx, { org_id: input.orgId, user_id: user.id, role });
    } catch (err) {
      if (isUniqueViolation(err)) throw new DomainError('CONFLICT', `${user.email} already belongs to an organization`);
      throw err;
    }
  });
}

export async function requireOrganization(db: Kysely<Database>, id: string): Promise<OrganizationRecord> {
  const org = await getOrganizationById(db, id);
  if (!org) throw new DomainError('NOT_FOUND', `no organization ${JSON.stringify(id)}`);
  return org;
}

/** An organization by id, else by exact name (INVALID_ARGS when several share the name). */
export async function resolveOrganization(db: Kysely<Database>, idOrName: string): Promise<OrganizationRecord> {
  if (isId(idOrName)) {
    const org = await getOrganizationById(db, idOrName);
    if (org) return org;
  }
  const byName = await getOrganizationsByName(db, idOrName);
  if (byName.length === 1) return byName[0];
  if (byName.length > 1) {
    throw new DomainError('INVALID_ARGS', `several organizations are named ${JSON.stringify(idOrName)}; use the id (${byName.map((o) => o.id).join(', ')})`);
  }
  throw new DomainError('NOT_FOUND', `no organization ${JSON.stringify(idOrName)}`);
}

export async function setOrganizationPlanOf(db: Kysely<Database>, orgId: string, plan: Plan): Promise<OrganizationRecord> {
  const org = await setOrganizationPlan(db, orgId, parsePlan(plan));
  if (!org) throw new DomainError('NOT_FOUND', `no organization ${JSON.stringify(orgId)}`);
  return org;
}

/**
 * Whether a user may own networks: active (neither suspended nor unverified) and — when a member of an
 * organization — not Access-only / Simplified Access-only (docs/spec/api.md, invalid `owner` cases).
 */
export function canOwnNetworks(
  user: Pick<UserRecord, 'status'> & Partial<Pick<UserRecord, 'kind'>>,
  membership: Pick<MembershipRecord, 'role'> | null,
): boolean {
  if (user.status !== 'active') return false;
  if (user.kind === 'managed') return false; // managed (embedded) users never own networks
  if (membership && (membership.role === 'Access-only' || membership.role === 'Simplified Access-only')) return false;
  return true;
}

/** Owner or Admin of the organization. */
export function isOrgAdmin(membership: Pick<MembershipRecord, 'role'> | null): boolean {
  return membership !== null && (membership.role === 'Owner' || membership.role === 'Admin');
}
