/**
 * `/jobs`: your metric jobs (docs/jobs.md) — metric, network, status, a progress bar with the time left,
 * started and finished — newest first. While something is queued or running the list is read again every
 * second (every 10 s otherwise); a job that finishes while you watch is announced. Cancel stops a queued or running job (its
 * worker is freed at once).
 */
import { Link } from 'react-router';
import { useCancelJob, useJobs, useJobTitle } from '../api/jobs.ts';
import type { WebJob } from '../../../api/types.ts';
import { APP_PATHS, pathTo } from '@netloom/protocol/http';
import { Button, DateText, Empty, ErrorNotice, Loading, PageHeader } from '../../../components/ui.tsx';
import { DataTable } from '../../../components/data-table.tsx';
import { JobProgress, JobStatusBadge, useFinishedToasts } from '../components/job-progress.tsx';

const isActive = (j: WebJob) => j.status === 'queued' || j.status === 'running';

export default function Jobs() {
  const { data, isPending, error } = useJobs();
  const cancel = useCancelJob();
  const jobTitle = useJobTitle();
  const stop = (job: WebJob) => cancel.mutate(job.jobId);
  useFinishedToasts(data?.jobs);
  const running = data?.jobs.filter(isActive).length ?? 0;
  return (
    <>
      <PageHeader
        title="Jobs"
        subtitle={<>Metrics computed in the background, with their progress. Start one from a network’s page; results of node metrics are written to the network. See <a href="/docs/jobs">metric jobs</a>.</>}
      >
        <Link className="btn btn-secondary" to={APP_PATHS.networks}>Networks</Link>
      </PageHeader>
      {isPending && <Loading />}
      <ErrorNotice error={error} />
      {data && data.jobs.length === 0 && (
        <Empty title="No jobs yet" action={<Link className="btn btn-primary" to={APP_PATHS.networks}>Choose a network</Link>}>
          <p>Open a network and run a metric as a job: it keeps running when you leave the page, and you can follow or cancel it here.</p>
        </Empty>
      )}
      {data && data.jobs.length > 0 && (
        <>
          <p className="muted" role="status" data-testid="jobs-summary">
            {running > 0 ? `${running} running or queued — updated every second.` : `${data.total} job${data.total === 1 ? '' : 's'}; none running.`}
          </p>
          <DataTable
            testId="jobs-table"
            rows={data.jobs}
            rowKey={(j) => j.jobId}
            rowAttributes={(j) => ({ 'data-job': j.jobId, 'data-status': j.status })}
            columns={[
              { label: 'Metric', cell: (j) => jobTitle(j) },
              {
                label: 'Network',
                cell: (j) => (j.networkId && j.networkName ? <Link to={pathTo(APP_PATHS.network, { id: j.networkId })}>{j.networkName}</Link> : <span className="muted">{j.networkId ? 'deleted network' : 'posted network'}</span>),
              },
              { label: 'Status', cell: (j) => <JobStatusBadge job={j} /> },
              { label: 'Progress', className: 'job-progress-cell', cell: (j) => <JobProgress job={j} /> },
              { label: 'Started', cell: (j) => <DateText iso={j.startedAt ?? j.createdAt} /> },
              { label: 'Finished', cell: (j) => (j.finishedAt ? <DateText iso={j.finishedAt} /> : <span className="muted">—</span>) },
              {
                label: 'Actions',
                actions: true,
                cell: (j) => isActive(j) && <Button variant="danger" busy={cancel.isPending && cancel.variables === j.jobId} onClick={() => stop(j)} aria-label={`Cancel ${jobTitle(j)}${j.networkName ? ` on ${j.networkName}` : ''}`}>Cancel</Button>,
              },
            ]}
          />
        </>
      )}
    </>
  );
}
