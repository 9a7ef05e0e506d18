/**
 * Explore in the web app (docs/web-app.md "Explore"): the network opens in the same viewer as an embed,
 * hosted by the web app itself through the embed SDK. The web app asks for an embed session of mode
 * - 'owner': for the signed-in web user, bound to the web session that opened it (signing out, or the web
 *   session ending, ends the viewer); the user's access ('owner' | 'edit' | 'read') is re-checked on
 *   every viewer request. Edit access: saved views and node metrics are written to the stored network;
 *   read access: read-only. Metrics follow the user's plan; AI chat follows the organization the
 *   network belongs to (its switch, allowance and presets) when the user is its member, else off;
 * - 'public' (Discover): any Public network, read-only, signed out allowed; no chat. Sessions per client
 *   address are capped, and its viewers' metric runs have their own budget (per address and per network),
 *   never the organization's (domain/metrics/runs.ts checkSessionMetric; issue 19 finding 7).
 * The session's origin is the web app's own origin; the viewer never sees the cookie: it gets launch
 * tokens (60 s, single use) from the web app (`POST /app/api/explore/:sessionId/launch-tokens`, cookie +
 * CSRF for owner sessions) and exchanges them for access tokens exactly like an embed.
 *
 * An embed session needs an organization (its settings, audit log and allowances hang off it): the
 * organization the network belongs to (`networks.org_id`, docs/security.md "Accounts and
 * organizations"), else the installation's "personal workspaces" organization — a bookkeeping row that
 * no user belongs to (created once, recorded in `meta`). So a member's personal network (one owned
 * before joining) never appears in, nor spends the allowances of, the member's organization.
 */
import type { Kysely } from 'kysely';
import { inTransaction } from '../../store/db.ts';
import { endSession, getSession, insertSession, type EmbedSessionRecord } from '../../store/embed-sessions.ts';
import { getEmbedSettings } from '../../store/embed-settings.ts';
import type { ManagedUserRecord } from '../../store/embed-users.ts';
import { getMeta } from '../../store/meta.ts';
import { getNetwork } from '../../store/networks.ts';
import { getMembershipOfUser, insertOrganization } from '../../store/organizations.ts';
import type { Database, EmbedSessionMode } from '../../store/schema.ts';
import { getUserById } from '../../store/users.ts';
import { getWebSessionById } from '../../store/web-sessions.ts';
import type { Principal } from '../identity/credentials/principal.ts';
import { audit, sessionActor, checkRate, type EmbedContext } from './context.ts';
import { END_REASON_TEXT, normalizeUi, type NormalizedUi, type SessionEndReason } from './rules.ts';
import type { LiveSession } from './sessions.ts';
import { newLaunchToken, tokenHash } from './tokens.ts';
import { DomainError } from '../errors.ts';
import { newId } from '../ids.ts';
import { loadWithAccess, type Access } from '../networks/access.ts';
import { sessionEndsAt, sessionPrincipal } from '../web/sessions.ts';

const iso = (ms: number) => new Date(ms).toISOString();
/** An Explore viewer lives at most this long (and never beyond its web session). */
export const EXPLORE_MAX_MS = 12 * 3_600_000;
const ANCHOR_KEY = 'explore.anchor_org';

export type ExploreAccess = Exclude<Access, 'none'>;

export interface ExploreStarted {
  sessionId: string;
  viewerUrl: string;
  launchToken: string;
  launchTokenExpiresAt: string;
  expiresAt: string;
  access: ExploreAccess;
}

/** The organization a session of an org-less user / network is filed under (see the header). */
async function anchorOrg(db: Kysely<Database>, createdBy: string): Promise<string> {
  const known = await getMeta(db, ANCHOR_KEY);
  if (known) return known;
  return inTransaction(db, async (trx) => {
    const again = await getMeta(trx, ANCHOR_KEY);
    if (again) return again;
    const id = newId();
    await insertOrganization(trx, { id, name: 'Personal workspaces (Netloom)', plan: 'free', created_by: createdBy });
    await trx.insertInto('meta').values({ key: ANCHOR_KEY, value: id }).execute();
    return id;
  });
}

async function orgFor(db: Kysely<Database>, net: { owner_id: string; org_id: string | null }): Promise<{ orgId: string; real: boolean }> {
  if (net.org_id) return { orgId: net.org_id, real: true };
  return { orgId: await anchorOrg(db, net.owner_id), real: false };
}

