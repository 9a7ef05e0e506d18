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
import { cancelJob, listJobs, submitMetricJob, type JobDeps, type JobView } from './jobs.ts';
import { metricById } from './runs.ts';

export interface WebJob {
  job: JobView;
  /** The network's name (null: posted network JSON, or the network was deleted since). */
  networkName: string | null;
}

async function named(db: Kysely<Database>, jobs: JobView[]): Promise<WebJob[]> {
  const ids = [...new Set(jobs.map((j) => j.row.network_id).filter((id): id is string => id !== null))];
  const names = new Map<string, string>();
  for (const id of ids) {
    const net = await getNetwork(db, id);
    if (net) names.set(id, net.name);
  }
  return jobs.map((job) => ({ job, networkName: job.row.network_id ? (names.get(job.row.network_id) ?? null) : null }));
}

/** The person's jobs, newest first (without results). */
export async function listWebJobs(db: Kysely<Database>, p: Principal, limit: number, offset: number): Promise<{ jobs: WebJob[]; total: number }> {
  const { jobs, total } = await listJobs(db, p, limit, offset);
  return { jobs: await named(db, jobs), total };
}

/** Cancels one of the person's jobs (404 for anyone else's). */
export async function cancelWebJob(deps: JobDeps, p: Principal, id: string): Promise<WebJob> {
  return (await named(deps.db, [await cancelJob(deps, p, id)]))[0];
}

/** Runs `metricId` on the stored network as a job: node values are written to it when it succeeds (edit access needed, as for the API). */
export async function startWebMetricJob(deps: JobDeps, p: Principal, networkId: string, metricId: string, params: Record<string, unknown>): Promise<WebJob> {
  const metric = metricById(metricId);
  const body = new TextEncoder().encode(JSON.stringify({ ...params, networkId }));
  return (await named(deps.db, [await submitMetricJob(deps, p, metric, body)]))[0];
}
