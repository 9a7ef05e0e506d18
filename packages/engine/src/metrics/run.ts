/**
 * Runs one registry metric on a network: validates and defaults the parameters, derives the seed,
 * calls the metric and maps index-ordered values back to node ids (the response shape of
 * DECISIONS.md §4.3). Used by the worker pool and the CLI alike, so both print the same JSON.
 */
import { Value } from 'typebox/value';
import { createHash } from 'node:crypto';
import type { AnyMetric, NodeValues } from './types.ts';
import type { NetworkJSON } from '../graph/network-json.ts';
import { EngineError, type ProblemItem } from '../errors.ts';
import { metrics } from './registry.ts';
import { ENGINE_VERSION } from '../version.ts';

export interface RunInput {
  metric: string;
  network: NetworkJSON;
  networkDirected: boolean;
  /** The metric's own parameters as sent (unknown keys refused). */
  params: Record<string, unknown>;
  /** Absolute deadline (ms since epoch); omitted = none. */
  deadline?: number;
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
export type RunOutput = NodeRunOutput | NetworkRunOutput;

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
    const first = problems[0];
    throw new EngineError('INVALID_ARGS', `${first.path.replace(/^\//, '').replaceAll('/', '.') || 'parameters'}: ${first.message}`, problems);
  }
  return params;
}

/** Seed derived from network content and parameters (METRICS-EXTRA.md): same request, same answer. */
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

export function runMetric(input: RunInput): RunOutput {
  const started = performance.now();
  const metric = getMetric(input.metric);
  const params = resolveParams(metric, input.params);
  metric.validate?.(params, input.network);
  // hashing the whole network costs ~0.1 s per 250k edges: only randomised metrics use the seed
  const seed = !metric.randomized ? 0 : typeof params.seed === 'number' ? params.seed : deriveSeed(metric.id, input.network, params);
  const deadline = input.deadline ?? Infinity;
  const checkpoint = () => {
    if (Date.now() > deadline) throw new EngineError('METRIC_TIMEOUT', 'metric compute time limit reached');
  };
  const ctx = { network: input.network, networkDirected: input.networkDirected, params, seed, checkpoint };
  const baseMeta = (extra?: Record<string, unknown>) => ({
    metric: metric.id,
    parameters: params,
    ...(metric.randomized ? { seed } : {}),
    nodeCount: input.network.nodes.length,
    edgeCount: countEdges(input.network),
    elapsedMs: Math.round((performance.now() - started) * 1000) / 1000,
    engineVersion: ENGINE_VERSION,
    ...extra,
  });
  if (metric.kind === 'network') {
    const value = metric.run(ctx);
    return { kind: 'network', value: Number.isFinite(value) ? value : 0, meta: baseMeta() };
  }
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
