/**
 * Embed sessions and their tokens (docs/spec/api.md Session, "Session" end conditions, Authentication 8;
 * docs/spec/decisions.md §5):
 * - `createSession`: active managed user, exactly one embeddable network the user has a grant on, an
 *   origin exactly equal to an allowed host origin, `maxMinutes` 1–720 (default 60), normalised `ui`,
 *   `header`; returns the first launch token;
 * - launch tokens (60 s, single use) issued to the host; the viewer exchanges one for an access token
 *   (15 min) — atomically single use across instances (store/embed-ephemeral.ts);
 * - `liveSession` decides on every request whether the session still lives (revocation, maxMinutes,
 *   inactivity, deactivation, embedding off, origin removed, access removed, network no longer
 *   embeddable) and records the end the first time it is seen, so every later request is 410.
 */
import type { Kysely } from 'kysely';
import type { Database, EmbedHeader, SharePermission } from '../../store/schema.ts';
import { endSession, getSession, insertSession, type EmbedSessionRecord } from '../../store/embed-sessions.ts';
import { getEmbedSettings, type EmbedSettingsRecord } from '../../store/embed-settings.ts';
import { getGrant, getManagedUser, getManagedUserById, touchManagedUser, type ManagedUserRecord } from '../../store/embed-users.ts';
import { DomainError, invalidArgs, type DomainErrorItem } from '../errors.ts';
import { isId, newId } from '../ids.ts';
import {
  DEFAULT_MAX_MINUTES,
  END_REASON_TEXT,
  HEADERS,
  MAX_MINUTES,
  isExternalId,
  normalizeUi,
  parseOrigin,
  sessionEndReason,
  type NormalizedUi,
  type SessionEndReason,
} from './rules.ts';
import { audit, sessionActor, checkRate, HOUR_MS, limitsOf, RateLimitedError, requireEnabled, type Actor, type EmbedContext } from './context.ts';
import { embeddability } from './settings.ts';
import { liveExploreSession, type ExploreFacts } from './explore.ts';
import { isAccessTokenFormat, isLaunchTokenFormat, newAccessToken, newLaunchToken, tokenHash } from './tokens.ts';

const iso = (ms: number) => new Date(ms).toISOString();

export interface SessionCreated {
  sessionId: string;
  launchToken: string;
  launchTokenExpiresAt: string;
  expiresAt: string;
  ui: NormalizedUi;
  header: EmbedHeader;
}

function sessionExpired(reason: SessionEndReason): DomainError {
  return new DomainError('SESSION_EXPIRED', `the embed session has ended: ${END_REASON_TEXT[reason]}`);
}

/** Counts against the organization's provisioning/grants/sessions allowance (600 per hour by default). */
export async function checkProvisioningRate(ctx: EmbedContext, orgId: string, settings?: EmbedSettingsRecord): Promise<void> {
  const s = settings ?? (await getEmbedSettings(ctx.db, orgId));
  await checkRate(ctx, `org:${orgId}:provisioning`, limitsOf(ctx, s).provisioningPerHour, 'provisioning, grant and session requests');
}

async function issueLaunchTokenFor(ctx: EmbedContext, sessionId: string): Promise<{ launchToken: string; launchTokenExpiresAt: string }> {
  const launchToken = newLaunchToken();
  const exp = ctx.now() + ctx.config.embed.launchTokenTtlMs;
  await ctx.state.putLaunchToken(tokenHash(launchToken), sessionId, exp);
  return { launchToken, launchTokenExpiresAt: iso(exp) };
}

