/**
 * One-time links (docs/web-app.md "Invitations and password resets"; no e-mail is sent — whoever creates
 * a link passes it on): an **invitation** (valid 7 days) and a **reset** (valid 1 hour). Links are
 * 256-bit random tokens (`nlk_…`), stored as SHA-256 only, single use (an atomic conditional UPDATE), and
 * a new reset link retires the older unused ones of that account. Created by organization Owners/Admins
 * (invitations, web app) or by the operator CLI (`netloom users invite|reset-link`).
 *
 * Invitations never touch an existing account's credentials (docs/security.md "Accounts and
 * organizations"; issue 19 finding 1):
 * - for an e-mail without an account, redeeming the link creates it with the password the person
 *   chooses and adds it to the organization;
 * - for an e-mail that has an account (with or without a password), the link is only *accepted* by that
 *   account, signed in as itself (`acceptInvitation`); redeeming it signed out is refused and changes
 *   nothing, so the link is useless to anyone else, the inviter included;
 * - creating an invitation answers the same for both (and for an account in another organization), so
 *   the answer tells the inviter nothing about the account.
 */
import { getMeta } from '../../store/meta.ts';
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

/** Meta key of the public URL the service last started with (app.ts writes it; the CLI reads it). */
export const PUBLIC_URL_META = 'public_url';

/**
 * The base of links the CLI prints: NETLOOM_PUBLIC_URL when the CLI's environment sets it, else the
 * public URL the service was started with (stored at start), else the configuration's default.
 */
export async function cliPublicUrl(db: Kysely<Database>, config: { publicUrl: string }, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if (env.NETLOOM_PUBLIC_URL) return config.publicUrl;
  return (await getMeta(db, PUBLIC_URL_META)) ?? config.publicUrl;
}

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

/** What a link is for: who may use it and into what (the rest of its row is the same for every kind). */
type LinkTarget = Pick<UserLinkRecord, 'kind' | 'email' | 'user_id' | 'org_id' | 'role' | 'created_by'>;

/** Stores a new unused link valid `ttlMs` from `now` (only the token's hash) and answers it with its token. */
async function issueLink(trx: Kysely<Database>, publicUrl: string, target: LinkTarget, ttlMs: number, now: number): Promise<CreatedLink> {
  const token = newToken();
  const expiresAt = iso(now + ttlMs);
  await insertUserLink(trx, { ...target, token_hash: linkHash(token), created: iso(now), expires_at: expiresAt, used_at: null });
  return { token, url: linkUrl(publicUrl, token), expiresAt, kind: target.kind, email: target.email };
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

/**
 * An invitation link: the same answer whether or not the e-mail has an account (see the header).
 * CONFLICT only when the e-mail is already a member of this very organization (the inviter sees the
 * member list anyway).
 */
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
    if (existing && input.orgId) {
      const m = await getMembershipOfUser(trx, existing.id);
      if (m && m.org_id === input.orgId) throw new DomainError('CONFLICT', `${email} is already a member of this organization`, [{ path: '/email', message: 'already a member' }]);
    }
    return issueLink(trx, publicUrl, { kind: 'invite', email, user_id: existing?.id ?? null, org_id: input.orgId ?? null, role, created_by: input.createdBy }, INVITE_TTL_MS, now);
  });
}

/** A password-reset link for an existing (regular) account; older unused reset links stop working. */
export async function createResetLink(db: Kysely<Database>, publicUrl: string, emailInput: string, createdBy: string, now: number): Promise<CreatedLink> {
  const email = normalizeEmail(emailInput);
  return inTransaction(db, async (trx) => {
    const user = await getUserByEmail(trx, email);
    if (!user || user.kind !== 'regular') throw new DomainError('NOT_FOUND', `no account with e-mail ${email}`);
    await retireUserLinks(trx, email, 'reset', iso(now));
    return issueLink(trx, publicUrl, { kind: 'reset', email, user_id: user.id, org_id: null, role: null, created_by: createdBy }, RESET_TTL_MS, now);
  });
}

export interface LinkInfo {
  kind: UserLinkKind;
  email: string;
  organization: { name: string } | null;
  expiresAt: string;
  /** Redemption needs a name (every invitation: whether the e-mail has an account is not told). */
  needsName: boolean;
  /** The request is signed in as the account this invitation is for: it can be accepted. */
  acceptable: boolean;
}

async function liveLink(db: Kysely<Database>, token: string, now: number): Promise<UserLinkRecord> {
  const link = TOKEN_RE.test(token) ? await getUserLink(db, linkHash(token)) : null;
  if (!link || link.used_at !== null || link.expires_at <= iso(now)) throw new DomainError('NOT_FOUND', 'this link is unknown, already used or expired; ask for a new one');
  return link;
}

/** The account an invitation is for, if it has one (bound at creation, or created since under that e-mail). */
async function invitedAccount(db: Kysely<Database>, link: UserLinkRecord): Promise<UserRecord | null> {
  return (link.user_id ? await getUserById(db, link.user_id) : null) ?? (await getUserByEmail(db, link.email));
}

