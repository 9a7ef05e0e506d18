import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { axisGuide, categoryOrder, circle, circleByGroups, circleGroupGuides, hierarchy, niceTicks, orient, plot, PLOT_SIDE } from './arrange.ts';
import { Fa2Job, fa2Settings, FA2_DEFAULTS, NoverlapJob } from './jobs.ts';
import { countOverlaps } from './runner.ts';
import { batchMsFor, FA2_CONVERGED_BELOW } from './protocol.ts';
import { layoutProgress } from '../menu/layout-panel.ts';

const lesMis = JSON.parse(readFileSync(new URL('../../test/fixtures/les-miserables.json', import.meta.url), 'utf8')) as { nodes: { id: string }[]; edges: { source: string; target: string; attributes: { weight: number } }[] };

function lesMisInput() {
  const index = new Map(lesMis.nodes.map((n, i) => [n.id, i]));
  return {
    positions: circle(lesMis.nodes.length),
    edges: Uint32Array.from(lesMis.edges.flatMap((e) => [index.get(e.source) as number, index.get(e.target) as number])),
    weights: Float32Array.from(lesMis.edges.map((e) => e.attributes.weight)),
  };
}

function meanEdgeLength(p: Float32Array, edges: Uint32Array): number {
  let s = 0;
  for (let k = 0; k < edges.length; k += 2) s += Math.hypot(p[2 * edges[k]] - p[2 * edges[k + 1]], p[2 * edges[k] + 1] - p[2 * edges[k + 1] + 1]);
  let lo = Infinity, hi = -Infinity;
  for (const v of p) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  return s / (edges.length / 2) / (hi - lo);
}

test('ForceAtlas2 settings: the library defaults merged with what it infers (no undefined setting), Barnes–Hut above 2,000 nodes', () => {
  const s = fa2Settings(77);
  for (const k of Object.keys(FA2_DEFAULTS)) assert.notEqual(s[k as keyof typeof s], undefined, k);
  assert.equal(s.edgeWeightInfluence, 1);
  assert.equal(s.strongGravityMode, true);
  assert.equal(s.barnesHutOptimize, false);
  assert.equal(fa2Settings(5000).barnesHutOptimize, true);
});

test('ForceAtlas2 on Les Misérables: finite positions, converges by itself, edges much shorter than on the circle, weighted or not', () => {
  const input = lesMisInput();
  for (const weighted of [false, true]) {
    const job = new Fa2Job({ ...input, weights: weighted ? input.weights : null });
    let r;
    do r = job.batch(20); while (!r.done);
    assert.equal(r.done, 'converged');
    assert.ok(r.positions.every(Number.isFinite));
    const ratio = meanEdgeLength(r.positions, input.edges) / meanEdgeLength(input.positions, input.edges);
    assert.ok(ratio < 0.7, `mean edge length ratio ${ratio}`);
  }
});

test('ForceAtlas2 stops at its iteration limit when it has not converged', () => {
  const job = new Fa2Job({ ...lesMisInput(), weights: null }, { maxIterations: 5 });
  let r;
  do r = job.batch(1000); while (!r.done);
  assert.equal(r.done, 'limit');
  assert.equal(r.iterations, 5);
});

test('noverlap after ForceAtlas2 on Les Misérables leaves no overlapping discs', () => {
  const input = lesMisInput();
  const fa2 = new Fa2Job({ ...input, weights: null });
  // A clock that advances one unit per reading: batches of a fixed number of iterations, so the drawing
  // (and this test) does not depend on how fast the machine is at the moment.
  let t = 0;
  const tick = () => t++;
  let r;
  do r = fa2.batch(20, tick); while (!r.done);
  let lo = Infinity, hi = -Infinity;
  for (const v of r.positions) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  const radius = (hi - lo) * 0.02;
  const n = lesMis.nodes.length;
  const discs = (p: Float32Array) => Array.from({ length: n }, (_, i) => ({ x: p[2 * i], y: p[2 * i + 1], r: radius }));
  assert.ok(countOverlaps(discs(r.positions)) > 0, 'ForceAtlas2 leaves overlaps at this size');
  const job = new NoverlapJob({ positions: r.positions, edges: new Uint32Array(0), weights: null, sizes: new Float32Array(n).fill(radius) }, { settings: { margin: radius * 0.1, ratio: 1.1 } });
  do r = job.batch(50, tick); while (!r.done);
  assert.equal(r.done, 'converged');
  assert.equal(countOverlaps(discs(r.positions)), 0);
});

