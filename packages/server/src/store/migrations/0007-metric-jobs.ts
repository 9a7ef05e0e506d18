/**
 * 0007: metric jobs (docs/jobs.md). One table holds both the jobs people see and the shard rows of a
 * split source-loop job (`parent_id` set). Without Redis it is also the queue: a worker claims a row
 * whose `runnable` is 1 and whose lease is free or expired (`lease_until`, ms since epoch), and renews the
 * lease while it works, so a dead worker's row is taken again by another one.
 */
import type { Kysely } from 'kysely';
import { binaryType, dialectOf } from '../db.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const bin = binaryType(dialectOf(db));
  await db.schema
    .createTable('metric_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('parent_id', 'text')
    .addColumn('owner_key', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('phase', 'text', (c) => c.notNull())
    .addColumn('runnable', 'integer', (c) => c.notNull())
    .addColumn('batch', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('metrics', 'text', (c) => c.notNull())
    .addColumn('network_id', 'text')
    .addColumn('network_version', 'bigint')
    .addColumn('node_count', 'bigint')
    .addColumn('network_directed', 'integer')
    .addColumn('input_kind', 'text')
    .addColumn('input_gz', bin)
    .addColumn('shard_index', 'integer')
    .addColumn('shard_count', 'integer')
    .addColumn('partial', bin)
    .addColumn('progress', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('eta_seconds', 'double precision')
    .addColumn('timeout_ms', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('worker_id', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('result_gz', bin)
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('expires_at', 'text')
    .execute();
  await db.schema.createIndex('metric_jobs_owner_ix').on('metric_jobs').columns(['owner_key', 'created_at']).execute();
  await db.schema.createIndex('metric_jobs_parent_ix').on('metric_jobs').column('parent_id').execute();
  await db.schema.createIndex('metric_jobs_runnable_ix').on('metric_jobs').columns(['runnable', 'created_at']).execute();
  await db.schema.createIndex('metric_jobs_expires_ix').on('metric_jobs').column('expires_at').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('metric_jobs').ifExists().execute();
}
