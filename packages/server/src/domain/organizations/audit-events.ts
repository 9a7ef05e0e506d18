/**
 * Audit entries for what a person does outside the embedding console (issue 23 item 9): invitations,
 * API credentials, MFA and sharing are logged in the organization the person belongs to, with the
 * person (`user`) as the actor; someone without an organization has no organization log to write to.
 * Details carry ids, names and facts only — never a token, password, secret or code.
 * Also the console's pending invitations: listed (Owners/Admins) and revoked.
 */
import { getMembershipOfUser } from '../../store/organizations.ts';
import { listPendingInvitations, revokeInvitation } from '../../store/user-links.ts';
import { audit, type Actor, type EmbedContext } from '../embedding/context.ts';
import { DomainError } from '../errors.ts';

/** Logs `action` in the organization of `userId` (nothing when they belong to none). */
export async function auditUserEvent(ctx: EmbedContext, userId: string, action: string, target: string | null, details: Record<string, unknown> = {}): Promise<void> {
  const m = await getMembershipOfUser(ctx.db, userId);
  if (!m) return;
  await audit(ctx, m.org_id, { kind: 'user', id: userId }, action, target, details);
}

/** Logs an event in a known organization. */
export async function auditOrgEvent(ctx: EmbedContext, orgId: string, actor: Actor, action: string, target: string | null, details: Record<string, unknown> = {}): Promise<void> {
  await audit(ctx, orgId, actor, action, target, details);
}

export interface PendingInvitation {
  id: string;
  email: string;
  role: string | null;
  invitedBy: string | null;
  created: string;
  expiresAt: string;
}

/** The organization's pending invitations (id: the link's token hash, which cannot be redeemed). */
export async function pendingInvitations(ctx: EmbedContext, orgId: string): Promise<PendingInvitation[]> {
  const rows = await listPendingInvitations(ctx.db, orgId, new Date(ctx.now()).toISOString());
  return rows.map((r) => ({
    id: r.token_hash,
    email: r.email,
    role: r.role,
    invitedBy: r.inviter_email ? (r.inviter_name ? `${r.inviter_name} <${r.inviter_email}>` : r.inviter_email) : r.created_by === 'cli' ? 'command line (netloom CLI)' : null,
    created: r.created,
    expiresAt: r.expires_at,
  }));
}

/** Revokes a pending invitation: its link stops working at once (404 when there is no such pending one). */
export async function revokePendingInvitation(ctx: EmbedContext, orgId: string, actor: Actor, id: string): Promise<void> {
  const row = await revokeInvitation(ctx.db, orgId, id, new Date(ctx.now()).toISOString());
  if (!row) throw new DomainError('NOT_FOUND', 'no pending invitation with this id');
  await audit(ctx, orgId, actor, 'invitation.revoke', row.email, { role: row.role });
}
