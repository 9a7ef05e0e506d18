/**
 * The signed-in session, which every part of the app reads (the shell's navigation, each route's access
 * rule, the central 401 handling in outcomes.ts): read it, adopt a new one, drop it.
 */
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api, ApiError, setCsrfToken } from './client.ts';
import { keys } from './keys.ts';
import { sessionStarted } from './outcomes.ts';
import type { Session } from './types.ts';

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

/** Signed out (here, elsewhere, or by expiry): nothing cached survives. */
export function signedOut(qc: QueryClient): void {
  setCsrfToken(null);
  qc.removeQueries({ predicate: (q) => q.queryKey[0] !== 'session' });
  qc.setQueryData(keys.session, null);
}

/** Read the session again (after MFA was turned on or off: the access rule and the header follow it). */
export function useRefreshSession(): () => Promise<void> {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: keys.session });
}
