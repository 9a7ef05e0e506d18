/**
 * The hooks a long-running kernel calls between its work units: `Progress` and `Checkpoint`; and
 * `forEachSource`, the source loop that calls them for the per-source kernels.
 *
 * Progress reports from long-running kernels (metric jobs forward them to their callers as progress
 * and ETA; the metric layer passes `MetricContext.progress` through, metrics/types.ts).
 *
 * `progress(done, total)`: `done` of `total` work units — sources for the source loops (betweenness,
 * load, closeness, harmonic: BFS, Dijkstra and bit-parallel variants; a shard reports its own sources),
 * iterations for the iterative methods (eigenvector, Katz, PageRank, HITS: total = maxIter, an upper
 * bound; convergence reports (total, total)), nodes of finished components / solved columns for
 * current-flow closeness. Rules every kernel keeps:
 * - called synchronously on the kernel's thread, between units (next to `checkpoint()`), at most once
 *   per unit (bit-parallel BFS: once per batch of 32 sources), and once with (total, total) at the end;
 * - `done` never decreases within one call of a kernel; 0 ≤ done ≤ total;
 * - a kernel never depends on it: omitted = no reports, and it must not throw (cancelling stays with
 *   `checkpoint`). The callee must be cheap — throttle by time on its side.
 */
export type Progress = (done: number, total: number) => void;

/**
 * Cancellation hook of the kernels: called between work units (next to `progress`); it throws to stop
 * the kernel (the metric layer's deadline, METRIC_TIMEOUT, or a cancelled job).
 */
export type Checkpoint = () => void;

/**
 * The source loop of the per-source kernels (brandes.ts, distance-sums.ts): for each source in order,
 * `checkpoint()` and `progress(sources done, total)`, then `visit(source)`; finally `progress(total, total)`.
 * One call of `visit` is one whole search (O(n + arcs)): the call costs nothing next to it.
 */
export function forEachSource(sources: Int32Array, checkpoint: Checkpoint | undefined, progress: Progress | undefined, visit: (s: number) => void): void {
  const total = sources.length;
  for (let si = 0; si < total; si++) {
    if (checkpoint) checkpoint();
    if (progress) progress(si, total);
    visit(sources[si]);
  }
  if (progress) progress(total, total);
}
