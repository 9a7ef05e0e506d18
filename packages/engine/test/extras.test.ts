// Property and error tests of the Polinode-specific metrics (docs/spec/metrics-extra.md): antiCommunities,
// corePeriphery, complexCentrality, brokerage, identifyInfluencers, informal*. Exact values of the
// deterministic ones are checked by fixtures/extras.json (oracle/fx_extras.py) in conformance.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMetric, getMetric, type NodeRunOutput } from '../src/metrics/run.ts';
import type { NetworkJSON } from '../src/graph/network-json.ts';
import { buildGraph } from '../src/graph/build.ts';
import { EngineError } from '../src/errors.ts';
import { antiCommunities } from '../src/kernels/antiCommunities.ts';
import { rombachProfile, rombachQuality } from '../src/kernels/corePeriphery.ts';
import { createRng } from '../src/kernels/random.ts';

interface Ref {
  name: string;
  network: NetworkJSON;
  isDirected: boolean;
}
const refs = JSON.parse(readFileSync(join(import.meta.dirname, 'oracle', 'louvain_reference.json'), 'utf8')) as Ref[];
const byName = new Map(refs.map((r) => [r.name, r]));

function run(metric: string, r: { network: NetworkJSON; isDirected: boolean }, params: Record<string, unknown>): NodeRunOutput {
  const out = runMetric({ metric, network: r.network, networkDirected: r.isDirected, params });
  assert.equal(out.kind, 'node');
  return out as NodeRunOutput;
}

function randomNet(n: number, m: number, seed: number, directed: boolean): { network: NetworkJSON; isDirected: boolean } {
  const rng = createRng(seed);
  const edges = [];
  for (let e = 0; e < m; e++) edges.push({ id: e, source: rng.int(n), target: rng.int(n) });
  return { network: { nodes: Array.from({ length: n }, (_, i) => ({ id: i })), edges }, isDirected: directed };
}

function errorOf(fn: () => unknown): EngineError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof EngineError, String(e));
    return e;
  }
  assert.fail('expected an EngineError');
}

// ------------------------------------------------------------------ antiCommunities
test('antiCommunities: balanced sizes, W recount, far below a random split, deterministic', () => {
  for (const [name, k] of [['karate', 3], ['lesmis', 4], ['planted_8x40', 3], ['planted_8x40', 8], ['lfr_3000', 3], ['ba_3000', 5], ['advice', 10]] as const) {
    const r = byName.get(name)!;
    const t0 = performance.now();
    const out = run('antiCommunities', r, { antiCommunityGroupCount: k });
    const ms = performance.now() - t0;
    const vals = out.values['Anti-Community'];
    const n = r.network.nodes.length;
    const kk = Math.min(k, n);
    const sizes = new Map<string, number>();
    for (const v of Object.values(vals)) sizes.set(String(v), (sizes.get(String(v)) ?? 0) + 1);
    assert.equal(sizes.size, kk, name);
    for (let g = 1; g <= kk; g++) assert.ok(sizes.has(`Anti-Community ${g}`));
    const s = [...sizes.values()];
    assert.ok(Math.max(...s) - Math.min(...s) <= 1, `${name}: sizes ${s}`);
    const g = buildGraph(r.network, { directed: false, weight: null, selfLoops: false });
    let W = 0;
    for (let u = 0; u < g.n; u++) for (let p = g.outOff[u]; p < g.outOff[u + 1]; p++) if (g.outAdj[p] > u && vals[g.ids[u]] === vals[g.ids[g.outAdj[p]]]) W++;
    assert.equal(out.meta.withinGroupTies, W, name);
    // expected ties of a uniformly random balanced split: m · Σ s(s−1) / (n(n−1))
    const expected = (g.m * s.reduce((a, x) => a + x * (x - 1), 0)) / (n * (n - 1));
    console.log(`antiCommunities ${name} k=${k}: W=${W}, random split ≈ ${expected.toFixed(1)}, ${ms.toFixed(0)} ms`);
    assert.ok(W <= expected * 0.8, `${name}: W ${W} vs random ${expected}`);
    assert.deepEqual(run('antiCommunities', r, { antiCommunityGroupCount: k }).values['Anti-Community'], vals);
  }
});

