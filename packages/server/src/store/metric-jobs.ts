/**
 * Metric job rows (docs/jobs.md): the jobs people see and the shard rows of split jobs, in one table
 * that is also the queue when there is no Redis.
 *
 * Claiming: a worker takes the next row in fair order (fairCandidates: round-robin between tenants, each
 * tenant's oldest first) that is `runnable` and whose lease is free or expired, in one
 * conditional UPDATE (the WHERE is re-checked on the row itself, so two workers racing for it cannot both
 * win on SQLite or PostgreSQL), and renews `lease_until` while it works. A row whose lease ran out after
 * its last allowed claim is failed instead (`reapExhausted`).
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, JobStatus, MetricJobsTable } from './schema.ts';
import { dialectOf } from './db.ts';

export type JobRow = Selectable<MetricJobsTable>;
export type NewJobRow = Omit<JobRow, 'progress' | 'eta_seconds' | 'attempts' | 'worker_id' | 'lease_until' | 'result_gz' | 'error' | 'started_at' | 'finished_at' | 'expires_at' | 'partial' | 'session_id' | 'write_back'> &
  Partial<Pick<JobRow, 'session_id' | 'write_back'>>;

const ACTIVE: JobStatus[] = ['queued', 'running'];

export async function insertJob(db: Kysely<Database>, row: NewJobRow): Promise<void> {
  await db.insertInto('metric_jobs').values({ ...row, progress: 0, attempts: 0 }).execute();
}

/** A cap on active (queued or running) jobs, counted over the rows whose `column` equals `value`. */
export interface ActiveCap {
  column: 'owner_key' | 'session_id';
  value: string;
  max: number;
}

export type CappedInsert = { inserted: true; activeBefore: number } | { inserted: false; cap: ActiveCap; active: number };

/**
 * Inserts a job only while every cap holds, atomically (docs/security.md "Jobs"; issue 19 finding 6: a
 * count, then an insert without a lock let 500 concurrent submissions through on PostgreSQL). One
 * transaction: on PostgreSQL it first takes a transaction-scoped advisory lock per capped key (in a fixed
 * order, so two submissions never wait on each other crosswise), so concurrent submissions of one tenant
 * count and insert one after the other; on SQLite every transaction is `BEGIN IMMEDIATE` on the one
 * connection, which serialises them already. `activeBefore`: the tenant's active jobs before this one
 * (its place in the tenant's line, the Redis queue's priority).
 */
