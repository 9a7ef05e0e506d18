// Property tests against the live NetworkX oracle: fast-check generates random small networks
// (directed/undirected, numeric or string ids, weights, parallel edges, self-loops, isolates) and
// parameters; the engine runs every case and ONE `python3 oracle/live.py` call per test answers the
// whole batch (JSON in, JSON out). Add a metric: add a generator entry to METRIC_CASES below and a
// function to METRICS in live.py.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';
import { runMetric } from '../src/metrics/run.ts';
import { buildGraph, weightAttribute } from '../src/graph/build.ts';
import type { NetworkJSON } from '../src/graph/network-json.ts';
import { betweennessSources, closenessPivots } from '../src/metrics/paths.ts';

interface Case {
  metric: string;
  network: NetworkJSON;
  isDirected: boolean;
  params: Record<string, unknown>;
  tol: number;
  sources?: string[];
  pivots?: string[];
}
type Expected = Record<string, Record<string, number | string>> | number | { error: string };

const ORACLE = join(import.meta.dirname, 'oracle', 'live.py');

/** Weights are exact binary fractions, so float sums are exact and ties are real ties (as in NetworkX). */
const weightArb = fc.constantFrom(0.5, 1, 1.5, 2, 3, 4);

const networkArb = fc
  .record({
    n: fc.integer({ min: 1, max: 11 }),
    directed: fc.boolean(),
    stringIds: fc.boolean(),
    raw: fc.array(
      fc.record({ s: fc.nat(), t: fc.nat(), weight: fc.option(weightArb, { nil: undefined }), cost: fc.option(weightArb, { nil: undefined }) }),
      { maxLength: 30 },
    ),
  })
  .map(({ n, directed, stringIds, raw }) => {
    const id = (i: number): string | number => (stringIds ? `v${i}` : i * 3 + 1);
    const nodes = Array.from({ length: n }, (_, i) => ({ id: id(i) }));
    const edges = raw.map((e, k) => {
      const attributes: Record<string, number> = {};
      if (e.weight !== undefined) attributes.weight = e.weight;
      if (e.cost !== undefined) attributes.cost = e.cost;
      return { id: k, source: id(e.s % n), target: id(e.t % n), attributes };
    });
    return { network: { nodes, edges } as NetworkJSON, isDirected: directed };
  });

const weightsArb = fc.constantFrom<boolean | string | undefined>(undefined, true, 'cost');

const METRIC_CASES: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  betweennessCentrality: fc.record(
    { directed: fc.boolean(), normalized: fc.boolean(), metricEdgeWeights: weightsArb, kPercent: fc.constantFrom(100, 100, 30, 50, 80), seed: fc.nat() },
    { requiredKeys: ['directed', 'normalized', 'kPercent', 'seed'] },
  ),
  closenessCentrality: fc.record(
    { directed: fc.boolean(), normalized: fc.boolean(), metricEdgeWeights: weightsArb, kPercent: fc.constantFrom(100, 100, 40, 70), seed: fc.nat() },
    { requiredKeys: ['directed', 'normalized', 'kPercent', 'seed'] },
  ),
  harmonicCentrality: fc.constant({}),
  loadCentrality: fc.record({ normalized: fc.boolean(), metricEdgeWeights: weightsArb }, { requiredKeys: ['normalized'] }),
  currentFlowClosenessCentrality: fc.record({ metricEdgeWeights: weightsArb }, { requiredKeys: [] }),
  diameter: fc.constant({}),
  avgShortestPathLength: fc.constant({}),
  inDegree: fc.record({ metricEdgeWeights: weightsArb, type: fc.constantFrom('sum', 'average') }, { requiredKeys: ['type'] }),
  outDegree: fc.record({ metricEdgeWeights: weightsArb, type: fc.constantFrom('sum', 'average') }, { requiredKeys: ['type'] }),
  totalDegree: fc.record({ metricEdgeWeights: weightsArb, type: fc.constantFrom('sum', 'average') }, { requiredKeys: ['type'] }),
};

function cleanParams(p: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(p)) if (v !== undefined) out[k] = v;
  return out;
}

/** Test-only extras: the sources / pivots the engine samples, so the oracle can use the same ones. */
function withSamples(c: Case): Case {
  const kPercent = c.params.kPercent as number | undefined;
  if (kPercent === undefined || kPercent >= 100) return c;
  const directed = c.isDirected && c.params.directed !== false;
  const g = buildGraph(c.network, { directed, weight: weightAttribute(c.params.metricEdgeWeights), selfLoops: false });
  const seed = c.params.seed as number;
  if (c.metric === 'betweennessCentrality') return { ...c, sources: Array.from(betweennessSources(g.n, kPercent, seed), (i) => g.ids[i]) };
  return { ...c, pivots: Array.from(closenessPivots(g, kPercent, seed).pivots, (i) => g.ids[i]) };
}

function oracle(cases: Case[]): Expected[] {
  const stdout = execFileSync('python3', [ORACLE], { input: JSON.stringify({ cases }), maxBuffer: 256 * 1024 * 1024 });
  return (JSON.parse(stdout.toString()) as { results: Expected[] }).results;
}

function close(a: number, e: number, tol: number): boolean {
  return a === e || Math.abs(a - e) <= tol * Math.max(1, Math.abs(e));
}

function check(c: Case, exp: Expected): void {
  const label = `${c.metric} ${JSON.stringify(c.params)} directed=${c.isDirected} ${JSON.stringify(c.network)}`;
  assert.ok(!(typeof exp === 'object' && 'error' in exp), `${label}: oracle error ${JSON.stringify(exp)}`);
  const out = runMetric({ metric: c.metric, network: c.network, networkDirected: c.isDirected, params: c.params });
  if (typeof exp === 'number') {
    assert.equal(out.kind, 'network', label);
    if (out.kind === 'network') assert.ok(close(out.value, exp, c.tol), `${label}: got ${out.value}, expected ${exp}`);
    return;
  }
  assert.equal(out.kind, 'node', label);
  if (out.kind !== 'node') return;
  for (const [attr, values] of Object.entries(exp as Record<string, Record<string, number | string>>)) {
    const got: Record<string, number | string> | undefined = out.values[attr];
    assert.ok(got, `${label}: attribute ${attr} missing`);
    assert.deepEqual(Object.keys(got).sort(), Object.keys(values).sort(), `${label}: ${attr} scored nodes differ`);
    for (const [id, v] of Object.entries(values)) {
      const a: number | string | undefined = got[id];
      if (typeof v === 'number' && typeof a === 'number') assert.ok(close(a, v, c.tol), `${label}: ${attr}[${id}] = ${a}, expected ${v}`);
      else assert.equal(a, v, `${label}: ${attr}[${id}]`);
    }
  }
}

const RUNS_PER_METRIC = Number(process.env.PROPERTY_RUNS ?? 60);

test(`live NetworkX oracle: ${Object.keys(METRIC_CASES).length} metrics × ${RUNS_PER_METRIC} random networks`, () => {
  const cases: Case[] = [];
  let seed = 20240611;
  for (const [metric, paramsArb] of Object.entries(METRIC_CASES)) {
    const samples = fc.sample(fc.tuple(networkArb, paramsArb), { numRuns: RUNS_PER_METRIC, seed: seed++ });
    for (const [net, params] of samples) {
      cases.push(withSamples({ metric, network: net.network, isDirected: net.isDirected, params: cleanParams(params), tol: 1e-9 }));
    }
  }
  const expected = oracle(cases);
  assert.equal(expected.length, cases.length);
  for (let i = 0; i < cases.length; i++) check(cases[i], expected[i]);
});
