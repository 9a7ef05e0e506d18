/**
 * One-time links (docs/web-app.md "Invitations and password resets"; no e-mail is sent — whoever creates
 * a link passes it on): an **invitation** (valid 7 days) creates the account on redemption, with the
 * password the person chooses, and adds it to the organization with the given role; a **reset** (valid
 * 1 hour) sets a new password and ends every session of the account. Links are 256-bit random tokens
 * (`nlk_…`), stored as SHA-256 only, single use (an atomic conditional UPDATE), and a new reset link
 * retires the older unused ones of that account. Created by organization Owners/Admins (invitations,
 * web app) or by the operator CLI (`netloom users invite|reset-link`).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { inTransaction } from '../../store/db.ts';
import { getMembershipOfUser, getOrganizationById, insertMembership } from '../../store/organizations.ts';
import type { Database, OrgRole, UserLinkKind } from '../../store/schema.ts';
import { getUserByEmail, getUserById, updateUser, type UserRecord } from '../../store/users.ts';
import { getUserLink, insertUserLink, retireUserLinks, useUserLink, type UserLinkRecord } from '../../store/user-links.ts';
import { DomainError } from '../errors.ts';
import { createUser, isOrgAdmin, normalizeEmail, parseRole } from './users.ts';
import { hashPassword } from './passwords.ts';
import { endWebSessionsOfUser } from '../web/sessions.ts';

export const INVITE_TTL_MS = 7 * 24 * 3_600_000;
export const RESET_TTL_MS = 3_600_000;
export const MIN_PASSWORD = 10;
const TOKEN_RE = /^nlk_[A-Za-z0-9_-]{43}$/;

const iso = (ms: number) => new Date(ms).toISOString();
export const linkHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export function linkUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/link/${token}`;
}

export interface CreatedLink {
  token: string;
  url: string;
  expiresAt: string;
  kind: UserLinkKind;
  email: string;
}

function newToken(): string {
  return `nlk_${randomBytes(32).toString('base64url')}`;
}

export interface InviteInput {
  email: string;
  orgId?: string | null;
  role?: OrgRole | null;
  /** `user:<id>` or `cli`. */
  createdBy: string;
  /** The inviting member, when an organization admin invites (checked: Owner/Admin; only Owners invite Owners). */
  inviterUserId?: string;
}

/** An invitation link. CONFLICT when the e-mail already has an account that can sign in. */
export async function createInvitation(db: Kysely<Database>, publicUrl: string, input: InviteInput, now: number): Promise<CreatedLink> {
  const email = normalizeEmail(input.email);
  const role = input.orgId ? parseRole(input.role ?? 'Standard User') : null;
  return inTransaction(db, async (trx) => {
    if (input.orgId) {
      const org = await getOrganizationById(trx, input.orgId);
      if (!org) throw new DomainError('NOT_FOUND', `no organization ${JSON.stringify(input.orgId)}`);
      if (input.inviterUserId) {
        const m = await getMembershipOfUser(trx, input.inviterUserId);
        if (!m || m.org_id !== org.id || !isOrgAdmin(m)) throw new DomainError('FORBIDDEN', 'only Owners and Admins of the organization invite members');
        if (role === 'Owner' && m.role !== 'Owner') throw new DomainError('FORBIDDEN', 'only an Owner can invite another Owner');
      }
    }
    const existing = await getUserByEmail(trx, email);
    if (existing && (existing.password_hash !== null || existing.kind !== 'regular')) {
      throw new DomainError('CONFLICT', `${email} already has an account; add it to the organization instead (or send a reset link)`, [{ path: '/email', message: 'already has an account' }]);
    }
    if (existing && input.orgId) {
      const m = await getMembershipOfUser(trx, existing.id);
      if (m && m.org_id !== input.orgId) throw new DomainError('CONFLICT', `${email} belongs to another organization`, [{ path: '/email', message: 'belongs to another organization' }]);
    }
    const token = newToken();
    const expiresAt = iso(now + INVITE_TTL_MS);
    await insertUserLink(trx, {
      token_hash: linkHash(token),
      kind: 'invite',
      email,
      user_id: existing?.id ?? null,
      org_id: input.orgId ?? null,
      role,
      created_by: input.createdBy,
      created: iso(now),
      expires_at: expiresAt,
      used_at: null,
    });
    return { token, url: linkUrl(publicUrl, token), expiresAt, kind: 'invite' as const, email };
  });
}

