// Extreme finite numbers (issue 9 item 9): every metric of the registry gets finite doubles from the
// whole range — 5e-324, 2.2e-308, 1e200, 1e308, 1.7976931348623157e308, negatives where the schema
// allows them, anything fast-check draws — in every numeric parameter and, where the metric takes
// `metricEdgeWeights`, in every edge weight. Each run must either answer finite values (strings for
// label metrics) or fail cleanly: EngineError INVALID_ARGS naming the parameter / edge weight (a JSON
// pointer), or NOT_CONVERGED. Never another throw, never NaN/Infinity (checked on the metric's raw
// output, before runMetric drops non-finite values from the answer).
// The HTTP twin of this test (status 200 or 4xx problem) lives with the server tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { metrics } from '../src/metrics/registry.ts';
import { resolveParams } from '../src/metrics/run.ts';
import { EngineError } from '../src/errors.ts';
import type { AnyMetric } from '../src/metrics/types.ts';
import type { NetworkJSON } from '../src/graph/network-json.ts';

const RUNS = Number(process.env.EXTREME_RUNS ?? 60);
const SEED = Number(process.env.EXTREME_SEED ?? 909);

const EXTREMES = [5e-324, 1e-320, 2.2250738585072014e-308, 1e-300, 1e-200, 1e-16, 0.5, 1, 3, 1e16, 1e200, 9e307, 1e308, 1.7976931348623157e308];
/** Any finite double, skewed to the ends of the range. */
const finite = fc.oneof(
  fc.constantFrom(...EXTREMES, ...EXTREMES.map((x) => -x), 0, -0),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -10, max: 1000 }),
);
const weight = fc.oneof(fc.constantFrom(...EXTREMES, 0), fc.double({ min: 0, noNaN: true, noDefaultInfinity: true }));

/** Small networks: a path, a ring, or random edges (parallel and reciprocal edges and self-loops may occur). */
function networkArb(weighted: boolean): fc.Arbitrary<{ network: NetworkJSON; isDirected: boolean }> {
  const w = weighted ? fc.option(weight, { nil: undefined, freq: 8 }) : fc.constant(undefined);
  const shape = fc.oneof(
    fc.integer({ min: 2, max: 6 }).map((n) => Array.from({ length: n - 1 }, (_, i) => [i, i + 1] as [number, number])),
    fc.integer({ min: 3, max: 6 }).map((n) => Array.from({ length: n }, (_, i) => [i, (i + 1) % n] as [number, number])),
    fc.array(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 6 })), { minLength: 1, maxLength: 14 }),
  );
  return fc.record({ edges: shape, isDirected: fc.boolean() }).chain(({ edges, isDirected }) =>
    fc.array(w, { minLength: edges.length, maxLength: edges.length }).map((ws) => {
      const n = Math.max(...edges.flat()) + 1;
      const network: NetworkJSON = {
        nodes: Array.from({ length: n }, (_, i) => ({ id: i, attributes: { group: i % 2 === 0 ? 'a' : 'b' } })),
        edges: edges.map(([s, t], i) => ({ id: i, source: s, target: t, attributes: (ws[i] === undefined ? {} : { weight: ws[i] }) as Record<string, number> })),
      };
      return { network, isDirected };
    }),
  );
}

type Schema = { type?: string; anyOf?: Schema[] };
const isNumeric = (s: Schema): boolean => s.type === 'number' || s.type === 'integer' || (s.anyOf ?? []).some(isNumeric);

/** The metric's numeric parameters (from its schema), each present or not, with any finite value. */
/** Required non-numeric parameters of some metrics (a partition over the test networks' `group` attribute). */
function baseParams(metric: AnyMetric, network: NetworkJSON): Record<string, unknown> {
  if (metric.id === 'modularity' || metric.id === 'groups') return { attribute: 'group' };
  if (metric.id === 'brokerage') return { partition: Object.fromEntries(network.nodes.map((nd) => [String(nd.id), String(nd.attributes?.group)])) };
  return {};
}

function paramsArb(metric: AnyMetric): fc.Arbitrary<Record<string, unknown>> {
  const props = (metric.params as unknown as { properties: Record<string, Schema> }).properties;
  const rec: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, s] of Object.entries(props)) if (isNumeric(s)) rec[k] = finite;
  if ('metricEdgeWeights' in props) rec.metricEdgeWeights = fc.constant(true);
  return fc.record(rec, { requiredKeys: 'metricEdgeWeights' in props ? ['metricEdgeWeights'] : [] });
}

function checkFinite(metric: AnyMetric, out: unknown, params: Record<string, unknown>, network: NetworkJSON): void {
  const n = network.nodes.length;
  if (metric.kind === 'network') {
    assert.ok(typeof out === 'number' && Number.isFinite(out), `${metric.id}: network value ${out}`);
    return;
  }
  if (metric.kind === 'report') {
    // a report (the group report): every number in it is finite; null stands for "not defined" (§11)
    const walk = (v: unknown, at: string): void => {
      if (typeof v === 'number') assert.ok(Number.isFinite(v), `${metric.id} ${at} = ${v}`);
      else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${at}/${i}`));
      else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${at}/${k}`);
    };
    walk(out, '');
    return;
  }
  const values = (out as { values: Record<string, ArrayLike<unknown>> }).values;
  for (const [attr, arr] of Object.entries(values)) {
    for (let i = 0; i < Math.min(n, arr.length); i++) {
      const v = arr[i];
      if (v === undefined || v === null || typeof v === 'string') continue;
      assert.ok(typeof v === 'number' && (Number.isFinite(v) || (Number.isNaN(v) && notScored(metric, params, network, i))), `${metric.id} ${attr}[${i}] = ${v}`);
    }
  }
}

