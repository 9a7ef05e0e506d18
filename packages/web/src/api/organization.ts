/**
 * The organization console's data: types of `/app/api/organization/...` answers (docs/organization-console.md)
 * and the TanStack Query hooks over them. Every mutation invalidates what it changes, so the pages always
 * show the server's state (seats, sessions, audit) after an action.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client.ts';

export type OrgRole = 'Owner' | 'Admin' | 'Standard User' | 'Access-only' | 'Simplified Access-only';
export const ORG_ROLES: OrgRole[] = ['Owner', 'Admin', 'Standard User', 'Access-only', 'Simplified Access-only'];

export interface OrgOverview {
  _id: string;
  name: string;
  plan: string;
  created: string;
  memberCount: number;
  managedUserCount: number;
  networkCounts: { public: number; private: number };
  embedding: { enabled: boolean; seats: number; seatsUsed: number };
  role: OrgRole;
  canManage: boolean;
  requireMfa: boolean;
}

export interface OrgMember {
  _id: string;
  name: string;
  email: string;
  role: OrgRole;
  status: 'active' | 'suspended' | 'unverified';
  joined: string;
  embedded: boolean;
  externalId?: string;
  embedStatus?: string;
}

export interface EmbedSettings {
  enabled: boolean;
  seats: number;
  seatsUsed: number;
  allowedOrigins: string[];
  allOwnedNetworks: boolean;
  embeddableNetworkIds: string[];
  dataDisclosureAccepted: boolean;
  dataDisclosureAcceptedAt: string | null;
}

export interface ChatSettings {
  aiChat: boolean;
  allowance: { limit: number; used: number; resetsAt: string };
}

export interface EmbeddingConsole {
  settings: EmbedSettings;
  chat: ChatSettings;
  disclosureText: string;
}

export interface NetworkChoice {
  _id: string;
  name: string;
  status: string;
  owner: { _id: string; name: string };
  nodeCount: number;
  edgeCount: number;
  modified: string;
  embeddable: boolean;
  listed: boolean;
}

export interface ManagedUser {
  externalId: string;
  displayName: string;
  status: 'active' | 'deactivated';
  chatAccess: string;
  orgPermission: string;
  readOnly: boolean;
  networks: { networkId: string; name: string; permission: 'View' | 'Edit' }[];
  created: string;
  modified: string;
  lastActiveAt: string | null;
  deactivatedAt: string | null;
}

export interface LiveSession {
  sessionId: string;
  user: { externalId: string; displayName: string };
  network: { _id: string; name: string };
  origin: string;
  created: string;
  expiresAt: string;
  lastActivityAt: string;
}

export interface AuditEntry {
  id: string;
  at: string;
  actor: { kind: string; id: string };
  action: string;
  target: string | null;
  details: Record<string, unknown>;
}

export interface TrySession {
  sessionId: string;
  embedUrl: string;
  expiresAt: string;
  launchToken: string;
  origin: string;
  previewAvailable: boolean;
  snippet: { backend: string; page: string };
}

const O = '/app/api/organization';
const E = `${O}/embedding`;
export const orgPaths = { O, E };

export const orgKeys = {
  all: ['organization'] as const,
  overview: ['organization', 'overview'] as const,
  members: ['organization', 'members'] as const,
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
  return useQuery({ queryKey: orgKeys.members, queryFn: ({ signal }) => api.get<{ members: OrgMember[] }>(`${O}/members`, signal) });
}
export function useEmbeddingConsole(enabled = true) {
  return useQuery({ queryKey: orgKeys.embedding, queryFn: ({ signal }) => api.get<EmbeddingConsole>(E, signal), enabled });
}
export function useNetworkChoices(enabled = true) {
  return useQuery({ queryKey: orgKeys.networks, queryFn: ({ signal }) => api.get<{ allOwnedNetworks: boolean; networks: NetworkChoice[] }>(`${E}/networks`, signal), enabled });
}
export function useManagedUsers(status: '' | 'active' | 'deactivated', enabled = true) {
  return useQuery({
    queryKey: orgKeys.users(status),
    queryFn: ({ signal }) => api.get<{ total: number; users: ManagedUser[] }>(`${E}/users?limit=500${status ? `&status=${status}` : ''}`, signal),
    enabled,
  });
}
export function useLiveSessions(enabled = true) {
  return useQuery({
    queryKey: orgKeys.sessions,
    queryFn: ({ signal }) => api.get<{ total: number; sessions: LiveSession[] }>(`${E}/sessions?limit=500`, signal),
    enabled,
    refetchInterval: 30_000,
  });
}
export function useAudit(query: string) {
  return useQuery({ queryKey: orgKeys.audit(query), queryFn: ({ signal }) => api.get<{ total: number; offset: number; limit: number; entries: AuditEntry[] }>(`${E}/audit?${query}`, signal) });
}

/** A mutation that refreshes the whole console afterwards (counts, seats, sessions and the audit log move together). */
export function useOrgMutation<A, R>(fn: (a: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => qc.invalidateQueries({ queryKey: orgKeys.all }) });
}
