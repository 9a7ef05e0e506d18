// The group report (metrics/groups.ts) and network compare (compare/compare.ts) against the NetworkX
// reference oracle/analysis.py (written from docs/spec/decisions.md §11 alone), on random networks:
// directed and undirected, weighted (`weight` and `Weight`), self-loops, parallel and reciprocal edges,
// isolates, nodes without the attribute, a group of one, several minimum group sizes. Counts must be
// exact (weights are dyadic, so sums do not depend on their order), densities and E-I within 1e-12.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { runMetric } from '../src/metrics/run.ts';
import { compareNetworks, type CompareParams } from '../src/compare/compare.ts';
import type { NetworkJSON } from '../src/graph/network-json.ts';
import { createRng } from '../src/kernels/random.ts';
import { EngineError } from '../src/errors.ts';

const ORACLE = join(import.meta.dirname, 'oracle', 'analysis.py');
type Json = Record<string, unknown>;

interface Net {
  network: NetworkJSON;
  isDirected: boolean;
}

function randomNet(seed: number): Net & { weightKey: string } {
  const rng = createRng(seed);
  const n = 5 + rng.int(40);
  const directed = seed % 2 === 0;
  const weightKey = seed % 5 === 0 ? 'Weight' : 'weight';
  const depts = ['Sales', 'Eng', 'HR', 'Ops', 'Legal'].slice(0, 2 + rng.int(4));
  const nodes = Array.from({ length: n }, (_, i) => {
    const r = rng.random();
    // node 0 alone in its group (a group of one); ~10 % without a value; numeric ids on some networks
    const dept = i === 0 ? 'Solo' : r < 0.1 ? undefined : depts[rng.int(depts.length)];
    const id = seed % 3 === 0 ? i : `p${i}`;
    return dept === undefined ? { id } : { id, attributes: { dept, level: rng.int(3) } };
  });
  const m = rng.int(n * 3);
  const edges = [];
  for (let e = 0; e < m; e++) {
    // the last two nodes stay isolates
    const s = rng.int(n - 2);
    const t = rng.random() < 0.05 ? s : rng.int(n - 2); // self-loops
    const edge: Json = { id: `e${e}`, source: nodes[s].id, target: nodes[t].id };
    const r = rng.random();
    if (r < 0.7) edge.attributes = { [weightKey]: (1 + rng.int(8)) / (r < 0.35 ? 1 : 4) }; // dyadic weights; others missing = 1
    edges.push(edge);
    if (rng.random() < 0.1) edges.push({ ...edge, id: `e${e}p` }); // parallel
  }
  return { network: { nodes, edges } as NetworkJSON, isDirected: directed, weightKey };
}

/** A second wave: some people leave, some join, ties change, weights change, some move groups. */
function nextWave(a: Net, seed: number): Net {
  const rng = createRng(seed * 7919);
  const keep = a.network.nodes.filter(() => rng.random() > 0.15).map((nd) => ({ ...nd, attributes: nd.attributes ? { ...nd.attributes } : undefined }));
  for (const nd of keep) if (nd.attributes && rng.random() < 0.1) nd.attributes.dept = 'Eng';
  for (const nd of keep) if (nd.attributes === undefined) delete (nd as { attributes?: unknown }).attributes;
  const joined = Array.from({ length: rng.int(5) }, (_, i) => ({ id: `new${i}`, attributes: { dept: i % 2 ? 'Sales' : 'New' } }));
  const nodes = [...joined, ...keep];
  const ids = new Set(nodes.map((nd) => String(nd.id)));
  const edges = (a.network.edges ?? [])
    .filter((e) => ids.has(String(e.source)) && ids.has(String(e.target)) && rng.random() > 0.2)
    .map((e) => (rng.random() < 0.15 && e.attributes ? { ...e, attributes: Object.fromEntries(Object.entries(e.attributes).map(([k, v]) => [k, (v as number) + 0.5])) } : e));
  for (let i = 0; i < rng.int(20); i++) {
    const s = nodes[rng.int(nodes.length)].id;
    const t = nodes[rng.int(nodes.length)].id;
    edges.push({ id: `b${i}`, source: s, target: t });
  }
  return { network: { nodes, edges } as NetworkJSON, isDirected: seed % 4 === 0 ? !a.isDirected : a.isDirected };
}

function oracle(cases: Json[]): Json[] {
  const out = execFileSync('python3', [ORACLE], { input: JSON.stringify({ cases }), maxBuffer: 256 * 1024 * 1024 });
  return (JSON.parse(out.toString('utf8')) as { results: Json[] }).results;
}

