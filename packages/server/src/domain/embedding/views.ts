/**
 * Saved views (EmbedView v1; docs/spec/decisions.md §5): stored per network and shared by all its users (the
 * viewer's `views.list()` and `GET /networks/:id/views`). Saving a new view needs `Edit` and is refused
 * beyond the network's `billing.maxViews` (403 VIEW_LIMIT_REACHED; counted under a lock of the network
 * row so concurrent saves cannot overshoot); updating an existing view is always allowed (with `Edit`).
 */
import type { Kysely } from 'kysely';
import { inTransaction } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import { countViews, getView, insertView, listViews, lockNetworkRow, updateView, type EmbedViewRecord } from '../../store/embed-views.ts';
import { DomainError } from '../errors.ts';
import { newId } from '../ids.ts';
import { parseViewBody } from './rules.ts';
import { audit, sessionActor, type EmbedContext } from './context.ts';
import type { LiveSession } from './sessions.ts';
import type { Principal } from '../identity/credentials/principal.ts';
import { loadNetworkFor } from '../networks/access.ts';

function requireEdit(live: LiveSession): void {
  if (live.permission !== 'Edit') throw new DomainError('FORBIDDEN', 'saving views needs Edit access to the network; this viewer has View');
}

/** `GET /networks/:id/views`: the saved views of a network the caller may read (404/403 as `GET /networks/:id`). */
export async function viewsOfNetwork(db: Kysely<Database>, principal: Principal | null, networkId: string): Promise<EmbedViewRecord[]> {
  await loadNetworkFor(db, principal, networkId, 'read');
  return listViews(db, networkId);
}

export function viewsOfSession(ctx: EmbedContext, live: LiveSession): Promise<EmbedViewRecord[]> {
  return listViews(ctx.db, live.session.network_id);
}

export async function viewOfSession(ctx: EmbedContext, live: LiveSession, viewId: string): Promise<EmbedViewRecord> {
  const v = await getView(ctx.db, live.session.network_id, viewId);
  if (!v) throw new DomainError('NOT_FOUND', `no view ${JSON.stringify(viewId)} on this network`);
  return v;
}

export async function saveView(ctx: EmbedContext, live: LiveSession, body: unknown): Promise<EmbedViewRecord> {
  requireEdit(live);
  const input = parseViewBody(body, { partial: false });
  const at = new Date(ctx.now()).toISOString();
  const networkId = live.session.network_id;
  const row: EmbedViewRecord = {
    id: newId(),
    network_id: networkId,
    name: input.name!,
    description: input.description ?? '',
    data: JSON.stringify(input.content),
    created_by: live.session.user_id,
    created: at,
    modified: at,
  };
  await inTransaction(ctx.db, async (trx) => {
    const net = await lockNetworkRow(trx, networkId);
    if (!net) throw new DomainError('NOT_FOUND', 'the network no longer exists');
    const have = await countViews(trx, networkId);
    if (have >= net.max_views) throw new DomainError('VIEW_LIMIT_REACHED', `this network already has ${have} saved views, its maximum (billing.maxViews ${net.max_views}); update an existing view instead`);
    await insertView(trx, row);
    await audit(ctx, live.session.org_id, sessionActor(live.session), 'view.save', live.user.external_id, { sessionId: live.session.id, networkId, viewId: row.id, name: row.name }, trx);
  });
  return row;
}

export async function updateSavedView(ctx: EmbedContext, live: LiveSession, viewId: string, body: unknown): Promise<EmbedViewRecord> {
  requireEdit(live);
  const existing = await viewOfSession(ctx, live, viewId);
  const input = parseViewBody(body, { partial: true });
  const at = new Date(ctx.now()).toISOString();
  const patch = {
    modified: at,
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.content !== undefined ? { data: JSON.stringify(input.content) } : {}),
  };
  await updateView(ctx.db, viewId, patch);
  await audit(ctx, live.session.org_id, sessionActor(live.session), 'view.update', live.user.external_id, { sessionId: live.session.id, networkId: existing.network_id, viewId });
  return { ...existing, ...patch };
}
