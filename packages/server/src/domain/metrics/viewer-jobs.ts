/**
 * Metric jobs of the embedded viewer (docs/embedding-api.md "Metric jobs"; issue 13 item 4): the viewer's
 * Metrics panel runs a metric as a job so that it can show the kernel's progress, an ETA and Cancel.
 *
 * - The same checks as the viewer's synchronous metric call (checkSessionMetric: metric, body, plan,
 *   hourly allowance), and one job at a time per session (429 RATE_LIMITED, as the synchronous lock).
 * - The job computes on the session's stored network as it is now (its version is recorded, as for API
 *   jobs) and answers the values; it writes them to the network only in owner-mode Explore with edit
 *   access (as the synchronous call does). Otherwise `write_back` is 0: nothing is written.
 * - A job belongs to its session (`session_id`): the viewer's job endpoints find only their session's
 *   jobs; any other id is 404, for reading and cancelling alike. Its tenant (`owner_key`) is the web user
 *   in owner-mode Explore (so the web app's Jobs page lists it), else the session itself (no API
 *   credential ever sees an embedded session's jobs).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.ts';
import { endJob, getSessionJob, insertJobWithinCaps, type ActiveCap } from '../../store/metric-jobs.ts';
import { getNetwork } from '../../store/networks.ts';
import { audit, sessionActor, RateLimitedError, type EmbedContext } from '../embedding/context.ts';
import type { LiveSession } from '../embedding/sessions.ts';
import { DomainError } from '../errors.ts';
import { newId } from '../ids.ts';
import { abortLocalRuns } from './job-registry.ts';
import { jobView, ownerKeyOf, queueJob, type JobDeps, type JobView } from './jobs.ts';
import { checkSessionMetric } from './runs.ts';

/** `POST /api/v2/embed/viewer/metrics/:kind/:metricId` with `Prefer: respond-async`: a queued job of this session. */
export async function submitSessionMetricJob(deps: JobDeps, ctx: EmbedContext, live: LiveSession, kind: 'network' | 'nodes', metricId: string, rawBody: unknown, clientIp: string): Promise<JobView> {
  const { metric, owner, params } = await checkSessionMetric(deps, ctx, live, kind, metricId, rawBody, clientIp);
  const ownerKey = owner ? ownerKeyOf(owner) : `session:${live.session.id}`;
  const net = await getNetwork(deps.db, live.session.network_id);
  if (!net) throw new DomainError('NOT_FOUND', 'the session’s network no longer exists');
  const writeBack = owner !== null && live.explore?.access !== 'read' && metric.kind === 'node';
  const id = newId();
  // one job at a time per session, and the owner's cap in owner mode: counted and inserted atomically
  const caps: ActiveCap[] = [{ column: 'session_id', value: live.session.id, max: 1 }];
  if (owner) caps.push({ column: 'owner_key', value: ownerKey, max: deps.jobs.maxActivePerOwner });
  const admitted = await insertJobWithinCaps(deps.db, {
    id,
    parent_id: null,
    owner_key: ownerKey,
    user_id: owner ? owner.userId : live.session.user_id,
    status: 'queued',
    phase: 'run',
    runnable: 1,
    batch: 0,
    metrics: JSON.stringify([{ metric: metric.id, params }]),
    network_id: net.id,
    network_version: net.version,
    node_count: net.node_count,
    network_directed: null,
    input_kind: null,
    input_gz: null,
    shard_index: null,
    shard_count: null,
    timeout_ms: deps.jobs.timeoutMs,
    created_at: new Date((deps.now ?? Date.now)()).toISOString(),
    session_id: live.session.id,
    write_back: writeBack ? 1 : 0,
  }, caps);
  if (!admitted.inserted) {
    if (admitted.cap.column === 'session_id') throw new RateLimitedError('one metric calculation at a time per session; another one is running (cancel it or wait for it to finish)', 1);
    throw new RateLimitedError(`${deps.jobs.maxActivePerOwner} jobs are queued or running for this account; wait for some to finish or cancel them`, 30);
  }
  // this process's workers (table queue) or the Redis queue, as every job (503 when Redis does not answer)
  await queueJob(deps, id, admitted.activeBefore + 1);
  await audit(ctx, live.session.org_id, sessionActor(live.session), 'metric.run', live.user.external_id, {
    sessionId: live.session.id,
    networkId: live.session.network_id,
    metric: metric.id,
    jobId: id,
  });
  return readSessionJob(deps.db, live, id);
}

async function readSessionJob(db: Kysely<Database>, live: LiveSession, id: string): Promise<JobView> {
  const row = await getSessionJob(db, id, live.session.id);
  if (!row) throw new DomainError('NOT_FOUND', `no job ${JSON.stringify(id)} in this session`);
  return jobView(db, row, true);
}

/** `GET /api/v2/embed/viewer/jobs/:jobId`: one of this session's jobs (with its values once it succeeded); else 404. */
export function getSessionMetricJob(db: Kysely<Database>, live: LiveSession, id: string): Promise<JobView> {
  return readSessionJob(db, live, id);
}

/** `DELETE /api/v2/embed/viewer/jobs/:jobId`: cancels this session's queued or running job (its worker is freed). */
export async function cancelSessionMetricJob(deps: Pick<JobDeps, 'db' | 'jobs' | 'now'>, live: LiveSession, id: string): Promise<JobView> {
  const row = await getSessionJob(deps.db, id, live.session.id);
  if (!row) throw new DomainError('NOT_FOUND', `no job ${JSON.stringify(id)} in this session`);
  if (await endJob(deps.db, id, 'cancelled', null, (deps.now ?? Date.now)(), deps.jobs.retentionMs)) abortLocalRuns(id);
  return readSessionJob(deps.db, live, id);
}
