/** JSON shapes printed by the CLI (never secrets' hashes). */
import type { MembershipRecord, OrganizationRecord } from '../store/organizations.ts';
import type { UserRecord } from '../store/users.ts';

export function userJson(u: UserRecord) {
  return { _id: u.id, email: u.email, name: u.name, plan: u.plan, status: u.status, kind: u.kind, created: u.created, modified: u.modified };
}

export function orgJson(o: OrganizationRecord) {
  return { _id: o.id, name: o.name, plan: o.plan, createdBy: o.created_by, created: o.created, modified: o.modified };
}

export function membershipJson(m: MembershipRecord, user?: UserRecord) {
  return { orgId: m.org_id, userId: m.user_id, ...(user ? { email: user.email } : {}), role: m.role, created: m.created };
}
