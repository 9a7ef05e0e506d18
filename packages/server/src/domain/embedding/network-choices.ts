/**
 * The organization's networks as the embedding console's chooser shows them: every network owned by a
 * member, whether it is embeddable now ("All owned networks" on, or listed), and its owner.
 */
import { listNetworksForOrg } from '../../store/networks.ts';
import { settingsView } from './settings.ts';
import type { EmbedContext } from './context.ts';

export interface NetworkChoice {
  _id: string;
  name: string;
  status: string;
  owner: { _id: string; name: string };
  nodeCount: number;
  edgeCount: number;
  modified: string;
  embeddable: boolean;
  listed: boolean;
}

export async function embeddingNetworkChoices(ctx: EmbedContext, orgId: string): Promise<{ allOwnedNetworks: boolean; networks: NetworkChoice[] }> {
  const [settings, rows] = await Promise.all([settingsView(ctx, orgId), listNetworksForOrg(ctx.db, orgId)]);
  const listed = new Set(settings.embeddableNetworkIds);
  return {
    allOwnedNetworks: settings.allOwnedNetworks,
    networks: rows.map((n) => ({
      _id: n.id,
      name: n.name,
      status: n.status,
      owner: { _id: n.owner_id, name: n.owner_name },
      nodeCount: n.node_count,
      edgeCount: n.edge_count,
      modified: n.modified,
      embeddable: settings.allOwnedNetworks || listed.has(n.id),
      listed: listed.has(n.id),
    })),
  };
}