test('circle by attribute: each group on one arc, largest group first', () => {
  const groups = Int32Array.from([0, 1, 1, 0, 1, -1, 2]);
  const p = circleByGroups(groups);
  const angle = (i: number) => (Math.atan2(p[2 * i + 1], p[2 * i]) + 2 * Math.PI) % (2 * Math.PI);
  const order = [...groups.keys()].sort((a, b) => angle(a) - angle(b)).map((i) => groups[i]);
  assert.deepEqual(order, [1, 1, 1, 0, 0, 2, -1]);
});

test('plot: numeric axes keep the order of the values; categories by count or alphabetically; missing values before the first', () => {
  const p = plot({ kind: 'number', values: [3, 1, 2, undefined] }, { kind: 'number', values: [0, 0, 0, 0] });
  assert.ok(p[2] < p[4] && p[4] < p[0], 'x ordered by value');
  assert.ok(p[6] < p[2], 'missing value first');
  assert.deepEqual(categoryOrder(['b', 'a', 'b', 'c', 'c', 'c'], 'count'), ['c', 'b', 'a']);
  assert.deepEqual(categoryOrder(['b', 'a', 'b', 'c10', 'c9'], 'alphabetical'), ['a', 'b', 'c9', 'c10']);
  const q = plot({ kind: 'category', values: ['x', 'y', 'y'], order: 'count' }, { kind: 'number', values: [1, 2, 3] });
  assert.ok(q[0] > q[2] && q[0] > q[4], 'the most frequent category comes first');
});

test('orient turns a drawing so its long axis lies along the canvas long side', () => {
  const tall = Float32Array.from([0, -10, 0, 10, 1, 0, -1, 0]);
  const wide = orient(Float32Array.from(tall), true);
  const span = (p: Float32Array, o: number) => Math.max(p[o], p[o + 2], p[o + 4], p[o + 6]) - Math.min(p[o], p[o + 2], p[o + 4], p[o + 6]);
  assert.ok(span(wide, 0) > 19 && span(wide, 1) < 3, `x span ${span(wide, 0)}, y span ${span(wide, 1)}`);
  const back = orient(Float32Array.from(wide), false);
  assert.ok(span(back, 1) > 19);
});

test('progress of a run: 0 at the first batch, rises as the movement falls towards the convergence threshold, never 1 while running; batches longer on large networks', () => {
  const base = { kind: 'forceAtlas2' as const, running: true, iterations: 10, outcome: null, ms: 100 };
  assert.equal(layoutProgress({ ...base, kind: 'circle' }), null);
  assert.equal(layoutProgress({ ...base, movement: 0.05, firstMovement: 0.05 }), 0);
  const half = layoutProgress({ ...base, movement: Math.sqrt(0.05 * FA2_CONVERGED_BELOW), firstMovement: 0.05 }) as number;
  assert.ok(Math.abs(half - 0.5) < 1e-9, String(half));
  assert.equal(layoutProgress({ ...base, movement: FA2_CONVERGED_BELOW / 10, firstMovement: 0.05 }), 0.99);
  // A real run: the progress it reports only grows overall and ends high.
  const job = new Fa2Job(lesMisInput());
  let first: number | undefined;
  let last: number;
  for (let r = job.batch(5); ; r = job.batch(5)) {
    first ??= r.movement;
    last = layoutProgress({ ...base, movement: r.movement, firstMovement: first }) as number;
    if (r.done) break;
  }
  assert.ok(last > 0.8, `settled ${last}`);
  assert.equal(batchMsFor(77, 254), 50);
  assert.equal(batchMsFor(10_000, 50_000), 300);
  assert.equal(batchMsFor(100_000, 500_000), 2000);
});

