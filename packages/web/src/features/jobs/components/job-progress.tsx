/**
 * A metric job's state on screen: a progress bar with the percentage and the time left while it runs
 * ("42 % — about 2 min left"), "Waiting for a worker" while queued, and its outcome once finished.
 */
import { useEffect, useRef } from 'react';
import type { WebJob } from '../../../api/types.ts';
import { etaText } from '@netloom/protocol';
import { useJobTitle } from '../api/jobs.ts';
import { Badge } from '../../../components/ui.tsx';
import { useToast } from '../../../components/toast.tsx';

const STATUS_TEXT = { queued: 'Queued', running: 'Running', succeeded: 'Done', failed: 'Failed', cancelled: 'Cancelled' } as const;

export function JobStatusBadge({ job }: { job: WebJob }) {
  const tone = job.status === 'succeeded' ? 'public' : job.status === 'running' || job.status === 'queued' ? 'accent' : 'neutral';
  return <Badge tone={tone}>{STATUS_TEXT[job.status]}</Badge>;
}

export function JobProgress({ job }: { job: WebJob }) {
  const jobTitle = useJobTitle();
  if (job.status === 'queued') return <span className="muted" data-testid="job-progress-text">Waiting for a worker…</span>;
  if (job.status === 'running') {
    const pct = Math.floor(job.progress * 100);
    const text = `${pct}\u00a0% — ${etaText(job.etaSeconds)}`;
    return (
      <span className="job-progress">
        <progress max={100} value={pct} aria-label={`${jobTitle(job)} progress`} aria-valuetext={text} data-testid="job-progress" />
        <span className="job-progress-text" data-testid="job-progress-text">{text}</span>
      </span>
    );
  }
  if (job.status === 'failed') return <span className="job-error">{job.error?.detail ?? job.error?.message ?? 'Failed'}</span>;
  if (job.status === 'cancelled') return <span className="muted">Cancelled; nothing was written</span>;
  if (job.value !== null) return <strong data-testid="job-value">{jobTitle(job)}: {formatMetricValue(job.value)}</strong>;
  return <span>100&nbsp;%</span>;
}

/** A metric's number as shown: whole numbers as they are, others to 4 significant digits (the API keeps full precision). */
export function formatMetricValue(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  return Number.isInteger(v) ? v.toLocaleString('en') : Number(v.toPrecision(4)).toLocaleString('en', { maximumSignificantDigits: 4 });
}

/**
 * Announces the jobs that finished while the page was open: seen queued or running before, or created
 * since the page opened (a quick one may finish before it is seen running). Not the ones already
 * finished on arrival.
 */
export function useFinishedToasts(jobs: WebJob[] | undefined) {
  const toast = useToast();
  const jobTitle = useJobTitle();
  const seen = useRef<Map<string, WebJob['status']> | null>(null);
  const openedAt = useRef(Date.now());
  useEffect(() => {
    if (!jobs) return;
    const before = seen.current;
    seen.current = new Map(jobs.map((j) => [j.jobId, j.status]));
    if (!before) return;
    for (const j of jobs) {
      const was = before.get(j.jobId);
      const watched = was ? was === 'queued' || was === 'running' : Date.parse(j.createdAt) >= openedAt.current - 1000;
      if (!watched || j.status === 'queued' || j.status === 'running') continue;
      const what = `${jobTitle(j)}${j.networkName ? ` on “${j.networkName}”` : ''}`;
      if (j.status === 'succeeded') toast.success(`${what} finished.`);
      else if (j.status === 'failed') toast.error(`${what} failed: ${j.error?.detail ?? 'see the list'}`);
    }
  }, [jobs, toast]); // jobTitle only names what finished: a new list of titles alone announces nothing
}
