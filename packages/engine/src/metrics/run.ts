/**
 * Runs one registry metric on a network: validates and defaults the parameters, derives the seed,
 * calls the metric and maps index-ordered values back to node ids (the response shape of
 * docs/spec/decisions.md §4.3). Used by the worker pool and the CLI alike, so both print the same JSON.
 */
import { Value } from 'typebox/value';
import { createHash } from 'node:crypto';
import type { AnyMetric, MetricContext, NodeValues } from './types.ts';
import type { NetworkJSON } from '../graph/network-json.ts';
import { EngineError, invalidArgsOf, type ProblemItem } from '../errors.ts';
import { metrics } from './registry.ts';
import { weightAttribute } from '../graph/build.ts';
import { ENGINE_VERSION } from '../version.ts';
import type { Progress } from '../kernels/progress.ts';

export interface RunInput {
  metric: string;
  network: NetworkJSON;
  networkDirected: boolean;
  /** The metric's own parameters as sent (unknown keys refused). */
  params: Record<string, unknown>;
  /** Absolute deadline (ms since epoch); omitted = none. */
  deadline?: number;
  /** Progress sink passed to the metric as `ctx.progress` (kernels/progress.ts). */
  progress?: Progress;
}

export interface NodeRunOutput {
  kind: 'node';
  values: Record<string, Record<string, number | string>>;
  meta: Record<string, unknown>;
}
export interface NetworkRunOutput {
  kind: 'network';
  value: number;
  meta: Record<string, unknown>;
}
export interface ReportRunOutput {
  kind: 'report';
  value: Record<string, unknown>;
  meta: Record<string, unknown>;
}
export type RunOutput = NodeRunOutput | NetworkRunOutput | ReportRunOutput;

export function getMetric(id: string): AnyMetric {
  const m = metrics.get(id);
  if (!m) throw new EngineError('INVALID_ARGS', `unknown metric ${JSON.stringify(id)}`, [{ path: '/metric', message: 'unknown metric' }]);
  return m;
}

/** Validates parameters against the metric's schema, filling defaults. Reports every problem. */
export function resolveParams(metric: AnyMetric, raw: Record<string, unknown>, pathPrefix = ''): Record<string, unknown> {
  const schema = metric.params;
  const params = Value.Default(schema, Value.Clone(raw)) as Record<string, unknown>;
  const problems: ProblemItem[] = [];
  for (const err of Value.Errors(schema, params)) {
    const e = err as unknown as { instancePath?: string; path?: string; message: string; params?: Record<string, unknown> };
    let path = e.instancePath ?? e.path ?? '';
    if (e.params && typeof e.params.additionalProperty === 'string') path = `${path}/${e.params.additionalProperty}`;
    if (e.params && Array.isArray(e.params.additionalProperties)) path = `${path}/${e.params.additionalProperties[0]}`;
    if (e.params && typeof e.params.missingProperty === 'string') path = `${path}/${e.params.missingProperty}`;
    if (e.params && Array.isArray(e.params.requiredProperties)) path = `${path}/${e.params.requiredProperties[0]}`;
    problems.push({ path: pathPrefix + path, message: e.message });
    if (problems.length >= 100) break;
  }
  if (problems.length > 0) {
    throw invalidArgsOf(problems, 'parameters');
  }
  return params;
}

/** Seed derived from network content and parameters (docs/spec/metrics-extra.md): same request, same answer. */
export function deriveSeed(metricId: string, network: NetworkJSON, params: Record<string, unknown>): number {
  const h = createHash('sha256');
  h.update(metricId);
  h.update(JSON.stringify(params));
  // fed in ~64k-character chunks: the same bytes as one update per node/edge (pieces end with a
  // separator, so joining them never pairs surrogates), at a fraction of the calls
  let chunk = '';
  for (const node of network.nodes) {
    chunk += String(node.id) + '\u0000';
    if (chunk.length >= 65536) {
      h.update(chunk);
      chunk = '';
    }
  }
  for (const e of network.edges ?? []) {
    chunk += String(e.source) + '\u0001' + String(e.target) + '\u0002';
    if (chunk.length >= 65536) {
      h.update(chunk);
      chunk = '';
    }
  }
  h.update(chunk);
  return h.digest().readUInt32LE(0);
}

function countEdges(network: NetworkJSON): number {
  return network.edges?.length ?? 0;
}

/**
 * The edge attribute that holds weights (docs/spec/decisions.md §4.1): `metricEdgeWeights: true` reads
 * `weight`, or `Weight` when no edge has `weight` but some edge has `Weight` (Gephi and the original
 * service's exporter write `Weight`); a String names the attribute exactly; otherwise null (unweighted).
 */
