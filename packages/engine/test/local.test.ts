// Spectral & local metrics beyond the golden fixtures: cases NetworkX cannot compute (NOT_CONVERGED),
// the Katz λmax pre-check, parameter schemas, and the exact attribute sets of the community outputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMetric, type NodeRunOutput } from '../src/metrics/run.ts';
import { EngineError } from '../src/errors.ts';
import type { NetworkJSON } from '../src/graph/network-json.ts';

interface ErrorCase {
  metric: string;
  name: string;
  network: NetworkJSON;
  isDirected: boolean;
  params: Record<string, unknown>;
  expected: string;
}

function run(metric: string, network: NetworkJSON, params: Record<string, unknown> = {}, directed = false) {
  return runMetric({ metric, network, networkDirected: directed, params });
}

function errorOf(fn: () => unknown): EngineError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof EngineError, `expected EngineError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected an error');
}

/** Barabási–Albert-like graph (deterministic): each new node links to m earlier nodes chosen by degree. */
function ba(n: number, m: number): NetworkJSON {
  let s = 12345;
  const rnd = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const targets: number[] = [];
  const edges: { id: number; source: number; target: number }[] = [];
  for (let v = m; v < n; v++) {
    const chosen = new Set<number>();
    while (chosen.size < m) chosen.add(targets.length === 0 ? chosen.size : targets[Math.floor(rnd() * targets.length)]);
    for (const u of chosen) {
      edges.push({ id: edges.length, source: v, target: u });
      targets.push(u, v);
    }
  }
  return { nodes: Array.from({ length: n }, (_, i) => ({ id: i })), edges };
}

test('cases NetworkX cannot compute answer NOT_CONVERGED', () => {
  const lines = readFileSync(join(import.meta.dirname, 'fixtures', 'local-errors.jsonl'), 'utf8').split('\n').filter(Boolean);
  assert.ok(lines.length > 10);
  for (const line of lines) {
    const c = JSON.parse(line) as ErrorCase;
    const e = errorOf(() => runMetric({ metric: c.metric, network: c.network, networkDirected: c.isDirected, params: c.params }));
    assert.equal(e.code, c.expected, `${c.metric} ${c.name}`);
    assert.equal(e.status, 422);
  }
});

test('Katz: alpha ≥ 1/λmax is refused at once, naming the largest admissible alpha', () => {
  const net = ba(20000, 5);
  const t0 = performance.now();
  const e = errorOf(() => run('katzCentrality', net));
  const ms = performance.now() - t0;
  assert.equal(e.code, 'NOT_CONVERGED');
  const m = /largest admissible alpha is just below ([0-9.e-]+)/.exec(e.message);
  assert.ok(m, e.message);
  const admissible = Number(m[1]);
  assert.ok(admissible > 0 && admissible < 0.1, e.message);
  assert.equal(e.errors[0].path, '/katzCentralityAlpha');
  assert.ok(ms < 5000, `refusal took ${ms} ms`);
  // just below the named limit converges (well within it, to stay clear of the 1000-step limit)
  const out = run('katzCentrality', net, { katzCentralityAlpha: admissible * 0.9 }) as NodeRunOutput;
  assert.equal(Object.keys(out.values['Katz Centrality']).length, 20000);
});

test('Katz: a cycle (λmax = 1) refuses alpha 1; a DAG (λmax = 0) accepts any alpha', () => {
  const cycle: NetworkJSON = { nodes: [0, 1, 2, 3].map((id) => ({ id })), edges: [0, 1, 2, 3].map((i) => ({ id: i, source: i, target: (i + 1) % 4 })) };
  assert.equal(errorOf(() => run('katzCentrality', cycle, { katzCentralityAlpha: 1 }, true)).code, 'NOT_CONVERGED');
  const dag: NetworkJSON = { nodes: [0, 1, 2].map((id) => ({ id })), edges: [{ id: 0, source: 0, target: 1 }, { id: 1, source: 1, target: 2 }, { id: 2, source: 0, target: 2 }] };
  const out = run('katzCentrality', dag, { katzCentralityAlpha: 5, normalized: false }, true) as NodeRunOutput;
  // x0 = 1, x1 = 1 + 5·1, x2 = 1 + 5·(1 + 6)
  assert.deepEqual(out.values['Katz Centrality'], { '0': 1, '1': 6, '2': 36 });
});

test('parameter schemas refuse bad and unknown parameters', () => {
  const net: NetworkJSON = { nodes: [{ id: 'a' }, { id: 'b' }], edges: [{ id: 1, source: 'a', target: 'b' }] };
  const bad: [string, Record<string, unknown>][] = [
    ['modularity', {}],
    ['modularity', { attribute: 'g', extra: 1 }],
    ['kCliqueCommunities', { kCliqueCommunities: 1 }],
    ['kCliqueCommunities', { kCliqueCommunities: 2.5 }],
    ['averageNeighborDegree', { averageNeighborDegreeSource: 'both' }],
    ['katzCentrality', { katzCentralityAlpha: -1 }],
    ['HITS', { metricEdgeWeights: true }],
    ['coreNumber', { metricEdgeWeights: true }],
    ['connectedComponents', { directed: false }],
    ['pageRank', { alpha: 2 }],
    ['clustering', { directed: 'yes' }],
  ];
  for (const [metric, params] of bad) {
    const e = errorOf(() => run(metric, net, params));
    assert.equal(e.code, 'INVALID_ARGS', `${metric} ${JSON.stringify(params)}`);
  }
  assert.match(errorOf(() => run('modularity', net, {})).errors[0].path, /attribute/);
});

test('modularity compares attribute values as strings; a node without a value is its own community', () => {
  const net: NetworkJSON = {
    nodes: [
      { id: 1, attributes: { g: 1 } },
      { id: 2, attributes: { g: '1' } },
      { id: 3, attributes: { g: 2 } },
      { id: 4 },
    ],
    edges: [{ id: 1, source: 1, target: 2 }, { id: 2, source: 3, target: 4 }, { id: 3, source: 2, target: 3 }],
  };
  const out = run('modularity', net, { attribute: 'g' });
  assert.equal(out.kind, 'network');
  // communities {1,2}, {3}, {4}: m = 3, L = 1, degrees 1+2, 2, 1 → 1/3 − (9+4+1)/36
  if (out.kind === 'network') assert.ok(Math.abs(out.value - (1 / 3 - 14 / 36)) < 1e-12);
});

test('kCliqueCommunities and connectedComponents write exactly the expected attributes', () => {
  const net: NetworkJSON = {
    nodes: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((id) => ({ id })),
    edges: [
      ['a', 'b'], ['b', 'c'], ['a', 'c'], ['c', 'd'], ['d', 'e'], ['c', 'e'], ['f', 'g'], ['g', 'g'],
    ].map(([s, t], i) => ({ id: i, source: s, target: t })),
  };
  const k3 = run('kCliqueCommunities', net, { kCliqueCommunities: 3 }) as NodeRunOutput;
  // two triangles sharing only c (overlap 1 < k−1 = 2): two communities of equal size, {a,b,c} first
  assert.deepEqual(k3.values, {
    'K-Clique Community 1': { a: 'Yes', b: 'Yes', c: 'Yes' },
    'K-Clique Community 2': { c: 'Yes', d: 'Yes', e: 'Yes' },
  });
  assert.equal(k3.meta.communityCount, 2);
  const k2 = run('kCliqueCommunities', net) as NodeRunOutput;
  assert.deepEqual(Object.keys(k2.values), ['K-Clique Community 1', 'K-Clique Community 2']);
  assert.deepEqual(Object.keys(k2.values['K-Clique Community 2']), ['f', 'g']);
  const cc = run('connectedComponents', net, {}, true) as NodeRunOutput;
  assert.deepEqual(cc.values.Component, {
    a: 'Component 1', b: 'Component 1', c: 'Component 1', d: 'Component 1', e: 'Component 1',
    f: 'Component 2', g: 'Component 2', h: 'Component 3',
  });
});
