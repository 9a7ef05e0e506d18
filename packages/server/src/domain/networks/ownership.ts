/**
 * Ownership rules of `POST /networks` (docs/spec/api.md "Ownership rules") and plan maxima (docs/spec/decisions.md §2):
 * 1. a user credential creates networks owned by its own user (`owner` ignored);
 * 2. an organization credential with `owner` (e-mail or user id): the owner must be an active, verified
 *    member of the credential's organization who can own networks (not Access-only) → else 400
 *    INVALID_OWNER;
 * 3. an organization credential without `owner`: the credential's creator, if it can still own networks
 *    in that organization → else 400 OWNER_REQUIRED;
 * 4. the owner's plan maxima of public / private networks apply → 403 NETWORK_LIMIT_REACHED naming them.
 */
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database, NetworkStatus, Plan } from '../../store/schema.ts';
import type { Principal } from '../identity/credentials/principal.ts';
import { DomainError } from '../errors.ts';
import { canOwnNetworks } from '../identity/users.ts';
import { getUserByEmail, getUserById, type UserRecord } from '../../store/users.ts';
import { getMembershipOfUser, getOrganizationById } from '../../store/organizations.ts';
import { countNetworksByOwner } from '../../store/networks.ts';

/** The plan that governs a user: the organization's when the user belongs to one, else the user's own. */
export async function effectivePlan(db: Kysely<Database>, user: UserRecord): Promise<Plan> {
  const m = await getMembershipOfUser(db, user.id);
  if (m) {
    const org = await getOrganizationById(db, m.org_id);
    if (org) return org.plan;
  }
  return user.plan;
}

export async function resolveOwner(db: Kysely<Database>, principal: Principal, owner: string | undefined): Promise<UserRecord> {
  if (!principal.orgId) {
    const me = await getUserById(db, principal.userId);
    if (!me) throw new DomainError('FORBIDDEN', 'the credential’s user no longer exists');
    return me;
  }
  if (owner !== undefined) {
    const user = owner.includes('@') ? await getUserByEmail(db, owner.trim().toLowerCase()) : await getUserById(db, owner);
    const m = user ? await getMembershipOfUser(db, user.id) : null;
    const why = (reason: string) => new DomainError('INVALID_OWNER', `owner ${JSON.stringify(owner)} ${reason}`, [{ path: '/owner', message: reason }]);
    if (!user) throw why('is not a known user');
    if (!m || m.org_id !== principal.orgId) throw why('is not a member of the credential’s organization');
    if (user.status === 'suspended') throw why('is suspended');
    if (user.status === 'unverified') throw why('has not verified their account');
    if (user.kind === 'managed') throw why('is a managed (embedded) user and cannot own networks');
    if (!canOwnNetworks(user, m)) throw why(`has the role ${m.role} and cannot own networks`);
    return user;
  }
  const creator = await getUserById(db, principal.userId);
  const m = creator ? await getMembershipOfUser(db, creator.id) : null;
  if (!creator || !m || m.org_id !== principal.orgId || !canOwnNetworks(creator, m)) {
    throw new DomainError('OWNER_REQUIRED', 'the user who created this organization credential can no longer own networks; send `owner` (e-mail or user id of a member)', [
      { path: '/owner', message: 'is required for this credential' },
    ]);
  }
  return creator;
}

/** Throws 403 NETWORK_LIMIT_REACHED when `owner` may not have one more network of `status`. */
export async function checkPlanLimit(db: Kysely<Database>, config: Config, owner: UserRecord, status: NetworkStatus): Promise<Plan> {
  const plan = await effectivePlan(db, owner);
  const limits = config.plans[plan];
  const max = status === 'Public' ? limits.maxPublicNetworks : limits.maxPrivateNetworks;
  if (Number.isFinite(max)) {
    const counts = await countNetworksByOwner(db, owner.id);
    const have = status === 'Public' ? counts.public : counts.private;
    if (have >= max) {
      throw new DomainError(
        'NETWORK_LIMIT_REACHED',
        `${owner.name} <${owner.email}> has reached the ${plan} plan maximum of ${max} ${status.toLowerCase()} networks`,
      );
    }
  }
  return plan;
}
