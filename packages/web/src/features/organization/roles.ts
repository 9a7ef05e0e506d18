/**
 * Who may set which role (docs/spec/decisions.md, the server's domain/organizations/members.ts and
 * domain/identity/user-links.ts enforce it; the console offers only what the server would accept):
 * Owners and Admins manage members; only an Owner gives or takes the Owner role — so an Admin neither
 * changes an Owner's role nor makes or invites anyone Owner. Nobody changes their own role here.
 */
import type { OrgRole } from '../../api/types.ts';
import { ORG_ROLES } from './api/organization.ts';

/** The roles `actor` may give `member` (`null`: someone being invited); empty when the role is not theirs to change. */
export function settableRoles(actor: OrgRole | undefined, member: OrgRole | null): readonly OrgRole[] {
  if (actor === 'Owner') return ORG_ROLES;
  if (actor !== 'Admin' || member === 'Owner') return [];
  return ORG_ROLES.filter((r) => r !== 'Owner');
}
