/**
 * The metric worker pool (docs/spec/decisions.md §4.3 "Compute runs off the request thread"):
 * - piscina, one worker per core by default (`workers` 0 = os.availableParallelism()), started eagerly;
 * - a bounded admission queue: at most `workers + queueSize` jobs accepted at once; one more is refused
 *   with PoolBusyError (the server answers 429 RATE_LIMITED with Retry-After);
 * - a deadline per job (`timeoutMs`, counted from acceptance, so queue wait counts and a caller always
 *   has an answer within limit + grace): the kernels' `ctx.checkpoint()` throws METRIC_TIMEOUT at the
 *   deadline; a worker still busy `graceMs` later (a kernel that never checks, or a huge parse) is
 *   terminated by aborting its task, and the job fails with METRIC_TIMEOUT all the same;
 * - an AbortSignal per job (client disconnect) removes a queued task, or terminates the worker running
 *   it at once (piscina replaces the worker); the job fails with EngineError CANCELLED;
 * - errors come back as data and are rebuilt as EngineError (code/status/errors intact);
 * - source-loop metrics that declare `parallel` (metrics/types.ts SourceParallel) are split across idle
 *   workers: shards run `partial`, the pool sums their arrays, one worker runs `finish`.
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { EngineError } from '../errors.ts';
import type { RequestLimits } from './request.ts';
import { fromWire, WorkerFailure, type CompareDiffTask, type CompareSideTask, type CompareTask, type RunReply, type RunTask, type TaskNetwork, type WireError } from './protocol.ts';
import { firstFailure, type CompareDigest } from '../compare/compare.ts';
import { DigestCache } from './digest-cache.ts';
import { parallelMetric } from './shard.ts';
import { ownBuffer } from './transfer.ts';

export interface MetricPoolOptions {
  /** Worker threads; 0 or absent = os.availableParallelism(). */
  workers?: number;
  /** Jobs that may wait beyond the ones running; more → PoolBusyError. */
  queueSize: number;
  /** Time limit per job (ms), from acceptance. */
  timeoutMs: number;
  /** How long after the deadline a worker that has not stopped by itself is terminated (default 300 ms). */
  graceMs?: number;
  /** Node/edge limits for networkJSON parsed in workers. */
  limits?: RequestLimits;
  /** Worker module (file URL or path); tests substitute one. Default: ./worker.ts. */
  filename?: string;
  /** How often a job's `onProgress` is called (default 500 ms). */
  progressIntervalMs?: number;
  /** Bytes of prepared compare sides kept for repeat compares (digest-cache.ts; default 128 MiB, 0 = none). */
  compareCacheBytes?: number;
}

/** One network of a compare: read only when its digest is not cached (`key`: the network and its version). */
export interface CompareSource {
  networkDirected: boolean;
  key?: string;
  /** The network's JSON text, and the key of the version read (it may be newer than `key`). */
  load(): Promise<{ text: Uint8Array; key?: string }>;
}

export interface MetricJob {
  metric: string;
  network: TaskNetwork;
  writeBack?: boolean;
  /** Aborting cancels the job (queued: dropped; running: its worker is terminated). */
  signal?: AbortSignal;
  /** Node count if known (stored networks): decides whether a splittable metric is split. */
  nodeCount?: number;
  /** When the request arrived (ms since epoch): the time limit counts from here, upload and parsing included. Default: now. */
  startedAt?: number;
  /** This job's time limit (ms) instead of the pool's `timeoutMs` (jobs run longer than calls). */
  timeoutMs?: number;
  /**
   * Progress of the kernels (kernels/progress.ts), summed over the job's threads: called about every
   * `progressIntervalMs` while the job runs, with `done` and `total` work units (only once total > 0).
   */
  onProgress?: (done: number, total: number) => void;
}

/** The kind of task a job runs: the whole metric, one shard of a split source loop, or the finish of one. */
type JobPhase = { phase: 'whole' } | { phase: 'partial'; index: number; count: number } | { phase: 'finish'; partials: Float64Array[] };

export type JobResult = Exclude<RunReply, { ok: false } | { kind: 'partial' } | { kind: 'compareSide' }>;

/** The queue is full: the caller should answer 429 with `Retry-After`. Duck-types as a problem error. */
export class PoolBusyError extends Error {
  readonly code = 'RATE_LIMITED';
  readonly status = 429;
  readonly retryAfterSeconds: number;
  readonly headers: Record<string, string>;
  constructor(retryAfterSeconds: number, capacity: number) {
    super(`the metric queue is full (${capacity} jobs running or waiting); retry in ${retryAfterSeconds} s`);
    this.name = 'PoolBusyError';
    this.retryAfterSeconds = retryAfterSeconds;
    this.headers = { 'retry-after': String(retryAfterSeconds) };
  }
}

