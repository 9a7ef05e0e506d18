/**
 * Explore: a viewer session for a network (owner mode for your own and shared networks, read-only for
 * Discover) and the launch tokens the embed SDK asks for (docs/web-app.md "Explore").
 */
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { keys } from '../../../api/keys.ts';
import type { ExploreLaunchToken, ExploreStarted } from '../../../api/types.ts';

const enc = encodeURIComponent;

/** A new viewer session each time the page opens (never cached: each launch token is single use). */
export function useExploreSession(id: string, isPublic: boolean) {
  return useQuery({
    queryKey: keys.explore(isPublic ? 'public' : 'own', id),
    queryFn: () => api.post<ExploreStarted>(isPublic ? `/app/api/public-networks/${enc(id)}/explore` : `/app/api/networks/${enc(id)}/explore`),
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnMount: 'always',
  });
}

/** A fresh launch token for a viewer session, for the SDK's `getLaunchToken`. */
export async function exploreLaunchToken(sessionId: string): Promise<string> {
  return (await api.post<ExploreLaunchToken>(`/app/api/explore/${enc(sessionId)}/launch-tokens`)).launchToken;
}
