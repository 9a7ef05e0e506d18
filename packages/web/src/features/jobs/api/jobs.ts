/** Your metric jobs: the list (polled while one runs), cancelling one, and starting a metric on a network as a job. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { keys } from '../../../api/keys.ts';
import { useMetricTitle } from '../../../api/metrics.ts';
import { reported } from '../../../api/outcomes.ts';
import type { WebJob, WebJobList, WebNetworkValue } from '../../../api/types.ts';

const enc = encodeURIComponent;

/** How often the jobs are read again while one of them is queued or running (else every 10 s: jobs also start elsewhere). */
export const JOB_POLL_MS = 1000;
const JOB_IDLE_POLL_MS = 10_000;

const active = (j: WebJob) => j.status === 'queued' || j.status === 'running';

/** Your metric jobs, newest first; read again every second while something runs, every 10 s otherwise. */
export function useJobs() {
  return useQuery({
    queryKey: keys.jobs,
    queryFn: ({ signal }) => api.get<WebJobList>('/app/api/jobs?limit=100', signal),
    refetchInterval: (q) => (q.state.data?.jobs.some(active) ? JOB_POLL_MS : JOB_IDLE_POLL_MS),
  });
}

/** How a job is named on screen: its metric's title, or "3 metrics" for a batch. */
export function useJobTitle(): (j: WebJob) => string {
  const metricTitle = useMetricTitle();
  return (j) => (j.batch ? `${j.metrics.length} metrics` : metricTitle(j.metric));
}

export function useCancelJob() {
  const qc = useQueryClient();
  const jobTitle = useJobTitle();
  return useMutation(reported({
    mutationFn: (id: string) => api.del<WebJob>(`/app/api/jobs/${enc(id)}`),
    onSettled: () => qc.invalidateQueries({ queryKey: keys.jobs }),
    success: (j) => (j.status === 'cancelled' ? `Cancelled ${jobTitle(j)}; nothing was written.` : `${jobTitle(j)} had already finished.`),
    failure: 'Could not cancel',
  }));
}

/** Runs a metric on a network as a job (202); the jobs list is read again at once. */
export function useStartMetricJob(networkId: string) {
  const qc = useQueryClient();
  const jobTitle = useJobTitle();
  return useMutation(reported({
    mutationFn: (metricId: string) => api.post<WebJob>(`/app/api/networks/${enc(networkId)}/metrics/${enc(metricId)}`, {}),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.jobs }),
    info: (j) => `${jobTitle(j)} started; follow it here or on the Jobs page.`,
  }));
}

/** Computes a network-level metric now (its one number, parameters and time). */
export function useComputeNetworkValue(networkId: string) {
  return useMutation({
    mutationFn: (metricId: string) => api.post<WebNetworkValue>(`/app/api/networks/${enc(networkId)}/metrics/${enc(metricId)}/value`, {}),
  });
}