export async function createSession(ctx: EmbedContext, orgId: string, actor: Actor, body: unknown): Promise<SessionCreated> {
  const settings = await requireEnabled(ctx, orgId);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new DomainError('INVALID_ARGS', 'body must be an object', [{ path: '', message: 'must be an object' }]);
  const b = body as Record<string, unknown>;
  const p: DomainErrorItem[] = [];
  for (const k of Object.keys(b)) if (!['externalId', 'networkIds', 'origin', 'maxMinutes', 'ui', 'header'].includes(k)) p.push({ path: `/${k}`, message: 'is not a known field (externalId, networkIds, origin, maxMinutes, ui, header)' });
  if (!isExternalId(b.externalId)) p.push({ path: '/externalId', message: 'is required: the externalId of an active managed user' });
  if (!Array.isArray(b.networkIds) || b.networkIds.length !== 1 || typeof b.networkIds[0] !== 'string') p.push({ path: '/networkIds', message: 'must be an array of exactly one network id' });
  const origin = typeof b.origin === 'string' ? parseOrigin(b.origin) : { error: 'is required: the exact origin of the host page' };
  if ('error' in origin) p.push({ path: '/origin', message: origin.error });
  const maxMinutes = b.maxMinutes === undefined ? DEFAULT_MAX_MINUTES : b.maxMinutes;
  if (typeof maxMinutes !== 'number' || !Number.isInteger(maxMinutes) || maxMinutes < 1 || maxMinutes > MAX_MINUTES) p.push({ path: '/maxMinutes', message: `must be a whole number from 1 to ${MAX_MINUTES}` });
  const header = b.header === undefined ? 'none' : b.header;
  if (!(HEADERS as readonly unknown[]).includes(header)) p.push({ path: '/header', message: 'must be "none" or "title"' });
  let ui: NormalizedUi | undefined;
  try {
    ui = normalizeUi(b.ui);
  } catch (err) {
    if (err instanceof DomainError && err.errors) p.push(...err.errors);
    else throw err;
  }
  if (p.length) throw invalidArgs(p);

  const externalId = b.externalId as string;
  const networkId = (b.networkIds as string[])[0];
  const user = await getManagedUser(ctx.db, orgId, externalId);
  if (!user) throw new DomainError('NOT_FOUND', `no managed user ${JSON.stringify(externalId)}`);
  if (user.status !== 'active') throw new DomainError('FORBIDDEN', `managed user ${JSON.stringify(externalId)} is deactivated`);
  const e = await embeddability(ctx.db, settings, networkId);
  if (e.result === 'not-found') throw new DomainError('NOT_FOUND', `no network ${JSON.stringify(networkId)}`);
  if (e.result === 'not-embeddable') throw new DomainError('NETWORK_NOT_EMBEDDABLE', `network ${networkId} is not embeddable: ${e.why}`);
  const permission = await getGrant(ctx.db, user.user_id, networkId);
  if (!permission) throw new DomainError('FORBIDDEN', `managed user ${JSON.stringify(externalId)} has no access to network ${networkId}; grant it with PUT /embed/users/${externalId}/networks/${networkId}`);
  const allowed = JSON.parse(settings.allowed_origins) as string[];
  const normalizedOrigin = (origin as { origin: string }).origin;
  if (!allowed.includes(normalizedOrigin)) throw new DomainError('ORIGIN_NOT_ALLOWED', `origin ${normalizedOrigin} is not among the organization's allowed host origins`);

  const now = ctx.now();
  const id = newId();
  const row: EmbedSessionRecord = {
    id,
    org_id: orgId,
    user_id: user.user_id,
    network_id: networkId,
    origin: normalizedOrigin,
    ui: JSON.stringify(ui),
    header: header as EmbedHeader,
    max_minutes: maxMinutes as number,
    created: iso(now),
    expires_at: iso(now + (maxMinutes as number) * 60_000),
    last_activity_at: iso(now),
    ended_at: null,
    ended_reason: null,
    mode: 'embed',
    web_session_id: null,
    access: null,
  };
  await insertSession(ctx.db, row);
  await ctx.state.touch(id, now, { lastActivityAt: row.last_activity_at });
  const lt = await issueLaunchTokenFor(ctx, id);
  await audit(ctx, orgId, actor, 'session.create', externalId, { sessionId: id, networkId, origin: normalizedOrigin, maxMinutes, header });
  await audit(ctx, orgId, actor, 'launch_token.issue', externalId, { sessionId: id });
  return { sessionId: id, ...lt, expiresAt: row.expires_at, ui: ui!, header: row.header };
}

export interface LiveSession {
  session: EmbedSessionRecord;
  settings: EmbedSettingsRecord;
  user: ManagedUserRecord;
  permission: SharePermission;
  ui: NormalizedUi;
  /** Explore sessions of the web app (domain/embedding/explore.ts): mode, access and the web user's principal. */
  explore?: ExploreFacts;
}

/**
 * The session if it still lives; else records why it ended (first time) and throws 410 SESSION_EXPIRED.
 * `touch` records activity (viewer requests, launch-token requests, heartbeats).
 */