/**
 * What a link is for (404 when unknown, used or expired). `signedInUserId`: the web session of the
 * request, if any — only the invited account itself learns that it can accept.
 */
export async function describeLink(db: Kysely<Database>, token: string, now: number, signedInUserId: string | null = null): Promise<LinkInfo> {
  const link = await liveLink(db, token, now);
  const org = link.org_id ? await getOrganizationById(db, link.org_id) : null;
  const acceptable = link.kind === 'invite' && signedInUserId !== null && (await invitedAccount(db, link))?.id === signedInUserId;
  return { kind: link.kind, email: link.email, organization: org ? { name: org.name } : null, expiresAt: link.expires_at, needsName: link.kind === 'invite', acceptable };
}

export function checkNewPassword(password: string, field = 'password'): void {
  if (typeof password !== 'string' || password.length < MIN_PASSWORD || password.length > 1024) {
    throw new DomainError('INVALID_ARGS', `${field}: ${MIN_PASSWORD} to 1024 characters required`, [{ path: `/${field}`, message: `must be ${MIN_PASSWORD} to 1024 characters` }]);
  }
}

/** The refusal when an invitation of an existing account is redeemed signed out (nothing changes). */
const forExistingAccount = (email: string) =>
  new DomainError('CONFLICT', `this invitation is for the existing account ${email}: sign in as that account, then open the link again to accept it`);

/**
 * Redeems a link signed out: reset → the new password, every session ended; invitation of an e-mail
 * without an account → the account, created with the chosen password, in the organization with the
 * role. An invitation of an existing account is refused (CONFLICT; the link stays valid for that
 * account to accept). Returns the user (the caller signs them in). 404 when the link is no longer valid.
 * `hash` hashes the new password (through the bounded password queue).
 */
export async function redeemLink(
  db: Kysely<Database>,
  token: string,
  input: { name?: string; password: string },
  now: number,
  hash: (password: string) => Promise<string> = hashPassword,
): Promise<{ user: UserRecord; kind: UserLinkKind }> {
  checkNewPassword(input.password);
  const pre = await liveLink(db, token, now);
  if (pre.kind === 'invite') {
    if (await invitedAccount(db, pre)) throw forExistingAccount(pre.email);
    if (!input.name?.trim()) throw new DomainError('INVALID_ARGS', 'name: your name is required', [{ path: '/name', message: 'is required' }]);
  }
  const passwordHash = await hash(input.password);
  return inTransaction(db, async (trx) => {
    const link = await liveLink(trx, token, now);
    if (link.kind === 'invite' && (await invitedAccount(trx, link))) throw forExistingAccount(link.email);
    if (!(await useUserLink(trx, link.token_hash, iso(now)))) throw new DomainError('NOT_FOUND', 'this link was just used');
    if (link.kind === 'reset') {
      const user = link.user_id ? await updateUser(trx, link.user_id, { password_hash: passwordHash }) : null;
      if (!user) throw new DomainError('NOT_FOUND', 'the account of this link no longer exists');
      await endWebSessionsOfUser(trx, user.id);
      return { user, kind: link.kind };
    }
    const org = link.org_id ? await getOrganizationById(trx, link.org_id) : null;
    const created = await createUser(trx, { email: link.email, name: input.name ?? '', plan: org?.plan ?? 'free' });
    const user = (await updateUser(trx, created.id, { password_hash: passwordHash })) ?? created;
    if (link.org_id && link.role) await insertMembership(trx, { org_id: link.org_id, user_id: user.id, role: link.role });
    return { user: (await getUserById(trx, user.id)) ?? user, kind: link.kind };
  });
}

/**
 * Accepts an invitation as the signed-in account it is for: joins the organization with the role; no
 * credential changes. 403 FORBIDDEN when signed in as anyone else (the link stays valid), 409 CONFLICT
 * when the account belongs to another organization (leave it first).
 */
export async function acceptInvitation(db: Kysely<Database>, token: string, userId: string, now: number): Promise<{ orgId: string | null; role: OrgRole | null }> {
  return inTransaction(db, async (trx) => {
    const link = await liveLink(trx, token, now);
    if (link.kind !== 'invite') throw new DomainError('FORBIDDEN', 'this is a password-reset link, not an invitation');
    const account = await invitedAccount(trx, link);
    if (!account || account.id !== userId) throw new DomainError('FORBIDDEN', `this invitation is for ${link.email}, not for the account you are signed in as`);
    if (link.org_id && link.role) {
      const m = await getMembershipOfUser(trx, userId);
      if (m && m.org_id !== link.org_id) throw new DomainError('CONFLICT', 'you belong to another organization: leave it first, then accept this invitation');
      if (!(await useUserLink(trx, link.token_hash, iso(now)))) throw new DomainError('NOT_FOUND', 'this link was just used');
      if (!m) await insertMembership(trx, { org_id: link.org_id, user_id: userId, role: link.role });
      return { orgId: link.org_id, role: m ? m.role : link.role };
    }
    if (!(await useUserLink(trx, link.token_hash, iso(now)))) throw new DomainError('NOT_FOUND', 'this link was just used');
    return { orgId: null, role: null };
  });
}
