/**
 * The create-network command shared by `POST /networks`, `POST /networks/import` and the web app's
 * upload: ownership rules (network-ownership.ts: user credential → its user; organization credential →
 * `owner` or its creator), the owner's plan maxima, then the insert. `originalFileType` records the
 * uploaded format (docs/spec/decisions.md §7: Excel, GEXF or JSON); `fileType` is always JSON.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database, NetworkStatus } from '../../store/schema.ts';
import { insertNetwork, type NetworkRecord } from '../../store/networks.ts';
import type { Principal } from '../identity/credentials/principal.ts';
import { newId } from '../ids.ts';
import { checkPlanLimit, resolveOwner } from './ownership.ts';

export interface CreateNetworkInput {
  name: string;
  description: string;
  isDirected: boolean;
  status: NetworkStatus;
  /** The network JSON, serialized as it is stored (an import's reader serializes it off the request thread). */
  networkJSONText: string;
  /** E-mail or user id; honoured for organization credentials only. */
  owner: string | undefined;
  nodeCount: number;
  edgeCount: number;
  originalFileType?: 'JSON' | 'Excel' | 'GEXF';
}

/** Resolves the owner first (cheap checks before expensive work): see `createNetwork`. */
export async function resolveCreator(db: Kysely<Database>, principal: Principal, owner: string | undefined) {
  return resolveOwner(db, principal, owner);
}

export async function createNetwork(db: Kysely<Database>, config: Config, principal: Principal, input: CreateNetworkInput): Promise<NetworkRecord> {
  const owner = await resolveOwner(db, principal, input.owner);
  const plan = await checkPlanLimit(db, config, owner, input.status);
  return insertNetwork(db, {
    id: newId(),
    owner_id: owner.id,
    name: input.name,
    description: input.description,
    is_directed: input.isDirected ? 1 : 0,
    status: input.status,
    file_type: 'JSON',
    original_file_type: input.originalFileType ?? 'JSON',
    network_uuid: randomUUID(),
    max_views: config.plans[plan].maxViews,
    node_count: input.nodeCount,
    edge_count: input.edgeCount,
    json: input.networkJSONText,
  });
}