async function start(
  ctx: EmbedContext,
  input: { mode: EmbedSessionMode; userId: string; orgId: string; networkId: string; origin: string; access: ExploreAccess; webSessionId: string | null; expiresAt: number; chat: boolean },
): Promise<ExploreStarted> {
  const now = ctx.now();
  const ui: NormalizedUi = { ...normalizeUi(undefined), aiChat: input.chat };
  const row: EmbedSessionRecord = {
    id: newId(),
    org_id: input.orgId,
    user_id: input.userId,
    network_id: input.networkId,
    origin: input.origin,
    ui: JSON.stringify(ui),
    header: 'none',
    max_minutes: Math.max(1, Math.ceil((input.expiresAt - now) / 60_000)),
    created: iso(now),
    expires_at: iso(input.expiresAt),
    last_activity_at: iso(now),
    ended_at: null,
    ended_reason: null,
    mode: input.mode,
    web_session_id: input.webSessionId,
    access: input.access,
  };
  await insertSession(ctx.db, row);
  await ctx.state.touch(row.id, now, { lastActivityAt: row.last_activity_at });
  const lt = await issueExploreLaunchToken(ctx, row.id);
  return { sessionId: row.id, viewerUrl: `${input.origin}/embed/${row.id}`, ...lt, expiresAt: row.expires_at, access: input.access };
}

async function issueExploreLaunchToken(ctx: EmbedContext, sessionId: string): Promise<{ launchToken: string; launchTokenExpiresAt: string }> {
  const launchToken = newLaunchToken();
  const exp = ctx.now() + ctx.config.embed.launchTokenTtlMs;
  await ctx.state.putLaunchToken(tokenHash(launchToken), sessionId, exp);
  return { launchToken, launchTokenExpiresAt: iso(exp) };
}

export interface OwnerExploreInput {
  principal: Principal;
  webSessionId: string;
  /** When the web session ends (ms): the viewer never outlives it. */
  webSessionEndsAt: number;
  networkId: string;
  /** The web app's origin (the request's checked Origin). */
  origin: string;
}

/** Opens a network the signed-in user may see in owner mode (404 when not visible). */
export async function startOwnerExplore(ctx: EmbedContext, input: OwnerExploreInput): Promise<ExploreStarted> {
  const found = await loadWithAccess(ctx.db, input.principal, input.networkId);
  if (!found || found.access === 'none') throw new DomainError('NOT_FOUND', `no network ${JSON.stringify(input.networkId)}`);
  const { orgId, real } = await orgFor(ctx.db, found.net);
  const expiresAt = Math.min(input.webSessionEndsAt, ctx.now() + EXPLORE_MAX_MS);
  return start(ctx, { mode: 'owner', userId: input.principal.userId, orgId, networkId: found.net.id, origin: input.origin, access: found.access, webSessionId: input.webSessionId, expiresAt, chat: real && orgId === (await getMembershipOfUser(ctx.db, input.principal.userId))?.org_id });
}

/**
 * Opens a Public network read-only (Discover; signed out allowed). 404 for anything not Public. At most
 * NETLOOM_DISCOVER_SESSIONS_PER_IP_PER_HOUR per client address (issue 19 finding 7: 300 of 300 were
 * accepted from one address), counted atomically before anything else (429 RATE_LIMITED).
 */
export async function startPublicExplore(ctx: EmbedContext, input: { networkId: string; origin: string; clientIp: string }): Promise<ExploreStarted> {
  await checkRate(ctx, `discover:ip:${input.clientIp}:sessions`, ctx.config.embed.discover.sessionsPerIpPerHour, 'Discover viewer sessions from one address');
  const net = await getNetwork(ctx.db, input.networkId);
  if (!net || net.status !== 'Public') throw new DomainError('NOT_FOUND', `no public network ${JSON.stringify(input.networkId)}`);
  const { orgId } = await orgFor(ctx.db, net);
  return start(ctx, { mode: 'public', userId: net.owner_id, orgId, networkId: net.id, origin: input.origin, access: 'read', webSessionId: null, expiresAt: ctx.now() + EXPLORE_MAX_MS, chat: false });
}

/**
 * A new launch token for an Explore session: owner sessions only for the web session that opened them
 * (404 otherwise); public sessions for anyone holding the session id (they show Public data only).
 */
