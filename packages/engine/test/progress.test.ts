// Progress hooks (kernels/progress.ts): every metric whose time goes into a source loop or an iteration
// reports through `ctx.progress` — `done` never decreases, stays within 0..total, the total is the
// metric's unit count (sources, maxIter, nodes), the last report is (total, total), and the reports do
// not change the result. A shard reports its own sources.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NetworkJSON } from '../src/graph/network-json.ts';
import { createRng } from '../src/kernels/random.ts';
import { runMetric, type NodeRunOutput } from '../src/metrics/run.ts';
import { getMetric } from '../src/metrics/run.ts';
import type { NodeMetric } from '../src/metrics/types.ts';

function randomNetwork(n: number, m: number, seed: number): NetworkJSON {
  const rng = createRng(seed);
  const edges = [];
  for (let i = 0; i < m; i++) {
    const s = rng.int(n);
    const t = rng.random() < 0.5 ? (s + 1 + rng.int(5)) % n : rng.int(n);
    edges.push({ id: i, source: s, target: t, attributes: { weight: 1 + rng.int(4) } });
  }
  return { nodes: Array.from({ length: n }, (_, i) => ({ id: i })), edges };
}

const net = randomNetwork(150, 450, 7);

/** [metric, params, directed, expected total (null: any positive)] */
const cases: [string, Record<string, unknown>, boolean, number | null][] = [
  ['betweennessCentrality', {}, true, 150],
  ['betweennessCentrality', { metricEdgeWeights: true }, false, 150],
  ['betweennessCentrality', { kPercent: 20 }, true, 30],
  ['loadCentrality', {}, true, 150],
  ['loadCentrality', { metricEdgeWeights: true }, true, 150],
  ['closenessCentrality', {}, true, 150],
  ['closenessCentrality', { metricEdgeWeights: true }, true, 150],
  ['closenessCentrality', { kPercent: 10 }, false, null],
  ['harmonicCentrality', {}, true, 150],
  ['currentFlowClosenessCentrality', {}, false, 150],
  ['eigenvectorCentrality', {}, false, 1000],
  ['katzCentrality', { katzCentralityAlpha: 0.01 }, true, 1000],
  ['HITS', {}, true, 20000],
  ['pageRank', {}, true, 100],
];

for (const [metric, params, directed, expectedTotal] of cases) {
  test(`progress: ${metric} ${JSON.stringify(params)}`, () => {
    const reports: [number, number][] = [];
    const out = runMetric({ metric, network: net, networkDirected: directed, params, progress: (d, t) => reports.push([d, t]) }) as NodeRunOutput;
    assert.ok(reports.length >= 2, `${reports.length} reports`);
    const total = reports[0][1];
    if (expectedTotal !== null) assert.equal(total, expectedTotal);
    else assert.ok(total > 0);
    let last = -1;
    for (const [d, t] of reports) {
      assert.equal(t, total, 'total is fixed within a run');
      assert.ok(d >= last && d >= 0 && d <= t, `done ${d} after ${last} of ${t}`);
      last = d;
    }
    assert.deepEqual(reports.at(-1), [total, total], 'ends with (total, total)');
    // iterative methods converge early: fewer reports than the bound
    const plain = runMetric({ metric, network: net, networkDirected: directed, params }) as NodeRunOutput;
    assert.deepEqual(out.values, plain.values, 'reports do not change the result');
  });
}

test('progress: a shard reports its own sources', () => {
  const m = getMetric('betweennessCentrality') as NodeMetric;
  const reports: [number, number][] = [];
  const ctx = { network: net, networkDirected: true, params: { directed: true, kPercent: 100, normalized: true }, seed: 0, checkpoint: () => {}, progress: (d: number, t: number) => reports.push([d, t]) };
  m.parallel!.partial(ctx, { index: 1, count: 3 });
  assert.deepEqual(reports.at(-1), [50, 50]);
  assert.equal(reports.length, 51);
});
