/**
 * Running one shard of a source-loop metric, and finishing from summed partials (SourceParallel in
 * metrics/types.ts). Mirrors runMetric's setup (parameters, seed, checkpoint, meta) so a split run
 * answers exactly like an unsplit one.
 */
import type { NodeMetric, MetricContext } from '../metrics/types.ts';
import type { NetworkJSON } from '../graph/network-json.ts';
import { getMetric, resolveParams, deriveSeed, mapToIds, type NodeRunOutput } from '../metrics/run.ts';
import { EngineError } from '../errors.ts';
import { ENGINE_VERSION } from '../version.ts';

export { shardSources, shardBlocks } from '../kernels/sssp.ts';

/** The node metric if it can be split, else null. */
export function parallelMetric(id: string): NodeMetric | null {
  const m = getMetric(id);
  return m.kind === 'node' && m.parallel ? (m as NodeMetric) : null;
}

function context(metric: NodeMetric, network: NetworkJSON, networkDirected: boolean, raw: Record<string, unknown>, deadline: number): MetricContext {
  const params = resolveParams(metric, raw);
  metric.validate?.(params, network);
  // as runMetric: only randomised metrics use (and pay for hashing) the seed
  const seed = !metric.randomized ? 0 : typeof params.seed === 'number' ? params.seed : deriveSeed(metric.id, network, params);
  const checkpoint = () => {
    if (Date.now() > deadline) throw new EngineError('METRIC_TIMEOUT', 'metric compute time limit reached');
  };
  return { network, networkDirected, params, seed, checkpoint };
}

export function runPartial(metricId: string, network: NetworkJSON, networkDirected: boolean, params: Record<string, unknown>, deadline: number, index: number, count: number): Float64Array[] {
  const metric = parallelMetric(metricId);
  if (!metric?.parallel) throw new EngineError('INVALID_ARGS', `metric ${metricId} cannot be split`);
  return metric.parallel.partial(context(metric, network, networkDirected, params, deadline), { index, count });
}

export function runFinish(
  metricId: string,
  network: NetworkJSON,
  networkDirected: boolean,
  params: Record<string, unknown>,
  deadline: number,
  summed: Float64Array[],
  startedAt: number,
): NodeRunOutput {
  const metric = parallelMetric(metricId);
  if (!metric?.parallel) throw new EngineError('INVALID_ARGS', `metric ${metricId} cannot be split`);
  const ctx = context(metric, network, networkDirected, params, deadline);
  const result = metric.parallel.finish(ctx, summed);
  const ids = network.nodes.map((nd) => String(nd.id));
  const values: Record<string, Record<string, number | string>> = {};
  for (const [attr, arr] of Object.entries(result.values)) values[attr] = mapToIds(ids, arr);
  const meta = {
    metric: metric.id,
    parameters: ctx.params,
    ...(metric.randomized ? { seed: ctx.seed } : {}),
    nodeCount: network.nodes.length,
    edgeCount: network.edges?.length ?? 0,
    elapsedMs: Math.round((Date.now() - startedAt) * 1000) / 1000,
    engineVersion: ENGINE_VERSION,
    ...result.meta,
  };
  return { kind: 'node', values, meta };
}
