/**
 * Who may see and change which network (docs/spec/decisions.md §2):
 * - anonymous: Public networks, read only;
 * - user credential: networks the user owns, networks shared with the user (`View` read, `Edit` read and
 *   write), Public networks (read only); delete needs ownership;
 * - organization credential: every network owned by a member of its organization (read, write, delete),
 *   and Public networks (read only).
 * Anything not visible is 404 NOT_FOUND (existence is never revealed); a visible network that may not be
 * changed is 403 FORBIDDEN.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.ts';
import type { Principal } from '../identity/credentials/principal.ts';
import { DomainError } from '../errors.ts';
import { getMembershipOfUser } from '../../store/organizations.ts';
import { getNetwork, getNetworkForUser, getNetworkForUserWithGzip, getNetworkWithGzip, type NetworkRecord, type NetworkRecordWithGzip } from '../../store/networks.ts';

export type Access = 'none' | 'read' | 'edit' | 'owner';

export async function loadWithAccess(db: Kysely<Database>, principal: Principal | null, id: string, withGzip = false): Promise<{ net: NetworkRecord; access: Access } | null> {
  if (principal && !principal.orgId) {
    const net = await (withGzip ? getNetworkForUserWithGzip : getNetworkForUser)(db, id, principal.userId);
    if (!net) return null;
    if (net.owner_id === principal.userId) return { net, access: 'owner' };
    if (net.share_permission) return { net, access: net.share_permission === 'Edit' ? 'edit' : 'read' };
    return { net, access: net.status === 'Public' ? 'read' : 'none' };
  }
  const net = await (withGzip ? getNetworkWithGzip : getNetwork)(db, id);
  if (!net) return null;
  if (principal?.orgId) {
    if (net.owner_id === principal.userId) return { net, access: 'owner' };
    const m = await getMembershipOfUser(db, net.owner_id);
    if (m && m.org_id === principal.orgId) return { net, access: 'owner' };
  }
  return { net, access: net.status === 'Public' ? 'read' : 'none' };
}

/**
 * Loads a network's metadata and checks the caller's access; throws 404 / 403. `loadReadableWithGzip`
 * does the same for reading and also returns the stored gzip bytes, from the same single query.
 */
export async function loadReadableWithGzip(db: Kysely<Database>, principal: Principal | null, id: string): Promise<NetworkRecordWithGzip> {
  const found = await loadWithAccess(db, principal, id, true);
  if (!found || found.access === 'none') throw new DomainError('NOT_FOUND', `no network ${JSON.stringify(id)}`);
  return found.net as NetworkRecordWithGzip;
}

export async function loadNetworkFor(
  db: Kysely<Database>,
  principal: Principal | null,
  id: string,
  need: 'read' | 'edit' | 'owner',
): Promise<{ net: NetworkRecord; access: Access }> {
  const found = await loadWithAccess(db, principal, id);
  if (!found || found.access === 'none') throw new DomainError('NOT_FOUND', `no network ${JSON.stringify(id)}`);
  if (need === 'edit' && found.access === 'read') throw new DomainError('FORBIDDEN', 'you may view this network but not change it');
  if (need === 'owner' && found.access !== 'owner') throw new DomainError('FORBIDDEN', 'only the owner may delete this network');
  return found;
}