const TIMEOUT = Symbol('metric-timeout');
const CANCELLED = Symbol('metric-cancelled');

export class MetricPool {
  readonly workers: number;
  readonly queueSize: number;
  readonly timeoutMs: number;
  readonly graceMs: number;
  readonly progressIntervalMs: number;
  private readonly piscina: Piscina;
  private readonly limits: RequestLimits;
  private readonly digests: DigestCache;
  private accepted = 0;
  private runningTasks = 0;
  private splits = 0;
  private closed = false;

  constructor(opts: MetricPoolOptions) {
    this.workers = opts.workers && opts.workers > 0 ? Math.floor(opts.workers) : availableParallelism();
    this.queueSize = Math.max(0, Math.floor(opts.queueSize));
    this.timeoutMs = opts.timeoutMs;
    this.graceMs = opts.graceMs ?? 300;
    this.progressIntervalMs = opts.progressIntervalMs ?? 500;
    this.limits = opts.limits ?? {};
    this.digests = new DigestCache(opts.compareCacheBytes ?? 128 * 1024 * 1024);
    this.piscina = new Piscina({
      filename: opts.filename ?? new URL('./worker.ts', import.meta.url).href,
      minThreads: this.workers,
      maxThreads: this.workers,
      idleTimeout: Infinity,
      maxQueue: Infinity, // admission is bounded here, per job (a split job is several tasks)
      concurrentTasksPerWorker: 1,
    });
  }

  /** Jobs accepted (running or waiting). */
  get pending(): number {
    return this.accepted;
  }

  /** Jobs run split across workers so far (source-loop metrics; for tests and benchmarks). */
  get splitJobs(): number {
    return this.splits;
  }

  /** Worker threads currently running a task. */
  get busyWorkers(): number {
    return this.runningTasks;
  }

  /** Runs one job; rejects with EngineError (METRIC_TIMEOUT, CANCELLED, INVALID_ARGS, ...), PoolBusyError or WorkerFailure. */
  async run(job: MetricJob): Promise<JobResult> {
    return this.admit(job, (deadline, signal, progress) => this.execute(job, deadline, signal, progress));
  }

  /**
   * Runs only shard `index` of `count` of a splittable source-loop metric (SourceParallel): the raw
   * partial arrays, unscaled. Metric jobs spread these over many processes and machines (the server's
   * job queue) and finish with `runFinish` on the element-wise sum.
   */
  async runPartial(job: MetricJob, index: number, count: number): Promise<Float64Array[]> {
    const reply = await this.admit(job, (deadline, signal, progress) => this.single(job, { phase: 'partial', index, count }, deadline, signal, progress));
    if (reply.kind !== 'partial') throw new WorkerFailure('unexpected reply to a partial task');
    return reply.partials;
  }

  /**
   * Finishes a split run from the element-wise sum of every shard's partials (scaling, ids, meta, write-back).
   * `computeStartedAt` (ms since epoch): when the first shard began, so that `meta.elapsedMs` covers the
   * whole run; without it, the finish alone.
   */
  async runFinish(job: MetricJob, summed: Float64Array[], computeStartedAt?: number): Promise<JobResult> {
    const reply = await this.admit(job, (deadline, signal) => this.single(job, { phase: 'finish', partials: summed, ...(computeStartedAt !== undefined ? { computeStartedAt } : {}) }, deadline, signal, null));
    if (reply.kind === 'partial' || reply.kind === 'compareSide') throw new WorkerFailure(`unexpected ${reply.kind} reply`);
    return reply;
  }

