/**
 * The web app's networks pages (docs/web-app.md "Networks"), for a signed-in user (a session
 * principal): the list of own and shared networks with the plan's counts and maxima, a network's page
 * (access, saved views, shares), metadata edits, deletion and sharing by e-mail.
 * Access rules are those of the API (network-access.ts): edit needs ownership or an Edit share,
 * delete and sharing need ownership.
 */
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database, NetworkStatus, SharePermission } from '../../store/schema.ts';
import { deleteNetwork, deleteShare, updateNetwork, upsertShare, type NetworkRecord } from '../../store/networks.ts';
import { countViews } from '../../store/embed-views.ts';
import { getUserByEmail, getUserById } from '../../store/users.ts';
import { deleteShareInvite, listShareInvites, listSharesWithUsers, listUserNetworksSorted, upsertShareInvite } from '../../store/web-networks.ts';
import { getMembershipOfUser } from '../../store/organizations.ts';
import { nowIso } from '../../store/db.ts';
import type { Principal } from '../identity/credentials/principal.ts';
import { accountSummary } from '../identity/account.ts';
import { DomainError, invalidArgs, type DomainErrorItem } from '../errors.ts';
import { loadNetworkFor, type Access } from './access.ts';
import { checkPlanLimit } from './ownership.ts';
import { parseBoolean } from './body.ts';

export type WebAccess = Exclude<Access, 'none'>;

export async function listWebNetworks(db: Kysely<Database>, config: Config, principal: Principal, sort: 'modified' | 'name') {
  const [rows, summary] = await Promise.all([listUserNetworksSorted(db, principal.userId, sort), accountSummary(db, config, principal.user)]);
  const networks = rows.map((r) => ({ rec: r as NetworkRecord, access: (r.owner_id === principal.userId ? 'owner' : r.share_permission === 'Edit' ? 'edit' : 'read') as WebAccess }));
  return { networks, counts: summary.networkCounts, maxima: summary.networkMaxima };
}

export interface ShareView {
  email: string;
  name: string;
  permission: SharePermission;
}

/**
 * The shares of a network as its owner and editors see them: shares with accounts and shares waiting for
 * an e-mail without one (migration 0013), by e-mail. A name is shown only for members of the viewer's
 * own organization (whom the viewer sees anyway), so the list never tells whether an address has an
 * account (issue 19, Low; docs/security.md "Accounts and organizations").
 */
async function sharesOf(db: Kysely<Database>, id: string, viewer: Principal): Promise<ShareView[]> {
  const orgId = viewer.membership?.org_id ?? null;
  const [withUsers, invites] = await Promise.all([listSharesWithUsers(db, id), listShareInvites(db, id)]);
  const named = await Promise.all(
    withUsers.map(async (s) => {
      const m = orgId ? await getMembershipOfUser(db, s.user_id) : null;
      return { email: s.email, name: m !== null && m.org_id === orgId ? s.name : '', permission: s.permission };
    }),
  );
  return [...named, ...invites.map((i) => ({ email: i.email, name: '', permission: i.permission }))].sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
}

/** A network's page: its metadata, the caller's access, saved views, and shares (owner and editors see them). */
export async function webNetworkDetail(db: Kysely<Database>, principal: Principal, id: string) {
  const { net, access } = await loadNetworkFor(db, principal, id, 'read');
  const [viewCount, shares] = await Promise.all([countViews(db, id), access === 'read' ? Promise.resolve([]) : sharesOf(db, id, principal)]);
  return { rec: net, access: access as WebAccess, viewCount, shares };
}

export interface MetadataPatch {
  name?: unknown;
  description?: unknown;
  status?: unknown;
  isDirected?: unknown;
}

