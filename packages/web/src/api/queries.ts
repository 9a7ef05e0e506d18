/**
 * TanStack Query keys and hooks over the `/app/api` endpoints. Mutations invalidate the queries whose
 * answers they change, so every page shows the server's state after an action.
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api, ApiError, setCsrfToken } from './client.ts';
import { sessionStarted } from './outcomes.ts';
import type { Account, Credential, LinkInfo, NetworkDetail, NetworkList, PublicNetworks, Session, Share, ShareInput, WebJob, WebJobList, WebNetworkValue, WebSession } from './types.ts';

export const keys = {
  session: ['session'] as const,
  account: ['account'] as const,
  sessions: ['account', 'sessions'] as const,
  networks: (sort: string) => ['networks', sort] as const,
  networksAll: ['networks'] as const,
  network: (id: string) => ['network', id] as const,
  publicNetworks: (q: string, offset: number) => ['public-networks', q, offset] as const,
  credentials: ['credentials'] as const,
  scopes: ['scopes'] as const,
  link: (token: string) => ['link', token] as const,
  jobs: ['jobs'] as const,
};

/** The signed-in session, or null when signed out. */
export async function fetchSession(): Promise<Session | null> {
  try {
    const s = await api.get<Session>('/app/api/session');
    setCsrfToken(s.csrfToken);
    return s;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 404)) {
      setCsrfToken(null);
      return null;
    }
    throw err;
  }
}

export function useSession() {
  return useQuery({ queryKey: keys.session, queryFn: fetchSession, staleTime: 60_000 });
}

/** After sign-in / link redemption: the answer is the session; everything cached before belongs to nobody. */
export function adoptSession(qc: QueryClient, s: Session): void {
  setCsrfToken(s.csrfToken);
  sessionStarted();
  qc.removeQueries({ predicate: (q) => q.queryKey[0] !== 'session' });
  qc.setQueryData(keys.session, s);
}

export function signedOut(qc: QueryClient): void {
  setCsrfToken(null);
  qc.removeQueries({ predicate: (q) => q.queryKey[0] !== 'session' });
  qc.setQueryData(keys.session, null);
}

export interface SignInBody {
  email: string;
  password: string;
  totp?: string;
  recoveryCode?: string;
}

export function useSignIn() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: SignInBody) => api.post<Session>('/app/api/session', b),
    meta: { ownsUnauthenticated: true },
    onSuccess: (s) => adoptSession(qc, s),
  });
}

export function useSignOut() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.del<{ signedOut: true }>('/app/api/session'),
    onSettled: () => signedOut(qc),
  });
}

export function useNetworks(sort: 'modified' | 'name') {
  return useQuery({ queryKey: keys.networks(sort), queryFn: ({ signal }) => api.get<NetworkList>(`/app/api/networks?sort=${sort}`, signal) });
}

export function useNetwork(id: string) {
  return useQuery({ queryKey: keys.network(id), queryFn: ({ signal }) => api.get<NetworkDetail>(`/app/api/networks/${encodeURIComponent(id)}`, signal) });
}

export function useUpdateNetwork(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: { name?: string; description?: string; status?: 'Public' | 'Private' }) => api.patch(`/app/api/networks/${encodeURIComponent(id)}`, b),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: keys.network(id) }), qc.invalidateQueries({ queryKey: keys.networksAll }), qc.invalidateQueries({ queryKey: keys.account })]),
  });
}

export function useDeleteNetwork(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.del(`/app/api/networks/${encodeURIComponent(id)}`),
    onSuccess: () => {
      qc.removeQueries({ queryKey: keys.network(id) });
      return Promise.all([qc.invalidateQueries({ queryKey: keys.networksAll }), qc.invalidateQueries({ queryKey: keys.account })]);
    },
  });
}

export function useShare(id: string) {
  const qc = useQueryClient();
  const done = () => qc.invalidateQueries({ queryKey: keys.network(id) });
  return {
    put: useMutation({ mutationFn: (b: ShareInput) => api.put<{ shares: Share[] }>(`/app/api/networks/${encodeURIComponent(id)}/shares`, { email: b.email, permission: b.permission }), onSuccess: done }),
    remove: useMutation({ mutationFn: (email: string) => api.del<{ shares: Share[] }>(`/app/api/networks/${encodeURIComponent(id)}/shares/${encodeURIComponent(email)}`), onSuccess: done }),
  };
}

export function usePublicNetworks(q: string, offset: number, limit: number) {
  return useQuery({
    queryKey: keys.publicNetworks(q, offset),
    queryFn: ({ signal }) => api.get<PublicNetworks>(`/api/v2/networks/public?${new URLSearchParams({ q, limit: String(limit), offset: String(offset) })}`, signal),
    placeholderData: (prev) => prev,
  });
}

export function useCredentials() {
  return useQuery({ queryKey: keys.credentials, queryFn: ({ signal }) => api.get<{ credentials: Credential[] }>('/app/api/credentials', signal) });
}

export function useScopes() {
  return useQuery({ queryKey: keys.scopes, queryFn: ({ signal }) => api.get<{ resources: string[]; scopes: string[] }>('/app/api/scopes', signal), staleTime: Infinity });
}

export function useAccount() {
  return useQuery({ queryKey: keys.account, queryFn: ({ signal }) => api.get<Account>('/app/api/account', signal) });
}

export function useWebSessions() {
  return useQuery({ queryKey: keys.sessions, queryFn: ({ signal }) => api.get<{ sessions: WebSession[] }>('/app/api/account/sessions', signal) });
}

export function useLink(token: string) {
  return useQuery({ queryKey: keys.link(token), queryFn: ({ signal }) => api.get<LinkInfo>(`/app/api/links/${encodeURIComponent(token)}`, signal), retry: false });
}

/** How often the jobs are read again while one of them is queued or running (else every 10 s: jobs also start elsewhere). */
export const JOB_POLL_MS = 1000;
const JOB_IDLE_POLL_MS = 10_000;

const active = (j: WebJob) => j.status === 'queued' || j.status === 'running';

/** Your metric jobs, newest first; read again every second while something runs, every 10 s otherwise. */
export function useJobs() {
  return useQuery({
    queryKey: keys.jobs,
    queryFn: ({ signal }) => api.get<WebJobList>('/app/api/jobs?limit=100', signal),
    refetchInterval: (q) => (q.state.data?.jobs.some(active) ? JOB_POLL_MS : JOB_IDLE_POLL_MS),
  });
}

export function useCancelJob() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del<WebJob>(`/app/api/jobs/${encodeURIComponent(id)}`),
    onSettled: () => qc.invalidateQueries({ queryKey: keys.jobs }),
  });
}

/** Computes a network-level metric now (its one number, parameters and time). */
export function useComputeNetworkValue(networkId: string) {
  return useMutation({
    mutationFn: (metricId: string) => api.post<WebNetworkValue>(`/app/api/networks/${encodeURIComponent(networkId)}/metrics/${encodeURIComponent(metricId)}/value`, {}),
  });
}

/** Runs a metric on a network as a job (202); the jobs list is read again at once. */
export function useStartMetricJob(networkId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (metricId: string) => api.post<WebJob>(`/app/api/networks/${encodeURIComponent(networkId)}/metrics/${encodeURIComponent(metricId)}`, {}),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.jobs }),
  });
}
