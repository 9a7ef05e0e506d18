/**
 * The metrics the app offers to run on a network, with their titles: the server's list (GET /app/api/metrics,
 * the engine registry's metrics that run with their defaults — a metric added to the registry appears here
 * with no edit of the app), read once per visit; and how a job's time left is named on screen.
 */
import { useQuery } from '@tanstack/react-query';
import type { OfferedMetricList } from '@netloom/protocol/http';
import { api } from './client.ts';
import { keys } from './keys.ts';

export function useOfferedMetrics() {
  return useQuery({ queryKey: keys.metrics, queryFn: ({ signal }) => api.get<OfferedMetricList>('/app/api/metrics', signal), staleTime: Infinity });
}

/** A metric's title from the offered list (its id until the list is in, or for a metric not offered). */
export function useMetricTitle(): (id: string | undefined) => string {
  const { data } = useOfferedMetrics();
  return (id) => data?.metrics.find((m) => m.id === id)?.title ?? id ?? 'Batch';
}

/** "about 2 min left" from a job's `etaSeconds` (null: not known yet). */
export function etaText(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return 'estimating time left…';
  if (seconds < 5) return 'a few seconds left';
  if (seconds < 60) return `about ${Math.round(seconds / 5) * 5} s left`;
  if (seconds < 3600) return `about ${Math.round(seconds / 60)} min left`;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.round((seconds - hours * 3600) / 60);
  return `about ${hours} h${minutes ? ` ${minutes} min` : ''} left`;
}
