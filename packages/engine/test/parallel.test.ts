// Source-loop split (SourceParallel, pool/README.md): for betweenness, closeness, harmonic and load,
// exact and sampled, directed/undirected/weighted, `finish(Σ partial(shard i of count))` must equal the
// single run within 1e-12 (relative), and the worker pool must really split a job across two workers
// and answer exactly what runMetric answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NetworkJSON } from '../src/graph/network-json.ts';
import { createRng } from '../src/kernels/random.ts';
import { runMetric, type NodeRunOutput } from '../src/metrics/run.ts';
import { runFinish, runPartial } from '../src/pool/shard.ts';
import { MetricPool } from '../src/pool/pool.ts';

function randomNetwork(n: number, m: number, seed: number, idPrefix = ''): NetworkJSON {
  const rng = createRng(seed);
  const edges = [];
  for (let i = 0; i < m; i++) {
    const s = rng.int(n);
    // some structure: half the edges local, some parallel/reciprocal pairs and self-loops appear by chance
    const t = rng.random() < 0.5 ? (s + 1 + rng.int(5)) % n : rng.int(n);
    edges.push({ id: i, source: idPrefix ? `${idPrefix}${s}` : s, target: idPrefix ? `${idPrefix}${t}` : t, attributes: { weight: 1 + rng.int(4), cost: 0.25 * (1 + rng.int(12)) } });
  }
  return { nodes: Array.from({ length: n }, (_, i) => ({ id: idPrefix ? `${idPrefix}${i}` : i })), edges };
}

/** Two components plus isolates: sampled closeness uses the largest component only. */
function disconnected(): NetworkJSON {
  const a = randomNetwork(120, 300, 11, 'a');
  const b = randomNetwork(60, 150, 12, 'b');
  return { nodes: [...a.nodes, ...b.nodes, { id: 'iso1' }, { id: 'iso2' }], edges: [...(a.edges ?? []), ...(b.edges ?? []).map((e) => ({ ...e, id: `b${e.id}` }))] };
}

const graphs: [string, NetworkJSON][] = [
  ['random 200/600', randomNetwork(200, 600, 1)],
  ['random 150/300 sparse', randomNetwork(150, 300, 2)],
  ['two components + isolates', disconnected()],
];

const variants: [string, Record<string, unknown>][] = [
  ['betweennessCentrality', {}],
  ['betweennessCentrality', { normalized: false }],
  ['betweennessCentrality', { metricEdgeWeights: true }],
  ['betweennessCentrality', { metricEdgeWeights: 'cost', directed: false }],
  ['betweennessCentrality', { kPercent: 30, seed: 5 }],
  ['betweennessCentrality', { kPercent: 30, seed: 5, normalized: false, metricEdgeWeights: 'cost' }],
  ['closenessCentrality', {}],
  ['closenessCentrality', { normalized: false, directed: false }],
  ['closenessCentrality', { metricEdgeWeights: 'cost' }],
  ['closenessCentrality', { kPercent: 30, seed: 9 }],
  ['closenessCentrality', { kPercent: 40, seed: 9, metricEdgeWeights: true }],
  ['harmonicCentrality', {}],
  ['loadCentrality', {}],
  ['loadCentrality', { normalized: false, metricEdgeWeights: 'cost' }],
];

function assertSame(split: NodeRunOutput, whole: NodeRunOutput, label: string): void {
  assert.deepEqual(Object.keys(split.values), Object.keys(whole.values), label);
  for (const [attr, vals] of Object.entries(whole.values)) {
    const got = split.values[attr];
    assert.deepEqual(Object.keys(got).sort(), Object.keys(vals).sort(), `${label}: scored nodes`);
    for (const [id, v] of Object.entries(vals)) {
      const g = got[id] as number;
      assert.ok(Math.abs(g - (v as number)) <= 1e-12 * Math.max(1, Math.abs(v as number)), `${label} ${attr}[${id}]: ${g} vs ${v}`);
    }
  }
}

function splitRun(metric: string, network: NetworkJSON, directed: boolean, params: Record<string, unknown>, count: number): NodeRunOutput {
  const summed: Float64Array[] = [];
  for (let i = 0; i < count; i++) {
    const parts = runPartial(metric, network, directed, params, Infinity, i, count);
    parts.forEach((arr, k) => {
      if (!summed[k]) summed[k] = Float64Array.from(arr);
      else for (let j = 0; j < arr.length; j++) summed[k][j] += arr[j];
    });
  }
  return runFinish(metric, network, directed, params, Infinity, summed, performance.now());
}

test('split source loops equal the single run (betweenness, closeness, harmonic, load; exact and sampled)', () => {
  for (const [gname, network] of graphs) {
    for (const directed of [true, false]) {
      for (const [metric, params] of variants) {
        const whole = runMetric({ metric, network, networkDirected: directed, params });
        assert.equal(whole.kind, 'node');
        for (const count of [2, 3]) {
          const split = splitRun(metric, network, directed, params, count);
          assertSame(split, whole as NodeRunOutput, `${metric} ${JSON.stringify(params)} on ${gname}, directed ${directed}, ${count} shards`);
          assert.deepEqual({ ...split.meta, elapsedMs: 0 }, { ...whole.meta, elapsedMs: 0 }, 'same meta');
        }
      }
    }
  }
});

test('the worker pool splits a source-loop job across two workers and answers as runMetric', async () => {
  const pool = new MetricPool({ workers: 2, queueSize: 4, timeoutMs: 60_000 });
  try {
    const network = randomNetwork(2500, 6000, 21);
    for (const [metric, params, directed] of [
      ['betweennessCentrality', { metricEdgeWeights: true }, false],
      ['loadCentrality', {}, true],
      ['closenessCentrality', { kPercent: 50 }, true],
    ] as const) {
      const before = pool.splitJobs;
      const body = new TextEncoder().encode(JSON.stringify({ networkJSON: network, isDirected: directed, ...params }));
      const t0 = performance.now();
      const res = await pool.run({ metric, network: { kind: 'body', body } });
      const wallMs = performance.now() - t0;
      assert.equal(pool.splitJobs, before + 1, `${metric} was split`);
      assert.ok(res.kind === 'node' && res.response);
      const got = JSON.parse(new TextDecoder().decode(res.response)) as NodeRunOutput;
      // meta.elapsedMs is the whole split run's computing (from the first shard's start to the end of the
      // finish): 0.7–1 of the call here; it measured only the finish task before (1.5 % of it).
      const elapsedMs = got.meta.elapsedMs as number;
      assert.ok(elapsedMs <= wallMs + 5, `${metric}: elapsedMs ${elapsedMs} within the call's ${wallMs.toFixed(0)} ms`);
      assert.ok(elapsedMs >= 0.3 * wallMs, `${metric}: elapsedMs ${elapsedMs} covers the split run (call ${wallMs.toFixed(0)} ms)`);
      assert.ok(res.stats.computeMs >= 0.3 * wallMs, `${metric}: computeMs ${res.stats.computeMs} likewise`);
      const whole = runMetric({ metric, network, networkDirected: directed, params }) as NodeRunOutput;
      assertSame({ ...got, kind: 'node' }, whole, `pool ${metric}`);
      assert.deepEqual({ ...got.meta, elapsedMs: 0 }, { ...whole.meta, elapsedMs: 0 }, 'same meta');
    }
  } finally {
    await pool.close();
  }
});
