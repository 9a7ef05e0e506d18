/**
 * Running a metric on a network and writing its node values onto a stored network: the ONE compute path
 * and the ONE write-back of every caller (issue 20) — the API's synchronous metric calls and the embedded
 * viewer and its AI chat (runs.ts), the job worker's whole jobs, batches, shards and the merge of a split
 * job (job-runner.ts). docs/spec/decisions.md §4, docs/jobs.md.
 *
 * - `computeMetric` / `computeShard` / `computeMerge`: one call of the worker pool (a whole run, one shard's
 *   partial sums, the finish of a split job on the summed partials), its outcomes mapped alike: time limit
 *   → 422 METRIC_TIMEOUT (the detail suggests `kPercent` where the metric has it), cancelled (client gone,
 *   job cancelled) → `MetricCancelled`; INVALID_ARGS, NOT_CONVERGED, ... pass through as they are.
 * - `writeBack`: node values onto a stored network — the text the worker thread already wrote them into,
 *   or values applied here (a viewer's read-only run, a batch's several metrics at once: one change) —
 *   only if the stored `version` is still the one the run read, else 409 CONFLICT and nothing is written.
 *   A job passes `alongside`: its success is recorded in the same transaction, so a retried job can never
 *   write twice.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { EngineError, type AnyMetric, type NetworkJSON } from '@netloom/engine';
import { applyNodeValues, type JobResult, type MetricPool, type TaskNetwork } from '@netloom/engine/pool/index.ts';
import type { Database } from '../../store/schema.ts';
import { updateNetworkIf } from '../../store/networks.ts';
import { DomainError } from '../errors.ts';

/** What running a metric needs: the database, the worker pool and the limits. */
export interface MetricRunDeps {
  db: Kysely<Database>;
  pool: MetricPool;
  limits: { maxNodes: number; maxEdges: number; metricTimeoutMs: number };
  log?: { info(obj: Record<string, unknown>, msg: string): void };
}

export interface RunOptions {
  /** Aborting cancels the run (queued: dropped; running: its worker thread is terminated at once). */
  signal?: AbortSignal;
  /** When the request arrived (ms since epoch): the time limit counts from here. */
  startedAt?: number;
  /** Time limit (ms); default the synchronous limit (`metricTimeoutMs`). Jobs pass their own. */
  timeoutMs?: number;
  /** Kernel progress (work units done / total), about every half second while it runs (jobs). */
  onProgress?: (done: number, total: number) => void;
}

/** What a compute call needs of MetricRunDeps. */
export type ComputeDeps = Pick<MetricRunDeps, 'pool' | 'limits' | 'log'>;

/** The run was cancelled (client disconnected, job cancelled): there is nobody to answer. */
export class MetricCancelled extends Error {
  constructor() {
    super('the metric run was cancelled');
    this.name = 'MetricCancelled';
  }
}

/** The answer of a metric call: the JSON text the API sends (a bare number, `{ values, meta }` or the write-back summary). */
export interface MetricAnswer {
  json: Uint8Array | string;
  /** With write-back: the stored network's new UUID. */
  networkUUID?: string;
  attributes?: string[];
}

export function metricTimeoutError(metric: AnyMetric, limitMs: number): DomainError {
  const hint = metric.sampling
    ? ` Lower \`kPercent\` (e.g. 30, or less on very large networks) to estimate ${metric.id} from a sample of sources.`
    : ' Try a smaller network, or run it as a job (`Prefer: respond-async`).';
  return new DomainError('METRIC_TIMEOUT', `${metric.id} did not finish within the compute limit of ${limitMs / 1000} s.${hint}`);
}

/** The pool's outcomes as the API reports them: time limit → 422 METRIC_TIMEOUT, cancelled → MetricCancelled; others as they are. */
function mapComputeError(deps: ComputeDeps, metric: AnyMetric, limitMs: number, err: unknown): unknown {
  if (err instanceof EngineError && err.code === 'METRIC_TIMEOUT') {
    deps.log?.info({ metric: metric.id, limitMs }, 'metric timed out');
    return metricTimeoutError(metric, limitMs);
  }
  if (err instanceof EngineError && err.code === 'CANCELLED') {
    deps.log?.info({ metric: metric.id }, 'metric cancelled');
    return new MetricCancelled();
  }
  return err;
}