export function resolveWeightAttribute(metricEdgeWeights: unknown, network: NetworkJSON): string | null {
  const named = weightAttribute(metricEdgeWeights);
  if (named !== 'weight' || typeof metricEdgeWeights === 'string' && metricEdgeWeights === 'weight') return named;
  let capital = false;
  for (const e of network.edges ?? []) {
    const a = e.attributes;
    if (!a) continue;
    if (a.weight !== undefined) return 'weight';
    if (a.Weight !== undefined) capital = true;
  }
  return capital ? 'Weight' : 'weight';
}

/** What runMetric and a split run (pool/shard.ts) set up alike: parameters, seed, weights, deadline. */
export interface PreparedRun {
  metric: AnyMetric;
  /** The parameters as sent, with defaults: what meta reports. */
  params: Record<string, unknown>;
  weightAttr: string | null;
  seed: number;
  ctx: MetricContext;
}

export function prepareRun(
  metricOrId: string | AnyMetric,
  network: NetworkJSON,
  networkDirected: boolean,
  raw: Record<string, unknown>,
  deadline: number,
  progress?: MetricContext['progress'],
): PreparedRun {
  const metric = typeof metricOrId === 'string' ? getMetric(metricOrId) : metricOrId;
  const params = resolveParams(metric, raw);
  metric.validate?.(params, network);
  // hashing the whole network costs ~0.1 s per 250k edges: only randomised metrics use the seed
  const seed = !metric.randomized ? 0 : typeof params.seed === 'number' ? params.seed : deriveSeed(metric.id, network, params);
  const checkpoint = () => {
    if (Date.now() > deadline) throw new EngineError('METRIC_TIMEOUT', 'metric compute time limit reached');
  };
  const weightAttr = resolveWeightAttribute(params.metricEdgeWeights, network);
  // the metric reads the resolved attribute name; `parameters` in meta keeps what was sent
  const ctxParams = weightAttr === null || params.metricEdgeWeights === weightAttr ? params : { ...params, metricEdgeWeights: weightAttr };
  return { metric, params, weightAttr, seed, ctx: { network, networkDirected, params: ctxParams, seed, checkpoint, progress } };
}

/** The meta every answer carries (docs/spec/decisions.md §4.3), from a prepared run. */
export function runMeta(run: PreparedRun, network: NetworkJSON, startedMs: number, extra?: Record<string, unknown>): Record<string, unknown> {
  return {
    metric: run.metric.id,
    parameters: run.params,
    ...(run.weightAttr !== null ? { weightAttribute: run.weightAttr } : {}),
    ...(run.metric.randomized ? { seed: run.seed } : {}),
    nodeCount: network.nodes.length,
    edgeCount: countEdges(network),
    elapsedMs: Math.round((performance.now() - startedMs) * 1000) / 1000,
    engineVersion: ENGINE_VERSION,
    ...extra,
  };
}

export function runMetric(input: RunInput): RunOutput {
  const started = performance.now();
  const run = prepareRun(input.metric, input.network, input.networkDirected, input.params, input.deadline ?? Infinity, input.progress);
  const { metric, ctx } = run;
  const baseMeta = (extra?: Record<string, unknown>) => runMeta(run, input.network, started, extra);
  if (metric.kind === 'network') {
    const value = metric.run(ctx);
    return { kind: 'network', value: Number.isFinite(value) ? value : 0, meta: baseMeta() };
  }
  if (metric.kind === 'report') return { kind: 'report', value: metric.run(ctx), meta: baseMeta() };
  const result = metric.run(ctx);
  const ids = input.network.nodes.map((nd) => String(nd.id));
  const values: Record<string, Record<string, number | string>> = {};
  for (const [attr, arr] of Object.entries(result.values)) values[attr] = mapToIds(ids, arr);
  return { kind: 'node', values, meta: baseMeta(result.meta) };
}

/**
 * Values by node id, as a plain object. A node whose id is `__proto__` is defined as an own property
 * (plain assignment would hit Object.prototype's setter and the value would vanish).
 */
export function mapToIds(ids: string[], arr: NodeValues): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  for (let i = 0; i < ids.length; i++) {
    const v = arr[i];
    if (v === undefined || v === null) continue;
    if (typeof v === 'number' && !Number.isFinite(v)) continue;
    if (ids[i] === '__proto__') Object.defineProperty(out, '__proto__', { value: v, enumerable: true, writable: true, configurable: true });
    else out[ids[i]] = v;
  }
  return out;
}
