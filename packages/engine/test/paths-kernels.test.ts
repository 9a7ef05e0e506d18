// Kernel-level checks of the path family that the NetworkX fixtures cannot reach: solver agreement
// (sparse direct LDLᵀ vs conjugate gradient), bit-parallel vs per-source BFS sums, and the source-subset
// contract (split sources, add the partial results = one run over all sources).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildGraph } from '../src/graph/build.ts';
import type { NetworkJSON } from '../src/graph/network-json.ts';
import { createRng } from '../src/kernels/random.ts';
import { allNodes, localityOrder } from '../src/kernels/sources.ts';
import { bfsDistanceSums, dijkstraDistanceSums } from '../src/kernels/distance-sums.ts';
import { bitBfsTargetSums } from '../src/kernels/bit-bfs.ts';
import { brandes, load } from '../src/kernels/brandes.ts';
import { currentFlowClosenessAll } from '../src/kernels/current-flow.ts';
import { runMetric } from '../src/metrics/run.ts';

function randomNetwork(n: number, m: number, seed: number): NetworkJSON {
  const rng = createRng(seed);
  const edges = [];
  for (let i = 0; i < m; i++) {
    edges.push({ id: i, source: rng.int(n), target: rng.int(n), attributes: { weight: 1 + rng.int(4), cost: 0.25 * (1 + rng.int(12)) } });
  }
  return { nodes: Array.from({ length: n }, (_, i) => ({ id: i })), edges };
}

function assertClose(a: ArrayLike<number>, b: ArrayLike<number>, tol: number, label: string): void {
  assert.equal(a.length, b.length);
  for (let i = 0; i < a.length; i++) {
    if (Number.isNaN(a[i]) && Number.isNaN(b[i])) continue;
    assert.ok(Math.abs(a[i] - b[i]) <= tol * Math.max(1, Math.abs(b[i])), `${label}[${i}]: ${a[i]} vs ${b[i]}`);
  }
}

test('current flow: conjugate gradient agrees with the sparse direct solver (weighted, several components)', () => {
  const net = randomNetwork(400, 900, 7);
  for (const weight of [null, 'weight', 'cost']) {
    const g = buildGraph(net, { directed: false, weight, selfLoops: false });
    const direct = new Float64Array(g.n);
    const cg = new Float64Array(g.n);
    const fallback = new Float64Array(g.n);
    currentFlowClosenessAll(g, direct, undefined, 'direct');
    currentFlowClosenessAll(g, cg, undefined, 'cg');
    // a dense block over the limit (here: any) falls back to CG, so the same numbers as 'cg', bit for bit
    currentFlowClosenessAll(g, fallback, undefined, 'direct', 0);
    assert.deepEqual(fallback, cg);
    assertClose(cg, direct, 1e-9, `cf ${weight}`);
    assertClose(fallback, direct, 1e-9, `cf fallback ${weight}`);
    assert.ok(direct.some((x) => x > 0) && direct.some((x) => Number.isNaN(x)), 'several components, isolates not scored');
  }
});

test('bit-parallel BFS target sums equal per-source BFS sums (directed and undirected)', () => {
  for (const directed of [true, false]) {
    const g = buildGraph(randomNetwork(300, 700, 3), { directed, weight: null, selfLoops: false });
    const sum = new Float64Array(g.n);
    const reach = new Float64Array(g.n);
    const inv = new Float64Array(g.n);
    bfsDistanceSums(g, allNodes(g.n), true, { sum, reach, inv });
    const s2 = new Float64Array(g.n);
    const r2 = new Float64Array(g.n);
    const i2 = new Float64Array(g.n);
    bitBfsTargetSums(g, localityOrder(g, allNodes(g.n)), false, { sum: s2, reach: r2, inv: i2 });
    assert.deepEqual(s2, sum);
    assert.deepEqual(r2, reach);
    assertClose(i2, inv, 1e-12, 'harmonic');
  }
});

