// Benchmark of the spectral & local metrics on a Barabási–Albert graph (n = 50,000, m = 5 by default;
// NetworkX's construction: a star on m+1 nodes, then each new node links to m distinct targets drawn
// preferentially). Times each metric end to end through runMetric (network JSON → graph → kernel →
// values by id), as the worker runs it. `--directed` treats the network as directed (new → old node);
// `--write <file>` saves the network JSON so bench/kernels-local-nx.py can time NetworkX on the same graph.
// Usage: npx node bench/kernels-local.ts [n] [m] [--directed] [--weighted] [--write /tmp/ba.json]
import { writeFileSync } from 'node:fs';
import type { NetworkJSON } from '../packages/engine/src/graph/network-json.ts';
import { runMetric } from '../packages/engine/src/metrics/run.ts';
import { EngineError } from '../packages/engine/src/errors.ts';

function barabasiAlbert(n: number, m: number, seed = 42): NetworkJSON {
  let s = seed >>> 0;
  const rnd = (k: number) => {
    // xorshift32
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s % k;
  };
  const edges: { id: number; source: number; target: number; attributes: { weight: number } }[] = [];
  const repeated: number[] = [];
  const add = (u: number, v: number) => {
    edges.push({ id: edges.length, source: u, target: v, attributes: { weight: 1 + rnd(5) } });
    repeated.push(u, v);
  };
  for (let v = 1; v <= m; v++) add(v, 0);
  const chosen = new Set<number>();
  for (let u = m + 1; u < n; u++) {
    chosen.clear();
    while (chosen.size < m) chosen.add(repeated[rnd(repeated.length)]);
    for (const v of chosen) add(u, v);
  }
  return { nodes: Array.from({ length: n }, (_, i) => ({ id: i })), edges };
}

function time(label: string, f: () => unknown): void {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let note = '';
  try {
    f();
  } catch (e) {
    note = e instanceof EngineError ? `  (${e.code})` : `  (${String(e)})`;
  }
  const c = process.cpuUsage(c0);
  console.log(`${label.padEnd(40)} wall ${((performance.now() - t0) / 1000).toFixed(3)} s   cpu ${((c.user + c.system) / 1e6).toFixed(3)} s${note}`);
}

const args = process.argv.slice(2);
const nums = args.filter((a) => /^\d+$/.test(a)).map(Number);
const n = nums[0] ?? 50000;
const m = nums[1] ?? 5;
const directed = args.includes('--directed');
const weighted = args.includes('--weighted');
const net = barabasiAlbert(n, m);
const wi = args.indexOf('--write');
if (wi >= 0) writeFileSync(args[wi + 1], JSON.stringify(net));
console.log(`BA(${n}, ${m}) ${directed ? 'directed' : 'undirected'}${weighted ? ', weighted' : ''}: ${net.edges?.length} edges`);

const w = weighted ? { metricEdgeWeights: true } : {};
const runs: [string, Record<string, unknown>][] = [
  ['clustering', { ...w }],
  ['coreNumber', {}],
  ['eigenvectorCentrality', { ...w }],
  ['constraint', { ...w }],
  ['effectiveSize', { ...w }],
  ['katzCentrality', { ...w }],
  ['katzCentrality', { ...w, katzCentralityAlpha: 0.01 }],
  ['HITS', {}],
  ['pageRank', { ...w }],
  ['averageNeighborDegree', { ...w }],
  ['connectedComponents', {}],
  ['kCliqueCommunities', {}],
  ['kCliqueCommunities', { kCliqueCommunities: 3 }],
  ['kCliqueCommunities', { kCliqueCommunities: 4 }],
];
for (const [metric, params] of runs) {
  time(`${metric} ${JSON.stringify(params)}`, () => runMetric({ metric, network: net, networkDirected: directed, params }));
}
time('modularity (no such attribute: singletons)', () =>
  runMetric({ metric: 'modularity', network: net, networkDirected: directed, params: { attribute: 'group', ...w } }),
);