/** Deep equality: numbers that are not whole (densities, E-I, metric values) within 1e-12; everything else exact. */
function close(actual: unknown, expected: unknown, path: string): void {
  if (typeof expected === 'number' && typeof actual === 'number') {
    if (Number.isInteger(expected) && Number.isInteger(actual)) assert.equal(actual, expected, path);
    else assert.ok(Math.abs(actual - expected) <= 1e-12 * Math.max(1, Math.abs(expected)), `${path}: ${actual} vs ${expected}`);
    return;
  }
  if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${path}: not an array`);
    assert.equal(actual.length, expected.length, `${path}: length`);
    expected.forEach((x, i) => close(actual[i], x, `${path}/${i}`));
    return;
  }
  if (expected !== null && typeof expected === 'object') {
    assert.ok(actual !== null && typeof actual === 'object', `${path}: not an object`);
    assert.deepEqual(Object.keys(actual as Json).sort(), Object.keys(expected).sort(), `${path}: keys`);
    for (const k of Object.keys(expected)) close((actual as Json)[k], (expected as Json)[k], `${path}/${k}`);
    return;
  }
  assert.equal(actual, expected, path);
}

const byPair = (x: unknown[], y: unknown[]) => (String(x[0]) < String(y[0]) ? -1 : String(x[0]) > String(y[0]) ? 1 : String(x[1]) < String(y[1]) ? -1 : String(x[1]) > String(y[1]) ? 1 : 0);

test('group report equals the NetworkX reference on 40 random networks (counts exact, densities and E-I within 1e-12)', () => {
  const cases: Json[] = [];
  const ours: Json[] = [];
  let sawDirected = 0;
  let sawOther = 0;
  let sawSolo = 0;
  for (let seed = 1; seed <= 40; seed++) {
    const r = randomNet(seed);
    const params: Json = { attribute: seed % 7 === 0 ? 'level' : 'dept', minGroupSize: [1, 1, 2, 3, 5][seed % 5] };
    if (seed % 3 !== 0) params.metricEdgeWeights = seed % 6 === 1 ? r.weightKey : true;
    const out = runMetric({ metric: 'groups', network: r.network, networkDirected: r.isDirected, params });
    assert.equal(out.kind, 'report');
    ours.push(out.value);
    cases.push({ kind: 'groups', network: r.network, isDirected: r.isDirected, params });
    if (r.isDirected) sawDirected++;
    const groups = (out.value as { groups: { value: string; size: number }[] }).groups;
    if (groups.some((g) => g.value.startsWith('Other'))) sawOther++;
    if (groups.some((g) => g.size === 1)) sawSolo++;
    for (const g of groups) assert.ok(g.size >= (params.minGroupSize as number), `seed ${seed}: group ${g.value} of ${g.size} below the minimum`);
  }
  const expected = oracle(cases);
  ours.forEach((o, i) => close(o, expected[i], `case ${i + 1}`));
  assert.ok(sawDirected >= 10 && sawOther >= 3 && sawSolo >= 3, `coverage: directed ${sawDirected}, Other ${sawOther}, group of one ${sawSolo}`);
});

test('network compare equals the NetworkX reference on 24 pairs of random networks (ties, weights, metric deltas, group changes)', () => {
  const cases: Json[] = [];
  const ours: Json[] = [];
  for (let seed = 1; seed <= 24; seed++) {
    const a = randomNet(seed + 100);
    const b = nextWave(a, seed);
    const params: CompareParams = { metrics: ['totalDegree', 'harmonicCentrality'], attribute: 'dept', minGroupSize: [1, 2, 3][seed % 3] };
    if (seed % 4 === 1) params.metricEdgeWeights = false;
    const got = compareNetworks({ network: a.network, directed: a.isDirected }, { network: b.network, directed: b.isDirected }, params) as unknown as Json;
    // order-free parts compared as sorted lists, as the reference writes them
    const nodes = got.nodes as { joined: string[]; left: string[] };
    const ties = got.ties as Record<string, unknown[][]>;
    const normal = {
      ...got,
      nodes: { ...nodes, joined: [...nodes.joined].sort(), left: [...nodes.left].sort() },
      ties: { ...ties, added: [...ties.added].sort(byPair), removed: [...ties.removed].sort(byPair), weightChanged: [...ties.weightChanged].sort(byPair) },
      groups: [...(got.groups as { value: string }[])].sort((x, y) => (x.value < y.value ? -1 : x.value > y.value ? 1 : 0)),
    };
    ours.push(normal);
    cases.push({ kind: 'compare', a: { network: a.network, isDirected: a.isDirected }, b: { network: b.network, isDirected: b.isDirected }, params });
  }
  const expected = oracle(cases);
  let changes = 0;
  ours.forEach((o, i) => {
    close(o, expected[i], `pair ${i + 1}`);
    const t = (o as { ties: Record<string, unknown[]> }).ties;
    changes += t.added.length + t.removed.length + t.weightChanged.length;
  });
  assert.ok(changes > 100, `the pairs differ (${changes} tie changes)`);
});

test('compare: undirected ties are [u, v] with u < v in string order; directed keep their direction', () => {
  const a: NetworkJSON = { nodes: [{ id: 'b' }, { id: 'a' }, { id: 10 }, { id: 9 }], edges: [{ id: 1, source: 'b', target: 'a' }, { id: 2, source: 10, target: 9 }] };
  const b: NetworkJSON = { nodes: [{ id: 'b' }, { id: 'a' }, { id: 10 }, { id: 9 }], edges: [{ id: 1, source: 9, target: 'b' }] };
  const und = compareNetworks({ network: a, directed: false }, { network: b, directed: true }, {});
  assert.deepEqual(und.ties.removed, [['a', 'b'], ['10', '9']]);
  assert.deepEqual(und.ties.added, [['9', 'b']]);
  const dir = compareNetworks({ network: a, directed: true }, { network: b, directed: true }, {});
  assert.deepEqual(dir.ties.removed, [['b', 'a'], ['10', '9']]);
});

test('group report: the documented figures on a hand-made network, Other (< k) shown only with k members, too many groups refused', () => {
  // Sales {a,b,c}, Eng {d,e}, HR {f}, no value {g}; undirected ties a-b, b-c, a-d, d-e, e-f, f-g, plus a parallel a-b and a loop c-c
  const net: NetworkJSON = {
    nodes: [
      { id: 'a', attributes: { t: 'Sales' } },
      { id: 'b', attributes: { t: 'Sales' } },
      { id: 'c', attributes: { t: 'Sales' } },
      { id: 'd', attributes: { t: 'Eng' } },
      { id: 'e', attributes: { t: 'Eng' } },
      { id: 'f', attributes: { t: 'HR' } },
      { id: 'g' },
    ],
    edges: [['a', 'b'], ['b', 'c'], ['a', 'd'], ['d', 'e'], ['e', 'f'], ['f', 'g'], ['b', 'a'], ['c', 'c']].map(([s, t], i) => ({ id: i, source: s, target: t })),
  };
  const report = (p: Json) => (runMetric({ metric: 'groups', network: net, networkDirected: false, params: { attribute: 't', ...p } }) as { value: unknown }).value as Json;
  const r1 = report({});
  assert.deepEqual((r1.matrix as Json).values, ['Eng', 'HR', 'Sales', '(no value)']);
  assert.deepEqual(r1.groups, [
    { value: 'Eng', size: 2, internal: 1, external: 2, density: 1, ei: 1 / 3 },
    { value: 'HR', size: 1, internal: 0, external: 2, density: null, ei: 1 },
    { value: 'Sales', size: 3, internal: 2, external: 1, density: 2 / 3, ei: -1 / 3 },
    { value: '(no value)', size: 1, internal: 0, external: 1, density: null, ei: 1 },
  ]);
  assert.deepEqual((r1.matrix as Json).counts, [[1, 1, 1, 0], [1, 0, 0, 1], [1, 0, 2, 0], [0, 1, 0, 0]]);
  assert.equal(r1.ei, (3 - 3) / 6);
  assert.equal(r1.suppressed, 0);
  // k = 2: HR and (no value) (one member each) merge into Other (< 2), which has 2 members: shown
  const r2 = report({ minGroupSize: 2 });
  assert.deepEqual((r2.matrix as Json).values, ['Eng', 'Sales', 'Other (< 2)']);
  assert.deepEqual((r2.groups as Json[])[2], { value: 'Other (< 2)', size: 2, internal: 1, external: 1, density: 1, ei: 0 });
  assert.equal(r2.suppressed, 2);
  // k = 3: Eng, HR, (no value) merge (4 members ≥ 3: shown); whole-network ei counts f-g and d-e, e-f as internal to Other
  const r3 = report({ minGroupSize: 3 });
  assert.deepEqual((r3.matrix as Json).values, ['Sales', 'Other (< 3)']);
  assert.equal(r3.ei, (1 - 5) / 6);
  // k = 4: Sales (3) and the rest (4) — Sales merges too: one group Other (< 4) of 7
  const r4 = report({ minGroupSize: 4 });
  assert.deepEqual((r4.matrix as Json).values, ['Other (< 4)']);
  assert.equal(r4.suppressed, 7);
  // k = 5: Other (< 5) has 7 ≥ 5 members; k = 8: nothing can be reported, ei still counts every tie
  const r8 = report({ minGroupSize: 8 });
  assert.deepEqual(r8.groups, []);
  assert.deepEqual(r8.matrix, { values: [], counts: [], densities: [] });
  assert.equal(r8.ei, -1);
  assert.equal(r8.suppressed, 7);
  const many: NetworkJSON = { nodes: Array.from({ length: 1001 }, (_, i) => ({ id: i, attributes: { t: `v${i}` } })), edges: [] };
  assert.throws(
    () => runMetric({ metric: 'groups', network: many, networkDirected: false, params: { attribute: 't' } }),
    (e: unknown) => e instanceof EngineError && e.code === 'INVALID_ARGS' && e.errors[0].path === '/attribute' && /raise minGroupSize/.test(e.message),
  );
  assert.equal(((runMetric({ metric: 'groups', network: many, networkDirected: false, params: { attribute: 't', minGroupSize: 2 } }) as { value: Json }).value).suppressed, 1001);
});