/** One pool call of `metric`, its failures mapped (see the header). */
async function onPool<T>(deps: ComputeDeps, metric: AnyMetric, opts: RunOptions, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw mapComputeError(deps, metric, opts.timeoutMs ?? deps.limits.metricTimeoutMs, err);
  }
}

export interface ComputeOptions extends RunOptions {
  /** A node metric on a stored network: the worker writes the values into the network text (`networkText`). */
  writeBack?: boolean;
  nodeCount?: number;
}

/** Runs one metric task on the pool (see the header). */
export function computeMetric(deps: ComputeDeps, metric: AnyMetric, network: TaskNetwork, opts: ComputeOptions = {}): Promise<JobResult> {
  return onPool(deps, metric, opts, () =>
    deps.pool.run({ metric: metric.id, network, signal: opts.signal, startedAt: opts.startedAt, writeBack: opts.writeBack, nodeCount: opts.nodeCount, timeoutMs: opts.timeoutMs, onProgress: opts.onProgress }),
  );
}

/** One shard of a split job: the partial sums of sources range `index` of `count` (the engine's SourceParallel). */
export function computeShard(deps: ComputeDeps, metric: AnyMetric, network: TaskNetwork, opts: RunOptions, index: number, count: number): Promise<Float64Array[]> {
  return onPool(deps, metric, opts, () => deps.pool.runPartial({ metric: metric.id, network, signal: opts.signal, timeoutMs: opts.timeoutMs, onProgress: opts.onProgress }, index, count));
}

/** The finish of a split job on its shards' summed partials; `computeStartedAt` is when the first shard started (meta.elapsedMs). */
export function computeMerge(deps: ComputeDeps, metric: AnyMetric, network: TaskNetwork, opts: ComputeOptions, summed: Float64Array[], computeStartedAt: number | undefined): Promise<JobResult> {
  return onPool(deps, metric, opts, () => deps.pool.runFinish({ metric: metric.id, network, signal: opts.signal, writeBack: opts.writeBack, timeoutMs: opts.timeoutMs }, summed, computeStartedAt));
}

/** A node metric's values: attribute → node id → value (what a `{ values }` answer holds). */
export type NodeValues = Record<string, Record<string, number | string>>;

/** What a write-back writes and answers. */
export interface WriteBackChange {
  /** The network text the worker wrote the values into, or the stored text and the values of one or more metrics to write into it here. */
  network: Uint8Array | { text: Uint8Array; values: { metric: AnyMetric; values: NodeValues }[] };
  /** The attributes written (with `values`: their keys, in order). */
  attributes?: string[];
  /** The answer's last field: the run's `meta`, or a batch's `results`. */
  tail: { meta: Record<string, unknown> } | { results: Record<string, unknown>[] };
}

/**
 * Writes node values onto stored network `target` if it is still at `target.version` (else 409 CONFLICT,
 * nothing written) under a new network UUID. Answers `{ _id, networkUUID, attributes, meta | results }`.
 * With `alongside` (a job recording its success with that answer), both happen in one transaction.
 */
export async function writeBack(
  db: Kysely<Database>,
  target: { id: string; version: number },
  change: WriteBackChange,
  alongside?: (trx: Kysely<Database>, answer: string) => Promise<void>,
): Promise<MetricAnswer & { json: string; networkUUID: string; attributes: string[] }> {
  let networkText: Uint8Array;
  let attributes: string[];
  if (change.network instanceof Uint8Array) {
    networkText = change.network;
    attributes = change.attributes ?? [];
  } else {
    const { text, values } = change.network;
    const network = JSON.parse(Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString('utf8')) as NetworkJSON;
    for (const v of values) applyNodeValues(network, v.metric, v.values);
    networkText = new TextEncoder().encode(JSON.stringify(network));
    attributes = values.flatMap((v) => Object.keys(v.values));
  }
  const networkUUID = randomUUID();
  const json = JSON.stringify({ _id: target.id, networkUUID, attributes, ...change.tail });
  const update = (trx: Kysely<Database>) => updateNetworkIf(trx, target.id, target.version, { json: networkText, network_uuid: networkUUID });
  if (!alongside) {
    if (!(await update(db))) throw new DomainError('CONFLICT', 'the network changed while the metric was being computed; nothing was written — retry');
  } else {
    await db.transaction().execute(async (trx) => {
      await alongside(trx, json);
      if (!(await update(trx))) throw new DomainError('CONFLICT', 'the network changed while the job was being computed; nothing was written — submit the job again');
    });
  }
  return { json, networkUUID, attributes };
}
