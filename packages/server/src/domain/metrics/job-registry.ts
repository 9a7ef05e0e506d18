/**
 * The job rows this process is working on right now, so that a cancel arriving here (DELETE /jobs/:id)
 * stops them at once — the pool terminates the worker thread (docs/jobs.md "Cancel"). Workers in other
 * processes notice a cancel at their next heartbeat instead.
 */
const running = new Map<string, { jobId: string; controller: AbortController }>();

/** Registers a running row (a job, or a shard of `jobId`); returns the function that unregisters it. */
export function trackLocalRun(rowId: string, jobId: string, controller: AbortController): () => void {
  running.set(rowId, { jobId, controller });
  return () => {
    if (running.get(rowId)?.controller === controller) running.delete(rowId);
  };
}

/** Aborts every row of the job running in this process (the job itself and its shards). */
export function abortLocalRuns(jobId: string): number {
  let n = 0;
  for (const r of running.values()) {
    if (r.jobId === jobId) {
      r.controller.abort();
      n++;
    }
  }
  return n;
}
