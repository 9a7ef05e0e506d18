/**
 * Hooks of the "Generate networks" step (docs/api/people-and-surveys.md "Generating networks"): the live
 * preview (`dryRun: true`, counts of every non-respondent mode) and the generation itself, over the
 * session-cookie mirror `/app/api/surveys/:id/networks`. A generation refreshes the survey (its `networks`).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { surveyKeys, surveyPath } from './surveys.ts';
import type { NetworksInput, NetworksPreview, NetworksResult } from './types.ts';

export function useNetworksPreview(id: string, body: NetworksInput, enabled: boolean) {
  return useQuery({
    queryKey: ['surveys', 'networks-preview', id, body],
    queryFn: () => api.post<NetworksPreview>(surveyPath(id, '/networks'), { ...body, dryRun: true }),
    enabled,
    placeholderData: (prev) => prev,
  });
}

export function useGenerateNetworks(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: NetworksInput) => api.post<NetworksResult>(surveyPath(id, '/networks'), body),
    onSuccess: () => void qc.invalidateQueries({ queryKey: surveyKeys.one(id) }),
  });
}
