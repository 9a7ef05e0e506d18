/**
 * What the embedded viewer reads about its session (docs/embedding-api.md "Viewer API"): the session info
 * behind `session.info()`, the network's metadata with a signed data link (valid
 * `NETLOOM_EMBED_DATA_LINK_TTL_MS`, 5 min by default), and the network JSON behind such a link. The
 * routes (routes/viewer/index.ts) authenticate the viewer and send what these return.
 */
import type { SessionInfo } from '@netloom/protocol';
import { getNetwork, getNetworkJSONGzip } from '../../store/networks.ts';
import type { EmbedContext } from './context.ts';
import type { LiveSession } from './sessions.ts';
import { unavailableReason } from './chat.ts';
import { signDataLink, verifyDataLink } from './tokens.ts';
import { DomainError } from '../errors.ts';

type AuthenticatedViewer = LiveSession & { accessTokenExpiresAt: number };

/** `GET /embed/viewer/session`: who is viewing what, with which capabilities, until when. */
export async function viewerSessionInfo(ctx: EmbedContext, live: AuthenticatedViewer): Promise<SessionInfo> {
  const net = await getNetwork(ctx.db, live.session.network_id);
  const edit = live.permission === 'Edit';
  // The chat this viewer can use now: every gate of the chat routes (ui.aiChat, chatAccess, the
  // organization's switch, the monthly allowance), with the first closed one as the reason.
  const chatReason = await unavailableReason(ctx, live);
  return {
    sessionId: live.session.id,
    displayName: live.user.display_name,
    externalId: live.user.external_id,
    orgPermission: live.user.org_permission,
    capabilities: {
      view: true,
      edit,
      saveViews: edit,
      runMetrics: true,
      chat: chatReason === null ? live.user.chat_access : 'off',
      chatReason,
    },
    chatAccess: live.user.chat_access,
    network: { networkId: live.session.network_id, name: net?.name ?? '', permission: live.permission },
    networkIds: [live.session.network_id],
    ui: live.ui,
    header: live.session.header,
    origin: live.session.origin,
    expiresAt: live.session.expires_at,
    accessTokenExpiresAt: new Date(live.accessTokenExpiresAt).toISOString(),
  } satisfies SessionInfo;
}

/** `POST /embed/viewer/heartbeat`: when the session ends at the latest, and when it would end if idle from now. */
export function viewerHeartbeat(ctx: EmbedContext, live: AuthenticatedViewer) {
  return {
    expiresAt: live.session.expires_at,
    idleExpiresAt: new Date(ctx.now() + ctx.config.embed.inactivityMs).toISOString(),
    accessTokenExpiresAt: new Date(live.accessTokenExpiresAt).toISOString(),
  };
}

/** `GET /embed/viewer/network`: the network's row (presented by the route) and a signed link to its JSON. */
export async function viewerNetwork(ctx: EmbedContext, live: LiveSession) {
  const net = await getNetwork(ctx.db, live.session.network_id);
  if (!net) throw new DomainError('NOT_FOUND', 'the network no longer exists');
  const exp = ctx.now() + ctx.config.embed.dataLinkTtlMs;
  const sig = signDataLink(await ctx.signingKey(), live.session.id, net.id, exp);
  return {
    network: net,
    dataUrl: `${ctx.config.publicUrl}/api/v2/embed/data/${live.session.id}?network=${net.id}&exp=${exp}&sig=${sig}`,
    dataUrlExpiresAt: new Date(exp).toISOString(),
  };
}

/**
 * `GET /embed/data/:sessionId`: the stored network JSON (gzip bytes, as stored) behind a signed link —
 * valid until it expires, also after the session was revoked (403 FORBIDDEN when invalid or expired).
 */
export async function networkOfDataLink(ctx: EmbedContext, sessionId: string, link: { network: string; exp: string; sig: string }): Promise<Buffer> {
  if (!verifyDataLink(await ctx.signingKey(), sessionId, link.network, Number(link.exp), link.sig, ctx.now())) {
    throw new DomainError('FORBIDDEN', 'this data link is invalid or has expired; ask the viewer API for a new one');
  }
  const stored = await getNetworkJSONGzip(ctx.db, link.network);
  if (!stored) throw new DomainError('NOT_FOUND', 'the network no longer exists');
  return stored.gz;
}