/**
 * NaN that means "not scored" by definition (each metric file's header): sampled betweenness / closeness
 * (kPercent < 100), current-flow closeness of a node alone in its component (through positive weights),
 * structural holes of a node without neighbours other than itself (NetworkX scores those NaN).
 */
function notScored(metric: AnyMetric, params: Record<string, unknown>, network: NetworkJSON, i: number): boolean {
  const id = metric.id;
  if (id === 'betweennessCentrality' || id === 'closenessCentrality') return (params.kPercent as number) < 100;
  const nid = network.nodes[i].id;
  const edges = network.edges ?? [];
  const others = (positive: boolean) => edges.some((e) => (e.source === nid) !== (e.target === nid) && (!positive || e.attributes?.weight !== 0));
  if (id === 'currentFlowClosenessCentrality') return !others(true);
  if (id === 'constraint' || id === 'effectiveSize' || id === 'efficiency') return !others(true) || edges.some((e) => e.source === nid && e.target === nid);
  return false;
}

for (const metric of metrics.values()) {
  test(`extreme finite numbers: ${metric.id}`, () => {
    const hasWeights = 'metricEdgeWeights' in (metric.params as unknown as { properties: object }).properties;
    const numeric = Object.values((metric.params as unknown as { properties: Record<string, Schema> }).properties).some(isNumeric);
    if (!hasWeights && !numeric) return; // nothing numeric to feed
    fc.assert(
      fc.property(networkArb(hasWeights), paramsArb(metric), ({ network, isDirected }, raw) => {
        let out: unknown;
        let params: Record<string, unknown>;
        try {
          params = resolveParams(metric, { ...baseParams(metric, network), ...raw });
          metric.validate?.(params, network);
          const seed = typeof params.seed === 'number' ? params.seed : 1;
          const ctx = { network, networkDirected: isDirected, params, seed, checkpoint: () => {} };
          out = metric.run(ctx as never);
        } catch (err) {
          assert.ok(err instanceof EngineError, `${metric.id}: ${err instanceof Error ? err.stack : String(err)}`);
          if (err.code === 'NOT_CONVERGED') return;
          assert.equal(err.code, 'INVALID_ARGS', `${metric.id}: ${err.code} ${err.message}`);
          assert.ok(err.errors.length > 0 && err.errors[0].path.startsWith('/'), `${metric.id}: no JSON pointer in ${err.message}`);
          const where = err.errors[0].path;
          const named = Object.keys(raw).some((k) => where === `/${k}`) || /^\/networkJSON\/edges\/\d+\/attributes\/weight$/.test(where);
          assert.ok(named, `${metric.id}: error path ${where} names neither a parameter sent nor an edge weight (${err.message})`);
          return;
        }
        checkFinite(metric, out, params, network);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });
}

test('extreme finite numbers: the cases of issue 9 item 9', () => {
  const run = (id: string, network: NetworkJSON, params: Record<string, unknown>) => {
    const metric = metrics.get(id)!;
    const p = resolveParams(metric, params);
    return metric.run({ network, networkDirected: false, params: p, seed: 1, checkpoint: () => {} } as never);
  };
  const path3 = (w: number[]): NetworkJSON => ({ nodes: [{ id: 'a' }, { id: 'b' }, { id: 'c' }], edges: [{ id: 1, source: 'a', target: 'b', attributes: { weight: w[0] } }, { id: 2, source: 'b', target: 'c', attributes: { weight: w[1] } }] });
  const ring4 = (w: number): NetworkJSON => ({ nodes: [0, 1, 2, 3].map((id) => ({ id })), edges: [0, 1, 2, 3].map((i) => ({ id: i, source: i, target: (i + 1) % 4, attributes: { weight: w } })) });
  // resolution 9e307: refused, naming the parameter
  assert.throws(() => run('communities', path3([1, 1]), { resolution: 9e307 }), (e: EngineError) => e.code === 'INVALID_ARGS' && e.errors[0].path === '/resolution');
  // extreme weights: an answer (finite community labels)
  for (const w of [1e200, 1e308, 5e-324]) {
    const out = run('communities', path3([w, w]), { metricEdgeWeights: true }) as { values: Record<string, ArrayLike<unknown>> };
    assert.equal(Array.from(out.values.Community).length, 3);
  }
  // current flow on a 4-ring with weights 5e-324: the same as weights 1 (values scale with the weights: rescaled)
  const tiny = run('currentFlowClosenessCentrality', ring4(5e-324), { metricEdgeWeights: true }) as { values: Record<string, Float64Array> };
  for (const v of tiny.values['Current Flow Closeness Centrality']) assert.ok(Number.isFinite(v), `cf ${v}`);
});
