/** Metric worker pool: `import { MetricPool } from '@netloom/engine/pool/index.ts'`. */
export { MetricPool, PoolBusyError, settledInOrder, type MetricPoolOptions, type MetricJob, type JobResult, type CompareSource } from './pool.ts';
export { WorkerFailure, type RunTask, type RunReply, type TaskNetwork, type RunStats } from './protocol.ts';
export { parseMetricRequest, responseText, applyNodeValues, ownedAttributes, parseBooleanish, COMMON_KEYS, type MetricRequest, type RequestLimits } from './request.ts';
export { shardSources } from './shard.ts';
export { ownedBytes } from './transfer.ts';
