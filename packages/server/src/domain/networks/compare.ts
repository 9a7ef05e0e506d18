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
import type { EdgeJSON, NetworkJSON, NodeJSON } from '@netloom/engine/graph/network-json.ts';
import type { Config } from '../../config.ts';
import { DomainError } from '../errors.ts';
import { createNetwork } from './create.ts';
import { surveyGroupFloor } from '../metrics/survey-groups.ts';
import type { Principal } from '../identity/credentials/principal.ts';
import { checkMetricPlan, loadStoredNetwork, requireScopeOf } from '../metrics/runs.ts';
import { loadNetworkFor } from './access.ts';
import { isDirectedNetwork, type NetworkRecord } from '../../store/networks.ts';
import { settledInOrder, type CompareSource } from '@netloom/engine/pool/index.ts';
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
  // access to both first (a's refusal first); the JSON is read only for a network whose prepared side is
  // not cached (pool: digest-cache.ts, keyed by network and version), both at once (gunzips side by side)
  const [na, nb] = settledInOrder(await Promise.allSettled([loadNetworkFor(deps.db, p, body.a, 'read'), loadNetworkFor(deps.db, p, body.b, 'read')]));
  // Survey networks: the group changes honour the larger of the two surveys' minimum group sizes (§11).
  const floor = Math.max((await surveyGroupFloor(deps.db, body.a)) ?? 1, (await surveyGroupFloor(deps.db, body.b)) ?? 1);
  const minGroupSize = Math.max(body.minGroupSize ?? 1, floor);
  const params: CompareParams & Record<string, unknown> = { metrics, attribute: body.attribute, minGroupSize, metricEdgeWeights: body.metricEdgeWeights };
  const source = (id: string, net: NetworkRecord): CompareSource => ({
    networkDirected: isDirectedNetwork(net),
    key: `${id}@${net.version}`,
    load: async () => {
      const stored = await loadStoredNetwork(deps.db, p, id, 'read');
      // the version read may be newer than the one checked: it is kept under its own key, and a change of direction too
      if (isDirectedNetwork(stored.net) !== isDirectedNetwork(net)) throw new DomainError('CONFLICT', 'the network is being changed; retry');
      return { text: stored.text, key: `${id}@${stored.version}` };
    },
  });
  const started = performance.now();
  try {
    const out = await deps.pool.compare({ a: source(body.a, na.net), b: source(body.b, nb.net), params, signal: opts.signal, startedAt: opts.startedAt });
    deps.log?.info({ a: body.a, b: body.b, nodes: na.net.node_count + nb.net.node_count, metrics: metrics.length, elapsedMs: Math.round(performance.now() - started) }, 'networks compared');
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

/**
 * The difference of two networks as a network of its own (docs/api/analysis.md "Difference network"),
 * stored for the caller so the viewer can show it: every node of either network (b's attributes and
 * position, else a's) with `Change` = joined | left | kept, and every tie of either (ties as in compare:
 * self-loops ignored, parallel edges merged; directed when both are) with `Change` = added | removed |
 * kept. The viewer colours `Change` with fixed colours (added green, removed red, kept faded) and a legend.
 * Parsed on the request thread: meant for survey-sized networks (the compare itself runs in the pool).
 */
export async function createDifferenceNetwork(deps: MetricRunDeps & { config: Config }, p: Principal, body: { a: string; b: string }): Promise<{ _id: string; name: string; nodeCount: number; edgeCount: number }> {
  requireScopeOf(p, 'networks:write');
  const a = await loadStoredNetwork(deps.db, p, body.a, 'read');
  const b = await loadStoredNetwork(deps.db, p, body.b, 'read');
  const parse = (t: Uint8Array) => JSON.parse(Buffer.from(t.buffer, t.byteOffset, t.byteLength).toString('utf8')) as NetworkJSON;
  const na = parse(a.text);
  const nb = parse(b.text);
  const directed = a.directed && b.directed;
  const nodes = new Map<string, NodeJSON>();
  const inA = new Set(na.nodes.map((n) => String(n.id)));
  const inB = new Set(nb.nodes.map((n) => String(n.id)));
  for (const n of [...nb.nodes, ...na.nodes]) {
    const id = String(n.id);
    if (nodes.has(id)) continue;
    const change = inA.has(id) && inB.has(id) ? 'kept' : inB.has(id) ? 'joined' : 'left';
    nodes.set(id, { ...n, id, attributes: { ...(n.attributes ?? {}), Change: change } });
  }
  const ties = (net: NetworkJSON) => {
    const out = new Map<string, [string, string]>();
    for (const e of net.edges ?? []) {
      const s = String(e.source);
      const t = String(e.target);
      if (s === t) continue;
      const [u, v] = directed || s < t ? [s, t] : [t, s];
      out.set(`${u}\u0000${v}`, [u, v]);
    }
    return out;
  };
  const ta = ties(na);
  const tb = ties(nb);
  const edges: EdgeJSON[] = [];
  for (const [k, [u, v]] of tb) edges.push({ id: `d${edges.length + 1}`, source: u, target: v, attributes: { Change: ta.has(k) ? 'kept' : 'added' } });
  for (const [k, [u, v]] of ta) if (!tb.has(k)) edges.push({ id: `d${edges.length + 1}`, source: u, target: v, attributes: { Change: 'removed' } });
  const name = `Difference: ${a.net.name} → ${b.net.name}`.slice(0, 300);
  const rec = await createNetwork(deps.db, deps.config, p, {
    name,
    description: `Ties added, removed and kept from "${a.net.name}" (${body.a}) to "${b.net.name}" (${body.b}); node and edge attribute Change. Made by the compare view.`,
    isDirected: directed,
    status: 'Private',
    networkJSONText: JSON.stringify({ nodes: [...nodes.values()], edges }),
    owner: undefined,
    nodeCount: nodes.size,
    edgeCount: edges.length,
  });
  return { _id: rec.id, name, nodeCount: nodes.size, edgeCount: edges.length };
}