export async function exploreLaunchToken(ctx: EmbedContext, sessionId: string, webSessionId: string | null): Promise<{ launchToken: string; launchTokenExpiresAt: string }> {
  const session = /^[0-9a-f]{24}$/.test(sessionId) ? await getSession(ctx.db, sessionId) : null;
  const mine = session !== null && (session.mode === 'public' || (session.mode === 'owner' && webSessionId !== null && session.web_session_id === webSessionId));
  if (!session || !mine) throw new DomainError('NOT_FOUND', `no Explore session ${JSON.stringify(sessionId)}`);
  await liveExploreSession(ctx, session, { touch: true });
  return issueExploreLaunchToken(ctx, sessionId);
}

/** What the viewer API needs of an Explore session beyond an embed one. */
export interface ExploreFacts {
  mode: 'owner' | 'public';
  access: ExploreAccess;
  /** The web user's principal (owner mode): plan and write-back rights of the metric path. */
  principal: Principal | null;
}

function expired(reason: SessionEndReason | 'signed-out'): DomainError {
  const text = reason === 'signed-out' ? 'the web session that opened it has ended (signed out)' : END_REASON_TEXT[reason];
  return new DomainError('SESSION_EXPIRED', `the Explore session has ended: ${text}`);
}

/**
 * liveSession() for Explore sessions: ends (410) on revocation, lifetime, inactivity, the web session's end
 * (owner), the user's suspension, or lost access / a network no longer Public (public). Access is
 * re-read every time, so a removed share or a network made Private takes effect on the next request.
 */
export async function liveExploreSession(ctx: EmbedContext, session: EmbedSessionRecord, opts: { touch: boolean }): Promise<LiveSession & { explore: ExploreFacts }> {
  const now = ctx.now();
  const [activity, net, user, settings] = await Promise.all([
    ctx.state.lastActivity(session.id),
    getNetwork(ctx.db, session.network_id),
    getUserById(ctx.db, session.user_id),
    getEmbedSettings(ctx.db, session.org_id),
  ]);
  let reason: SessionEndReason | 'signed-out' | null = null;
  let access: ExploreAccess = 'read';
  let principal: Principal | null = null;
  if (session.ended_at !== null) reason = (session.ended_reason ?? 'revoked') as SessionEndReason;
  else if (now >= Date.parse(session.expires_at)) reason = 'lifetime';
  else if (now - Math.max(activity ?? 0, Date.parse(session.last_activity_at)) >= ctx.config.embed.inactivityMs) reason = 'inactivity';
  else if (!net || !user) reason = 'access-removed';
  else if (session.mode === 'owner') {
    const ws = session.web_session_id ? await getWebSessionById(ctx.db, session.web_session_id) : null;
    if (!ws || ws.user_id !== user.id || now >= sessionEndsAt(ctx.config.web, ws)) reason = 'signed-out';
    else if (user.status === 'suspended') reason = 'user-deactivated';
    else {
      principal = sessionPrincipal(ws, user, await getMembershipOfUser(ctx.db, user.id));
      const found = await loadWithAccess(ctx.db, principal, session.network_id);
      if (!found || found.access === 'none') reason = 'access-removed';
      else access = found.access;
    }
  } else if (net.status !== 'Public') reason = 'access-removed';
  if (reason) {
    const stored = reason === 'signed-out' ? 'revoked' : reason;
    if (session.ended_at === null && (await endSession(ctx.db, session.id, stored, iso(now)))) {
      await audit(ctx, session.org_id, sessionActor(session), 'session.end', null, { sessionId: session.id, mode: session.mode, reason });
    }
    throw expired(reason);
  }
  if (opts.touch) await ctx.state.touch(session.id, now, { lastActivityAt: session.last_activity_at });
  const ui = JSON.parse(session.ui) as NormalizedUi;
  const permission = access === 'read' ? 'View' : 'Edit';
  const u = user!;
  const synthetic: ManagedUserRecord = {
    user_id: u.id,
    org_id: session.org_id,
    external_id: session.mode === 'owner' ? u.email : 'public',
    chat_access: session.mode === 'owner' && ui.aiChat ? 'full' : 'off',
    org_permission: 'Standard User',
    read_only: permission === 'View' ? 1 : 0,
    status: 'active',
    created: session.created,
    modified: session.created,
    last_active_at: null,
    deactivated_at: null,
    display_name: session.mode === 'owner' ? u.name : 'Visitor',
  };
  return { session, settings, user: synthetic, permission, ui, explore: { mode: session.mode as 'owner' | 'public', access, principal } };
}
