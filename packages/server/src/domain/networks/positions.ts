/**
 * "Keep these positions" (docs/embedding.md, Layouts): an embedded viewer with Edit writes node x/y
 * into its session's stored network. The network JSON gains `x`/`y` on the listed nodes (finite numbers,
 * docs/spec/decisions.md §3), everything else stays as stored; the change gets a new `networkUUID` and
 * applies only if the network did not change since the viewer loaded it (its `networkUUID`), else 409.
 */
import { randomUUID } from 'node:crypto';
import type { EmbedContext } from '../embedding/context.ts';
import type { LiveSession } from '../embedding/sessions.ts';
import { DomainError } from '../errors.ts';
import { getNetworkWithJSONText, updateNetworkIf } from '../../store/networks.ts';

export interface PositionsInput {
  /** The networkUUID the viewer loaded. */
  networkUUID: string;
  nodeIds: string[];
  x: number[];
  y: number[];
}

export async function keepPositions(ctx: EmbedContext, live: LiveSession, input: PositionsInput): Promise<{ networkUUID: string; modified: string; updatedNodes: number }> {
  if (live.permission !== 'Edit') throw new DomainError('FORBIDDEN', 'keeping positions needs Edit access to the network');
  const { nodeIds, x, y } = input;
  if (x.length !== nodeIds.length || y.length !== nodeIds.length) {
    throw new DomainError('INVALID_ARGS', 'nodeIds, x and y must have the same length', [{ path: '/x', message: `has ${x.length} values for ${nodeIds.length} nodes` }]);
  }
  for (let i = 0; i < nodeIds.length; i++) {
    if (!Number.isFinite(x[i]) || !Number.isFinite(y[i])) throw new DomainError('INVALID_ARGS', `position ${i} is not finite`, [{ path: `/x/${i}`, message: 'must be a finite number' }]);
  }
  const stored = await getNetworkWithJSONText(ctx.db, live.session.network_id);
  if (!stored) throw new DomainError('NOT_FOUND', 'the network no longer exists');
  if (stored.network.network_uuid !== input.networkUUID) {
    throw new DomainError('CONFLICT', 'the network changed since this viewer loaded it; reload to get the current version');
  }
  const json = JSON.parse(stored.jsonText) as { nodes?: { id: unknown; x?: number; y?: number }[] };
  const at = new Map<string, number>();
  nodeIds.forEach((id, i) => at.set(id, i));
  let updated = 0;
  for (const node of json.nodes ?? []) {
    const i = at.get(String(node.id));
    if (i === undefined) continue;
    node.x = x[i];
    node.y = y[i];
    updated++;
  }
  if (updated !== at.size) throw new DomainError('INVALID_ARGS', `${at.size - updated} of the node ids are not in the network`, [{ path: '/nodeIds', message: 'unknown node id' }]);
  const networkUUID = randomUUID();
  const modified = new Date(ctx.now()).toISOString();
  const applied = await updateNetworkIf(ctx.db, stored.network.id, stored.network.version, { json: JSON.stringify(json), network_uuid: networkUUID, modified });
  if (!applied) throw new DomainError('CONFLICT', 'the network changed meanwhile; try again');
  return { networkUUID, modified, updatedNodes: updated };
}