  /**
   * Compares two networks (compare/compare.ts) with the same admission, deadline and cancellation as a
   * metric job: both networks are parsed and prepared at once, each by its own task (two workers when
   * the pool has them), then one task compares the two digests. A side with a `key` (its network and
   * version) is looked up in the digest cache first (digest-cache.ts; with the compare's parameters) and
   * `load` runs only on a miss. Answers the JSON text of the comparison.
   */
  async compare(job: { a: CompareSource; b: CompareSource; params: Record<string, unknown>; signal?: AbortSignal; startedAt?: number }): Promise<Uint8Array> {
    const asJob: MetricJob = { metric: 'compare', network: { kind: 'stored', text: new Uint8Array(0), networkDirected: job.a.networkDirected, params: {} }, signal: job.signal, startedAt: job.startedAt };
    const run = this.admit(asJob, async (deadline, signal) => {
      const directed = job.a.networkDirected && job.b.networkDirected;
      const p = job.params;
      const cacheKey = (key: string, s: CompareSource) => JSON.stringify([key, s.networkDirected, directed, p.metricEdgeWeights ?? null, p.attribute ?? null, p.minGroupSize ?? null, p.metrics ?? []]);
      const side = async (s: CompareSource): Promise<{ digest: CompareDigest<WireError>; computeMs: number }> => {
        const hit = s.key === undefined ? undefined : this.digests.get(cacheKey(s.key, s));
        if (hit) return { digest: hit, computeMs: 0 };
        const loaded = await s.load().catch((err: unknown) => {
          throw new LoadFailure(err);
        });
        const task: CompareSideTask = { op: 'compareSide', text: loaded.text, networkDirected: s.networkDirected, directed, params: p, deadline };
        const reply = await this.task(task, signal, transferable({ kind: 'stored', text: loaded.text, networkDirected: true, params: {} }));
        if (!reply.ok) throw fromWire(reply.error);
        if (reply.kind !== 'compareSide') throw new WorkerFailure('unexpected reply to a compare side task');
        if (loaded.key !== undefined) this.digests.set(cacheKey(loaded.key, s), reply.digest);
        return { digest: reply.digest, computeMs: reply.stats.computeMs };
      };
      // both settle before either's error is thrown: side a's error first, as the one-thread order meets them
      const [a, b] = settledInOrder(await Promise.allSettled([side(job.a), side(job.b)]));
      const failure = firstFailure(a.digest, b.digest);
      if (failure) throw fromWire(failure);
      // the digests' arrays are copied to the worker, not moved: the cache keeps them
      const task: CompareDiffTask = { op: 'compareDiff', a: a.digest, b: b.digest, directed, params: p, deadline, sidesComputeMs: a.computeMs + b.computeMs };
      const reply = await this.task(task, signal);
      if (!reply.ok) throw fromWire(reply.error);
      if (reply.kind !== 'report' || !reply.response) throw new WorkerFailure('unexpected reply to a compare task');
      return reply.response;
    });
    // the caller's own errors (a network gone while it was read) come out as they were thrown
    return run.catch((err: unknown) => {
      throw err instanceof LoadFailure ? err.error : err;
    });
  }

