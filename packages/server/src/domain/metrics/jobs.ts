/**
 * Metric jobs as the API sees them (docs/jobs.md, docs/spec/decisions.md §8): submitting (`Prefer: respond-async` on a
 * metric endpoint, `POST /metrics/batch`), reading, listing and cancelling, per tenant.
 *
 * - Tenant: an organization credential's jobs belong to the organization, a user credential's to the
 *   user; anyone else's job id is 404 (read and cancel alike), never 403.
 * - Submitting checks what the synchronous call checks before any work (plan, scopes, body, the stored
 *   network's visibility and edit access) and records the stored network's `version`: the result is
 *   written only onto that version (else the job fails with 409 CONFLICT).
 * - Cancelling ends the job and its shard rows at once; a worker in this process is stopped at once,
 *   one in another process at its next heartbeat (docs/jobs.md "Cancel").
 */
import type { Kysely } from 'kysely';
import { getMetric, type AnyMetric } from '@netloom/engine';
import { parseMetricRequest } from '@netloom/engine/pool/index.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../store/schema.ts';
import { deleteUnqueuedJob, endJob, getOwnedJob, insertJobWithinCaps, listOwnedJobs, listShards, type JobRow, type LightJobRow, type NewJobRow } from '../../store/metric-jobs.ts';
import type { Principal } from '../identity/credentials/principal.ts';
import { DomainError, invalidArgs, serviceUnavailable } from '../errors.ts';
import type { RedisJobQueue } from '../../store/job-queue-redis.ts';
import { newId } from '../ids.ts';
import { checkMetricPlan, parseMetricBody, requireScopeOf } from './runs.ts';
import type { MetricRunDeps } from './compute.ts';
import { loadNetworkFor } from '../networks/access.ts';
import { gunzipBytes, gzipBytes, type JobProblem } from './job-codec.ts';
import { abortLocalRuns } from './job-registry.ts';

/** One metric of a job: its id and its parameters (as validated). */
export interface JobMetric {
  metric: string;
  params: Record<string, unknown>;
}

/** A job as read: its row, the answer (JSON text) once it succeeded, and its shard rows when it was split. */
export interface JobView {
  row: LightJobRow;
  result: string | null;
  shards: LightJobRow[];
  /** Progress and ETA as shown (a split job's come from its shards). */
  progress: number;
  etaSeconds: number | null;
  metrics: JobMetric[];
  error: JobProblem | null;
}

export interface JobDeps extends MetricRunDeps {
  jobs: Config['jobs'];
  /** Tells this process's job workers that there is work (they poll otherwise; the table queue). */
  wake?: () => void;
  /** The Redis queue (BullMQ) when REDIS_URL is set: a submitted job is queued there too. */
  queue?: RedisJobQueue | null;
  now?: () => number;
}

/** The tenant of a credential: its organization (organization credentials) or its user. */
export function ownerKeyOf(p: Principal): string {
  return p.orgId ? `org:${p.orgId}` : `user:${p.userId}`;
}

function tooManyJobs(active: number, max: number): DomainError {
  const err = new DomainError('RATE_LIMITED', `${active} jobs are queued or running for this account (at most ${max}); wait for some to finish or cancel them`);
  return Object.assign(err, { headers: { 'retry-after': '30' } });
}

/**
 * Stores a new job row if its tenant is under `NETLOOM_JOB_MAX_ACTIVE` (429 with Retry-After otherwise),
 * counted and inserted atomically (store/metric-jobs.ts insertJobWithinCaps; docs/security.md "Jobs").
 * Returns the row's place in its tenant's line (1 = the tenant's only active job), the Redis queue's
 * priority (docs/jobs.md "Fairness").
 */
async function insertAdmitted(deps: JobDeps, row: NewJobRow): Promise<number> {
  const res = await insertJobWithinCaps(deps.db, row, [{ column: 'owner_key', value: row.owner_key, max: deps.jobs.maxActivePerOwner }]);
  if (!res.inserted) throw tooManyJobs(res.active, deps.jobs.maxActivePerOwner);
  return res.activeBefore + 1;
}

export function baseRow(deps: JobDeps, p: Principal): Pick<JobRow, 'id' | 'parent_id' | 'owner_key' | 'user_id' | 'status' | 'phase' | 'runnable' | 'timeout_ms' | 'created_at' | 'shard_index' | 'shard_count'> {
  return {
    id: newId(),
    parent_id: null,
    owner_key: ownerKeyOf(p),
    user_id: p.userId,
    status: 'queued',
    phase: 'run',
    runnable: 1,
    timeout_ms: deps.jobs.timeoutMs,
    created_at: new Date((deps.now ?? Date.now)()).toISOString(),
    shard_index: null,
    shard_count: null,
  };
}