test('antiCommunities kernel: never worse than the round-robin start, sizes kept', () => {
  for (let seed = 1; seed <= 20; seed++) {
    const r = randomNet(30 + seed * 7, 200 + seed * 30, seed, false);
    const g = buildGraph(r.network, { directed: false, weight: null, selfLoops: false });
    const k = 2 + (seed % 6);
    const order = new Int32Array(g.n);
    for (let i = 0; i < g.n; i++) order[i] = i;
    createRng(seed).shuffle(order);
    const res = antiCommunities(g.n, g.outOff, g.outAdj, k, order, { rng: createRng(seed), restarts: 10, budgetMs: 5000, localSearch: true, checkpoint: () => {} });
    assert.ok(res.ties <= res.startTies);
    const count = new Int32Array(k);
    for (const x of res.group) count[x]++;
    assert.ok(Math.max(...count) - Math.min(...count) <= 1);
    let W = 0;
    for (let u = 0; u < g.n; u++) for (let p = g.outOff[u]; p < g.outOff[u + 1]; p++) if (g.outAdj[p] > u && res.group[u] === res.group[g.outAdj[p]]) W++;
    assert.equal(res.ties, W);
  }
});

test('antiCommunities: count clamped to n, parameter range', () => {
  const out = run('antiCommunities', { network: { nodes: [{ id: 'a' }, { id: 'b' }, { id: 'c' }], edges: [{ id: 1, source: 'a', target: 'b' }] }, isDirected: false }, {});
  assert.equal(new Set(Object.values(out.values['Anti-Community'])).size, 3);
  assert.equal(out.meta.withinGroupTies, 0);
  assert.equal(errorOf(() => run('antiCommunities', byName.get('karate')!, { antiCommunityGroupCount: 1 })).code, 'INVALID_ARGS');
});

// ------------------------------------------------------------------ corePeriphery
test('corePeriphery single: Q ≥ Q of the degree ordering, Coreness is the Rombach profile', () => {
  for (const name of ['karate', 'lesmis', 'random_und', 'advice', 'planted_8x40', 'ba_3000']) {
    const r = byName.get(name)!;
    for (const [alpha, beta] of [[0.5, 0.8], [0.2, 0.5], [0.9, 0.95]]) {
      const out = run('corePeriphery', r, { alpha, beta });
      const g = buildGraph(r.network, { directed: false, weight: null, selfLoops: false });
      const prof = rombachProfile(g.n, alpha, beta);
      const byDeg = Array.from({ length: g.n }, (_, i) => i).sort((a, b) => g.outOff[a + 1] - g.outOff[a] - (g.outOff[b + 1] - g.outOff[b]) || a - b);
      const Cdeg = new Float64Array(g.n);
      byDeg.forEach((v, k) => (Cdeg[v] = prof[k]));
      const qDeg = rombachQuality(g.n, g.outOff, g.outAdj, Cdeg);
      const C = new Float64Array(g.ids.map((id) => out.values.Coreness[id] as number));
      const q = out.meta.quality as number;
      assert.ok(Math.abs(rombachQuality(g.n, g.outOff, g.outAdj, C) - q) <= 1e-9 * Math.max(1, q), `${name}: quality recount`);
      assert.ok(q >= qDeg - 1e-9 * Math.max(1, qDeg), `${name} α${alpha} β${beta}: Q ${q} < degree ordering ${qDeg}`);
      assert.deepEqual([...C].sort((a, b) => a - b), [...prof], `${name}: coreness is a permutation of the profile`);
      assert.ok(Object.values(out.values['Core Periphery']).every((x) => x === 'Core 1'));
      if (alpha === 0.5) console.log(`corePeriphery single ${name}: Q=${q.toFixed(3)} degree ordering ${qDeg.toFixed(3)}`);
    }
  }
});

test('corePeriphery multiple: labels by size, coreness 0/1, isolated nodes unscored, positive quality on planted graphs', () => {
  for (const name of ['karate', 'lesmis', 'planted_8x40', 'lfr_3000', 'advice']) {
    const r = byName.get(name)!;
    const out = run('corePeriphery', r, { type: 'multiple' });
    const g = buildGraph(r.network, { directed: false, weight: null, selfLoops: false });
    const labels = out.values['Core Periphery'];
    for (let i = 0; i < g.n; i++) {
      const iso = g.outOff[i + 1] === g.outOff[i];
      assert.equal(labels[g.ids[i]] === undefined, iso, `${name} node ${g.ids[i]}`);
      if (!iso) assert.ok(out.values.Coreness[g.ids[i]] === 0 || out.values.Coreness[g.ids[i]] === 1);
    }
    const sizes = new Map<string, number>();
    for (const v of Object.values(labels)) sizes.set(String(v), (sizes.get(String(v)) ?? 0) + 1);
    for (let c = 1; c < sizes.size; c++) assert.ok(sizes.get(`Core ${c}`)! >= sizes.get(`Core ${c + 1}`)!, `${name}: Core ${c} smaller than Core ${c + 1}`);
    console.log(`corePeriphery multiple ${name}: ${sizes.size} pairs, quality ${(out.meta.quality as number).toFixed(4)}`);
    if (name === 'planted_8x40' || name === 'lfr_3000') assert.ok((out.meta.quality as number) > 0.3);
    assert.deepEqual(run('corePeriphery', r, { type: 'multiple' }).values, out.values);
  }
});

