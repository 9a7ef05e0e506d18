/**
 * The job worker (docs/jobs.md): claims job and shard rows of the `metric_jobs` table, runs them on this
 * process's metric pool and records what came out. Runs inside the API process (NETLOOM_WORKERS slots,
 * default 1) and in `netloom worker` processes, on any number of machines sharing the database.
 *
 * - Which row next: without Redis it polls the table (`claimNext`); with REDIS_URL a BullMQ message names
 *   the row (`handle`), and every maintenance pass re-adds the messages of claimable rows (`reconcile`,
 *   idempotent). Claims, leases, retries and results are the table's in both cases.
 * - Claim with a lease (`leaseMs`), renewed every `heartbeatMs` together with progress and ETA. A renewal
 *   that finds the row no longer ours (cancelled, or taken over after our lease lapsed) aborts the run:
 *   the pool terminates the worker thread at once. A dead worker's row is claimed again by another
 *   worker when its lease has passed — at most 3 claims (once plus two retries); after that the job fails
 *   with 503 UNAVAILABLE naming what happened.
 * - Source-loop metrics (betweenness, closeness, harmonic, load) on networks of at least `shardMinNodes`
 *   nodes are split: the job's row becomes the parent of shard rows (ranges of sources, the engine's
 *   SourceParallel partial), which any worker claims; the worker finishing the last shard arms the
 *   parent's merge, which sums the partials in shard order and runs the metric's finish.
 * - Results on a stored network are written in the same transaction that marks the job succeeded, and
 *   only onto the network version recorded when the job was created (else 409 CONFLICT, nothing written):
 *   a retried job can never write twice.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { getMetric, type AnyMetric } from '@netloom/engine';
import { PoolBusyError, type JobResult, type MetricPool, type TaskNetwork } from '@netloom/engine/pool/index.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../store/schema.ts';
import {
  claimableRows,
  claimNext,
  claimRow,
  endJob,
  exhaustedRows,
  failShard,
  finishShard,
  getJobRow,
  markSucceeded,
  pruneExpired,
  releaseLease,
  renewLease,
  shardPartials,
  splitIntoShards,
  type JobRow,
} from '../../store/metric-jobs.ts';
import { DomainError } from '../errors.ts';
import { newId } from '../ids.ts';
import { surveyGroupFloor, withGroupFloor } from './survey-groups.ts';
import { loadStoredNetwork, metricById } from './runs.ts';
import { computeMerge, computeMetric, computeShard, MetricCancelled, writeBack, type ComputeDeps, type MetricRunDeps, type NodeValues, type RunOptions } from './compute.ts';
import { addPartials, decodePartials, encodePartials, gunzipBytes, gzipBytes, problemOf } from './job-codec.ts';
import { trackLocalRun } from './job-registry.ts';
import type { JobMetric } from './jobs.ts';
import type { HandlerOutcome, QueueMessage, RedisJobQueue } from '../../store/job-queue-redis.ts';

/** A job or shard is claimed at most this often (once plus two retries). */
export const MAX_CLAIMS = 3;

export interface JobRunnerOptions {
  db: Kysely<Database>;
  pool: MetricPool;
  config: Pick<Config, 'jobs' | 'limits'>;
  /** Rows run at once (at most the pool's threads make sense). */
  concurrency: number;
  log: Pick<MetricRunDeps, 'log'>['log'] & { warn(obj: Record<string, unknown>, msg: string): void; error(obj: Record<string, unknown>, msg: string): void };
  /** This worker's name in shard records (default `<host>:<pid>:<random>`). */
  workerId?: string;
  /** The Redis queue (BullMQ) when REDIS_URL is set: rows are taken from its messages instead of by polling the table. */
  queue?: RedisJobQueue | null;
}

/** How a run ended for the queue: finished (whatever the outcome), or given back (stopping, pool full). */
type RunEnd = 'done' | 'released';

/** The row is no longer ours (cancelled or taken over): stop quietly, record nothing. */
class LeaseLost extends Error {
  constructor() {
    super('the job row is no longer held by this worker');
    this.name = 'LeaseLost';
  }
}

/**
 * A fresh copy of the bytes, in a buffer of its own. Not `bytes.slice()`: the network text is a Node
 * Buffer (gunzip's), whose `slice` is a view of the same memory — the pool transfers a task's buffer to
 * its worker thread (pool.ts `transferable`, over 64 KiB), which detached the job's own copy, and the
 * second metric of a batch on a stored network of ~400+ nodes failed ("detached ArrayBuffer").
 */
function freshCopy(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes);
}

