/**
 * Your account: plan and usage, password, two-factor authentication (set-up, enable, disable, new recovery
 * codes) and the web sessions (end one, or all). Each mutation invalidates what it changes.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { keys } from '../../../api/keys.ts';
import { reported } from '../../../api/outcomes.ts';
import { signedOut } from '../../../api/session.ts';
import type { Account, AccountName, MfaEnableInput, MfaSetupInfo, PasswordChange, RecoveryCodes, WebSessionList } from '../../../api/types.ts';

export function useAccount() {
  return useQuery({ queryKey: keys.account, queryFn: ({ signal }) => api.get<Account>('/app/api/account', signal) });
}

export function useWebSessions() {
  return useQuery({ queryKey: keys.sessions, queryFn: ({ signal }) => api.get<WebSessionList>('/app/api/account/sessions', signal) });
}

/** Changing the display name: the account and the session (the header shows the name) are read again. */
export function useRenameAccount() {
  const qc = useQueryClient();
  return useMutation(reported({
    mutationFn: (name: string) => api.patch<AccountName>('/app/api/account', { name }),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: keys.account }), qc.invalidateQueries({ queryKey: keys.session })]),
    success: (r) => `Your name is now ${r.name}.`,
  }));
}

/** Changing the password ends the other sessions: the list is read again. */
export function useChangePassword() {
  const qc = useQueryClient();
  return useMutation(reported({
    mutationFn: (b: PasswordChange) => api.post('/app/api/account/password', b),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.sessions }),
    success: 'Password changed. Your other sessions were signed out.',
  }));
}

export function useEndSession() {
  const qc = useQueryClient();
  return useMutation(reported({
    mutationFn: (id: string) => api.del(`/app/api/account/sessions/${encodeURIComponent(id)}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.sessions }),
    success: 'Session signed out.',
    failure: true,
  }));
}

/** Every session ends, this one too: signed out here at once. */
export function useSignOutEverywhere() {
  const qc = useQueryClient();
  return useMutation(reported({
    mutationFn: () => api.post('/app/api/account/sessions/sign-out-everywhere'),
    onSuccess: () => signedOut(qc),
    success: 'Signed out of every session.',
    failure: true,
  }));
}

export function useMfaSetup() {
  return useMutation({ mutationFn: () => api.post<MfaSetupInfo>('/app/api/account/mfa/setup') });
}

export function useEnableMfa() {
  return useMutation({ mutationFn: (b: MfaEnableInput) => api.post<RecoveryCodes>('/app/api/account/mfa/enable', b) });
}

/** New recovery codes (the old ones stop working); the account's count of codes left is read again. */
export function useNewRecoveryCodes() {
  const qc = useQueryClient();
  return useMutation(reported({
    mutationFn: (password: string) => api.post<RecoveryCodes>('/app/api/account/mfa/recovery-codes', { password }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.account }),
    success: 'New recovery codes made; the old ones no longer work.',
  }));
}

/** Turning MFA off changes the session (`mfaEnabled`): it is read again. */
export function useDisableMfa() {
  const qc = useQueryClient();
  return useMutation(reported({
    mutationFn: (password: string) => api.post('/app/api/account/mfa/disable', { password }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.session }),
    success: 'Two-factor authentication is off.',
  }));
}
