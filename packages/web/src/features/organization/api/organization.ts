/**
 * The organization console's data (docs/organization-console.md): the TanStack Query hooks over
 * `/app/api/organization/...` — the overview and members (this file) and the embedding console
 * (embedding.ts). Every mutation refreshes the whole console afterwards, so the pages always show the
 * server's state (seats, sessions, audit) after an action.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { reported, type Outcome } from '../../../api/outcomes.ts';
import type { CreatedLink, InvitationInput, LeftOrganization, OrgMember, OrgMemberList, OrgOverview, OrgRole, OrgSettings, PendingInvitation, PendingInvitationList } from '../../../api/types.ts';

export type { CreatedLink, OrgMember, OrgOverview, OrgRole, PendingInvitation } from '../../../api/types.ts';

/** Every role, in the order the role pickers list them (the contract's OrgRole). */
export const ORG_ROLES: readonly OrgRole[] = ['Owner', 'Admin', 'Standard User', 'Access-only', 'Simplified Access-only'];

const O = '/app/api/organization';
const E = `${O}/embedding`;
export const orgPaths = { O, E };
const enc = encodeURIComponent;

export const orgKeys = {
  all: ['organization'] as const,
  overview: ['organization', 'overview'] as const,
  members: ['organization', 'members'] as const,
  invitations: ['organization', 'invitations'] as const,
  embedding: ['organization', 'embedding'] as const,
  networks: ['organization', 'embedding', 'networks'] as const,
  users: (status: string) => ['organization', 'embedding', 'users', status] as const,
  sessions: ['organization', 'embedding', 'sessions'] as const,
  audit: (q: string) => ['organization', 'audit', q] as const,
  presets: (id: string) => ['organization', 'embedding', 'presets', id] as const,
};

export function useOrgOverview() {
  return useQuery({ queryKey: orgKeys.overview, queryFn: ({ signal }) => api.get<OrgOverview>(O, signal) });
}
export function useOrgMembers() {
  return useQuery({ queryKey: orgKeys.members, queryFn: ({ signal }) => api.get<OrgMemberList>(`${O}/members`, signal) });
}

/** Pending invitations (Owners and Admins; `enabled` false for the others, who may not list them). */
export function usePendingInvitations(enabled: boolean) {
  return useQuery({ queryKey: orgKeys.invitations, enabled, queryFn: ({ signal }) => api.get<PendingInvitationList>(`${O}/invitations`, signal) });
}
export function useRevokeInvitation() {
  return useOrgMutation((i: PendingInvitation) => api.del<PendingInvitationList>(`${O}/invitations/${enc(i.id)}`), {
    success: (_r, i) => `The invitation of ${i.email} is revoked; its link no longer works.`,
  });
}

/**
 * A mutation that refreshes the whole console afterwards (counts, seats, sessions and the audit log move
 * together), with the toasts of its outcome (api/outcomes.ts).
 */
export function useOrgMutation<A, R>(fn: (a: A) => Promise<R>, outcome: Outcome<R, A> = {}) {
  const qc = useQueryClient();
  return useMutation(reported({ mutationFn: fn, onSettled: () => qc.invalidateQueries({ queryKey: orgKeys.all }), ...outcome }));
}

export function useSetMemberRole() {
  return useOrgMutation(({ id, role }: { id: string; role: OrgRole }) => api.patch<OrgMember>(`${O}/members/${enc(id)}`, { role }), {
    success: (r) => `${r.name} is now ${r.role}.`,
    failure: true,
  });
}
export function useSuspendMember() {
  return useOrgMutation((id: string) => api.post<OrgMember>(`${O}/members/${enc(id)}/suspend`), { success: (r) => `${r.name} is suspended.`, failure: true });
}
export function useReinstateMember() {
  return useOrgMutation((id: string) => api.post<OrgMember>(`${O}/members/${enc(id)}/reinstate`), { success: (r) => `${r.name} is active again.`, failure: true });
}
export function useRequireMfa() {
  return useOrgMutation((on: boolean) => api.put<OrgSettings>(`${O}/settings`, { requireMfa: on }), {
    success: (r) => (r.requireMfa ? 'Two-factor authentication is now required: members enrol at their next sign-in.' : 'Two-factor authentication is no longer required.'),
    failure: true,
  });
}
/** Leaving changes what every page shows (networks, credentials, the navigation): everything is read again. */
export function useLeaveOrganization() {
  const qc = useQueryClient();
  return useMutation(reported({
    mutationFn: (_o: { name: string } | undefined) => api.post<LeftOrganization>(`${O}/leave`),
    onSuccess: () => qc.invalidateQueries(),
    success: (_r, o) => `You left ${o?.name ?? 'the organization'}.`,
    failure: true,
  }));
}
export function useInvite() {
  return useOrgMutation((b: InvitationInput) => api.post<CreatedLink>(`${O}/invitations`, b));
}