/** The stored network a job will compute on: access checked now (404 / 403), its version recorded. */
async function storedTarget(db: Kysely<Database>, p: Principal, networkId: string, needEdit: boolean): Promise<{ network_id: string; network_version: number; node_count: number }> {
  requireScopeOf(p, 'networks:read');
  requireScopeOf(p, 'networks:write');
  const { net } = await loadNetworkFor(db, p, networkId, needEdit ? 'edit' : 'read');
  return { network_id: net.id, network_version: net.version, node_count: net.node_count };
}

/** `Prefer: respond-async` on a metric endpoint: the same checks as the synchronous call, then a queued job. */
export async function submitMetricJob(deps: JobDeps, p: Principal, metric: AnyMetric, raw: Uint8Array | undefined): Promise<JobView> {
  await checkMetricPlan(deps.db, p, metric);
  const parsed = parseMetricBody(deps, metric, raw);
  const base = baseRow(deps, p);
  let place: number;
  if (parsed.networkId !== undefined) {
    const target = await storedTarget(deps.db, p, parsed.networkId, metric.kind === 'node');
    place = await insertAdmitted(deps, { ...base, batch: 0, metrics: JSON.stringify([{ metric: metric.id, params: parsed.params }]), ...target, network_directed: null, input_kind: null, input_gz: null });
  } else {
    place = await insertAdmitted(deps, {
      ...base,
      batch: 0,
      metrics: JSON.stringify([{ metric: metric.id, params: parsed.params ?? {} }]),
      network_id: null,
      network_version: null,
      node_count: parsed.nodeCount ?? null,
      network_directed: null,
      input_kind: 'body',
      input_gz: await gzipBytes(raw as Uint8Array),
    });
  }
  await queueJob(deps, base.id, place);
  return readJob(deps.db, base.id, base.owner_key);
}

/**
 * Hands a new job row to the workers: wakes this process's (table queue) or adds its message to the
 * Redis queue, with the row's place in its tenant's line as priority (docs/jobs.md "Fairness"). Redis
 * not answering → the row is removed and 503 UNAVAILABLE with Retry-After (at once: the queue's
 * connection does not wait for a reconnect).
 */
export async function queueJob(deps: JobDeps, id: string, place: number): Promise<void> {
  if (!deps.queue) {
    deps.wake?.();
    return;
  }
  try {
    await deps.queue.add({ rowId: id, phase: 'run' }, place);
  } catch (err) {
    deps.log?.info({ err: String(err), jobId: id }, 'job queue: Redis unreachable; job refused');
    await deleteUnqueuedJob(deps.db, id);
    throw serviceUnavailable('the job queue (Redis) is not answering; nothing was queued — retry shortly');
  }
}

/** `POST /metrics/batch` body (already shape-checked by its schema). */
export interface BatchBody {
  networkId?: string;
  networkJSON?: unknown;
  isDirected?: boolean | 'true' | 'false';
  metrics: ({ metric: string } & Record<string, unknown>)[];
}

/**
 * `POST /metrics/batch`: several metrics on one network as one job. Every metric's parameters are
 * validated now (all problems at once, paths under `/metrics/<i>/`), the network once.
 */
export async function submitBatchJob(deps: JobDeps, p: Principal, body: BatchBody): Promise<JobView> {
  const hasId = body.networkId !== undefined;
  if (hasId === (body.networkJSON !== undefined)) {
    throw new DomainError('INVALID_ARGS', 'exactly one of networkId and networkJSON is required', [{ path: hasId ? '/networkJSON' : '/networkId', message: 'exactly one of networkId and networkJSON is required' }]);
  }
  const items: { metric: AnyMetric; params: Record<string, unknown> }[] = [];
  const problems: { path: string; message: string }[] = [];
  body.metrics.forEach((entry, i) => {
    const { metric: id, ...params } = entry;
    let metric: AnyMetric;
    try {
      metric = getMetric(id);
    } catch {
      problems.push({ path: `/metrics/${i}/metric`, message: `unknown metric ${JSON.stringify(id)}` });
      return;
    }
    try {
      // parameters only (the network is checked once below)
      const req = parseMetricRequest(metric, { ...params, networkId: 'batch' }, { maxNodes: deps.limits.maxNodes, maxEdges: deps.limits.maxEdges });
      items.push({ metric, params: req.params });
    } catch (err) {
      const e = err as { errors?: { path: string; message: string }[]; message?: string };
      for (const pr of e.errors?.length ? e.errors : [{ path: '', message: String(e.message) }]) problems.push({ path: `/metrics/${i}${pr.path}`, message: pr.message });
    }
  });
  if (problems.length) throw invalidArgs(problems);
  for (const it of items) await checkMetricPlan(deps.db, p, it.metric);
  const base = baseRow(deps, p);
  const metrics = JSON.stringify(items.map((it) => ({ metric: it.metric.id, params: it.params })));
  let place: number;
  if (hasId) {
    const target = await storedTarget(deps.db, p, body.networkId as string, items.some((it) => it.metric.kind === 'node'));
    place = await insertAdmitted(deps, { ...base, batch: 1, metrics, ...target, network_directed: null, input_kind: null, input_gz: null });
  } else {
    // the network, validated once (with the first metric; its parameters are already known to be valid)
    const { metric: _first, ...firstParams } = body.metrics[0];
    void _first;
    const req = parseMetricRequest(items[0].metric, { ...firstParams, networkJSON: body.networkJSON, ...(body.isDirected === undefined ? {} : { isDirected: body.isDirected }) }, { maxNodes: deps.limits.maxNodes, maxEdges: deps.limits.maxEdges });
    const network = req.network as { nodes: unknown[] };
    place = await insertAdmitted(deps, {
      ...base,
      batch: 1,
      metrics,
      network_id: null,
      network_version: null,
      node_count: network.nodes.length,
      network_directed: req.isDirected ? 1 : 0,
      input_kind: 'network',
      input_gz: await gzipBytes(JSON.stringify(network)),
    });
  }
  await queueJob(deps, base.id, place);
  return readJob(deps.db, base.id, base.owner_key);
}

