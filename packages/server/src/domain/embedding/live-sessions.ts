/**
 * Live embed sessions of an organization for the console (docs/embedding-api.md, "Sessions"): who, which
 * network, which origin, started, expires, last activity. Sessions end by revocation (the console's Revoke
 * is `revokeSession` of domain/embedding/sessions.ts, the same command as `DELETE /api/v2/embed/sessions/:id`).
 */
import { listLiveSessions } from '../../store/embed-sessions.ts';
import type { EmbedContext } from './context.ts';

export async function liveSessionsPage(ctx: EmbedContext, orgId: string, page: { limit: number; offset: number; externalId?: string }) {
  const { total, rows } = await listLiveSessions(ctx.db, orgId, { now: new Date(ctx.now()).toISOString(), ...page });
  const activity = await Promise.all(rows.map((r) => ctx.state.lastActivity(r.id)));
  return {
    total,
    offset: page.offset,
    limit: page.limit,
    sessions: rows.map((r, i) => ({
      sessionId: r.id,
      user: { externalId: r.externalId, displayName: r.displayName },
      network: { _id: r.networkId, name: r.networkName },
      origin: r.origin,
      created: r.created,
      expiresAt: r.expiresAt,
      lastActivityAt: laterOf(r.lastActivityAt, activity[i]),
    })),
  };
}

/** The stored activity, or the ephemeral store's (Redis) when it is later. */
function laterOf(stored: string, ms: number | null): string {
  if (ms === null) return stored;
  const iso = new Date(ms).toISOString();
  return iso > stored ? iso : stored;
}
