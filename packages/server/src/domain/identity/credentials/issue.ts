/**
 * Issuing a credential of either kind: name and scopes checked, the owner active, the organization rule
 * (organization.ts), the per-user maximum, and the row stored with the secret's hash only.
 */
import type { Kysely } from 'kysely';
import { countActiveCredentialsOfUser, insertCredential, type CredentialRecord } from '../../../store/credentials.ts';
import { dialectOf, inTransaction, isUniqueViolation, nowIso } from '../../../store/db.ts';
import type { CredentialKind, Database } from '../../../store/schema.ts';
import { DomainError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { assertMayIssueForOrganization } from './organization.ts';
import { parseScopes } from './scopes.ts';
import { sha256Hex } from './secrets.ts';

export interface CreateCredentialInput {
  /** The owner (user credential) or creator (organization credential). */
  userId: string;
  /** Organization-owned when set: the user must be its Owner or Admin; plan enterprise or partner. */
  orgId?: string | null;
  /** Scope list (see parseScopes); default full access. */
  scopes?: string | readonly string[] | null;
  name?: string;
  /** `config.limits.maxCredentialsPerUser` (default 20). */
  maxPerUser?: number;
}

/** Stores a new credential whose secret `makeSecret` draws (again on a prefix collision). */
export async function issueCredential(
  db: Kysely<Database>,
  kind: CredentialKind,
  input: CreateCredentialInput,
  makeSecret: () => { prefix: string; secret: string },
): Promise<{ secret: string; prefix: string; credential: CredentialRecord }> {
  const scopes = parseScopes(input.scopes ?? undefined);
  const name = (input.name ?? '').trim() || (kind === 'token' ? 'API token' : 'API key');
  if (name.length > 200) throw new DomainError('INVALID_ARGS', 'name: at most 200 characters');
  const max = input.maxPerUser ?? 20;
  for (let attempt = 0; ; attempt++) {
    const { prefix, secret } = makeSecret();
    try {
      return await inTransaction(db, async (trx) => {
        // Serialise concurrent creations for one user (SQLite: BEGIN IMMEDIATE already does).
        let q = trx.selectFrom('users').selectAll().where('id', '=', input.userId);
        if (dialectOf(trx) === 'postgres') q = q.forUpdate();
        const user = await q.executeTakeFirst();
        if (!user) throw new DomainError('NOT_FOUND', `no user ${JSON.stringify(input.userId)}`);
        if (user.status === 'suspended') throw new DomainError('FORBIDDEN', `${user.email} is suspended`);
        const orgId = input.orgId ?? null;
        if (orgId !== null) await assertMayIssueForOrganization(trx, user, orgId);
        const count = await countActiveCredentialsOfUser(trx, user.id);
        if (count >= max) {
          throw new DomainError('CREDENTIAL_LIMIT_REACHED', `${user.email} already has ${count} credentials (maximum ${max}); revoke one first`);
        }
        const credential = await insertCredential(trx, {
          id: newId(),
          kind,
          user_id: user.id,
          org_id: orgId,
          name,
          prefix,
          secret_hash: sha256Hex(secret),
          scopes: JSON.stringify(scopes),
          created: nowIso(),
          last_used_at: null,
          revoked_at: null,
        });
        return { secret, prefix, credential };
      });
    } catch (err) {
      // A display-prefix collision (1 in 2^47 per pair): draw a new secret.
      if (isUniqueViolation(err) && attempt < 5) continue;
      throw err;
    }
  }
}