/** Progress and ETA of a job as shown: a split job's are its shards' (mean progress; ETA from the elapsed time). */
function shownProgress(row: LightJobRow, shards: LightJobRow[], now: number): { progress: number; etaSeconds: number | null } {
  if (row.status === 'succeeded') return { progress: 1, etaSeconds: 0 };
  if (row.status !== 'running' || shards.length === 0) return { progress: row.progress, etaSeconds: row.status === 'running' ? row.eta_seconds : null };
  if (row.phase === 'merge') return { progress: Math.max(row.progress, 0.99), etaSeconds: row.eta_seconds ?? 1 };
  const progress = shards.reduce((s, sh) => s + (sh.status === 'succeeded' ? 1 : sh.progress), 0) / shards.length;
  const started = row.started_at ? Date.parse(row.started_at) : now;
  const elapsed = Math.max(0, (now - started) / 1000);
  const etaSeconds = progress > 0.001 ? Math.round((elapsed * (1 - progress)) / progress) : null;
  return { progress: Math.min(progress, 0.99), etaSeconds };
}

/** A job row as read (its shards' progress, the result when `withResult`). */
export async function jobView(db: Kysely<Database>, row: JobRow | LightJobRow, withResult: boolean, now = Date.now()): Promise<JobView> {
  const shards = row.shard_count ? await listShards(db, row.id) : [];
  const { progress, etaSeconds } = shownProgress(row, shards, now);
  let result: string | null = null;
  const gz = (row as JobRow).result_gz;
  if (withResult && gz) result = Buffer.from(await gunzipBytes(gz)).toString('utf8');
  return {
    row,
    result,
    shards,
    progress,
    etaSeconds,
    metrics: JSON.parse(row.metrics) as JobMetric[],
    error: row.error ? (JSON.parse(row.error) as JobProblem) : null,
  };
}

async function readJob(db: Kysely<Database>, id: string, ownerKey: string): Promise<JobView> {
  const row = await getOwnedJob(db, id, ownerKey);
  if (!row) throw new DomainError('NOT_FOUND', `no job ${JSON.stringify(id)}`);
  return jobView(db, row, true);
}

/** `GET /jobs/:id`: the caller's own job (or its organization's), with its result; else 404. */
export async function getJob(db: Kysely<Database>, p: Principal, id: string): Promise<JobView> {
  return readJob(db, id, ownerKeyOf(p));
}

/** `GET /jobs`: the caller's jobs, newest first, without results (read one job for its result). */
export async function listJobs(db: Kysely<Database>, p: Principal, limit: number, offset: number): Promise<{ jobs: JobView[]; total: number }> {
  const { rows, total } = await listOwnedJobs(db, ownerKeyOf(p), limit, offset);
  const now = Date.now();
  return { jobs: await Promise.all(rows.map((r) => jobView(db, r, false, now))), total };
}

/** `DELETE /jobs/:id`: cancels a queued or running job (a finished one is answered as it is). */
export async function cancelJob(deps: Pick<JobDeps, 'db' | 'jobs' | 'now'>, p: Principal, id: string): Promise<JobView> {
  const ownerKey = ownerKeyOf(p);
  const row = await getOwnedJob(deps.db, id, ownerKey);
  if (!row) throw new DomainError('NOT_FOUND', `no job ${JSON.stringify(id)}`);
  if (await endJob(deps.db, id, 'cancelled', null, (deps.now ?? Date.now)(), deps.jobs.retentionMs)) abortLocalRuns(id);
  return readJob(deps.db, id, ownerKey);
}
