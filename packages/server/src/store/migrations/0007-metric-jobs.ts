/**
 * 0007: metric jobs (docs/jobs.md). One table holds both the jobs people see and the shard rows of a
 * split source-loop job (`parent_id` set). Without Redis it is also the queue: a worker claims a row
 * whose `runnable` is 1 and whose lease is free or expired (`lease_until`, ms since epoch), and renews the
 * lease while it works, so a dead worker's row is taken again by another one.
 */
import { binaryType, dialectOf } from '../db.ts';
import { createTable, dropTables, id, index, notNull, nullable, text, withDefault, type AnyDb } from './tables.ts';

export async function up(db: AnyDb): Promise<void> {
  const bin = binaryType(dialectOf(db));
  await createTable(db, 'metric_jobs', [
    id,
    nullable('text', 'parent_id'),
    text('owner_key', 'user_id', 'status', 'phase'),
    notNull('integer', 'runnable'),
    withDefault('batch', 'integer', 0),
    text('metrics'),
    nullable('text', 'network_id'),
    nullable('bigint', 'network_version', 'node_count'),
    nullable('integer', 'network_directed'),
    nullable('text', 'input_kind'),
    nullable(bin, 'input_gz'),
    nullable('integer', 'shard_index', 'shard_count'),
    nullable(bin, 'partial'),
    withDefault('progress', 'double precision', 0),
    nullable('double precision', 'eta_seconds'),
    notNull('bigint', 'timeout_ms'),
    withDefault('attempts', 'integer', 0),
    nullable('text', 'worker_id'),
    nullable('bigint', 'lease_until'),
    nullable(bin, 'result_gz'),
    nullable('text', 'error'),
    text('created_at'),
    nullable('text', 'started_at', 'finished_at', 'expires_at'),
  ], {
    indexes: [
      index('metric_jobs_owner_ix', 'owner_key', 'created_at'),
      index('metric_jobs_parent_ix', 'parent_id'),
      index('metric_jobs_runnable_ix', 'runnable', 'created_at'),
      index('metric_jobs_expires_ix', 'expires_at'),
    ],
  });
}

export async function down(db: AnyDb): Promise<void> {
  await dropTables(db, 'metric_jobs');
}
