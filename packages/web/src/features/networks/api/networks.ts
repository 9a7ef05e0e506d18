/**
 * Your networks: the list, one network, its settings, shares and deletion, and importing a file. Each
 * mutation invalidates what it changes (the lists, the network, the account's counts).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { keys } from '../../../api/keys.ts';
import { reported } from '../../../api/outcomes.ts';
import { shareSaid } from '../../../api/shares.ts';
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
  return useMutation(reported({
    mutationFn: (b: NetworkPatch) => api.patch(`/app/api/networks/${enc(id)}`, b),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: keys.network(id) }), qc.invalidateQueries({ queryKey: keys.networksAll }), qc.invalidateQueries({ queryKey: keys.account })]),
    success: 'Saved.',
  }));
}

/** Deletes the network it is given (its name is said in the result). */
export function useDeleteNetwork() {
  const qc = useQueryClient();
  return useMutation(reported({
    mutationFn: (n: Pick<NetworkDetail, '_id' | 'name'>) => api.del(`/app/api/networks/${enc(n._id)}`),
    onSuccess: (_r, n) => {
      qc.removeQueries({ queryKey: keys.network(n._id) });
      return Promise.all([qc.invalidateQueries({ queryKey: keys.networksAll }), qc.invalidateQueries({ queryKey: keys.account })]);
    },
    success: (_r, n) => `Deleted “${n.name}”.`,
    failure: 'Could not delete',
  }));
}

export function useShare(id: string) {
  const qc = useQueryClient();
  const done = () => qc.invalidateQueries({ queryKey: keys.network(id) });
  const put = (b: ShareInput) => api.put<Shares>(`/app/api/networks/${enc(id)}/shares`, { email: b.email, permission: b.permission });
  return {
    /** A new share (the form). */
    add: useMutation(reported({ mutationFn: put, onSuccess: done, success: shareSaid.shared })),
    /** Another permission for a listed share. */
    change: useMutation(reported({ mutationFn: put, onSuccess: done, success: shareSaid.changed, failure: true })),
    remove: useMutation(reported({ mutationFn: (email: string) => api.del<Shares>(`/app/api/networks/${enc(id)}/shares/${enc(email)}`), onSuccess: done, success: (_r, email) => shareSaid.removed(email), failure: true })),
  };
}

/** Import a file (multipart: `file`, optional `nodes`, name, description, status, directed); lists and counts are read again. */
export function useImportNetwork() {
  const qc = useQueryClient();
  return useMutation(reported({
    mutationFn: (form: FormData) => api.upload<ImportedNetwork>('/app/api/networks/import', form),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: keys.networksAll }), qc.invalidateQueries({ queryKey: keys.account })]),
    success: (n) => `Imported “${n.name}”: ${n.nodeCount.toLocaleString('en-US')} nodes, ${n.edgeCount.toLocaleString('en-US')} edges.`,
  }));
}