  /** Admission, deadline, cancellation and progress polling around one job's tasks. */
  private async admit<R>(job: MetricJob, body: (deadline: number, signal: AbortSignal, progress: Float64Array | null) => Promise<R>): Promise<R> {
    if (this.closed) throw new WorkerFailure('the metric pool is closed');
    const capacity = this.workers + this.queueSize;
    if (this.accepted >= capacity) {
      // A rough wait: one time limit's worth of work per worker ahead of the caller, at most 60 s.
      throw new PoolBusyError(Math.max(1, Math.min(60, Math.ceil(this.timeoutMs / 1000 / 2))), capacity);
    }
    if (job.signal?.aborted) throw new EngineError('CANCELLED', 'the request was cancelled');
    this.accepted++;
    const limitMs = job.timeoutMs ?? this.timeoutMs;
    const deadline = Math.min(Date.now(), job.startedAt ?? Infinity) + limitMs;
    const controller = new AbortController();
    const onAbort = () => controller.abort(CANCELLED);
    job.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => controller.abort(TIMEOUT), Math.max(0, deadline - Date.now()) + this.graceMs);
    // Progress: one (done, total) slot per task of the job, on shared memory the workers write into.
    const onProgress = job.onProgress;
    const progress = onProgress ? new Float64Array(new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT * 2 * Math.max(1, this.workers))) : null;
    const report = () => {
      if (!progress || !onProgress) return;
      let done = 0;
      let total = 0;
      for (let i = 0; i < progress.length; i += 2) {
        done += progress[i];
        total += progress[i + 1];
      }
      if (total > 0) onProgress(done, total);
    };
    const ticker = progress ? setInterval(report, this.progressIntervalMs) : null;
    try {
      const out = await body(deadline, controller.signal, progress);
      report();
      return out;
    } catch (err) {
      throw this.mapError(err, controller.signal, limitMs);
    } finally {
      if (ticker) clearInterval(ticker);
      clearTimeout(timer);
      job.signal?.removeEventListener('abort', onAbort);
      this.accepted--;
    }
  }

  private mapError(err: unknown, signal: AbortSignal, limitMs: number): unknown {
    if (signal.aborted && (err as { name?: string })?.name === 'AbortError') {
      return signal.reason === TIMEOUT
        ? new EngineError('METRIC_TIMEOUT', `metric compute time limit of ${limitMs / 1000} s reached`)
        : new EngineError('CANCELLED', 'the request was cancelled');
    }
    if (err instanceof EngineError || err instanceof WorkerFailure || err instanceof PoolBusyError || err instanceof LoadFailure) return err;
    return new WorkerFailure(`metric worker failed: ${err instanceof Error ? err.message : String(err)}`);
  }

  private async task(task: RunTask | CompareTask, signal: AbortSignal, transferList: ArrayBuffer[] = []): Promise<RunReply> {
    this.runningTasks++;
    try {
      return (await this.piscina.run(task, { signal, transferList })) as RunReply;
    } finally {
      this.runningTasks--;
    }
  }

  /** One task of a job (a partial or a finish phase); never split further. */
  private async single(job: MetricJob, phase: Exclude<JobPhase, { phase: 'whole' }>, deadline: number, signal: AbortSignal, progress: Float64Array | null): Promise<Exclude<RunReply, { ok: false }>> {
    const task: RunTask = { metric: job.metric, writeBack: job.writeBack, deadline, limits: this.limits, network: job.network, shard: phase, ...(progress ? { progress: { buffer: progress, slot: 0 } } : {}) };
    const transfer = [...transferable(job.network), ...(phase.phase === 'finish' ? phase.partials.map((a) => a.buffer as ArrayBuffer) : [])];
    const reply = await this.task(task, signal, transfer);
    if (!reply.ok) throw fromWire(reply.error);
    return reply;
  }

  private async execute(job: MetricJob, deadline: number, signal: AbortSignal, progress: Float64Array | null): Promise<JobResult> {
    const base = { metric: job.metric, writeBack: job.writeBack, deadline, limits: this.limits };
    const slot = (i: number) => (progress ? { progress: { buffer: progress, slot: i } } : {});
    const shards = this.shardCount(job);
    if (shards < 2) {
      const reply = await this.task({ ...base, network: job.network, ...slot(0) }, signal, transferable(job.network));
      if (!reply.ok) throw fromWire(reply.error);
      if (reply.kind === 'partial' || reply.kind === 'compareSide') throw new WorkerFailure(`unexpected ${reply.kind} reply`);
      return reply;
    }
    // Split: every shard gets its own copy of the network text; the last one may take the original.
    this.splits++;
    const copies = Array.from({ length: shards }, (_, i) => (i === shards - 1 ? job.network : copyNetwork(job.network)));
    const replies = await Promise.all(
      copies.map((network, index) => this.task({ ...base, network, shard: { phase: 'partial', index, count: shards }, ...slot(index) }, signal, index === shards - 1 ? [] : transferable(network))),
    );
    const summed: Float64Array[] = [];
    // meta.elapsedMs of the answer counts from the first shard's start of computing, not the finish's
    let computeStartedAt = Infinity;
    for (const r of replies) {
      if (!r.ok) throw fromWire(r.error);
      if (r.kind === 'deferred') return r;
      if (r.kind !== 'partial') throw new WorkerFailure('unexpected reply to a partial task');
      computeStartedAt = Math.min(computeStartedAt, r.computeStartedAt);
      r.partials.forEach((arr, k) => {
        if (!summed[k]) summed[k] = arr;
        else for (let i = 0; i < arr.length; i++) summed[k][i] += arr[i];
      });
    }
    const reply = await this.task(
      { ...base, network: job.network, shard: { phase: 'finish', partials: summed, computeStartedAt } },
      signal,
      [...transferable(job.network), ...summed.map((a) => a.buffer as ArrayBuffer)],
    );
    if (!reply.ok) throw fromWire(reply.error);
    if (reply.kind === 'partial' || reply.kind === 'compareSide') throw new WorkerFailure(`unexpected ${reply.kind} reply`);
    return reply;
  }

  private shardCount(job: MetricJob): number {
    if (this.workers < 2) return 1;
    let metric;
    try {
      metric = parallelMetric(job.metric);
    } catch {
      return 1;
    }
    if (!metric?.parallel) return 1;
    const min = metric.parallel.minNodes ?? 1000;
    if (job.nodeCount !== undefined && job.nodeCount < min) return 1;
    const idle = this.workers - this.runningTasks;
    return Math.max(1, Math.min(this.workers, idle));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.piscina.destroy();
  }
}

/** An error of a compare source's `load` (the caller's: passed back to it unchanged). */
class LoadFailure extends Error {
  readonly error: unknown;
  constructor(error: unknown) {
    super('a compare source could not be read');
    this.error = error;
  }
}

/** The values of settled promises, or the first rejection in their order. */
export function settledInOrder<T>(results: PromiseSettledResult<T>[]): T[] {
  return results.map((r) => {
    if (r.status === 'rejected') throw r.reason;
    return r.value;
  });
}

/** Buffers of a task network that can be moved to the worker (whole, unshared ArrayBuffers only). */
function transferable(network: TaskNetwork): ArrayBuffer[] {
  const bytes = network.kind === 'body' ? network.body : typeof network.text === 'string' ? null : network.text;
  if (!bytes) return [];
  const buf = ownBuffer(bytes);
  return buf && buf.byteLength > 64 * 1024 ? [buf] : [];
}

function copyNetwork(network: TaskNetwork): TaskNetwork {
  if (network.kind === 'body') return { kind: 'body', body: new Uint8Array(network.body) };
  return { ...network, text: typeof network.text === 'string' ? network.text : new Uint8Array(network.text) };
}