export async function insertJobWithinCaps(db: Kysely<Database>, row: NewJobRow, caps: ActiveCap[]): Promise<CappedInsert> {
  return db.transaction().execute(async (trx) => {
    if (dialectOf(db) === 'postgres') {
      const keys = caps.map((c) => `netloom:jobs:${c.column}:${c.value}`).sort();
      for (const k of keys) await sql`select pg_advisory_xact_lock(hashtextextended(${k}, 0))`.execute(trx);
    }
    let activeBefore = 0;
    for (const cap of caps) {
      const { n } = await trx
        .selectFrom('metric_jobs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(cap.column, '=', cap.value)
        .where('parent_id', 'is', null)
        .where('status', 'in', ACTIVE)
        .executeTakeFirstOrThrow();
      const active = Number(n);
      if (active >= cap.max) return { inserted: false, cap, active };
      if (cap.column === 'owner_key') activeBefore = active;
    }
    await trx.insertInto('metric_jobs').values({ ...row, progress: 0, attempts: 0 }).execute();
    return { inserted: true, activeBefore };
  });
}

export async function getJobRow(db: Kysely<Database>, id: string): Promise<JobRow | null> {
  return (await db.selectFrom('metric_jobs').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** A job (not a shard row) of one tenant, or null. */
export async function getOwnedJob(db: Kysely<Database>, id: string, ownerKey: string): Promise<JobRow | null> {
  return (await db.selectFrom('metric_jobs').selectAll().where('id', '=', id).where('owner_key', '=', ownerKey).where('parent_id', 'is', null).executeTakeFirst()) ?? null;
}

/** A job (not a shard row) started by one embedded viewer session, or null. */
export async function getSessionJob(db: Kysely<Database>, id: string, sessionId: string): Promise<JobRow | null> {
  return (await db.selectFrom('metric_jobs').selectAll().where('id', '=', id).where('session_id', '=', sessionId).where('parent_id', 'is', null).executeTakeFirst()) ?? null;
}

/** Every column but the big ones (inputs, partials, results). */
export const LIGHT_COLUMNS = ['id', 'parent_id', 'owner_key', 'user_id', 'status', 'phase', 'runnable', 'batch', 'metrics', 'network_id', 'network_version', 'node_count', 'network_directed', 'input_kind', 'shard_index', 'shard_count', 'progress', 'eta_seconds', 'timeout_ms', 'attempts', 'worker_id', 'lease_until', 'error', 'created_at', 'started_at', 'finished_at', 'expires_at', 'session_id', 'write_back'] as const;
export type LightJobRow = Omit<JobRow, 'partial' | 'input_gz' | 'result_gz'>;

/** A tenant's jobs, newest first (without their big columns), and how many there are. */
export async function listOwnedJobs(db: Kysely<Database>, ownerKey: string, limit: number, offset: number): Promise<{ rows: LightJobRow[]; total: number }> {
  const rows = await db
    .selectFrom('metric_jobs')
    .select(LIGHT_COLUMNS)
    .where('owner_key', '=', ownerKey)
    .where('parent_id', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  const { n } = await db.selectFrom('metric_jobs').select((eb) => eb.fn.countAll<number>().as('n')).where('owner_key', '=', ownerKey).where('parent_id', 'is', null).executeTakeFirstOrThrow();
  return { rows, total: Number(n) };
}

/** The shard rows of a job, by index (partials omitted). */
export async function listShards(db: Kysely<Database>, parentId: string): Promise<LightJobRow[]> {
  return db
    .selectFrom('metric_jobs')
    .select(LIGHT_COLUMNS)
    .where('parent_id', '=', parentId)
    .orderBy('shard_index')
    .execute();
}

/** The partial sums of every shard of a job, by index. */
export async function shardPartials(db: Kysely<Database>, parentId: string): Promise<{ shard_index: number | null; status: JobStatus; partial: Uint8Array | null; started_at: string | null }[]> {
  return db.selectFrom('metric_jobs').select(['shard_index', 'status', 'partial', 'started_at']).where('parent_id', '=', parentId).orderBy('shard_index').execute();
}

/**
 * The claimable rows (runnable, not held, claims left) in fair order (docs/jobs.md "Fairness"; issue 19
 * finding 6): first each tenant's oldest claimable row (`rank` 1, its place in the tenant's own line),
 * then each tenant's second, …; among the rows of one rank the tenant with the fewest rows running now
 * goes first, then the one served least recently (its latest `started_at`), then the oldest row. That is
 * round-robin between tenants: one tenant's 150 queued jobs do not keep another's first job waiting
 * behind them. The Redis queue uses `rank` as the message priority.
 */
function fairCandidates(db: Kysely<Database>, now: number, maxClaims: number, limit: number) {
  return sql<{ id: string; phase: JobRow['phase']; rank: number }>`
    with claimable as (
      select id, phase, owner_key, created_at, shard_index,
             row_number() over (partition by owner_key order by created_at, shard_index, id) as rank
      from metric_jobs
      where runnable = 1 and status in ('queued', 'running') and attempts < ${maxClaims}
        and (lease_until is null or lease_until < ${now})
    ),
    tenants as (
      select owner_key,
             sum(case when status = 'running' and runnable = 1 and lease_until is not null and lease_until >= ${now} then 1 else 0 end) as running,
             max(started_at) as served
      from metric_jobs
      where owner_key in (select owner_key from claimable)
      group by owner_key
    )
    select c.id, c.phase, c.rank from claimable c join tenants t on t.owner_key = c.owner_key
    order by c.rank, t.running, coalesce(t.served, ''), c.created_at, c.shard_index, c.id
    limit ${limit}`.execute(db);
}

/**
 * Claims the next claimable row for `workerId` in fair order (fairCandidates; lease until `now +
 * leaseMs`), or null. Rows claimed `maxClaims` times already are not taken again (reapExhausted fails
 * them once their lease passes).
 */
export async function claimNext(db: Kysely<Database>, workerId: string, now: number, leaseMs: number, maxClaims: number): Promise<JobRow | null> {
  const { rows } = await fairCandidates(db, now, maxClaims, 8);
  for (const { id } of rows) {
    const row = await claimRow(db, id, workerId, now, leaseMs, maxClaims);
    if (row) return row;
  }
  return null;
}

/** Claims one row by id (the Redis queue named it), under the same conditions as `claimNext`; null if it is not claimable now. */
export async function claimRow(db: Kysely<Database>, id: string, workerId: string, now: number, leaseMs: number, maxClaims: number): Promise<JobRow | null> {
  const row = await db
    .updateTable('metric_jobs')
    .set({ status: 'running', worker_id: workerId, lease_until: now + leaseMs, attempts: sql<number>`attempts + 1`, started_at: sql<string>`coalesce(started_at, ${new Date(now).toISOString()})` })
    .where('id', '=', id)
    .where('runnable', '=', 1)
    .where('status', 'in', ACTIVE)
    .where('attempts', '<', maxClaims)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Rows that could be claimed now (runnable, not held, claims left), in fair order with each row's place
 * in its tenant's line (`rank`): with the Redis queue, each must have a message; the reconciler adds them
 * again with `rank` as priority (a no-op for those already queued).
 */
export async function claimableRows(db: Kysely<Database>, now: number, maxClaims: number, limit: number): Promise<{ id: string; phase: JobRow['phase']; rank: number }[]> {
  const { rows } = await fairCandidates(db, now, maxClaims, limit);
  return rows.map((r) => ({ ...r, rank: Number(r.rank) }));
}

/** Deletes a job that was never queued (its queue was unreachable when it was submitted). */
export async function deleteUnqueuedJob(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('metric_jobs').where('id', '=', id).where('status', '=', 'queued').where('attempts', '=', 0).execute();
}

/** Rows whose worker vanished after their last allowed claim (lease passed, `attempts >= maxClaims`). */
export async function exhaustedRows(db: Kysely<Database>, now: number, maxClaims: number): Promise<{ id: string; parent_id: string | null; worker_id: string | null }[]> {
  return db
    .selectFrom('metric_jobs')
    .select(['id', 'parent_id', 'worker_id'])
    .where('runnable', '=', 1)
    .where('status', '=', 'running')
    .where('attempts', '>=', maxClaims)
    .where('lease_until', '<', now)
    .limit(100)
    .execute();
}

/**
 * Renews the lease of a row this worker holds and records its progress. False when the row is no longer
 * this worker's running row (cancelled, failed, or taken over after an expired lease): stop working on it.
 */
export async function renewLease(db: Kysely<Database>, id: string, workerId: string, leaseUntil: number, progress: number | null, etaSeconds: number | null): Promise<boolean> {
  const res = await db
    .updateTable('metric_jobs')
    .set({
      lease_until: leaseUntil,
      ...(progress !== null ? { progress: sql<number>`case when progress < ${progress} then ${progress} else progress end`, eta_seconds: etaSeconds } : {}),
    })
    .where('id', '=', id)
    .where('worker_id', '=', workerId)
    .where('status', '=', 'running')
    .where('runnable', '=', 1)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Gives a held row back to the queue at once (graceful worker stop): another worker takes it without waiting for the lease. */
export async function releaseLease(db: Kysely<Database>, id: string, workerId: string): Promise<void> {
  await db.updateTable('metric_jobs').set({ lease_until: null, worker_id: null, attempts: sql<number>`case when attempts > 0 then attempts - 1 else 0 end` }).where('id', '=', id).where('worker_id', '=', workerId).where('status', '=', 'running').execute();
}

/** Splits a held job into shard rows: the parent waits (not runnable) until the last shard arms its merge. */
/** Returns the shard rows' ids, or null when this worker no longer holds the job. */
export async function splitIntoShards(db: Kysely<Database>, parent: JobRow, workerId: string, count: number, newId: () => string): Promise<string[] | null> {
  return db.transaction().execute(async (trx) => {
    const res = await trx
      .updateTable('metric_jobs')
      .set({ phase: 'shards', runnable: 0, lease_until: null, worker_id: null, shard_count: count })
      .where('id', '=', parent.id)
      .where('worker_id', '=', workerId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return null;
    const rows = Array.from({ length: count }, (_, index) => ({
      id: newId(),
      parent_id: parent.id,
      owner_key: parent.owner_key,
      user_id: parent.user_id,
      status: 'queued' as const,
      phase: 'run' as const,
      runnable: 1,
      batch: 0,
      metrics: parent.metrics,
      network_id: parent.network_id,
      network_version: parent.network_version,
      node_count: parent.node_count,
      network_directed: parent.network_directed,
      input_kind: null,
      input_gz: null,
      shard_index: index,
      shard_count: count,
      timeout_ms: parent.timeout_ms,
      // shards keep their job's place in the queue
      created_at: parent.created_at,
      progress: 0,
      attempts: 0,
    }));
    await trx.insertInto('metric_jobs').values(rows).execute();
    return rows.map((r) => r.id);
  });
}

/**
 * Records a shard's partial sums (if this worker still holds it) and, when it was the last one, arms the
 * parent's merge (runnable again, phase `merge`, fresh claim count). Returns false when the shard was no
 * longer held (cancelled or taken over): nothing is recorded.
 */
export async function finishShard(db: Kysely<Database>, shard: JobRow, workerId: string, partial: Uint8Array, now: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const parentId = shard.parent_id as string;
    // Shards finishing at the same moment take turns on their parent's row (PostgreSQL; SQLite runs one
    // write transaction at a time anyway). Without it, under READ COMMITTED each of the last two shards
    // sees the other still running and neither arms the merge: the job waits forever.
    if (dialectOf(db) === 'postgres') await trx.selectFrom('metric_jobs').select('id').where('id', '=', parentId).forUpdate().execute();
    const res = await trx
      .updateTable('metric_jobs')
      .set({ status: 'succeeded', partial, progress: 1, eta_seconds: 0, runnable: 0, lease_until: null, finished_at: new Date(now).toISOString() })
      .where('id', '=', shard.id)
      .where('worker_id', '=', workerId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return false;
    const open = await trx.selectFrom('metric_jobs').select('id').where('parent_id', '=', parentId).where('status', '!=', 'succeeded').limit(1).execute();
    if (open.length === 0) {
      await trx.updateTable('metric_jobs').set({ phase: 'merge', runnable: 1, attempts: 0, lease_until: null, worker_id: null }).where('id', '=', parentId).where('phase', '=', 'shards').where('status', '=', 'running').execute();
    }
    return true;
  });
}

/** Marks a held job succeeded with its answer; false when this worker no longer holds it. Use inside the write-back transaction. */
export async function markSucceeded(db: Kysely<Database>, id: string, workerId: string, resultGz: Uint8Array, now: number, retentionMs: number): Promise<boolean> {
  const res = await db
    .updateTable('metric_jobs')
    .set({ status: 'succeeded', result_gz: resultGz, progress: 1, eta_seconds: 0, runnable: 0, lease_until: null, finished_at: new Date(now).toISOString(), expires_at: new Date(now + retentionMs).toISOString() })
    .where('id', '=', id)
    .where('worker_id', '=', workerId)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * Ends a job (and every unfinished shard of it) as `failed` or `cancelled`, if it is still queued or
 * running. `workerId` (optional) restricts it to the holder. Returns whether the job changed.
 */
export async function endJob(db: Kysely<Database>, id: string, status: 'failed' | 'cancelled', error: string | null, now: number, retentionMs: number, workerId?: string): Promise<boolean> {
  const finished = new Date(now).toISOString();
  const expires = new Date(now + retentionMs).toISOString();
  return db.transaction().execute(async (trx) => {
    let q = trx
      .updateTable('metric_jobs')
      .set({ status, error, runnable: 0, lease_until: null, eta_seconds: null, finished_at: finished, expires_at: expires })
      .where('id', '=', id)
      .where('status', 'in', ACTIVE);
    if (workerId) q = q.where('worker_id', '=', workerId);
    const res = await q.executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return false;
    await trx
      .updateTable('metric_jobs')
      .set({ status: 'cancelled', runnable: 0, lease_until: null, eta_seconds: null, finished_at: finished, expires_at: expires, partial: null })
      .where('parent_id', '=', id)
      .where('status', 'in', ACTIVE)
      .execute();
    return true;
  });
}

/** Marks one shard row failed (its job is ended by the caller). */
export async function failShard(db: Kysely<Database>, id: string, error: string, now: number): Promise<void> {
  await db.updateTable('metric_jobs').set({ status: 'failed', error, runnable: 0, lease_until: null, finished_at: new Date(now).toISOString() }).where('id', '=', id).where('status', 'in', ACTIVE).execute();
}

/** Deletes finished jobs (and their shard rows) whose retention has passed. Returns how many jobs went. */
export async function pruneExpired(db: Kysely<Database>, now: number): Promise<number> {
  const iso = new Date(now).toISOString();
  const expired = await db.selectFrom('metric_jobs').select('id').where('parent_id', 'is', null).where('expires_at', '<', iso).limit(500).execute();
  if (expired.length === 0) return 0;
  const ids = expired.map((r) => r.id);
  await db.deleteFrom('metric_jobs').where('parent_id', 'in', ids).execute();
  await db.deleteFrom('metric_jobs').where('id', 'in', ids).execute();
  return ids.length;
}