/** A job's network, ready to hand to the pool (a fresh buffer per task: the pool may transfer it). */
interface JobInput {
  task(params: Record<string, unknown>): TaskNetwork;
  nodeCount: number | null;
  /** Stored network: its id and the version the job computes on. */
  stored: { id: string; version: number; text: Uint8Array } | null;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class JobRunner {
  readonly workerId: string;
  private readonly opts: JobRunnerOptions;
  private readonly active = new Map<string, AbortController>();
  private stopping = false;
  private loopDone: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private lastMaintenance = 0;
  private consumer: { close(): Promise<void> } | null = null;

  constructor(opts: JobRunnerOptions) {
    this.opts = opts;
    this.workerId = opts.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  }

  /** Rows being worked on now. */
  get busy(): number {
    return this.active.size;
  }

  start(): void {
    if (this.loopDone) return;
    const queue = this.opts.queue;
    if (queue) this.consumer = queue.consume(this.opts.concurrency, this.opts.config.jobs.leaseMs, (m) => this.handle(m));
    this.loopDone = this.loop();
  }

  /** New work may be waiting: look now instead of at the next poll. */
  wake(): void {
    this.wakeUp?.();
  }

  /**
   * Stops claiming; rows in progress are stopped and given back to the queue at once (another worker takes
   * them without waiting for the lease, and without spending one of their retries).
   */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    for (const c of this.active.values()) c.abort();
    // the BullMQ worker waits for its handlers, which give their rows (and messages) back
    await this.consumer?.close();
    await this.loopDone;
    while (this.active.size > 0) await sleep(10);
  }

  /**
   * A message of the Redis queue: claim its row (waiting out the lease of a worker that BullMQ found
   * stalled but whose lease in the database has not passed yet) and run it.
   */
  private async handle(m: QueueMessage): Promise<HandlerOutcome> {
    const { db, config } = this.opts;
    const giveUpAt = Date.now() + 2 * config.jobs.leaseMs + config.jobs.heartbeatMs;
    for (;;) {
      if (this.stopping) return { againInMs: 0 };
      const row = await claimRow(db, m.rowId, this.workerId, Date.now(), config.jobs.leaseMs, MAX_CLAIMS);
      if (row) return (await this.runRow(row)) === 'released' ? { againInMs: this.stopping ? 0 : config.jobs.pollMs } : 'done';
      const cur = await getJobRow(db, m.rowId);
      // finished, cancelled, waiting for its shards, or out of claims (the maintenance fails it): nothing to do here
      if (!cur || cur.runnable !== 1 || (cur.status !== 'queued' && cur.status !== 'running') || cur.attempts >= MAX_CLAIMS) return 'done';
      // held by a worker that renews its lease: it is alive and finishes the row itself
      if (Date.now() > giveUpAt) return 'done';
      // else the lease runs out (its worker died) or just did: claim it then
      const wait = cur.lease_until === null ? 0 : cur.lease_until - Date.now() + 1;
      if (wait > 0) await sleep(Math.min(wait, config.jobs.heartbeatMs));
    }
  }

