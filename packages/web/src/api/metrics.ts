/**
 * The metrics the app offers to run on a network, with their titles: the server's list (GET /app/api/metrics,
 * the engine registry's metrics that run with their defaults — a metric added to the registry appears here
 * with no edit of the app), read once per visit. (How a job's time left is said is @netloom/protocol's `etaText`.)
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

