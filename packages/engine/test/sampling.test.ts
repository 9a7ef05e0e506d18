// Sampled (kPercent < 100) betweenness and closeness must track the exact values: Pearson correlation
// ≥ 0.95 at kPercent 30 (issue 3 acceptance) on heterogeneous (scale-free) networks, the kind that need
// sampling. The estimator is NetworkX's (uniform sources, NetworkX scaling); on homogeneous G(n,p)
// graphs, where betweenness varies little, uniform source sampling is inherently noisier — NetworkX
// itself reaches r ≈ 0.937 on G(3000, 0.004) at k = 30 % — so there the bar is 0.9.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runMetric } from '../src/metrics/run.ts';
import type { NetworkJSON } from '../src/graph/network-json.ts';

function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** Barabási–Albert preferential attachment, m edges per new node. */
function ba(n: number, m: number, seed: number): NetworkJSON {
  const r = rng(seed);
  const targets: number[] = [];
  const edges: NetworkJSON['edges'] = [];
  for (let v = 0; v < n; v++) {
    const chosen = new Set<number>();
    if (v <= m) for (let u = 0; u < v; u++) chosen.add(u);
    else while (chosen.size < m) chosen.add(targets[Math.floor(r() * targets.length)]);
    for (const u of chosen) {
      edges!.push({ id: edges!.length, source: v, target: u });
      targets.push(u, v);
    }
  }
  return { nodes: Array.from({ length: n }, (_, i) => ({ id: i })), edges };
}

function gnp(n: number, p: number, seed: number): NetworkJSON {
  const r = rng(seed);
  const edges: NetworkJSON['edges'] = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j && r() < p) edges!.push({ id: edges!.length, source: i, target: j });
  return { nodes: Array.from({ length: n }, (_, i) => ({ id: i })), edges };
}

function pearson(a: number[], b: number[]): number {
  const n = a.length;
  const ma = a.reduce((x, y) => x + y, 0) / n;
  const mb = b.reduce((x, y) => x + y, 0) / n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) ** 2;
    sbb += (b[i] - mb) ** 2;
  }
  return sab / Math.sqrt(saa * sbb);
}

function correlation(metric: string, attr: string, net: NetworkJSON, directed: boolean): number {
  const exact = runMetric({ metric, network: net, networkDirected: directed, params: {} });
  const sampled = runMetric({ metric, network: net, networkDirected: directed, params: { kPercent: 30 } });
  assert.equal(exact.kind, 'node');
  assert.equal(sampled.kind, 'node');
  if (exact.kind !== 'node' || sampled.kind !== 'node') return NaN;
  const e = exact.values[attr];
  const s = sampled.values[attr];
  const ids = Object.keys(s).filter((id) => typeof e[id] === 'number');
  assert.ok(ids.length > net.nodes.length * 0.5, 'most nodes scored');
  return pearson(ids.map((id) => e[id] as number), ids.map((id) => s[id] as number));
}

/** BA graph with every edge given a random direction (and 20 % made reciprocal). */
function directedBa(n: number, m: number, seed: number): NetworkJSON {
  const g = ba(n, m, seed);
  const r = rng(seed + 99);
  const edges: NetworkJSON['edges'] = [];
  for (const e of g.edges!) {
    const flip = r() < 0.5;
    edges!.push({ id: edges!.length, source: flip ? e.target : e.source, target: flip ? e.source : e.target });
    if (r() < 0.2) edges!.push({ id: edges!.length, source: flip ? e.source : e.target, target: flip ? e.target : e.source });
  }
  return { nodes: g.nodes, edges };
}

for (const [name, net, directed, bar] of [
  ['BA(1500, 3) undirected', ba(1500, 3, 1), false, 0.95],
  ['BA(2000, 2) undirected', ba(2000, 2, 4), false, 0.95],
  ['directed BA(1500, 3)', directedBa(1500, 3, 5), true, 0.95],
  ['G(3000, 0.002) directed (homogeneous)', gnp(3000, 0.002, 2), true, 0.9],
  ['G(3000, 0.002) undirected (homogeneous)', gnp(3000, 0.002, 3), false, 0.9],
] as const) {
  test(`sampled betweenness at kPercent 30 correlates ≥ ${bar} with exact: ${name}`, () => {
    const r = correlation('betweennessCentrality', 'Betweenness Centrality', net, directed);
    assert.ok(r >= bar, `r = ${r}`);
  });
  test(`sampled closeness at kPercent 30 correlates ≥ ${bar} with exact: ${name}`, () => {
    const r = correlation('closenessCentrality', 'Closeness Centrality', net, directed);
    assert.ok(r >= bar, `r = ${r}`);
  });
}
