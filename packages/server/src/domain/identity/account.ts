/**
 * The signed-in user's account (docs/web-app.md "Account"): plan, network counts against the plan's
 * maxima, password change (ends the user's other sessions), and the organization's require-MFA
 * setting (Owners/Admins).
 */
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import { inTransaction } from '../../store/db.ts';
import { countNetworksByOwner } from '../../store/networks.ts';
import { setRequireMfa } from '../../store/organization-settings.ts';
import type { MembershipRecord } from '../../store/organizations.ts';
import type { Database, Plan } from '../../store/schema.ts';
import { updateUser, type UserRecord } from '../../store/users.ts';
import { DomainError } from '../errors.ts';
import { isOrgAdmin } from './users.ts';
import { effectivePlan } from '../networks/ownership.ts';
import { confirmPassword, hashNewPassword, type SignInDeps } from './sign-in.ts';
import { checkNewPassword } from './user-links.ts';
import { endWebSessionsOfUser } from '../web/sessions.ts';

export interface AccountSummary {
  plan: Plan;
  networkCounts: { public: number; private: number };
  /** null = unlimited. */
  networkMaxima: { public: number | null; private: number | null };
}

/** The plan that governs the user's networks (the organization's when a member) with counts and maxima. */
export async function accountSummary(db: Kysely<Database>, config: Config, user: UserRecord): Promise<AccountSummary> {
  const [plan, counts] = await Promise.all([effectivePlan(db, user), countNetworksByOwner(db, user.id)]);
  const limits = config.plans[plan];
  const finite = (n: number) => (Number.isFinite(n) ? n : null);
  return { plan, networkCounts: counts, networkMaxima: { public: finite(limits.maxPublicNetworks), private: finite(limits.maxPrivateNetworks) } };
}

/** Changes the password after checking the current one; ends every other session of the user. */
export async function changePassword(
  deps: SignInDeps,
  user: UserRecord,
  input: { currentPassword: string; newPassword: string },
  ctx: { ip: string; keepSessionId: string },
): Promise<{ endedSessions: number }> {
  checkNewPassword(input.newPassword, 'newPassword');
  await confirmPassword(deps, user, input.currentPassword, ctx.ip, 'currentPassword');
  const hash = await hashNewPassword(deps, input.newPassword);
  return inTransaction(deps.db, async (trx) => {
    await updateUser(trx, user.id, { password_hash: hash });
    return { endedSessions: await endWebSessionsOfUser(trx, user.id, ctx.keepSessionId) };
  });
}

/** Switches the organization's require-MFA setting (Owners and Admins only). */
export async function setOrganizationRequireMfa(db: Kysely<Database>, membership: MembershipRecord | null, requireMfa: boolean, now: number): Promise<void> {
  if (!membership) throw new DomainError('FORBIDDEN', 'you do not belong to an organization');
  if (!isOrgAdmin(membership)) throw new DomainError('FORBIDDEN', 'only Owners and Admins change organization settings');
  await setRequireMfa(db, membership.org_id, requireMfa, new Date(now).toISOString());
}

/** Changes the signed-in person's display name (trimmed; 400 naming `/name` when empty). */
export async function renameAccount(db: Kysely<Database>, userId: string, input: string): Promise<{ name: string }> {
  const name = input.trim();
  if (!name) throw new DomainError('INVALID_ARGS', 'name: must not be empty', [{ path: '/name', message: 'must not be empty' }]);
  const u = await updateUser(db, userId, { name });
  if (!u) throw new DomainError('NOT_FOUND', 'no such user');
  return { name: u.name };
}
