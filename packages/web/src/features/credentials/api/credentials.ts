/** API credentials: the list (yours, and the organization's for Owners and Admins), the scopes, creating a token (shown once) and revoking. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { keys } from '../../../api/keys.ts';
import { reported } from '../../../api/outcomes.ts';
import type { CreateCredentialInput, CreatedCredential, Credential, CredentialList, ScopeList } from '../../../api/types.ts';

export function useCredentials() {
  return useQuery({ queryKey: keys.credentials, queryFn: ({ signal }) => api.get<CredentialList>('/app/api/credentials', signal) });
}

export function useScopes() {
  return useQuery({ queryKey: keys.scopes, queryFn: ({ signal }) => api.get<ScopeList>('/app/api/scopes', signal), staleTime: Infinity });
}

export function useCreateCredential() {
  const qc = useQueryClient();
  return useMutation(reported({
    mutationFn: (b: CreateCredentialInput) => api.post<CreatedCredential>('/app/api/credentials', b),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.credentials }),
    success: (r) => `Token “${r.credential.name}” created.`,
  }));
}

export function useRevokeCredential() {
  const qc = useQueryClient();
  return useMutation(reported({
    mutationFn: (c: Credential) => api.del(`/app/api/credentials/${encodeURIComponent(c.id)}`),
    onSettled: () => qc.invalidateQueries({ queryKey: keys.credentials }),
    success: (_r, c) => `Revoked “${c.name || c.prefix}”.`,
    failure: 'Could not revoke',
  }));
}