export async function liveSession(ctx: EmbedContext, session: EmbedSessionRecord, opts: { touch: boolean }): Promise<LiveSession> {
  if (session.mode !== 'embed') return liveExploreSession(ctx, session, opts);
  const now = ctx.now();
  const [settings, user, permission, activity] = await Promise.all([
    getEmbedSettings(ctx.db, session.org_id),
    getManagedUserById(ctx.db, session.user_id),
    getGrant(ctx.db, session.user_id, session.network_id),
    ctx.state.lastActivity(session.id),
  ]);
  const embeddable = session.ended_at === null ? (await embeddability(ctx.db, settings, session.network_id)).result === 'ok' : false;
  const reason = sessionEndReason({
    now,
    endedReason: session.ended_reason ?? (session.ended_at ? 'revoked' : null),
    expiresAt: Date.parse(session.expires_at),
    lastActivityAt: Math.max(activity ?? 0, Date.parse(session.last_activity_at)),
    inactivityMs: ctx.config.embed.inactivityMs,
    userActive: user !== null && user.status === 'active',
    embeddingEnabled: settings.enabled === 1,
    originAllowed: (JSON.parse(settings.allowed_origins) as string[]).includes(session.origin),
    permission,
    networkEmbeddable: embeddable,
  });
  if (reason) {
    if (session.ended_at === null && (await endSession(ctx.db, session.id, reason, iso(now)))) {
      await audit(ctx, session.org_id, sessionActor(session), 'session.end', user?.external_id ?? null, { sessionId: session.id, reason });
    }
    throw sessionExpired(reason);
  }
  if (opts.touch) {
    await ctx.state.touch(session.id, now, { lastActivityAt: session.last_activity_at });
    await touchManagedUser(ctx.db, session.user_id, iso(now), iso(now - 60_000));
  }
  return { session, settings, user: user!, permission: permission!, ui: JSON.parse(session.ui) as NormalizedUi };
}

/** A session of this organization (404 for another organization's or an unknown id). */
export async function requireOrgSession(db: Kysely<Database>, orgId: string, sessionId: string): Promise<EmbedSessionRecord> {
  const s = await getSession(db, sessionId);
  if (!s || s.org_id !== orgId) throw new DomainError('NOT_FOUND', `no session ${JSON.stringify(sessionId)}`);
  return s;
}

/** `POST /embed/sessions/:sessionId/launch-tokens` → { launchToken } (host backend; counts as activity). */
export async function issueLaunchToken(ctx: EmbedContext, orgId: string, actor: Actor, sessionId: string): Promise<{ launchToken: string; launchTokenExpiresAt: string }> {
  const settings = await requireEnabled(ctx, orgId);
  const session = await requireOrgSession(ctx.db, orgId, sessionId);
  await checkRate(ctx, `org:${orgId}:launch`, limitsOf(ctx, settings).launchTokensPerHour, 'launch tokens');
  const live = await liveSession(ctx, session, { touch: true });
  const lt = await issueLaunchTokenFor(ctx, sessionId);
  await audit(ctx, orgId, actor, 'launch_token.issue', live.user.external_id, { sessionId });
  return lt;
}

/** `DELETE /embed/sessions/:sessionId` → { sessionId, revoked: true } (idempotent). */
export async function revokeSession(ctx: EmbedContext, orgId: string, actor: Actor, sessionId: string): Promise<{ sessionId: string; revoked: true }> {
  await requireEnabled(ctx, orgId);
  const session = await requireOrgSession(ctx.db, orgId, sessionId);
  if (await endSession(ctx.db, sessionId, 'revoked', iso(ctx.now()))) {
    const user = await getManagedUserById(ctx.db, session.user_id);
    await audit(ctx, orgId, actor, 'session.revoke', user?.external_id ?? null, { sessionId });
  }
  return { sessionId, revoked: true };
}

export class InvalidLaunchToken extends DomainError {
  readonly headers = { 'www-authenticate': 'Bearer realm="netloom-embed"' };
  constructor() {
    super('UNAUTHENTICATED', 'invalid, expired or already used launch token for this session');
  }
}