/** Changes name, description, status (plan maxima apply) and directedness; all problems at once. */
export async function patchWebNetwork(db: Kysely<Database>, config: Config, principal: Principal, id: string, body: MetadataPatch): Promise<NetworkRecord> {
  const { net } = await loadNetworkFor(db, principal, id, 'edit');
  const problems: DomainErrorItem[] = [];
  const patch: { name?: string; description?: string; status?: NetworkStatus; is_directed?: number } = {};
  if (body.name !== undefined) {
    if (typeof body.name !== 'string' || body.name.trim() === '') problems.push({ path: '/name', message: 'must be a non-empty String' });
    else patch.name = body.name.trim();
  }
  if (body.description !== undefined) {
    if (typeof body.description !== 'string') problems.push({ path: '/description', message: 'must be a String' });
    else patch.description = body.description;
  }
  if (body.status !== undefined) {
    if (body.status !== 'Public' && body.status !== 'Private') problems.push({ path: '/status', message: 'must be "Public" or "Private"' });
    else patch.status = body.status;
  }
  if (body.isDirected !== undefined) {
    const d = parseBoolean(body.isDirected);
    if (d === undefined) problems.push({ path: '/isDirected', message: 'must be a Boolean' });
    else patch.is_directed = d ? 1 : 0;
  }
  if (problems.length > 0) throw invalidArgs(problems);
  if (patch.status !== undefined && patch.status !== net.status) {
    const owner = await getUserById(db, net.owner_id);
    if (owner) await checkPlanLimit(db, config, owner, patch.status);
  }
  if (Object.keys(patch).length === 0) return net;
  const rec = await updateNetwork(db, id, patch);
  if (!rec) throw new DomainError('NOT_FOUND', `no network ${JSON.stringify(id)}`);
  return rec;
}

/** Deletes a network (owner only): its shares, views, grants and embed sessions go with it. */
export async function deleteWebNetwork(db: Kysely<Database>, principal: Principal, id: string): Promise<void> {
  await loadNetworkFor(db, principal, id, 'owner');
  await deleteNetwork(db, id);
}

function normalEmail(v: unknown, path: string): string {
  if (typeof v !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(v.trim()) || v.length > 320) {
    throw invalidArgs([{ path, message: 'must be an e-mail address' }]);
  }
  return v.trim().toLowerCase();
}

/**
 * Shares the network with a person by e-mail (owner only): `View` or `Edit`; changes an existing share.
 * The answer is the same whether the address has an account or not (issue 19, Low): without one, the
 * share waits for the account to be created with that e-mail (store/web-networks.ts claimShareInvites).
 */
export async function shareWebNetwork(db: Kysely<Database>, principal: Principal, id: string, body: { email?: unknown; permission?: unknown }): Promise<ShareView[]> {
  const { net } = await loadNetworkFor(db, principal, id, 'owner');
  const problems: DomainErrorItem[] = [];
  let email = '';
  try {
    email = normalEmail(body.email, '/email');
  } catch (err) {
    problems.push(...((err as DomainError).errors ?? []));
  }
  if (body.permission !== 'View' && body.permission !== 'Edit') problems.push({ path: '/permission', message: 'must be "View" or "Edit"' });
  if (problems.length > 0) throw invalidArgs(problems);
  const permission = body.permission as SharePermission;
  const user = await getUserByEmail(db, email);
  // the caller's own address: the caller knows it has an account
  if (user && user.id === net.owner_id) throw new DomainError('INVALID_ARGS', 'email: the owner already has full access', [{ path: '/email', message: 'is the owner of the network' }]);
  if (user && user.kind !== 'managed') await upsertShare(db, id, user.id, permission);
  else await upsertShareInvite(db, id, email, permission, nowIso());
  return sharesOf(db, id, principal);
}

/** Removes the share with that e-mail (owner only), waiting or not; removing an absent share is a 404. */
export async function unshareWebNetwork(db: Kysely<Database>, principal: Principal, id: string, rawEmail: string): Promise<ShareView[]> {
  await loadNetworkFor(db, principal, id, 'owner');
  const email = normalEmail(rawEmail, '/email');
  const user = await getUserByEmail(db, email);
  const removed = (user !== null && user.kind !== 'managed' && (await deleteShare(db, id, user.id))) || (await deleteShareInvite(db, id, email));
  if (!removed) throw new DomainError('NOT_FOUND', `the network is not shared with ${email}`);
  return sharesOf(db, id, principal);
}
