/**
 * Your networks: the list, one network, its settings, shares and deletion, and importing a file. Each
 * mutation invalidates what it changes (the lists, the network, the account's counts).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { keys } from '../../../api/keys.ts';
import type { ImportedNetwork, NetworkDetail, NetworkList, NetworkPatch, ShareInput, Shares } from '../../../api/types.ts';

const enc = encodeURIComponent;

export function useNetworks(sort: 'modified' | 'name') {
  return useQuery({ queryKey: keys.networks(sort), queryFn: ({ signal }) => api.get<NetworkList>(`/app/api/networks?sort=${sort}`, signal) });
}

export function useNetwork(id: string) {
  return useQuery({ queryKey: keys.network(id), queryFn: ({ signal }) => api.get<NetworkDetail>(`/app/api/networks/${enc(id)}`, signal) });
}

export function useUpdateNetwork(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: NetworkPatch) => api.patch(`/app/api/networks/${enc(id)}`, b),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: keys.network(id) }), qc.invalidateQueries({ queryKey: keys.networksAll }), qc.invalidateQueries({ queryKey: keys.account })]),
  });
}

export function useDeleteNetwork(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.del(`/app/api/networks/${enc(id)}`),
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
    put: useMutation({ mutationFn: (b: ShareInput) => api.put<Shares>(`/app/api/networks/${enc(id)}/shares`, { email: b.email, permission: b.permission }), onSuccess: done }),
    remove: useMutation({ mutationFn: (email: string) => api.del<Shares>(`/app/api/networks/${enc(id)}/shares/${enc(email)}`), onSuccess: done }),
  };
}

/** Import a file (multipart: `file`, optional `nodes`, name, description, status, directed); lists and counts are read again. */
export function useImportNetwork() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (form: FormData) => api.upload<ImportedNetwork>('/app/api/networks/import', form),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: keys.networksAll }), qc.invalidateQueries({ queryKey: keys.account })]),
  });
}
