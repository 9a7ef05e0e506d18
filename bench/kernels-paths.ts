// Benchmark of the path kernels on a Barabási–Albert graph (n = 10,000, m = 5 by default; NetworkX's
// construction: a star on m+1 nodes, then each new node links to m distinct targets drawn
// preferentially). Usage: npx node bench/kernels-paths.ts [n] [m] [--weighted] [--cf] [--metrics]
import { buildGraph } from '../packages/engine/src/graph/build.ts';
import type { NetworkJSON } from '../packages/engine/src/graph/network-json.ts';
import { createRng } from '../packages/engine/src/kernels/random.ts';
import { allNodes, localityOrder } from '../packages/engine/src/kernels/sources.ts';
import { bfsDistanceSums, dijkstraDistanceSums } from '../packages/engine/src/kernels/distance-sums.ts';
import { bitBfsTargetSums } from '../packages/engine/src/kernels/bit-bfs.ts';
import { brandes, load } from '../packages/engine/src/kernels/brandes.ts';
import { currentFlowClosenessAll } from '../packages/engine/src/kernels/current-flow.ts';
import { runMetric } from '../packages/engine/src/metrics/run.ts';

export function barabasiAlbert(n: number, m: number, seed = 42): NetworkJSON {
  const rng = createRng(seed);
  const edges: { id: number; source: number; target: number; attributes: { weight: number } }[] = [];
  const repeated: number[] = [];
  const add = (u: number, v: number) => {
    edges.push({ id: edges.length, source: u, target: v, attributes: { weight: 1 + rng.int(5) } });
    repeated.push(u, v);
  };
  for (let v = 1; v <= m; v++) add(0, v);
  const chosen = new Set<number>();
  for (let u = m + 1; u < n; u++) {
    chosen.clear();
    while (chosen.size < m) chosen.add(repeated[rng.int(repeated.length)]);
    for (const v of chosen) add(u, v);
  }
  return { nodes: Array.from({ length: n }, (_, i) => ({ id: i })), edges };
}

/** Prints wall time and this process's CPU time (the machine may be shared: CPU time is the fairer figure). */
export function time<T>(label: string, f: () => T): T {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const r = f();
  const c = process.cpuUsage(c0);
  console.log(`${label.padEnd(48)} wall ${((performance.now() - t0) / 1000).toFixed(3)} s   cpu ${((c.user + c.system) / 1e6).toFixed(3)} s`);
  return r;
}

if (process.argv[1] && import.meta.filename === (await import('node:path')).resolve(process.argv[1])) main();

function main(): void {
  const args = process.argv.slice(2);
  const n = Number(args.find((a) => /^\d+$/.test(a)) ?? 10000);
  const m = Number(args.filter((a) => /^\d+$/.test(a))[1] ?? 5);
  const net = barabasiAlbert(n, m);
  const g = time(`build BA(${n}, ${m}) unweighted`, () => buildGraph(net, { directed: false, weight: null, selfLoops: false }));
  console.log(`n = ${g.n}, m = ${g.m}`);
  const src = allNodes(g.n);
  const out = new Float64Array(g.n);
  time('betweenness (Brandes BFS, all sources)', () => brandes(g, src, out));
  const sum = new Float64Array(g.n);
  const reach = new Float64Array(g.n);
  time('closeness (BFS distance sums, all sources)', () => bfsDistanceSums(g, src, true, { sum, reach }));
  const inv = new Float64Array(g.n);
  time('harmonic (BFS inverse sums)', () => bfsDistanceSums(g, src, true, { inv }));
  out.fill(0);
  time('load (BFS, all sources)', () => load(g, src, out));
  {
    const sumT = new Float64Array(g.n);
    const reachT = new Float64Array(g.n);
    time('closeness (bit-parallel BFS, index order)', () => bitBfsTargetSums(g, src, false, { sum: sumT, reach: reachT }));
    let ok = true;
    for (let i = 0; i < g.n; i++) if (sumT[i] !== sum[i] || reachT[i] !== reach[i]) ok = false;
    console.log('bit-parallel equals per-source sums:', ok);
    const ord = time('locality order', () => localityOrder(g, src));
    sumT.fill(0);
    time('closeness (bit-parallel BFS, BFS order)', () => bitBfsTargetSums(g, ord, false, { sum: sumT }));
  }
  if (args.includes('--weighted')) {
    const gw = time('build weighted', () => buildGraph(net, { directed: false, weight: 'weight', selfLoops: false }));
    out.fill(0);
    time('betweenness (Brandes Dijkstra, all sources)', () => brandes(gw, src, out));
    time('closeness (Dijkstra distance sums)', () => dijkstraDistanceSums(gw, src, true, { sum, reach }));
    out.fill(0);
    time('load (Dijkstra, all sources)', () => load(gw, src, out));
  }
  if (args.includes('--cf')) {
    for (const size of [500, 1000, 2000, 3000, 5000]) {
      const gs = buildGraph(barabasiAlbert(size, m), { directed: false, weight: null, selfLoops: false });
      const res = new Float64Array(gs.n);
      time(`current-flow closeness BA(${size}, ${m}) sparse LDLᵀ`, () => currentFlowClosenessAll(gs, res, undefined, 'direct'));
      if (size <= 1000) time(`current-flow closeness BA(${size}, ${m}) CG`, () => currentFlowClosenessAll(gs, res, undefined, 'cg'));
    }
  }
  if (args.includes('--metrics')) {
    for (const metric of ['betweennessCentrality', 'closenessCentrality', 'harmonicCentrality', 'diameter', 'avgShortestPathLength']) {
      time(`runMetric ${metric} (incl. graph build)`, () => runMetric({ metric, network: net, networkDirected: false, params: {} }));
    }
  }
}
