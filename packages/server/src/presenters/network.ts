/** Network row → API JSON (docs/spec/decisions.md §3). `networkJSON` is added only by `GET /networks/:id`. */
import type { Static } from 'typebox';
import type { NetworksTable } from '../store/schema.ts';
import { type NetworkResourceSchema } from '@netloom/protocol/http';

export type NetworkMeta = Omit<NetworksTable, 'json_gz'>;
/** The wire shape is the named `Network` schema (protocol/src/http/network.ts). */
export type NetworkResource = Static<typeof NetworkResourceSchema>;

/**
 * What every reader of a network sees of it without its data: the API's `Network` and the embedded
 * viewer's `ViewerNetwork` (protocol/src/http/embed.ts).
 */
export function networkSummary(row: NetworkMeta) {
  return {
    _id: row.id,
    name: row.name,
    description: row.description,
    isDirected: row.is_directed === 1,
    nodeCount: row.node_count,
    edgeCount: row.edge_count,
    networkUUID: row.network_uuid,
    modified: row.modified,
    billing: { maxViews: row.max_views },
  };
}

export function presentNetwork(row: NetworkMeta, ownerName: string): NetworkResource {
  return {
    ...networkSummary(row),
    status: row.status,
    created: row.created,
    fileType: row.file_type,
    originalFileType: row.original_file_type,
    handpicked: row.handpicked === 1,
    owner: { _id: row.owner_id, name: ownerName },
  };
}
