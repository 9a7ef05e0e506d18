/**
 * Signing in and out, and the one-time links (invitation, password reset): the hooks the sign-in and link
 * pages and the header's sign-out call. Sign-in and link redemption answer a 401 themselves (wrong
 * password, used link), so they tell the central handler (api/outcomes.ts) to leave it to them.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { keys } from '../../../api/keys.ts';
import { reported } from '../../../api/outcomes.ts';
import { adoptSession, signedOut } from '../../../api/session.ts';
import type { InvitationAccepted, LinkInfo, LinkRedeemInput, Session, SignedOut, SignInInput } from '../../../api/types.ts';

const enc = encodeURIComponent;

export function useSignIn() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: SignInInput) => api.post<Session>('/app/api/session', b),
    meta: { ownsUnauthenticated: true },
    onSuccess: (s) => adoptSession(qc, s),
  });
}

export function useSignOut() {
  const qc = useQueryClient();
  return useMutation(reported({
    mutationFn: () => api.del<SignedOut>('/app/api/session'),
    onSettled: () => signedOut(qc),
    // signed out here either way; the server's session ends with the request or by expiry
    success: 'Signed out.',
    failure: 'The server did not confirm the sign-out',
  }));
}

export function useLink(token: string) {
  return useQuery({ queryKey: keys.link(token), queryFn: ({ signal }) => api.get<LinkInfo>(`/app/api/links/${enc(token)}`, signal), retry: false });
}

/** Accept an invitation as the signed-in account; everything cached may have changed (organization, role). */
export function useAcceptInvitation(token: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<InvitationAccepted>(`/app/api/links/${enc(token)}/accept`),
    onSuccess: () => qc.invalidateQueries(),
  });
}

/** Redeem a link with a new password: the answer is a new session. */
export function useRedeemLink(token: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: LinkRedeemInput) => api.post<Session>(`/app/api/links/${enc(token)}`, b),
    meta: { ownsUnauthenticated: true },
    onSuccess: (s) => adoptSession(qc, s),
  });
}
