/** A metric job on the wire (protocol/src/http/jobs.ts JobSchema; docs/jobs.md). */
import type { JobView } from '../domain/metrics/jobs.ts';
import { ERROR_CODES, isErrorCode } from '../http/error-codes.ts';
import { type JobWire } from '@netloom/protocol/http';

export function presentJob(v: JobView, opts: { withResult?: boolean } = {}): JobWire {
  const r = v.row;
  const out: JobWire = {
    jobId: r.id,
    status: r.status,
    progress: Math.round(v.progress * 10_000) / 10_000,
    etaSeconds: v.etaSeconds === null ? null : Math.max(0, Math.round(v.etaSeconds)),
    ...(r.batch ? {} : { metric: v.metrics[0]?.metric }),
    metrics: v.metrics.map((m) => ({ metric: m.metric, parameters: m.params })),
    batch: r.batch === 1,
    ...(r.network_id ? { networkId: r.network_id } : {}),
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    expiresAt: r.expires_at,
  };
  if (opts.withResult !== false && v.result !== null) out.result = JSON.parse(v.result) as unknown;
  if (v.error) {
    const code = isErrorCode(v.error.code) ? v.error.code : 'INTERNAL';
    out.error = {
      type: 'about:blank',
      title: ERROR_CODES[code].title,
      status: v.error.status,
      code,
      detail: v.error.detail,
      message: v.error.detail,
      ...(v.error.errors?.length ? { errors: v.error.errors.slice(0, 100) } : {}),
      requestId: `job:${r.id}`,
    };
  }
  if (v.shards.length) {
    out.shards = v.shards.map((s) => ({
      index: s.shard_index ?? 0,
      count: s.shard_count ?? v.shards.length,
      status: s.status,
      progress: s.status === 'succeeded' ? 1 : Math.round(s.progress * 10_000) / 10_000,
      workerId: s.worker_id,
      attempts: s.attempts,
      startedAt: s.started_at,
      finishedAt: s.finished_at,
    }));
  }
  return out;
}
