/** The embedded viewer's metric job on the wire (protocol/src/http/viewer-jobs.ts): the API job without its worker and shard records. */
import type { JobView } from '../domain/metrics/jobs.ts';
import { type ViewerJobWire } from '@netloom/protocol/http';
import { presentJob } from './job.ts';

export function presentViewerJob(v: JobView): ViewerJobWire {
  const j = presentJob(v);
  return {
    jobId: j.jobId,
    status: j.status,
    progress: j.progress,
    etaSeconds: j.etaSeconds,
    metric: j.metric ?? v.metrics[0]?.metric ?? '',
    createdAt: j.createdAt,
    startedAt: j.startedAt,
    finishedAt: j.finishedAt,
    ...(j.result !== undefined ? { result: j.result } : {}),
    ...(j.error ? { error: j.error } : {}),
  };
}
