/**
 * Organization members as the organization console (docs/web-app.md, "Organization") and the operator CLI
 * see and change them: the overview (plan, member and network counts, embedding seats), the member list
 * (managed users flagged `embedded`), adding an existing user, changing a role, suspending and reinstating.
 *
 * Rules (docs/spec/decisions.md §9.1):
 * - only Owners and Admins change members; only an Owner gives or takes the Owner role or suspends an Owner;
 * - the organization always keeps one active Owner (the last one cannot be demoted or suspended);
 * - nobody suspends themselves;
 * - managed (embedded) users are governed by the embedding API (deactivate), never by these commands;
 * - suspension makes the user's own credentials and web sessions stop working on the next request (the
 *   principal and the web session both check the user's status); reinstating restores them.
 * Every change is written to the organization's audit log with the acting person as actor.
 */
import type { Kysely } from 'kysely';
import type { Database, OrgRole, UserStatus } from '../../store/schema.ts';
import { listMembers, listOrganizations as listOrganizationRows, getMembershipOfUser, setMembershipRole, type MemberRow, type OrganizationListRow } from '../../store/organizations.ts';
import { getUserByEmail, getUserById, setUserStatus } from '../../store/users.ts';
import { managedFactsOfOrg } from '../../store/embed-users.ts';
import { countNetworksByOrg } from '../../store/networks.ts';
import { DomainError } from '../errors.ts';
import { addMember, isOrgAdmin, normalizeEmail, parseRole, requireOrganization } from '../identity/users.ts';
import type { Principal } from '../identity/credentials/principal.ts';
import { audit, type Actor, type EmbedContext } from '../embedding/context.ts';
import { settingsView } from '../embedding/settings.ts';
import { endWebSessionsOfUser } from '../web/sessions.ts';

export interface MemberView {
  _id: string;
  name: string;
  email: string;
  role: OrgRole;
  status: UserStatus;
  joined: string;
  embedded: boolean;
  externalId?: string;
  embedStatus?: string;
}

/** The acting person's role decides what they may do to members. */
export interface MemberActor extends Actor {
  role: OrgRole;
}

async function memberViews(db: Kysely<Database>, orgId: string): Promise<{ rows: MemberRow[]; views: MemberView[] }> {
  const [rows, managed] = await Promise.all([listMembers(db, orgId), managedFactsOfOrg(db, orgId)]);
  const views = rows.map((m) => {
    const e = managed.get(m.user.id);
    return {
      _id: m.user.id,
      name: m.user.name,
      email: m.user.email,
      role: m.role,
      status: m.user.status,
      joined: m.joined,
      embedded: e !== undefined,
      ...(e ? { externalId: e.external_id, embedStatus: e.status } : {}),
    };
  });
  return { rows, views };
}

/**
 * `GET /api/v2/organization/members`: the members of the credential's organization — an organization
 * credential's, or the one a user credential's Owner/Admin membership belongs to (403 otherwise).
 */
export async function membersForCredential(db: Kysely<Database>, p: Principal): Promise<Omit<MemberView, 'status'>[]> {
  const orgId = p.orgId ?? (isOrgAdmin(p.membership) ? p.membership!.org_id : null);
  if (!orgId) throw new DomainError('FORBIDDEN', 'only organization admins (Owner or Admin) or organization credentials may list members');
  return (await listOrganizationMembers(db, orgId)).map(({ status: _status, ...m }) => m);
}

/** Every organization with its member count (operator CLI). */
export function listOrganizations(db: Kysely<Database>): Promise<OrganizationListRow[]> {
  return listOrganizationRows(db);
}

/** Members of an organization, oldest first; managed users flagged `embedded`. */
export async function listOrganizationMembers(db: Kysely<Database>, orgId: string): Promise<MemberView[]> {
  return (await memberViews(db, orgId)).views;
}

export interface OrganizationOverview {
  _id: string;
  name: string;
  plan: string;
  created: string;
  memberCount: number;
  managedUserCount: number;
  networkCounts: { public: number; private: number };
  embedding: { enabled: boolean; seats: number; seatsUsed: number };
}

export async function organizationOverview(ctx: EmbedContext, orgId: string): Promise<OrganizationOverview> {
  const org = await requireOrganization(ctx.db, orgId);
  const [{ views }, networkCounts, settings] = await Promise.all([memberViews(ctx.db, orgId), countNetworksByOrg(ctx.db, orgId), settingsView(ctx, orgId)]);
  return {
    _id: org.id,
    name: org.name,
    plan: org.plan,
    created: org.created,
    memberCount: views.filter((v) => !v.embedded).length,
    managedUserCount: views.filter((v) => v.embedded).length,
    networkCounts,
    embedding: { enabled: settings.enabled, seats: settings.seats, seatsUsed: settings.seatsUsed },
  };
}

