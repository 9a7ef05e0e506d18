/**
 * Running one shard of a source-loop metric, and finishing from summed partials (SourceParallel in
 * metrics/types.ts). Mirrors runMetric's setup (parameters, seed, checkpoint, meta) so a split run
 * answers exactly like an unsplit one.
 */
import type { NodeMetric } from '../metrics/types.ts';
import type { NetworkJSON } from '../graph/network-json.ts';
import { getMetric, prepareRun, runMeta, mapToIds, type NodeRunOutput, type PreparedRun } from '../metrics/run.ts';
import { EngineError } from '../errors.ts';
import type { Progress } from '../kernels/progress.ts';

export { shardSources, shardBlocks } from '../kernels/sources.ts';

/** The node metric if it can be split, else null. */
export function parallelMetric(id: string): NodeMetric | null {
  const m = getMetric(id);
  return m.kind === 'node' && m.parallel ? (m as NodeMetric) : null;
}

function prepare(metric: NodeMetric, network: NetworkJSON, networkDirected: boolean, raw: Record<string, unknown>, deadline: number, progress?: Progress): PreparedRun {
  return prepareRun(metric, network, networkDirected, raw, deadline, progress);
}

export function runPartial(
  metricId: string,
  network: NetworkJSON,
  networkDirected: boolean,
  params: Record<string, unknown>,
  deadline: number,
  index: number,
  count: number,
  /** This shard's sources done / total (kernels/progress.ts). */
  progress?: Progress,
): Float64Array[] {
  const metric = parallelMetric(metricId);
  if (!metric?.parallel) throw new EngineError('INVALID_ARGS', `metric ${metricId} cannot be split`);
  return metric.parallel.partial(prepare(metric, network, networkDirected, params, deadline, progress).ctx, { index, count });
}

export function runFinish(
  metricId: string,
  network: NetworkJSON,
  networkDirected: boolean,
  params: Record<string, unknown>,
  deadline: number,
  summed: Float64Array[],
  /** performance.now() when the run began (meta.elapsedMs) */
  startedAt: number,
): NodeRunOutput {
  const metric = parallelMetric(metricId);
  if (!metric?.parallel) throw new EngineError('INVALID_ARGS', `metric ${metricId} cannot be split`);
  const run = prepare(metric, network, networkDirected, params, deadline);
  const result = metric.parallel.finish(run.ctx, summed);
  const ids = network.nodes.map((nd) => String(nd.id));
  const values: Record<string, Record<string, number | string>> = {};
  for (const [attr, arr] of Object.entries(result.values)) values[attr] = mapToIds(ids, arr);
  const meta = runMeta(run, network, startedAt, result.meta);
  return { kind: 'node', values, meta };
}
