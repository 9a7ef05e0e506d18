/** Discover: the public networks, searched and paged (the public API's list, no sign-in needed). */
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { keys } from '../../../api/keys.ts';
import type { PublicNetworks } from '../../../api/types.ts';

export function usePublicNetworks(q: string, offset: number, limit: number) {
  return useQuery({
    queryKey: keys.publicNetworks(q, offset),
    queryFn: ({ signal }) => api.get<PublicNetworks>(`/api/v2/networks/public?${new URLSearchParams({ q, limit: String(limit), offset: String(offset) })}`, signal),
    placeholderData: (prev) => prev,
  });
}