/** An org chart: 1 CEO, 4 heads, each with 3 leads, each lead with 3–4 reports (1 + 4 + 12 + 42 = 59 people), plus 2 without a line. */
function orgChart(): { n: number; edges: Uint32Array; parent: Int32Array } {
  const parent: number[] = [-1];
  for (let h = 0; h < 4; h++) parent.push(0);
  for (let h = 1; h <= 4; h++) for (let l = 0; l < 3; l++) parent.push(h);
  for (let lead = 5; lead < 17; lead++) for (let r = 0; r < (lead % 2 ? 3 : 4); r++) parent.push(lead);
  parent.push(-1, -1);
  const edges: number[] = [];
  parent.forEach((p, c) => { if (p >= 0) edges.push(p, c); });
  return { n: parent.length, edges: Uint32Array.from(edges), parent: Int32Array.from(parent) };
}

test('hierarchy: every manager one layer above their reports, no two nodes of a layer closer than a slot, finite, no-line people last', () => {
  const { n, edges, parent } = orgChart();
  const { positions: p, layer } = hierarchy(n, edges);
  assert.ok([...p].every(Number.isFinite));
  for (let c = 0; c < n; c++) {
    const m = parent[c];
    if (m >= 0) {
      assert.equal(layer[c], layer[m] + 1);
      assert.ok(p[2 * m + 1] > p[2 * c + 1], 'the manager is drawn above (larger y)');
    }
  }
  assert.deepEqual([layer[n - 2], layer[n - 1]], [-1, -1]);
  const lowest = Math.min(...Array.from({ length: n - 2 }, (_, i) => p[2 * i + 1]));
  assert.ok(p[2 * (n - 1) + 1] < lowest, 'people without a line below everybody else');
  const rows = new Map<number, number[]>();
  for (let i = 0; i < n; i++) rows.set(p[2 * i + 1], [...(rows.get(p[2 * i + 1]) ?? []), p[2 * i]]);
  for (const xs of rows.values()) {
    xs.sort((a, b) => a - b);
    for (let k = 1; k < xs.length; k++) assert.ok(xs[k] - xs[k - 1] >= 9.99, `slot spacing ${xs[k] - xs[k - 1]}`);
  }
  // a tidy tree: each manager centred over their reports, so no two reporting lines cross
  for (let m = 0; m < 17; m++) {
    const xs = Array.from({ length: n }, (_, c) => c).filter((c) => parent[c] === m).map((c) => p[2 * c]);
    if (xs.length) assert.ok(Math.abs(p[2 * m] - (Math.min(...xs) + Math.max(...xs)) / 2) < 1e-3, `manager ${m} centred`);
  }
});

test('hierarchy: cycles and two managers still give finite layers with every kept line pointing down', () => {
  // 0→1→2→0 (a cycle), 3→2 (a second manager), 4 alone
  const { positions: p, layer } = hierarchy(5, Uint32Array.from([0, 1, 1, 2, 2, 0, 3, 2]));
  assert.ok([...p].every(Number.isFinite));
  const lines = [[0, 1], [1, 2], [2, 0], [3, 2]];
  const up = lines.filter(([m, c]) => layer[c] <= layer[m]);
  assert.equal(up.length, 1, 'exactly one line of the cycle is dropped');
  assert.ok(layer[2] > layer[3], 'the root at the top');
  assert.equal(layer[4], -1);
});

test('plot guides: nice number ticks at the same places as the positions; categories in the plotted order with a band for no value', () => {
  assert.deepEqual(niceTicks(0, 36), [0, 10, 20, 30]);
  assert.deepEqual(niceTicks(0.1, 0.9, 4), [0.2, 0.4, 0.6, 0.8]);
  const g = axisGuide('degree', { kind: 'number', values: [1, 36, 10] });
  assert.equal(g.title, 'degree');
  assert.deepEqual(g.ticks.map((t) => t.text), ['10', '20', '30']);
  assert.ok(Math.abs((g.ticks[0].at - (9 / 35) * PLOT_SIDE)) < 1e-6);
  const c = axisGuide('team', { kind: 'category', values: ['b', 'a', 'b', undefined], order: 'count' });
  assert.deepEqual(c.ticks.map((t) => t.text), ['no value', 'b', 'a']);
  assert.equal(c.borders.length, 1);
  const groups = circleGroupGuides(Int32Array.from([0, 1, 1, -1]), ['x', 'y']);
  assert.deepEqual(groups.map((l) => [l.text, l.count]), [['y', 2], ['x', 1], ['no value', 1]]);
});