/** A password-reset link for an existing (regular) account; older unused reset links stop working. */
export async function createResetLink(db: Kysely<Database>, publicUrl: string, emailInput: string, createdBy: string, now: number): Promise<CreatedLink> {
  const email = normalizeEmail(emailInput);
  return inTransaction(db, async (trx) => {
    const user = await getUserByEmail(trx, email);
    if (!user || user.kind !== 'regular') throw new DomainError('NOT_FOUND', `no account with e-mail ${email}`);
    await retireUserLinks(trx, email, 'reset', iso(now));
    const token = newToken();
    const expiresAt = iso(now + RESET_TTL_MS);
    await insertUserLink(trx, {
      token_hash: linkHash(token),
      kind: 'reset',
      email,
      user_id: user.id,
      org_id: null,
      role: null,
      created_by: createdBy,
      created: iso(now),
      expires_at: expiresAt,
      used_at: null,
    });
    return { token, url: linkUrl(publicUrl, token), expiresAt, kind: 'reset' as const, email };
  });
}

export interface LinkInfo {
  kind: UserLinkKind;
  email: string;
  organization: { name: string } | null;
  expiresAt: string;
  /** Redemption needs a name (an invitation that creates the account). */
  needsName: boolean;
}

async function liveLink(db: Kysely<Database>, token: string, now: number): Promise<UserLinkRecord> {
  const link = TOKEN_RE.test(token) ? await getUserLink(db, linkHash(token)) : null;
  if (!link || link.used_at !== null || link.expires_at <= iso(now)) throw new DomainError('NOT_FOUND', 'this link is unknown, already used or expired; ask for a new one');
  return link;
}

/** What a link is for (404 when unknown, used or expired). */
export async function describeLink(db: Kysely<Database>, token: string, now: number): Promise<LinkInfo> {
  const link = await liveLink(db, token, now);
  const org = link.org_id ? await getOrganizationById(db, link.org_id) : null;
  return { kind: link.kind, email: link.email, organization: org ? { name: org.name } : null, expiresAt: link.expires_at, needsName: link.kind === 'invite' && link.user_id === null };
}

export function checkNewPassword(password: string, field = 'password'): void {
  if (typeof password !== 'string' || password.length < MIN_PASSWORD || password.length > 1024) {
    throw new DomainError('INVALID_ARGS', `${field}: ${MIN_PASSWORD} to 1024 characters required`, [{ path: `/${field}`, message: `must be ${MIN_PASSWORD} to 1024 characters` }]);
  }
}

/**
 * Redeems a link: invitation → the account (created, or the password-less one completed) with the
 * chosen password, in the organization with the role; reset → the new password, every session ended.
 * Returns the user (the caller signs them in). 404 when the link is no longer valid.
 */
export async function redeemLink(db: Kysely<Database>, token: string, input: { name?: string; password: string }, now: number): Promise<{ user: UserRecord; kind: UserLinkKind }> {
  checkNewPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  return inTransaction(db, async (trx) => {
    const link = await liveLink(trx, token, now);
    if (!(await useUserLink(trx, link.token_hash, iso(now)))) throw new DomainError('NOT_FOUND', 'this link was just used');
    let user: UserRecord | null;
    if (link.kind === 'reset') {
      user = link.user_id ? await updateUser(trx, link.user_id, { password_hash: passwordHash }) : null;
      if (!user) throw new DomainError('NOT_FOUND', 'the account of this link no longer exists');
      await endWebSessionsOfUser(trx, user.id);
      return { user, kind: link.kind };
    }
    if (link.user_id) {
      user = await updateUser(trx, link.user_id, { password_hash: passwordHash, ...(input.name?.trim() ? { name: input.name.trim() } : {}) });
      if (!user) throw new DomainError('NOT_FOUND', 'the account of this link no longer exists');
    } else {
      if (!input.name?.trim()) throw new DomainError('INVALID_ARGS', 'name: your name is required', [{ path: '/name', message: 'is required' }]);
      const org = link.org_id ? await getOrganizationById(trx, link.org_id) : null;
      const created = await createUser(trx, { email: link.email, name: input.name, plan: org?.plan ?? 'free' });
      user = (await updateUser(trx, created.id, { password_hash: passwordHash })) ?? created;
    }
    if (link.org_id && link.role) {
      const m = await getMembershipOfUser(trx, user.id);
      if (!m) await insertMembership(trx, { org_id: link.org_id, user_id: user.id, role: link.role });
      else if (m.org_id !== link.org_id) throw new DomainError('CONFLICT', 'this account meanwhile belongs to another organization');
    }
    return { user: (await getUserById(trx, user.id)) ?? user, kind: link.kind };
  });
}
