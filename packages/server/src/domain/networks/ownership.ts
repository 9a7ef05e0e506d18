/**
 * Ownership rules of `POST /networks` (docs/spec/api.md "Ownership rules") and plan maxima (docs/spec/decisions.md §2):
 * 1. a user credential creates networks owned by its own user (`owner` ignored) — unless the user is an
 *    Access-only / Simplified Access-only member, who cannot own networks (403 FORBIDDEN);
 * 2. an organization credential with `owner` (e-mail or user id): the owner must be an active, verified
 *    member of the credential's organization who can own networks (not Access-only) → else 400
 *    INVALID_OWNER;
 * 3. an organization credential without `owner`: the credential's creator, if it can still own networks
 *    in that organization → else 400 OWNER_REQUIRED;
 * 4. the owner's plan maxima of public / private networks apply → 403 NETWORK_LIMIT_REACHED naming them.
 * A network created by a member (or through an organization credential) belongs to that organization
 * (`networks.org_id`, `networkOrganization`); one created outside any organization stays personal.
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
    const m = await getMembershipOfUser(db, me.id);
    if (m && (m.role === 'Access-only' || m.role === 'Simplified Access-only')) {
      throw new DomainError('FORBIDDEN', `your role in your organization (${m.role}) cannot own networks; ask an Owner or Admin for another role`);
    }
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

/** The organization a new network of `owner` belongs to: the credential's, else the owner's (null: personal). */
export async function networkOrganization(db: Kysely<Database>, principal: Principal, owner: UserRecord): Promise<string | null> {
  return principal.orgId ?? (await getMembershipOfUser(db, owner.id))?.org_id ?? null;
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

/**
 * The plan maxima checked before an upload or a network body is read or parsed (issue 19, Low: the
 * maximum was checked only after a whole upload was parsed). With the status known (a form field), that
 * status's maximum; without it (the file may say Public or Private), a refusal only when the owner can
 * have no network of either status. createNetwork checks again, exactly, after reading.
 */
export async function checkPlanRoom(db: Kysely<Database>, config: Config, owner: UserRecord, status?: NetworkStatus): Promise<void> {
  if (status) {
    await checkPlanLimit(db, config, owner, status);
    return;
  }
  const plan = await effectivePlan(db, owner);
  const limits = config.plans[plan];
  if (!Number.isFinite(limits.maxPublicNetworks) || !Number.isFinite(limits.maxPrivateNetworks)) return;
  const counts = await countNetworksByOwner(db, owner.id);
  if (counts.public >= limits.maxPublicNetworks && counts.private >= limits.maxPrivateNetworks) {
    throw new DomainError(
      'NETWORK_LIMIT_REACHED',
      `${owner.name} <${owner.email}> has reached the ${plan} plan maximum of ${limits.maxPublicNetworks} public and ${limits.maxPrivateNetworks} private networks`,
    );
  }
}

/**
 * checkPlanRoom for a caller whose networks' owner is known before the body is read: a user credential
 * or a web session creates networks owned by its own user. An organization credential may name the
 * owner in the body, so it is checked once the fields are read (domain/networks/import.ts).
 */
export async function checkCallerPlanRoom(db: Kysely<Database>, config: Config, principal: Principal): Promise<void> {
  if (principal.orgId) return;
  const me = await getUserById(db, principal.userId);
  if (me) await checkPlanRoom(db, config, me);
}
