/**
 * The web app's credentials page (docs/web-app.md "Credentials"; docs/spec/decisions.md: created in the web
 * application): what a signed-in user sees and may do with API credentials, on top of
 * domain/identity/credentials/ (issue, listing and revocation).
 * - list: the user's own credentials, plus the organization's when the user is its Owner/Admin;
 * - create: a bearer token only (legacy key pairs are listed and revocable, never created), after the
 *   password is re-entered; user-owned, or organization-owned by Owners/Admins (enterprise/partner);
 * - revoke: own credentials, or the organization's when Owner/Admin.
 * The routes accept only a web session (http/web-session.ts): a credential can never mint a credential.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../store/schema.ts';
import type { MembershipRecord, OrganizationRecord } from '../../../store/organizations.ts';
import { getCredentialById } from '../../../store/credentials.ts';
import type { UserRecord } from '../../../store/users.ts';
import { credentialSummary, listCredentials, revokeCredential, type CredentialSummary } from './listing.ts';
import { FULL_ACCESS } from './scopes.ts';
import { createToken } from './tokens.ts';
import { DomainError } from '../../errors.ts';
import { isOrgAdmin } from '../users.ts';

export interface WebCredential {
  id: string;
  kind: 'token' | 'basic';
  name: string;
  /** Token display prefix (`nl_AbCd1234`) or the key pair's public key. */
  prefix: string;
  scopes: string[];
  fullAccess: boolean;
  created: string;
  lastUsedAt: string | null;
  owner: { type: 'user' | 'organization'; id: string; name: string };
}

export interface WebActor {
  user: UserRecord;
  membership: MembershipRecord | null;
  org: OrganizationRecord | null;
}

const isFull = (scopes: readonly string[]) => FULL_ACCESS.every((s) => scopes.includes(s));

function present(c: CredentialSummary, actor: WebActor): WebCredential {
  const owner =
    c.orgId !== null
      ? { type: 'organization' as const, id: c.orgId, name: actor.org?.id === c.orgId ? actor.org.name : '' }
      : { type: 'user' as const, id: c.userId, name: actor.user.name };
  return {
    id: c._id,
    kind: c.kind,
    name: c.name,
    prefix: (c.kind === 'token' ? c.prefix : c.publicKey) ?? '',
    scopes: c.scopes,
    fullAccess: isFull(c.scopes),
    created: c.created,
    lastUsedAt: c.lastUsedAt,
    owner,
  };
}

const adminOrg = (actor: WebActor): string | null => (actor.membership && actor.org && isOrgAdmin(actor.membership) ? actor.org.id : null);

/** Own credentials (user-owned) plus the organization's when the user is its Owner/Admin; newest first. */
export async function listWebCredentials(db: Kysely<Database>, actor: WebActor): Promise<WebCredential[]> {
  const own = (await listCredentials(db, { userId: actor.user.id })).filter((c) => c.orgId === null);
  const orgId = adminOrg(actor);
  const org = orgId ? await listCredentials(db, { orgId }) : [];
  return [...own, ...org].map((c) => present(c, actor)).sort((a, b) => (a.created < b.created ? 1 : a.created > b.created ? -1 : a.id < b.id ? 1 : -1));
}

export interface CreateWebTokenInput {
  name: string;
  scopes: 'full' | string[];
  owner?: 'user' | 'organization';
}

/** A bearer token (shown once). The password must already be confirmed by the caller. */
export async function createWebToken(db: Kysely<Database>, actor: WebActor, input: CreateWebTokenInput, maxPerUser: number): Promise<{ credential: WebCredential; token: string }> {
  const name = input.name.trim();
  if (!name) throw new DomainError('INVALID_ARGS', 'name: give the token a name', [{ path: '/name', message: 'is required' }]);
  let orgId: string | null = null;
  if (input.owner === 'organization') {
    if (!actor.membership || !actor.org) throw new DomainError('FORBIDDEN', 'you do not belong to an organization', [{ path: '/owner', message: 'you have no organization' }]);
    if (!isOrgAdmin(actor.membership)) throw new DomainError('FORBIDDEN', 'only Owners and Admins create organization credentials', [{ path: '/owner', message: 'needs Owner or Admin' }]);
    orgId = actor.org.id;
  }
  const { token, credential } = await createToken(db, { userId: actor.user.id, orgId, name, scopes: input.scopes === 'full' ? null : input.scopes, maxPerUser });
  return { token, credential: present(credentialSummary(credential), actor) };
}

/** Revokes one of the user's own credentials, or one of the organization's (Owner/Admin). 404 otherwise. */
export async function revokeWebCredential(db: Kysely<Database>, actor: WebActor, id: string): Promise<void> {
  const c = await getCredentialById(db, id);
  const mine = c !== null && c.org_id === null && c.user_id === actor.user.id;
  const orgs = c !== null && c.org_id !== null && c.org_id === adminOrg(actor);
  if (!c || !(mine || orgs)) throw new DomainError('NOT_FOUND', `no active credential ${JSON.stringify(id)}`);
  await revokeCredential(db, id, orgs ? { orgId: c.org_id! } : { userId: actor.user.id });
}
