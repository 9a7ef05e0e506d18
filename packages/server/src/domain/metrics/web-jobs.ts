/**
 * The web app's Jobs page and the network page's "run as a job" (docs/web-app.md "Metric jobs"): the
 * signed-in person's metric jobs — the same jobs as `GET /api/v2/jobs` of their user credentials (the
 * session is a full-access user principal) — each with the name of its network, and a metric started on
 * a stored network as a job (the same checks as `Prefer: respond-async` on the public endpoint).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.ts';
import { getNetwork } from '../../store/networks.ts';
import type { Principal } from '../identity/credentials/principal.ts';
import { cancelJob, getJob, listJobs, submitMetricJob, type JobDeps, type JobView } from './jobs.ts';
import { checkMetricPlan, metricById, runStoredMetric } from './runs.ts';
import type { MetricRunDeps, RunOptions } from './compute.ts';
import { getMetric } from '@netloom/engine';
import { DomainError } from '../errors.ts';

export interface WebJob {
  job: JobView;
  /** The network's name (null: posted network JSON, or the network was deleted since). */
  networkName: string | null;
  /** A network-level metric's number once the job succeeded (null otherwise). */
  value: number | null;
}

/** Whether a job is one network-level metric (its answer is one number). */
function isNetworkLevel(job: JobView): boolean {
  if (job.row.batch || job.metrics.length !== 1) return false;
  try {
    return getMetric(job.metrics[0].metric).kind === 'network';
  } catch {
    return false;
  }
}

/** The one number a succeeded network-level job answered (its result is read for it: a few bytes). */
async function valueOf(db: Kysely<Database>, p: Principal, job: JobView): Promise<number | null> {
  if (job.row.status !== 'succeeded' || !isNetworkLevel(job)) return null;
  const full = job.result !== null ? job : await getJob(db, p, job.row.id);
  const v = full.result === null ? null : (JSON.parse(full.result) as unknown);
  return typeof v === 'number' ? v : null;
}

async function named(db: Kysely<Database>, p: Principal, jobs: JobView[]): Promise<WebJob[]> {
  const ids = [...new Set(jobs.map((j) => j.row.network_id).filter((id): id is string => id !== null))];
  const names = new Map<string, string>();
  for (const id of ids) {
    const net = await getNetwork(db, id);
    if (net) names.set(id, net.name);
  }
  const values = await Promise.all(jobs.map((job) => valueOf(db, p, job)));
  return jobs.map((job, k) => ({ job, networkName: job.row.network_id ? (names.get(job.row.network_id) ?? null) : null, value: values[k] }));
}

/** The person's jobs, newest first (without results). */
export async function listWebJobs(db: Kysely<Database>, p: Principal, limit: number, offset: number): Promise<{ jobs: WebJob[]; total: number }> {
  const { jobs, total } = await listJobs(db, p, limit, offset);
  return { jobs: await named(db, p, jobs), total };
}

/** Cancels one of the person's jobs (404 for anyone else's). */
export async function cancelWebJob(deps: JobDeps, p: Principal, id: string): Promise<WebJob> {
  return (await named(deps.db, p, [await cancelJob(deps, p, id)]))[0];
}

/** Runs `metricId` on the stored network as a job: node values are written to it when it succeeds (edit access needed, as for the API). */
export async function startWebMetricJob(deps: JobDeps, p: Principal, networkId: string, metricId: string, params: Record<string, unknown>): Promise<WebJob> {
  const metric = metricById(metricId);
  const body = new TextEncoder().encode(JSON.stringify({ ...params, networkId }));
  return (await named(deps.db, p, [await submitMetricJob(deps, p, metric, body)]))[0];
}

/**
 * The network page's "Compute now" for a network-level metric: its one number at once (the synchronous
 * API call's answer, same plan and access checks), with its parameters and how long it took. Node metrics
 * write onto the network and run as jobs (400 INVALID_ARGS names the metric).
 */
export async function runWebNetworkMetric(deps: MetricRunDeps, p: Principal, networkId: string, metricId: string, params: Record<string, unknown>, opts: RunOptions = {}): Promise<{ metric: string; value: number; parameters: Record<string, unknown>; ms: number }> {
  const metric = metricById(metricId);
  if (metric.kind !== 'network') throw new DomainError('INVALID_ARGS', `params.metricId: ${metricId} is a ${metric.kind === 'node' ? 'node' : 'report'} metric; run it as a job`, [{ path: '/params/metricId', message: 'must be a network-level metric' }]);
  await checkMetricPlan(deps.db, p, metric);
  const t0 = performance.now();
  const answer = await runStoredMetric(deps, p, metric, networkId, params, opts);
  const text = typeof answer.json === 'string' ? answer.json : new TextDecoder().decode(answer.json);
  return { metric: metric.id, value: Number(JSON.parse(text)), parameters: params, ms: Math.round(performance.now() - t0) };
}
