/**
 * The Networks commands (docs/spec/decisions.md §3): list, create, replace and delete, each with its
 * access check, ownership rules and plan limits. Routes call one command each and present the result.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database } from '../../store/schema.ts';
import { deleteNetwork as removeNetwork, listNetworksForOrg, listNetworksForUser, updateNetwork, type NetworkListRow, type NetworkRecord } from '../../store/networks.ts';
import { getUserById } from '../../store/users.ts';
import type { Principal } from '../identity/credentials/principal.ts';
import { DomainError } from '../errors.ts';
import { loadNetworkFor } from './access.ts';
import { parseNetworkBody } from './body.ts';
import { checkPlanLimit } from './ownership.ts';
import { createNetwork as createStoredNetwork } from './create.ts';

export interface NetworkDeps {
  db: Kysely<Database>;
  config: Config;
}

/** Networks the credential sees: an organization credential all of its organization's, a user credential its own and shared ones. */
export function listNetworks({ db }: NetworkDeps, p: Principal): Promise<NetworkListRow[]> {
  return p.orgId ? listNetworksForOrg(db, p.orgId) : listNetworksForUser(db, p.userId);
}

/** `POST /networks`: the body's rules (body.ts), then the one create command (create.ts). */
export async function createNetwork({ db, config }: NetworkDeps, p: Principal, body: unknown): Promise<NetworkRecord> {
  const input = parseNetworkBody(body, config.limits);
  return createStoredNetwork(db, config, p, { ...input, networkJSONText: JSON.stringify(input.networkJSON) });
}

/**
 * Replaces `name` and `networkJSON`; `description`, `isDirected` and `status` only when the body sends
 * them (clients of the original service edit with `{name, networkJSON}` and expect the rest kept).
 */
export async function replaceNetwork({ db, config }: NetworkDeps, p: Principal, id: string, body: unknown): Promise<NetworkRecord> {
  const { net } = await loadNetworkFor(db, p, id, 'edit');
  const input = parseNetworkBody(body, config.limits);
  const status = input.sent.status ? input.status : net.status;
  if (status !== net.status) {
    const owner = await getUserById(db, net.owner_id);
    if (owner) await checkPlanLimit(db, config, owner, status);
  }
  const rec = await updateNetwork(db, id, {
    name: input.name,
    description: input.sent.description ? input.description : net.description,
    is_directed: input.sent.isDirected ? (input.isDirected ? 1 : 0) : net.is_directed,
    status,
    network_uuid: randomUUID(),
    node_count: input.nodeCount,
    edge_count: input.edgeCount,
    json: JSON.stringify(input.networkJSON),
  });
  if (!rec) throw new DomainError('NOT_FOUND', `no network ${JSON.stringify(id)}`);
  return rec;
}

/** Deletes a network (owner only) with its views, grants and embed sessions. */
export async function deleteNetwork({ db }: NetworkDeps, p: Principal, id: string): Promise<void> {
  await loadNetworkFor(db, p, id, 'owner');
  await removeNetwork(db, id);
}
