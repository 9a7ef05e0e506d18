// Benchmark of the Louvain kernel (communities metric) on a 50k-node planted-partition graph.
// Usage: npx node bench/kernels-communities.ts [n=50000] [avgDegree=20] [mixing=0.3] [--nx]
// --nx also writes the graph to /tmp and times NetworkX louvain_communities on it (python3).
import { writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { runMetric } from '../packages/engine/src/metrics/run.ts';
import { createRng } from '../packages/engine/src/kernels/random.ts';
import { buildGraph } from '../packages/engine/src/graph/build.ts';
import { louvain } from '../packages/engine/src/kernels/louvain.ts';
import type { NetworkJSON } from '../packages/engine/src/graph/network-json.ts';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const n = Number(args[0] ?? 50000);
const avgDeg = Number(args[1] ?? 20);
const mixing = Number(args[2] ?? 0.3);
const rng = createRng(2024);
// communities of 20..400 nodes
const comm = new Int32Array(n);
const bounds: number[] = [0];
while (bounds[bounds.length - 1] < n) bounds.push(Math.min(n, bounds[bounds.length - 1] + 20 + rng.int(381)));
for (let c = 0; c + 1 < bounds.length; c++) for (let i = bounds[c]; i < bounds[c + 1]; i++) comm[i] = c;
const edges: NetworkJSON['edges'] = [];
const m = Math.round((n * avgDeg) / 2);
for (let e = 0; e < m; e++) {
  const u = rng.int(n);
  let v: number;
  if (rng.random() < mixing) v = rng.int(n);
  else {
    const c = comm[u];
    v = bounds[c] + rng.int(bounds[c + 1] - bounds[c]);
  }
  if (u !== v) edges.push({ id: e, source: u, target: v });
}
const network: NetworkJSON = { nodes: Array.from({ length: n }, (_, i) => ({ id: i })), edges };
console.log(`graph: ${n} nodes, ${edges.length} edges, ${bounds.length - 1} planted communities, mixing ${mixing}`);
for (let rep = 0; rep < 3; rep++) {
  const t0 = performance.now();
  const out = runMetric({ metric: 'communities', network, networkDirected: false, params: {} });
  const ms = performance.now() - t0;
  if (out.kind === 'node') console.log(`engine communities: ${ms.toFixed(0)} ms total (incl. graph build), Q=${(out.meta.modularity as number).toFixed(4)}, K=${out.meta.communityCount}`);
}
for (let rep = 0; rep < 3; rep++) {
  let t0 = performance.now();
  const g = buildGraph(network, { directed: false, weight: null });
  const tb = performance.now() - t0;
  t0 = performance.now();
  const res = louvain(g.n, g.outOff, g.outAdj, g.outW, { resolution: 1, maxSize: 0, threshold: 1e-7, seed: 12345 + rep });
  console.log(`  buildGraph ${tb.toFixed(0)} ms, Louvain kernel ${(performance.now() - t0).toFixed(0)} ms, levels ${res.counts.join(' → ')}`);
}
if (process.argv.includes('--nx')) {
  const path = '/tmp/bench-communities-edges.txt';
  writeFileSync(path, edges.map((e) => `${e.source} ${e.target}`).join('\n'));
  const py = `
import time, networkx as nx
from networkx.algorithms.community import louvain_communities, modularity
G = nx.Graph(); G.add_nodes_from(range(${n})); G.add_edges_from(tuple(map(int, l.split())) for l in open('${path}'))
t = time.perf_counter(); c = louvain_communities(G, seed=0); t = time.perf_counter() - t
print(f"networkx louvain_communities: {t*1000:.0f} ms, Q={modularity(G, c):.4f}, K={len(c)}")
`;
  const r = spawnSync('python3', ['-c', py], { encoding: 'utf8' });
  process.stdout.write(r.stdout + r.stderr);
}
