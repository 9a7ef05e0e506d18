/**
 * Organization-owned credentials (docs/spec/decisions.md §2): only an Owner or Admin of the
 * organization may create one, and only on an enterprise or partner plan.
 */
import type { Kysely } from 'kysely';
import { getMembershipOfUser, getOrganizationById } from '../../../store/organizations.ts';
import type { Database } from '../../../store/schema.ts';
import type { UserRecord } from '../../../store/users.ts';
import { DomainError } from '../../errors.ts';
import { METRIC_PLANS, isOrgAdmin } from '../users.ts';

/** Throws NOT_FOUND, FORBIDDEN or PLAN_REQUIRED unless `user` may create a credential owned by `orgId`. */
export async function assertMayIssueForOrganization(trx: Kysely<Database>, user: UserRecord, orgId: string): Promise<void> {
  const org = await getOrganizationById(trx, orgId);
  if (!org) throw new DomainError('NOT_FOUND', `no organization ${JSON.stringify(orgId)}`);
  const m = await getMembershipOfUser(trx, user.id);
  if (!m || m.org_id !== orgId || !isOrgAdmin(m)) {
    throw new DomainError('FORBIDDEN', `${user.email} is not an Owner or Admin of organization ${org.name}`);
  }
  if (!METRIC_PLANS.includes(org.plan)) {
    throw new DomainError('PLAN_REQUIRED', `organization credentials need an enterprise or partner plan; ${org.name} is on ${org.plan}`);
  }
}
