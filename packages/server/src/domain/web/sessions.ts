/**
 * Web-app sessions (docs/web-app.md "Sessions"): the cookie carries a random 256-bit value; only its
 * SHA-256 is stored, next to a public id used to list and revoke sessions. A session ends after
 * `web.sessionIdleMs` without a request (12 h) and at the latest `web.sessionMaxMs` after sign-in
 * (7 days). Each sign-in creates a new session (and ends the one the browser presented, if any), so a
 * session id planted before sign-in is never promoted (no fixation).
 *
 * The CSRF token of a session is derived from its secret (SHA-256 with a domain-separation prefix):
 * stable for the session's life, unforgeable without the cookie, and never stored.
 *
 * A session resolves to a Principal of the same shape credentials give (user principal, full scopes,
 * `via: 'session'`), so domain commands take either.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { WebConfig } from '../../config.ts';
import type { Database } from '../../store/schema.ts';
import type { MembershipRecord, OrganizationRecord } from '../../store/organizations.ts';
import type { UserRecord } from '../../store/users.ts';
import {
  deleteWebSession,
  deleteWebSessionsOfUser,
  findWebSession,
  insertWebSession,
  listWebSessionsOfUser,
  pruneWebSessions,
  touchWebSession,
  type WebSessionRecord,
} from '../../store/web-sessions.ts';
import type { Principal } from '../identity/credentials/principal.ts';
import { FULL_ACCESS } from '../identity/credentials/scopes.ts';
import { DomainError } from '../errors.ts';
import { newId } from '../ids.ts';

export const SESSION_COOKIE = 'nl_session';
/** last_seen_at is written at most this often per session (idle expiry is exact to this much). */
const TOUCH_INTERVAL_MS = 60_000;
const SECRET_RE = /^[A-Za-z0-9_-]{43}$/;

const iso = (ms: number) => new Date(ms).toISOString();
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest();

export function sessionSecretHash(secret: string): string {
  return sha256(secret).toString('hex');
}

/** The CSRF token of the session whose cookie value is `secret`. */
export function csrfTokenFor(secret: string): string {
  return sha256(`netloom-csrf\0${secret}`).toString('base64url');
}

export interface WebSessionState {
  session: WebSessionRecord;
  user: UserRecord;
  membership: MembershipRecord | null;
  org: OrganizationRecord | null;
  requireMfa: boolean;
  mfaEnabled: boolean;
  /** The organization requires MFA and this user has not enrolled: only session and MFA setup endpoints answer. */
  mfaEnrolmentRequired: boolean;
  csrfToken: string;
  principal: Principal;
}

export function sessionPrincipal(session: WebSessionRecord, user: UserRecord, membership: MembershipRecord | null): Principal {
  return Object.freeze({
    credentialId: `web:${session.id}`,
    kind: 'session' as const,
    via: 'session' as const,
    userId: user.id,
    orgId: null,
    scopes: new Set(FULL_ACCESS),
    user: Object.freeze({ ...user }),
    org: null,
    membership: membership && Object.freeze({ ...membership }),
    plan: user.plan,
  });
}

export interface StartInput {
  userId: string;
  userAgent: string;
  ip: string;
  now: number;
  /** The cookie value the browser presented, if any: that session ends (it is being replaced). */
  replacing?: string;
}

/** Creates a session; returns the cookie value (shown to the browser only) and the stored row. */
export async function startWebSession(db: Kysely<Database>, config: WebConfig, input: StartInput): Promise<{ secret: string; session: WebSessionRecord }> {
  if (input.replacing && SECRET_RE.test(input.replacing)) {
    const old = await findWebSession(db, sessionSecretHash(input.replacing));
    if (old) await deleteWebSession(db, old.session.id);
  }
  const secret = randomBytes(32).toString('base64url');
  const session: WebSessionRecord = {
    id: newId(),
    secret_hash: sessionSecretHash(secret),
    user_id: input.userId,
    created: iso(input.now),
    last_seen_at: iso(input.now),
    expires_at: iso(input.now + config.sessionMaxMs),
    user_agent: input.userAgent.slice(0, 300),
    ip: input.ip.slice(0, 100),
  };
  await insertWebSession(db, session);
  // Ended sessions are deleted when presented; those never presented again go at the user's next sign-in.
  await pruneWebSessions(db, iso(input.now), iso(input.now - config.sessionIdleMs), input.userId);
  return { secret, session };
}

/** When a session ends (the earlier of its absolute end and its idle end), ms. */
export function sessionEndsAt(config: WebConfig, s: Pick<WebSessionRecord, 'expires_at' | 'last_seen_at'>): number {
  return Math.min(Date.parse(s.expires_at), Date.parse(s.last_seen_at) + config.sessionIdleMs);
}

/**
 * The live session of a cookie value, or null (malformed, unknown, expired — then deleted — or its
 * user suspended, deleted or managed). Records activity at most once a minute.
 */
export async function resolveWebSession(db: Kysely<Database>, config: WebConfig, secret: string | undefined, now: number): Promise<WebSessionState | null> {
  if (!secret || !SECRET_RE.test(secret)) return null;
  const found = await findWebSession(db, sessionSecretHash(secret));
  if (!found) return null;
  const { session, user } = found;
  if (now >= sessionEndsAt(config, session) || user.status === 'suspended' || user.kind !== 'regular') {
    await deleteWebSession(db, session.id);
    return null;
  }
  if (now - Date.parse(session.last_seen_at) >= TOUCH_INTERVAL_MS) {
    await touchWebSession(db, session.id, iso(now));
    session.last_seen_at = iso(now);
  }
  return {
    ...found,
    mfaEnrolmentRequired: found.requireMfa && !found.mfaEnabled,
    csrfToken: csrfTokenFor(secret),
    principal: sessionPrincipal(session, user, found.membership),
  };
}

export interface SessionListItem {
  id: string;
  created: string;
  lastSeenAt: string;
  expiresAt: string;
  userAgent: string;
  ip: string;
  current: boolean;
}

/** The user's live sessions, most recently used first. */
export async function listWebSessions(db: Kysely<Database>, config: WebConfig, userId: string, currentId: string, now: number): Promise<SessionListItem[]> {
  const rows = await listWebSessionsOfUser(db, userId);
  return rows
    .filter((s) => sessionEndsAt(config, s) > now)
    .map((s) => ({
      id: s.id,
      created: s.created,
      lastSeenAt: s.last_seen_at,
      expiresAt: iso(sessionEndsAt(config, s)),
      userAgent: s.user_agent,
      ip: s.ip,
      current: s.id === currentId,
    }));
}

/** Ends one of the user's sessions (NOT_FOUND for another user's or an unknown id). */
export async function endWebSession(db: Kysely<Database>, userId: string, id: string): Promise<void> {
  if (!(await deleteWebSession(db, id, userId))) throw new DomainError('NOT_FOUND', `no session ${JSON.stringify(id)}`);
}

/** Ends every session of the user, except `keepId` when given; returns how many ended. */
export function endWebSessionsOfUser(db: Kysely<Database>, userId: string, keepId?: string): Promise<number> {
  return deleteWebSessionsOfUser(db, userId, keepId);
}