  private async loop(): Promise<void> {
    const { jobs } = this.opts.config;
    while (!this.stopping) {
      try {
        if (Date.now() - this.lastMaintenance > Math.max(jobs.leaseMs / 2, 1000)) {
          this.lastMaintenance = Date.now();
          await this.maintenance();
        }
        if (!this.opts.queue && this.active.size < this.opts.concurrency) {
          const row = await claimNext(this.opts.db, this.workerId, Date.now(), jobs.leaseMs, MAX_CLAIMS);
          if (row) {
            void this.runRow(row);
            continue;
          }
        }
      } catch (err) {
        this.opts.log?.warn({ err: String(err), workerId: this.workerId }, 'job queue: claim failed; retrying');
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(done, jobs.pollMs * (0.75 + Math.random() / 2));
        function done() {
          clearTimeout(t);
          resolve();
        }
        this.wakeUp = done;
      });
      this.wakeUp = null;
    }
  }

  /** Fails rows whose worker died after their last allowed claim, and prunes expired jobs. */
  private async maintenance(): Promise<void> {
    const { db } = this.opts;
    const now = Date.now();
    for (const r of await exhaustedRows(db, now, MAX_CLAIMS)) {
      const problem = JSON.stringify({
        code: 'UNAVAILABLE',
        status: 503,
        detail: `the worker running this ${r.parent_id ? 'job’s shard' : 'job'} stopped (killed or crashed) ${MAX_CLAIMS} times; the job was given up. Submit it again, or check the workers (docs/jobs.md "Faults").`,
      });
      this.opts.log?.warn({ rowId: r.id, jobId: r.parent_id ?? r.id, lastWorker: r.worker_id }, 'job given up after repeated worker loss');
      if (r.parent_id) {
        await failShard(db, r.id, problem, now);
        await endJob(db, r.parent_id, 'failed', problem, now, this.opts.config.jobs.retentionMs);
      } else await endJob(db, r.id, 'failed', problem, now, this.opts.config.jobs.retentionMs);
    }
    const pruned = await pruneExpired(db, now);
    if (pruned > 0) this.opts.log?.info({ pruned }, 'expired jobs pruned');
    if (this.opts.queue) await this.reconcile(this.opts.queue, now);
  }

  /**
   * Every claimable row has a message in the Redis queue: adds them again (a no-op for those queued or
   * running). Covers a message lost with Redis (restarted without persistence, flushed) or never added
   * (Redis was down when a job was split).
   */
  private async reconcile(queue: RedisJobQueue, now: number): Promise<void> {
    const rows = await claimableRows(this.opts.db, now, MAX_CLAIMS, 200);
    try {
      for (const r of rows) await queue.add({ rowId: r.id, phase: r.phase === 'merge' ? 'merge' : 'run' }, r.rank);
    } catch (err) {
      this.opts.log?.warn({ err: String(err), workerId: this.workerId }, 'job queue: Redis unreachable; queued rows are added again when it answers');
    }
  }

  private async runRow(row: JobRow): Promise<RunEnd> {
    const { db, config } = this.opts;
    const controller = new AbortController();
    this.active.set(row.id, controller);
    const untrack = trackLocalRun(row.id, row.parent_id ?? row.id, controller);
    const started = Date.now();
    let progress: number | null = null;
    let eta: number | null = null;
    const setProgress = (p: number) => {
      progress = Math.min(1, Math.max(0, p));
      const elapsed = (Date.now() - started) / 1000;
      eta = progress > 0.001 ? Math.round((elapsed * (1 - progress)) / progress) : null;
    };
    let renewing = false;
    const heartbeat = setInterval(() => {
      if (renewing) return;
      renewing = true;
      renewLease(db, row.id, this.workerId, Date.now() + config.jobs.leaseMs, progress, eta)
        .then((held) => {
          if (!held) controller.abort();
        })
        .catch((err: unknown) => this.opts.log?.warn({ err: String(err), rowId: row.id }, 'job heartbeat failed'))
        .finally(() => (renewing = false));
    }, config.jobs.heartbeatMs);
    try {
      if (row.parent_id) await this.runShard(row, controller.signal, setProgress);
      else if (row.phase === 'merge') await this.runMerge(row, controller.signal);
      else await this.runJob(row, controller.signal, setProgress);
      return 'done';
    } catch (err) {
      return await this.settleError(row, err, controller.signal);
    } finally {
      clearInterval(heartbeat);
      untrack();
      this.active.delete(row.id);
      this.wake();
    }
  }

  private async settleError(row: JobRow, err: unknown, signal: AbortSignal): Promise<RunEnd> {
    const { db, config, log } = this.opts;
    try {
      if (err instanceof LeaseLost || err instanceof MetricCancelled || signal.aborted) {
        // cancelled, taken over, or this worker is stopping: give the row back if it is still ours
        if (!this.stopping) return 'done';
        await releaseLease(db, row.id, this.workerId);
        return 'released';
      }
      if (err instanceof PoolBusyError) {
        await releaseLease(db, row.id, this.workerId);
        return 'released';
      }
      const { problem, internal } = problemOf(err);
      if (internal) log?.error({ err: err instanceof Error ? `${err.name}: ${err.message}` : String(err), rowId: row.id }, 'job failed with an internal error');
      const text = JSON.stringify(problem);
      const now = Date.now();
      if (row.parent_id) {
        await failShard(db, row.id, text, now);
        await endJob(db, row.parent_id, 'failed', text, now, config.jobs.retentionMs);
      } else await endJob(db, row.id, 'failed', text, now, config.jobs.retentionMs, this.workerId);
      return 'done';
    } catch (e) {
      log?.warn({ err: String(e), rowId: row.id }, 'job: recording the failure failed (the lease will expire and the row be retried)');
      return 'done';
    }
  }

  /** The network a job computes on (a stored one must still be at the version the job was created for). */
  private async input(row: JobRow): Promise<JobInput> {
    if (row.network_id) {
      const stored = await loadStoredNetwork(this.opts.db, null, row.network_id);
      if (stored.version !== row.network_version) {
        throw new DomainError('CONFLICT', 'the network changed after the job was created; nothing was written — submit the job again');
      }
      const text = stored.text;
      // a survey network's group reports never go below the survey's minimum group size (survey-groups.ts)
      const floor = await surveyGroupFloor(this.opts.db, row.network_id);
      return {
        nodeCount: stored.net.node_count,
        stored: { id: row.network_id, version: stored.version, text },
        task: (params) => ({ kind: 'stored', text: freshCopy(text), networkDirected: stored.directed, params: withGroupFloor(params, floor) }),
      };
    }
    const source = row.input_gz ? row : await getJobRow(this.opts.db, row.parent_id ?? '');
    if (!source?.input_gz) throw new DomainError('NOT_FOUND', 'the job’s input is gone');
    const bytes = await gunzipBytes(source.input_gz);
    if (source.input_kind === 'network') {
      const directed = source.network_directed === 1;
      return { nodeCount: source.node_count, stored: null, task: (params) => ({ kind: 'stored', text: freshCopy(bytes), networkDirected: directed, params }) };
    }
    return { nodeCount: source.node_count, stored: null, task: () => ({ kind: 'body', body: freshCopy(bytes) }) };
  }

  /** How many shards a job of `metric` on `nodeCount` nodes is split into (1 = not split). */
  private shardCount(metric: AnyMetric, nodeCount: number | null): number {
    const { shardMinNodes, shardSources } = this.opts.config.jobs;
    if (metric.kind !== 'node' || !('parallel' in metric) || !metric.parallel || nodeCount === null || nodeCount < shardMinNodes) return 1;
    return Math.max(2, Math.min(64, Math.ceil(nodeCount / shardSources)));
  }

  /** The pool, limits and log of compute.ts; a row's run has the row's own time limit. */
  private get computeDeps(): ComputeDeps {
    return { pool: this.opts.pool, limits: this.opts.config.limits, log: this.opts.log };
  }

  private runOptions(row: JobRow, signal: AbortSignal, onProgress?: (done: number, total: number) => void): RunOptions {
    return { signal, timeoutMs: row.timeout_ms, onProgress };
  }

  private async runJob(row: JobRow, signal: AbortSignal, setProgress: (p: number) => void): Promise<void> {
    const items = JSON.parse(row.metrics) as JobMetric[];
    const input = await this.input(row);
    if (row.batch) return this.runBatch(row, items, input, signal, setProgress);
    const metric = metricById(items[0].metric);
    let nodeCount = input.nodeCount;
    if (nodeCount === null && row.input_kind === 'body' && this.shardCount(metric, Number.MAX_SAFE_INTEGER) > 1) {
      // a big posted body (validated by the worker thread): its node count decides the split
      const body = JSON.parse(Buffer.from((input.task({}) as { body: Uint8Array }).body).toString('utf8')) as { networkJSON?: { nodes?: unknown[] } };
      nodeCount = Array.isArray(body.networkJSON?.nodes) ? body.networkJSON.nodes.length : null;
    }
    const shards = this.shardCount(metric, nodeCount);
    if (shards > 1) {
      const shardIds = await splitIntoShards(this.opts.db, row, this.workerId, shards, newId);
      if (!shardIds) throw new LeaseLost();
      this.opts.log?.info({ jobId: row.id, metric: metric.id, shards, nodeCount }, 'job split into shards');
      // a BullMQ flow: the shards, and the merge behind them (if Redis is down now, the reconciler adds them later)
      await this.opts.queue?.addSplit(row.id, shardIds).catch((err: unknown) => this.opts.log?.warn({ err: String(err), jobId: row.id }, 'job queue: could not queue the shards; the reconciler will'));
      return;
    }
    // write_back 0: a viewer run with View access answers its values (docs/embedding-api.md "Metric jobs")
    const writeBack = input.stored !== null && metric.kind === 'node' && row.write_back !== 0;
    const result = await computeMetric(this.computeDeps, metric, input.task(items[0].params), { ...this.runOptions(row, signal, (d, t) => setProgress(d / t)), writeBack });
    if (result.kind === 'deferred') throw new DomainError('INVALID_ARGS', 'a job body naming a stored network must be small (under 1 MiB)');
    await this.complete(row, result, input);
  }

  /** Records a finished run: a write-back in the same transaction as the job's success (see the header). */
  private async complete(row: JobRow, result: Exclude<JobResult, { kind: 'deferred' }>, input: JobInput): Promise<void> {
    if (result.kind === 'node' && result.networkText && input.stored) {
      await this.succeedWithNetwork(row, input.stored, { network: result.networkText, attributes: result.attributes, tail: { meta: result.meta ?? {} } });
      return;
    }
    await this.succeed(row, Buffer.from(result.response as Uint8Array).toString('utf8'));
  }

  /** Records the job's answer (the lease must still be ours). */
  private async succeed(row: JobRow, answer: string, db: Kysely<Database> = this.opts.db): Promise<void> {
    if (!(await markSucceeded(db, row.id, this.workerId, await gzipBytes(answer), Date.now(), this.opts.config.jobs.retentionMs))) throw new LeaseLost();
  }

  /** The write-back (compute.ts) and the job's success with its answer, in one transaction. */
  private async succeedWithNetwork(row: JobRow, stored: NonNullable<JobInput['stored']>, change: Parameters<typeof writeBack>[2]): Promise<void> {
    await writeBack(this.opts.db, stored, change, (trx, answer) => this.succeed(row, answer, trx));
    this.opts.log?.info({ jobId: row.id, networkId: stored.id }, 'job result written to the network');
  }

  private async runBatch(row: JobRow, items: JobMetric[], input: JobInput, signal: AbortSignal, setProgress: (p: number) => void): Promise<void> {
    const results: Record<string, unknown>[] = [];
    const nodeValues: { metric: AnyMetric; values: NodeValues }[] = [];
    for (let i = 0; i < items.length; i++) {
      const metric = metricById(items[i].metric);
      const r = await computeMetric(this.computeDeps, metric, input.task(items[i].params), { ...this.runOptions(row, signal, (d, t) => setProgress((i + d / t) / items.length)), writeBack: false });
      if (r.kind === 'deferred' || !r.response) throw new Error('unexpected metric reply');
      const answer = JSON.parse(Buffer.from(r.response).toString('utf8')) as number | { values: NodeValues; meta: Record<string, unknown> };
      // a number (network metric) or a report object: its result is the answer as is
      if (typeof answer === 'number' || metric.kind === 'report') results.push({ metric: metric.id, value: answer });
      else if (input.stored) {
        nodeValues.push({ metric, values: answer.values });
        results.push({ metric: metric.id, attributes: Object.keys(answer.values), meta: answer.meta });
      } else results.push({ metric: metric.id, values: answer.values, meta: answer.meta });
      setProgress((i + 1) / items.length);
    }
    if (input.stored && nodeValues.length > 0) {
      // every attribute written at once: one change of the stored network
      await this.succeedWithNetwork(row, input.stored, { network: { text: input.stored.text, values: nodeValues }, tail: { results } });
      return;
    }
    await this.succeed(row, JSON.stringify(input.stored ? { _id: input.stored.id, results } : { results }));
  }

  private async runShard(row: JobRow, signal: AbortSignal, setProgress: (p: number) => void): Promise<void> {
    const items = JSON.parse(row.metrics) as JobMetric[];
    const metric = metricById(items[0].metric);
    const input = await this.input(row);
    const partials = await computeShard(this.computeDeps, metric, input.task(items[0].params), this.runOptions(row, signal, (d, t) => setProgress(d / t)), row.shard_index as number, row.shard_count as number);
    if (!(await finishShard(this.opts.db, row, this.workerId, encodePartials(partials), Date.now()))) throw new LeaseLost();
  }

  private async runMerge(row: JobRow, signal: AbortSignal): Promise<void> {
    const items = JSON.parse(row.metrics) as JobMetric[];
    const metric = getMetric(items[0].metric);
    const parts = await shardPartials(this.opts.db, row.id);
    let summed: Float64Array[] | null = null;
    for (const p of parts) {
      if (p.status !== 'succeeded' || !p.partial) throw new Error(`shard ${p.shard_index} has no result`);
      const arrays = decodePartials(p.partial);
      if (!summed) summed = arrays;
      else addPartials(summed, arrays);
    }
    if (!summed) throw new Error('a split job without shards');
    const input = await this.input(row);
    const writeBack = input.stored !== null && row.write_back !== 0;
    // meta.elapsedMs counts from the first shard's start (docs/metrics.md), not the merge's
    const firstStart = Math.min(...parts.map((p) => (p.started_at ? Date.parse(p.started_at) : Infinity)));
    const result = await computeMerge(this.computeDeps, metric, input.task(items[0].params), { ...this.runOptions(row, signal), writeBack }, summed, Number.isFinite(firstStart) ? firstStart : undefined);
    if (result.kind === 'deferred') throw new DomainError('INVALID_ARGS', 'a job body naming a stored network must be small (under 1 MiB)');
    await this.complete(row, result, input);
  }
}