// ------------------------------------------------------------------ complexCentrality
test('complexCentrality: threshold validation names the parameter', () => {
  const r = byName.get('karate')!;
  for (const params of [
    { complexCentralityThreshold: 2.5 },
    { complexCentralityThreshold: 0.5, complexCentralityThresholdType: 'absolute' },
    { complexCentralityThreshold: 1.5, complexCentralityThresholdType: 'fractional' },
    { complexCentralityThreshold: 0, complexCentralityThresholdType: 'fractional' },
  ]) {
    const e = errorOf(() => run('complexCentrality', r, params));
    assert.equal(e.code, 'INVALID_ARGS');
    assert.equal(e.status, 400);
    assert.equal(e.errors[0].path, '/complexCentralityThreshold');
  }
});

test('complexCentrality: 1 ≤ reach ≤ component size, PL ≥ 0, deterministic, normalized in 0..1', () => {
  for (const name of ['karate', 'lesmis', 'planted_8x40']) {
    const r = byName.get(name)!;
    for (const params of [{}, { complexCentralityThreshold: 2 }, { complexCentralityThreshold: 0.3, complexCentralityThresholdType: 'fractional' }]) {
      const out = run('complexCentrality', r, params);
      const one = run('complexCentrality', r, { complexCentralityThreshold: 1 });
      const g = buildGraph(r.network, { directed: false, weight: null, selfLoops: false });
      for (const id of g.ids) {
        const reach = out.values['Complex Centrality - Reach'][id] as number;
        assert.ok(reach >= 1 && reach <= (one.values['Complex Centrality - Reach'][id] as number));
        assert.ok((out.values['Complex Centrality'][id] as number) >= 0);
      }
      assert.deepEqual(run('complexCentrality', r, params).values, out.values);
      const norm = run('complexCentrality', r, { ...params, normalized: true });
      const xs = Object.values(norm.values['Complex Centrality']) as number[];
      assert.ok(xs.every((x) => x >= 0 && x <= 1));
    }
  }
});

// ------------------------------------------------------------------ brokerage
test('brokerage: worked example of docs/spec/metrics-extra.md', () => {
  const network: NetworkJSON = {
    nodes: 'ABCDEF'.split('').map((id) => ({ id })),
    edges: [['A', 'B'], ['B', 'C'], ['D', 'B'], ['E', 'B'], ['B', 'F'], ['A', 'F']].map(([s, t], i) => ({ id: i, source: s, target: t })),
  };
  const out = run('brokerage', { network, isDirected: true }, { partition: { A: 'x', B: 'x', F: 'x', C: 'y', D: 'y', E: 'z' } });
  const b = (role: string) => out.values[`Brokerage - ${role}`].B;
  assert.deepEqual([b('Coordinator'), b('Consultant'), b('Gatekeeper'), b('Representative'), b('Liaison'), b('Total')], [0, 1, 2, 1, 1, 5]);
});

