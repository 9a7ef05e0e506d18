/** Network row → API JSON (docs/spec/decisions.md §3). `networkJSON` is added only by `GET /networks/:id`. */
import type { Static } from 'typebox';
import type { NetworksTable } from '../store/schema.ts';
import { type NetworkResourceSchema } from '@netloom/protocol/http';

export type NetworkMeta = Omit<NetworksTable, 'json_gz'>;
export type NetworkMetaWithOwner = NetworkMeta & { owner_name: string };

/** The wire shape is the named `Network` schema (protocol/src/http/network.ts). */
export type NetworkResource = Static<typeof NetworkResourceSchema>;

export function presentNetwork(row: NetworkMeta, ownerName: string): NetworkResource {
  return {
    _id: row.id,
    name: row.name,
    description: row.description,
    isDirected: row.is_directed === 1,
    status: row.status,
    created: row.created,
    modified: row.modified,
    fileType: row.file_type,
    originalFileType: row.original_file_type,
    networkUUID: row.network_uuid,
    handpicked: row.handpicked === 1,
    billing: { maxViews: row.max_views },
    owner: { _id: row.owner_id, name: ownerName },
    nodeCount: row.node_count,
    edgeCount: row.edge_count,
  };
}
