/**
 * The API path of a metric under `/api/v2/metrics/` — `network/<id>` for network metrics and reports, `nodes/<id>`
 * for node metrics (API.md Metrics; docs/metrics.md) — and the way back from a path to the metric, so
 * the routes, the CLI and the docs name metrics alike.
 */
import { EngineError, getMetric, metrics } from '@netloom/engine';

type Metric = ReturnType<typeof getMetric>;

/** `network/diameter`, `nodes/betweennessCentrality`. */
export function metricPath(metric: Pick<Metric, 'kind' | 'id'>): string {
  return `${metric.kind === 'node' ? 'nodes' : 'network'}/${metric.id}`;
}

/**
 * The metric a command-line argument names: a registry id (`diameter`) or its API path, with or without
 * the `/api/v2/metrics/` (or `metrics/`) prefix (`network/diameter`, `/api/v2/metrics/nodes/pageRank`).
 * Unknown names and a path of the wrong kind are INVALID_ARGS naming the path to use.
 */
export function metricFromArgument(arg: string): Metric {
  const m = /^\/?(?:api\/v2\/)?(?:metrics\/)?([^/]+)\/([^/]+)\/?$/.exec(arg);
  if (!m) return getMetric(arg);
  const [, kind, id] = m;
  const metric = metrics.get(id);
  if (metric && metricPath(metric) === `${kind}/${id}`) return metric;
  const hint = metric ? `; ${id} is a ${metric.kind} metric: ${metricPath(metric)}` : '';
  const message = `unknown metric path ${JSON.stringify(arg)}: expected network/<id> or nodes/<id> with a metric id from \`netloom metrics list\`${hint}`;
  throw new EngineError('INVALID_ARGS', message, [{ path: '/metric', message: 'unknown metric path' }]);
}