async function requireMember(ctx: EmbedContext, orgId: string, userId: string): Promise<{ view: MemberView; views: MemberView[] }> {
  const { views } = await memberViews(ctx.db, orgId);
  const view = views.find((v) => v._id === userId);
  if (!view) throw new DomainError('NOT_FOUND', `no member ${JSON.stringify(userId)} in this organization`);
  if (view.embedded) {
    throw new DomainError('EMBED_MEMBERSHIP_IMMUTABLE', `${view.name} is a managed (embedded) user: manage it with the embedding console (deactivate), not as a member`);
  }
  return { view, views };
}

const activeOwners = (views: MemberView[]) => views.filter((v) => v.role === 'Owner' && v.status === 'active' && !v.embedded);

/** Adds an existing user (by e-mail) to the organization. A user without an account is invited instead. */
export async function addExistingMember(ctx: EmbedContext, orgId: string, actor: MemberActor, input: { email: unknown; role: unknown }): Promise<MemberView> {
  const email = normalizeEmail(input.email);
  const role = parseRole(input.role);
  if (role === 'Owner' && actor.role !== 'Owner') throw new DomainError('FORBIDDEN', 'only an Owner may add another Owner');
  const user = await getUserByEmail(ctx.db, email);
  if (!user || user.kind === 'managed') {
    throw new DomainError('NOT_FOUND', `no account with the e-mail ${email}; create an invitation link instead`, [{ path: '/email', message: 'no account with this e-mail' }]);
  }
  const existing = await getMembershipOfUser(ctx.db, user.id);
  if (existing?.org_id === orgId) throw new DomainError('CONFLICT', `${email} is already a member`, [{ path: '/email', message: 'already a member' }]);
  if (existing) throw new DomainError('CONFLICT', `${email} belongs to another organization`, [{ path: '/email', message: 'belongs to another organization' }]);
  await addMember(ctx.db, { orgId, userId: user.id, role });
  await audit(ctx, orgId, actor, 'member.add', user.id, { role });
  return (await requireMember(ctx, orgId, user.id)).view;
}

export async function changeMemberRole(ctx: EmbedContext, orgId: string, actor: MemberActor, userId: string, roleInput: unknown): Promise<MemberView> {
  const role = parseRole(roleInput);
  const { view, views } = await requireMember(ctx, orgId, userId);
  if (view.role === role) return view;
  if ((role === 'Owner' || view.role === 'Owner') && actor.role !== 'Owner') throw new DomainError('FORBIDDEN', 'only an Owner may give or take the Owner role');
  if (view.role === 'Owner' && activeOwners(views).filter((v) => v._id !== userId).length === 0) {
    throw new DomainError('CONFLICT', 'the organization needs at least one active Owner; make someone else Owner first');
  }
  await setMembershipRole(ctx.db, orgId, userId, role);
  await audit(ctx, orgId, actor, 'member.role', userId, { from: view.role, to: role });
  return { ...view, role };
}

export async function suspendMember(ctx: EmbedContext, orgId: string, actor: MemberActor, userId: string): Promise<MemberView> {
  const { view, views } = await requireMember(ctx, orgId, userId);
  if (userId === actor.id) throw new DomainError('FORBIDDEN', 'you cannot suspend yourself');
  if (view.role === 'Owner' && actor.role !== 'Owner') throw new DomainError('FORBIDDEN', 'only an Owner may suspend an Owner');
  if (view.status === 'suspended') return view;
  if (view.role === 'Owner' && activeOwners(views).filter((v) => v._id !== userId).length === 0) {
    throw new DomainError('CONFLICT', 'the organization needs at least one active Owner');
  }
  await setUserStatus(ctx.db, userId, 'suspended');
  const endedSessions = await endWebSessionsOfUser(ctx.db, userId);
  await audit(ctx, orgId, actor, 'member.suspend', userId, { endedSessions });
  return { ...view, status: 'suspended' };
}

export async function reinstateMember(ctx: EmbedContext, orgId: string, actor: MemberActor, userId: string): Promise<MemberView> {
  const { view } = await requireMember(ctx, orgId, userId);
  if (view.role === 'Owner' && actor.role !== 'Owner') throw new DomainError('FORBIDDEN', 'only an Owner may reinstate an Owner');
  if (view.status !== 'suspended') return view;
  const user = await getUserById(ctx.db, userId);
  await setUserStatus(ctx.db, userId, 'active');
  await audit(ctx, orgId, actor, 'member.reinstate', userId, { was: user?.status ?? 'suspended' });
  return { ...view, status: 'active' };
}