/**
 * The viewer's exchange `POST /embed/sessions/:sessionId/access-tokens` { launchToken } →
 * { accessToken, expiresAt }. Limits first, then the atomic single-use redemption, then the session's
 * state (an ended session is 410 even with a good token).
 *
 * The limits are keyed so that nobody can use them up for someone else (docs/security.md, "Launch
 * tokens"): whoever knows a session id (it is in the iframe URL) must not be able to lock its viewer out.
 * - per IP address, failed redemptions (`redemptionsPerIpPerHour`): an address that sent that many wrong
 *   tokens is refused until the window ends; successes never count, so a viewer is only refused for
 *   failures sent from its own address;
 * - per session *and* IP address, every attempt (`redemptionsPerSessionPerHour`): guessing one session's
 *   tokens is capped per address, and attempts from other addresses never touch the viewer's allowance.
 * Guessing is hopeless anyway (≈256 random bits); the limits bound the work a stranger can cause.
 */
export async function exchangeLaunchToken(ctx: EmbedContext, sessionId: string, launchToken: unknown, ip: string): Promise<{ accessToken: string; expiresAt: string }> {
  const ipFailures = `ip:${ip}:redeem-fail`;
  const now = ctx.now();
  const failed = await ctx.state.peek(ipFailures, HOUR_MS, now);
  const ipCeiling = ctx.config.embed.redemptionsPerIpPerHour;
  if (failed.count >= ipCeiling) {
    const retry = Math.ceil((failed.resetAt - now) / 1000);
    throw new RateLimitedError(`rate limit of ${ipCeiling} failed launch-token redemptions from this address per hour reached; retry in ${retry} s`, retry, ipCeiling);
  }
  const refuse = async (): Promise<never> => {
    await ctx.state.hit(ipFailures, HOUR_MS, now);
    throw new InvalidLaunchToken();
  };
  const session = isId(sessionId) ? await getSession(ctx.db, sessionId) : null;
  if (!session) return refuse();
  const settings = await getEmbedSettings(ctx.db, session.org_id);
  await checkRate(ctx, `session:${sessionId}:ip:${ip}:redeem`, limitsOf(ctx, settings).redemptionsPerSessionPerHour, 'launch-token redemptions for this session from this address');
  const ok = isLaunchTokenFormat(launchToken) && (await ctx.state.consumeLaunchToken(tokenHash(launchToken), sessionId, now));
  const user = await getManagedUserById(ctx.db, session.user_id);
  const actor: Actor = sessionActor(session);
  if (!ok) {
    await audit(ctx, session.org_id, actor, 'launch_token.refused', user?.external_id ?? null, { sessionId, ip });
    return refuse();
  }
  await liveSession(ctx, session, { touch: true });
  const accessToken = newAccessToken();
  const exp = now + ctx.config.embed.accessTokenTtlMs;
  await ctx.state.putAccessToken(tokenHash(accessToken), sessionId, exp);
  await audit(ctx, session.org_id, actor, 'launch_token.redeem', user?.external_id ?? null, { sessionId, ip });
  return { accessToken, expiresAt: iso(exp) };
}

export class InvalidAccessToken extends DomainError {
  readonly headers = { 'www-authenticate': 'Bearer realm="netloom-embed"' };
  constructor(detail = 'missing, invalid or expired access token; exchange a new launch token') {
    super('UNAUTHENTICATED', detail);
  }
}

/** The live session of a viewer's `Authorization: Bearer nla_…` (401 when invalid; 410 when the session ended). */
export async function authenticateViewer(ctx: EmbedContext, authorization: string | undefined, opts: { touch: boolean } = { touch: true }): Promise<LiveSession & { accessTokenExpiresAt: number }> {
  const m = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!m || !isAccessTokenFormat(m[1])) throw new InvalidAccessToken();
  const found = await ctx.state.accessToken(tokenHash(m[1]), ctx.now());
  if (!found) throw new InvalidAccessToken();
  const session = await getSession(ctx.db, found.sessionId);
  if (!session) throw sessionExpired('revoked');
  return { ...(await liveSession(ctx, session, opts)), accessTokenExpiresAt: found.expiresAt };
}

/** For the embed page: the frame ancestor to allow, or null ('none') when the session no longer lives. */
export async function pageOrigin(ctx: EmbedContext, sessionId: string): Promise<string | null> {
  const session = await getSession(ctx.db, sessionId);
  if (!session) return null;
  try {
    await liveSession(ctx, session, { touch: false });
    return session.origin;
  } catch (err) {
    if (err instanceof DomainError && err.code === 'SESSION_EXPIRED') return null;
    throw err;
  }
}