test('brokerage: equals a brute-force count over all ordered triples', () => {
  for (let seed = 1; seed <= 12; seed++) {
    const directed = seed % 2 === 0;
    const r = randomNet(25, 70 + seed * 5, seed, directed);
    const rng = createRng(seed * 31);
    const partition: Record<string, number> = {};
    for (const nd of r.network.nodes) partition[String(nd.id)] = rng.int(3);
    const out = run('brokerage', r, { partition });
    const n = 25;
    const A = Array.from({ length: n }, () => new Uint8Array(n));
    for (const e of r.network.edges!) {
      const s = Number(e.source);
      const t = Number(e.target);
      if (s === t) continue;
      A[s][t] = 1;
      if (!directed) A[t][s] = 1;
    }
    const roles = ['Coordinator', 'Consultant', 'Gatekeeper', 'Representative', 'Liaison'];
    const cnt = roles.map(() => new Array(n).fill(0));
    for (let a = 0; a < n; a++)
      for (let b = 0; b < n; b++)
        for (let c = 0; c < n; c++) {
          if (a === b || b === c || a === c || !A[a][b] || !A[b][c] || A[a][c]) continue;
          const [ga, gb, gc] = [partition[a], partition[b], partition[c]];
          const role = ga === gb && gb === gc ? 0 : ga === gc ? 1 : gb === gc ? 2 : ga === gb ? 3 : 4;
          cnt[role][b]++;
        }
    roles.forEach((role, k) => {
      for (let b = 0; b < n; b++) assert.equal(out.values[`Brokerage - ${role}`][String(b)], cnt[k][b], `seed ${seed} ${role} ${b}`);
    });
    if (!directed) for (let b = 0; b < n; b++) assert.equal(out.values['Brokerage - Gatekeeper'][b], out.values['Brokerage - Representative'][b]);
  }
});

test('brokerage: missing partition ids → 400 at /partition listing them', () => {
  const e = errorOf(() => run('brokerage', byName.get('advice')!, { partition: { ana: 'x', ben: 'y' } }));
  assert.equal(e.code, 'INVALID_ARGS');
  assert.equal(e.errors[0].path, '/partition');
  assert.match(e.errors[0].message, /"cho".*"lou"/);
  assert.equal(errorOf(() => run('brokerage', byName.get('advice')!, {})).code, 'INVALID_ARGS');
});

// ------------------------------------------------------------------ identifyInfluencers
test('identifyInfluencers: meta, count required for method count, attribute filter', () => {
  const r = byName.get('karate')!;
  const out = run('identifyInfluencers', r, {});
  const ids = out.meta.influencerIds as string[];
  assert.deepEqual(ids, ['33', '0']);
  assert.deepEqual(out.values.Influencer, { '33': 1, '0': 2 });
  assert.ok((out.meta.coveragePercent as number) >= 90);
  const e = errorOf(() => run('identifyInfluencers', r, { identifyInfluencersMethod: 'count' }));
  assert.equal(e.errors[0].path, '/influencersCount');
  const c = run('identifyInfluencers', r, { identifyInfluencersMethod: 'count', influencersCount: 3 });
  assert.equal((c.meta.influencerIds as string[]).length, 3);
  // stops early once nothing more can be covered (karate is covered by 4 nodes)
  const all = run('identifyInfluencers', r, { identifyInfluencersMethod: 'count', influencersCount: 30 });
  assert.equal(all.meta.coveragePercent, 100);
  assert.ok((all.meta.influencerIds as string[]).length < 30);
  const withClub = { ...r, network: { ...r.network, nodes: r.network.nodes.map((nd, i) => ({ ...nd, attributes: { club: i % 2 ? 'Officer' : 'Mr. Hi' } })) } };
  const f = run('identifyInfluencers', withClub, { identifyInfluencersAttribute: 'club', identifyInfluencersAttributeValues: ['Officer'] });
  const club = new Map(withClub.network.nodes.map((nd) => [String(nd.id), nd.attributes.club]));
  const officers = f.meta.influencerIds as string[];
  assert.ok(officers.length > 0 && officers.every((id) => club.get(id) === 'Officer'));
  assert.equal(errorOf(() => run('identifyInfluencers', r, { identifyInfluencersAttributeValues: ['x'] })).errors[0].path, '/identifyInfluencersAttribute');
  assert.equal(errorOf(() => run('identifyInfluencers', r, { targetCoveragePercent: 101 })).code, 'INVALID_ARGS');
});

// ------------------------------------------------------------------ informal*
test('informal*: organization-only, at least one value each', () => {
  assert.equal(getMetric('informalAlignment').requiresOrganization, true);
  assert.equal(getMetric('informalDistance').requiresOrganization, true);
  const r = byName.get('karate')!;
  const base = { fiFormalAttribute: 'weight', fiFormalValues: [1], fiInformalAttribute: 'weight', fiInformalValues: [2] };
  assert.equal(errorOf(() => run('informalAlignment', r, { ...base, fiFormalValues: [] })).code, 'INVALID_ARGS');
  assert.equal(errorOf(() => run('informalDistance', r, { ...base, fiInformalAttribute: undefined })).code, 'INVALID_ARGS');
});
