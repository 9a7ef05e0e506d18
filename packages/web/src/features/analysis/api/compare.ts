/**
 * The compare view's requests (docs/api/analysis.md): two networks through `/app/api/networks/compare`, or
 * the latest two waves of a survey through `/app/api/surveys/:id/compare` (the session-cookie mirrors of
 * the public API). Wire types are `Static<>` of the contract's schemas.
 */
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import type { Comparison, DifferenceNetwork, WaveComparison } from './types.ts';

export type CompareInput = {
  attribute?: string;
  metrics?: string[];
};

export type CompareTarget = { kind: 'networks'; a: string; b: string } | { kind: 'waves'; surveyId: string };

/** One comparison: the answer normalised to `{ comparison, a, b }` (ids and names of both sides). */
export type CompareView = {
  comparison: Comparison;
  a: { networkId: string; label: string };
  b: { networkId: string; label: string };
};

export function useCompare() {
  return useMutation({
    mutationFn: async ({ target, input }: { target: CompareTarget; input: CompareInput }): Promise<CompareView> => {
      if (target.kind === 'networks') {
        const comparison = await api.post<Comparison>('/app/api/networks/compare', { a: target.a, b: target.b, ...input });
        return { comparison, a: { networkId: target.a, label: 'A' }, b: { networkId: target.b, label: 'B' } };
      }
      const w = await api.post<WaveComparison>(`/app/api/surveys/${encodeURIComponent(target.surveyId)}/compare`, input);
      return { comparison: w.comparison, a: { networkId: w.a.networkId, label: `Wave ${w.a.wave}` }, b: { networkId: w.b.networkId, label: `Wave ${w.b.wave}` } };
    },
  });
}

/** Stores the difference of the two sides as a network (`POST /app/api/networks/compare/network`) to open in Explore. */
export function useDifferenceNetwork() {
  return useMutation({ mutationFn: (v: { a: string; b: string }) => api.post<DifferenceNetwork>('/app/api/networks/compare/network', v) });
}
