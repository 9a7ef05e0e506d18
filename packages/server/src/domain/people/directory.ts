/**
 * Whose directory a request works in (docs/spec/decisions.md §9, "Directory"): the organization's for
 * its members and its organization credentials, the user's own for a user without an organization.
 * Owners, Admins and Standard Users manage it; Access-only members cannot use it at all (403). Another
 * directory's rows are never found (404): every query is scoped by the key returned here.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.ts';
import { insertAudit } from '../../store/embed-audit.ts';
import type { Principal } from '../identity/credentials/principal.ts';
import { DomainError } from '../errors.ts';

export interface Directory {
  /** `org:<id>` or `user:<id>` (the `dir` column of every directory and survey row). */
  key: string;
  orgId: string | null;
  /** The user acting (the credential's user; an organization credential's creator). */
  userId: string;
  /** The principal acted as (kept for survey ownership and visibility). */
  principal: Principal;
}

const MANAGING_ROLES = new Set(['Owner', 'Admin', 'Standard User']);

/** The caller's directory; 403 FORBIDDEN for Access-only members. */
export function directoryOf(p: Principal): Directory {
  if (p.orgId) return { key: `org:${p.orgId}`, orgId: p.orgId, userId: p.userId, principal: p };
  if (p.membership) {
    if (!MANAGING_ROLES.has(p.membership.role)) {
      throw new DomainError('FORBIDDEN', `people and surveys are managed by Owners, Admins and Standard Users of the organization; your role is ${p.membership.role}`);
    }
    return { key: `org:${p.membership.org_id}`, orgId: p.membership.org_id, userId: p.userId, principal: p };
  }
  return { key: `user:${p.userId}`, orgId: null, userId: p.userId, principal: p };
}

let seq = 0;

/**
 * Appends to the audit log of the directory's organization (the one the organization console shows).
 * Ids and counts only, never answers. A personal directory (a user without an organization) has no
 * audit log: the log belongs to organizations.
 */
export async function auditDirectory(db: Kysely<Database>, dir: Directory, action: string, target: string | null, details: Record<string, unknown> = {}): Promise<void> {
  if (!dir.orgId) return;
  const now = Date.now();
  seq = (seq + 1) & 0xffff;
  await insertAudit(db, {
    id: now.toString(16).padStart(12, '0') + seq.toString(16).padStart(4, '0') + randomBytes(4).toString('hex'),
    org_id: dir.orgId,
    at: new Date(now).toISOString(),
    actor_kind: dir.principal.via === 'session' ? 'user' : 'credential',
    actor_id: dir.principal.via === 'session' ? dir.userId : dir.principal.credentialId,
    action,
    target,
    details: JSON.stringify(details),
  });
}
