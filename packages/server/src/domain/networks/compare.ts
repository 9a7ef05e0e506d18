/**
 * Network compare (docs/spec/decisions.md §11 "Compare"; definitions in packages/engine/src/compare/compare.ts):
 * `POST /api/v2/networks/compare` and the web app's compare view take this one path.
 *
 * Checks, in order: the metric ids (400 naming `/metrics/<i>`), then with metrics the scope `metrics:write`
 * and the metrics plan of every metric (403, as the metric endpoints), then read access to both
 * networks (404 for a network the caller may not see, as `GET /networks/:id`). The comparison runs in
 * the metric worker pool (parsing both networks and the metrics off the event loop) under the metric
 * time limit (422 METRIC_TIMEOUT) and is cancelled when the client goes away.
 */
import { checkCompareMetrics, type CompareParams } from '@netloom/engine/compare/compare.ts';
import { EngineError, getMetric } from '@netloom/engine';
import { DomainError } from '../errors.ts';
import { surveyGroupFloor } from '../metrics/survey-groups.ts';
import type { Principal } from '../identity/credentials/principal.ts';
import { checkMetricPlan, loadStoredNetwork, requireScopeOf } from '../metrics/runs.ts';
import { MetricCancelled, type MetricRunDeps, type RunOptions } from '../metrics/compute.ts';

export interface CompareRequest extends CompareParams {
  a: string;
  b: string;
}

/** The comparison's JSON text (the API answer, `NetworkCompare`). */
export async function compareStoredNetworks(deps: MetricRunDeps, p: Principal, body: CompareRequest, opts: RunOptions = {}): Promise<Uint8Array> {
  const metrics = body.metrics ?? [];
  checkCompareMetrics(metrics);
  if (metrics.length > 0) {
    requireScopeOf(p, 'metrics:write');
    for (const id of metrics) await checkMetricPlan(deps.db, p, getMetric(id));
  }
  const a = await loadStoredNetwork(deps.db, p, body.a, 'read');
  const b = await loadStoredNetwork(deps.db, p, body.b, 'read');
  // Survey networks: the group changes honour the larger of the two surveys' minimum group sizes (§11).
  const floor = Math.max((await surveyGroupFloor(deps.db, body.a)) ?? 1, (await surveyGroupFloor(deps.db, body.b)) ?? 1);
  const minGroupSize = Math.max(body.minGroupSize ?? 1, floor);
  const params: CompareParams & Record<string, unknown> = { metrics, attribute: body.attribute, minGroupSize, metricEdgeWeights: body.metricEdgeWeights };
  const started = performance.now();
  try {
    const out = await deps.pool.compare({ a: { text: a.text, networkDirected: a.directed }, b: { text: b.text, networkDirected: b.directed }, params, signal: opts.signal, startedAt: opts.startedAt });
    deps.log?.info({ a: body.a, b: body.b, nodes: a.net.node_count + b.net.node_count, metrics: metrics.length, elapsedMs: Math.round(performance.now() - started) }, 'networks compared');
    return out;
  } catch (err) {
    if (err instanceof EngineError && err.code === 'METRIC_TIMEOUT') {
      const limit = deps.limits.metricTimeoutMs / 1000;
      throw new DomainError('METRIC_TIMEOUT', `the comparison did not finish within the compute limit of ${limit} s.${metrics.length ? ' Compare with fewer or faster metrics (e.g. totalDegree).' : ''}`);
    }
    if (err instanceof EngineError && err.code === 'CANCELLED') throw new MetricCancelled();
    throw err;
  }
}
