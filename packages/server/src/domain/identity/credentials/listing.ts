/** Listing and revoking credentials: what a listing shows (never the secret or its hash). */
import type { Kysely } from 'kysely';
import { getCredentialById, listCredentials as storeListCredentials, revokeCredentialRow, type CredentialRecord } from '../../../store/credentials.ts';
import { nowIso } from '../../../store/db.ts';
import type { CredentialKind, Database } from '../../../store/schema.ts';
import { DomainError } from '../../errors.ts';

export interface CredentialSummary {
  _id: string;
  kind: CredentialKind;
  name: string;
  /** Token display prefix (`nl_AbCd1234`) — for tokens. */
  prefix: string | null;
  /** Public key — for Basic key pairs. */
  publicKey: string | null;
  scopes: string[];
  userId: string;
  orgId: string | null;
  created: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export function credentialSummary(c: CredentialRecord): CredentialSummary {
  return {
    _id: c.id,
    kind: c.kind,
    name: c.name,
    prefix: c.kind === 'token' ? c.prefix : null,
    publicKey: c.kind === 'basic' ? c.prefix : null,
    scopes: JSON.parse(c.scopes) as string[],
    userId: c.user_id,
    orgId: c.org_id,
    created: c.created,
    lastUsedAt: c.last_used_at,
    revokedAt: c.revoked_at,
  };
}

/** Active credentials created by a user, or owned by an organization (`includeRevoked` to see all). */
export async function listCredentials(
  db: Kysely<Database>,
  filter: { userId?: string; orgId?: string; includeRevoked?: boolean },
): Promise<CredentialSummary[]> {
  if (filter.userId === undefined && filter.orgId === undefined) throw new Error('listCredentials: userId or orgId required');
  return (await storeListCredentials(db, filter)).map(credentialSummary);
}

/**
 * Revokes a credential at once (effective on the next request: the revocation moves the authentication
 * epoch, see principal-cache.ts). With `userId`/`orgId`, only a credential of that user/organization can
 * be revoked (others are NOT_FOUND). Revoking twice is NOT_FOUND.
 */
export async function revokeCredential(
  db: Kysely<Database>,
  id: string,
  scope: { userId?: string; orgId?: string } = {},
): Promise<CredentialSummary> {
  const c = await getCredentialById(db, id);
  const visible =
    c !== null &&
    c.revoked_at === null &&
    (scope.userId === undefined || c.user_id === scope.userId) &&
    (scope.orgId === undefined || c.org_id === scope.orgId);
  if (!c || !visible) throw new DomainError('NOT_FOUND', `no active credential ${JSON.stringify(id)}`);
  const at = nowIso();
  if (!(await revokeCredentialRow(db, id, at))) throw new DomainError('NOT_FOUND', `no active credential ${JSON.stringify(id)}`);
  return credentialSummary({ ...c, revoked_at: at });
}