test('source-subset contract: partial runs add up to the full run', () => {
  for (const weight of [null, 'cost']) {
    const g = buildGraph(randomNetwork(200, 600, 11), { directed: true, weight, selfLoops: false });
    const all = allNodes(g.n);
    const odd = all.filter((v) => v % 2 === 1);
    const even = all.filter((v) => v % 2 === 0);
    for (const kernel of [brandes, load]) {
      const full = new Float64Array(g.n);
      kernel(g, all, full);
      const parts = new Float64Array(g.n);
      kernel(g, odd, parts);
      kernel(g, even, parts);
      assertClose(parts, full, 1e-12, `${kernel.name} ${weight}`);
    }
    const sFull = new Float64Array(g.n);
    const sParts = new Float64Array(g.n);
    if (weight) {
      dijkstraDistanceSums(g, all, true, { sum: sFull });
      dijkstraDistanceSums(g, odd, true, { sum: sParts });
      dijkstraDistanceSums(g, even, true, { sum: sParts });
    } else {
      bitBfsTargetSums(g, all, false, { sum: sFull });
      bitBfsTargetSums(g, odd, false, { sum: sParts });
      bitBfsTargetSums(g, even, false, { sum: sParts });
    }
    assert.deepEqual(sParts, sFull);
  }
});

test('sampling: kPercent rounding to all nodes is the exact computation; seed fixes the sample', () => {
  const net = randomNetwork(40, 90, 5);
  const exact = runMetric({ metric: 'betweennessCentrality', network: net, networkDirected: true, params: {} });
  const allK = runMetric({ metric: 'betweennessCentrality', network: net, networkDirected: true, params: { kPercent: 99 } });
  assert.deepEqual(allK.kind === 'node' && allK.values, exact.kind === 'node' && exact.values);
  const a = runMetric({ metric: 'betweennessCentrality', network: net, networkDirected: true, params: { kPercent: 30, seed: 9 } });
  const b = runMetric({ metric: 'betweennessCentrality', network: net, networkDirected: true, params: { kPercent: 30, seed: 9 } });
  assert.deepEqual(a.kind === 'node' && a.values, b.kind === 'node' && b.values);
  assert.equal(a.meta.seed, 9);
  const c = runMetric({ metric: 'closenessCentrality', network: net, networkDirected: false, params: { kPercent: 50 } });
  assert.equal(typeof c.meta.seed, 'number');
});

test('parameters are validated: unknown keys and out-of-range kPercent are refused', () => {
  const net = randomNetwork(5, 5, 1);
  assert.throws(() => runMetric({ metric: 'betweennessCentrality', network: net, networkDirected: true, params: { k: 3 } }), /k/);
  assert.throws(() => runMetric({ metric: 'closenessCentrality', network: net, networkDirected: true, params: { kPercent: 101 } }));
  assert.throws(() => runMetric({ metric: 'harmonicCentrality', network: net, networkDirected: true, params: { normalized: true } }));
  assert.throws(() => runMetric({ metric: 'diameter', network: net, networkDirected: true, params: { metricEdgeWeights: true } }));
});

test('Dijkstra kernels: bucket queue (small integer weights) agrees with the binary heap (same weights halved)', async () => {
  const { brandes: br, load: ld } = await import('../src/kernels/brandes.ts');
  const { dijkstraQueue, BucketQueue, IndexedHeap } = await import('../src/kernels/queues.ts');
  for (const directed of [true, false]) {
    const net = randomNetwork(250, 700, 17);
    const gi = buildGraph(net, { directed, weight: 'weight', selfLoops: false });
    // halving keeps every tie exact but makes odd weights fractional: the kernels fall back to the heap
    const gh = { ...gi, outW: gi.outW.map((x) => x / 2), inW: gi.inW.map((x) => x / 2) };
    assert.ok(dijkstraQueue(gi.n, gi.outW) instanceof BucketQueue);
    assert.ok(dijkstraQueue(gh.n, gh.outW) instanceof IndexedHeap);
    const src = allNodes(gi.n);
    const [b1, b2, l1, l2] = [0, 0, 0, 0].map(() => new Float64Array(gi.n));
    br(gi, src, b1);
    br(gh, src, b2);
    ld(gi, src, l1);
    ld(gh, src, l2);
    assertClose(b1, b2, 1e-12, 'betweenness');
    assertClose(l1, l2, 1e-12, 'load');
    const s1 = { sum: new Float64Array(gi.n), reach: new Float64Array(gi.n), inv: new Float64Array(gi.n) };
    const s2 = { sum: new Float64Array(gi.n), reach: new Float64Array(gi.n), inv: new Float64Array(gi.n) };
    dijkstraDistanceSums(gi, src, true, s1);
    dijkstraDistanceSums(gh, src, true, s2);
    assertClose(s1.sum, s2.sum.map((x) => x * 2), 1e-12, 'sum');
    assert.deepEqual(s1.reach, s2.reach);
    assertClose(s1.inv, s2.inv.map((x) => x / 2), 1e-12, 'inv');
  }
});
