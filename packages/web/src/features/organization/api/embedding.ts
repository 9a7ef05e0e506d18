/**
 * The embedding console's data (`/app/api/organization/embedding/...`, Owners and Admins): settings, the
 * network chooser, managed users and their grants, live sessions, the audit log, AI chat and preset
 * questions, and the try-it session. Mutations go through `useOrgMutation` (the whole console refreshes).
 */
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import type {
  AuditPage,
  ChatSettings,
  ConsoleLaunchToken,
  EmbeddingConsole,
  EmbedSettings,
  EmbedSettingsInput,
  LiveSessionPage,
  ManagedUser,
  ManagedUserList,
  NetworkChoices,
  PresetQuestions,
  SessionRevoked,
  TrySession,
} from '../../../api/types.ts';
import { orgKeys, orgPaths, useOrgMutation } from './organization.ts';

export type { EmbedSettings, LiveSession, ManagedUser, NetworkChoice, TrySession } from '../../../api/types.ts';

const E = orgPaths.E;
const enc = encodeURIComponent;

export function useEmbeddingConsole(enabled = true) {
  return useQuery({ queryKey: orgKeys.embedding, queryFn: ({ signal }) => api.get<EmbeddingConsole>(E, signal), enabled });
}
export function useNetworkChoices(enabled = true) {
  return useQuery({ queryKey: orgKeys.networks, queryFn: ({ signal }) => api.get<NetworkChoices>(`${E}/networks`, signal), enabled });
}
export function useManagedUsers(status: '' | 'active' | 'deactivated', enabled = true) {
  return useQuery({
    queryKey: orgKeys.users(status),
    queryFn: ({ signal }) => api.get<ManagedUserList>(`${E}/users?limit=500${status ? `&status=${status}` : ''}`, signal),
    enabled,
  });
}
export function useLiveSessions(enabled = true) {
  return useQuery({
    queryKey: orgKeys.sessions,
    queryFn: ({ signal }) => api.get<LiveSessionPage>(`${E}/sessions?limit=500`, signal),
    enabled,
    refetchInterval: 30_000,
  });
}
export function useAudit(query: string) {
  return useQuery({ queryKey: orgKeys.audit(query), queryFn: ({ signal }) => api.get<AuditPage>(`${E}/audit?${query}`, signal) });
}
/** A network's preset questions (read when its dialog opens; `null` id: nothing to read). */
export function usePresetQuestions(networkId: string | null) {
  return useQuery({
    queryKey: orgKeys.presets(networkId ?? ''),
    queryFn: ({ signal }) => api.get<PresetQuestions>(`${E}/networks/${enc(networkId!)}/presets`, signal),
    enabled: networkId !== null,
  });
}

/** Where the audit log is downloaded as CSV (a plain link, the session cookie goes with it). */
export const auditCsvUrl = (query: string) => `${E}/audit.csv?${query}`;

const saveSettings = (body: EmbedSettingsInput) => api.put<EmbedSettings>(`${E}/settings`, body);

/** The allowed origins (the form shows the problems of each origin in place). */
export function useSaveAllowedOrigins() {
  return useOrgMutation(saveSettings, { success: 'Allowed origins saved. Sessions on removed origins have ended.' });
}
/** Which networks are embeddable, and the data disclosure: switches, so a failure is a toast. */
export function useSaveEmbeddable() {
  return useOrgMutation(saveSettings, {
    success: (s, b) => (b.allOwnedNetworks === undefined ? null : s.allOwnedNetworks ? 'Every network owned by a member is embeddable.' : 'Only the chosen networks are embeddable.'),
    failure: true,
  });
}
export function useCreateManagedUser() {
  return useOrgMutation((b: { externalId: string; displayName: string; chatAccess: ManagedUser['chatAccess'] }) => api.put<ManagedUser>(`${E}/users/${enc(b.externalId)}`, { displayName: b.displayName, chatAccess: b.chatAccess }), {
    success: (u) => `${u.displayName} created (one seat used).`,
  });
}
export function useReactivateManagedUser() {
  return useOrgMutation((u: ManagedUser) => api.put<ManagedUser>(`${E}/users/${enc(u.externalId)}`, {}), { success: (u) => `${u.displayName} is active again (one seat used).`, failure: true });
}
export function useDeactivateManagedUser() {
  return useOrgMutation((u: ManagedUser) => api.post<ManagedUser>(`${E}/users/${enc(u.externalId)}/deactivate`), { success: (u) => `${u.displayName} is deactivated; their seat is free.`, failure: true });
}
export function useGrantNetwork() {
  return useOrgMutation((b: { externalId: string; networkId: string; permission: 'View' | 'Edit' }) => api.put<ManagedUser>(`${E}/users/${enc(b.externalId)}/networks/${enc(b.networkId)}`, { permission: b.permission }), {
    success: (u, b) => `${u.displayName} can now ${b.permission === 'Edit' ? 'edit' : 'view'} the network.`,
  });
}
export function useRemoveGrant() {
  return useOrgMutation(({ u, grant }: { u: ManagedUser; grant: ManagedUser['networks'][number] }) => api.del<ManagedUser>(`${E}/users/${enc(u.externalId)}/networks/${enc(grant.networkId)}`), {
    success: (_r, { u, grant }) => `${u.displayName} no longer sees ${grant.name}.`,
    failure: true,
  });
}
export function useRevokeLiveSession() {
  return useOrgMutation((id: string) => api.del<SessionRevoked>(`${E}/sessions/${enc(id)}`), { success: 'Session revoked: the viewer closes at its next request.', failure: true });
}
export function useSetChat() {
  return useOrgMutation((on: boolean) => api.put<ChatSettings>(`${E}/chat`, { aiChat: on }), {
    success: (_r, on) => (on ? 'AI chat is on.' : 'AI chat is off for every session.'),
    failure: true,
  });
}
export function useSavePresets(networkId: string | null) {
  return useOrgMutation((questions: string[] | null) => api.put<PresetQuestions>(`${E}/networks/${enc(networkId!)}/presets`, { presetQuestions: questions }), {
    success: (_r, questions) => (questions ? 'Preset questions saved.' : 'Back to the default questions.'),
  });
}
export function useCreateTrySession() {
  return useOrgMutation((b: { externalId: string; networkId: string; origin: string }) => api.post<TrySession>(`${E}/sessions`, b));
}
/** A fresh launch token for a console (try-it) session, for the SDK's `getLaunchToken`. */
export async function consoleLaunchToken(sessionId: string): Promise<string> {
  return (await api.post<ConsoleLaunchToken>(`${E}/sessions/${enc(sessionId)}/launch-tokens`)).launchToken;
}
