// Layout benchmark (issue 12): time for ForceAtlas2 to reach a readable drawing — until it stops by
// itself as converged (layout/jobs.ts: mean movement per iteration below FA2_CONVERGED_BELOW of the
// drawing's extent for 3 batches) — on networks opened without positions, i.e. starting on the circle
// exactly as the viewer does (model.ts, arrange.ts). It runs the layout worker's own code (Fa2Job in
// batches of 50 ms, as layout/worker.ts) in Node's V8 (the engine of Chromium's worker), one thread.
//
//   npx node bench/viewer-layout.ts [--sizes 1000,10000,100000] [--degree 5] [--max-minutes 20]
//
// Networks: n nodes in n/50 clusters of 50, n × degree / 2 edges, 90 % inside a cluster (a structure a
// readable layout shows as groups). Reported per size: iterations, wall and CPU time (the machine is
// shared: CPU time is the fairer figure), how the run ended, and the drawing's readability as the mean
// edge length relative to the drawing's extent (what a person sees once the viewer fits the drawing to
// the canvas), against the circle's.
import { cpus, loadavg } from 'node:os';
import { circle } from '../packages/viewer/src/layout/arrange.ts';
import { BARNES_HUT_FROM, Fa2Job } from '../packages/viewer/src/layout/jobs.ts';

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : def;
};
const SIZES = arg('--sizes', '1000,10000,100000').split(',').map(Number);
const DEGREE = Number(arg('--degree', '5'));
const MAX_MS = Number(arg('--max-minutes', '20')) * 60_000;
const BATCH_MS = 50;

function clustered(n: number, degree: number): Uint32Array {
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const m = Math.round((n * degree) / 2);
  const clusters = Math.max(1, Math.floor(n / 50));
  const edges = new Uint32Array(2 * m);
  for (let k = 0; k < m; k++) {
    const s = Math.floor(rnd() * n);
    const c = s % clusters;
    edges[2 * k] = s;
    edges[2 * k + 1] = rnd() < 0.9 ? (Math.floor(rnd() * Math.ceil(n / clusters)) * clusters + c) % n : Math.floor(rnd() * n);
  }
  return edges;
}

/** Mean edge length divided by the larger side of the drawing's bounding box. */
function relativeEdgeLength(p: Float32Array, edges: Uint32Array): number {
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  for (let i = 0; i < p.length; i += 2) {
    minX = Math.min(minX, p[i]); maxX = Math.max(maxX, p[i]);
    minY = Math.min(minY, p[i + 1]); maxY = Math.max(maxY, p[i + 1]);
  }
  let sum = 0;
  for (let k = 0; k < edges.length; k += 2) {
    const s = edges[k], t = edges[k + 1];
    sum += Math.hypot(p[2 * s] - p[2 * t], p[2 * s + 1] - p[2 * t + 1]);
  }
  return sum / (edges.length / 2) / Math.max(maxX - minX, maxY - minY);
}

const fmt = (ms: number) => (ms >= 60_000 ? `${(ms / 60_000).toFixed(1)} min` : ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`);
const rows: string[] = [];
for (const n of SIZES) {
  const edges = clustered(n, DEGREE);
  const start = circle(n);
  const ringLength = relativeEdgeLength(start, edges);
  const load0 = loadavg()[0];
  const job = new Fa2Job({ positions: start, edges, weights: null }, { maxIterations: 5000 });
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let r = job.batch(BATCH_MS);
  let readableAt: { iterations: number; ms: number } | null = null;
  while (!r.done && performance.now() - t0 < MAX_MS) {
    r = job.batch(BATCH_MS);
    // First batch from which the edges are ≥ 30 % shorter than on the circle (the browser test's bar).
    if (!readableAt && relativeEdgeLength(r.positions, edges) <= 0.7 * ringLength) readableAt = { iterations: r.iterations, ms: performance.now() - t0 };
  }
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const outcome = r.done || `not converged within ${fmt(MAX_MS)}`;
  const ratio = relativeEdgeLength(r.positions, edges) / ringLength;
  const line = `| ${n.toLocaleString('en')} nodes / ${(edges.length / 2).toLocaleString('en')} edges | ${job.settings.barnesHutOptimize ? 'yes' : 'no'} | ${outcome} | ${r.iterations} | ${fmt(wall)} | ${fmt(cpuMs)} | ${(cpuMs / r.iterations).toFixed(1)} ms | ${readableAt ? `${fmt(readableAt.ms)} (${readableAt.iterations} it.)` : '—'} | ${(ratio * 100).toFixed(0)} % | ${load0.toFixed(1)}–${loadavg()[0].toFixed(1)} |`;
  console.error(line);
  rows.push(line);
}
console.log(`ForceAtlas2 from the circle, batches of ${BATCH_MS} ms (layout worker code in Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}; Barnes–Hut from ${BARNES_HUT_FROM} nodes):`);
console.log('');
console.log('| network | Barnes–Hut | ended | iterations | wall | CPU | CPU per iteration | edges ≥ 30 % shorter than on the circle after | mean edge length vs the circle (relative to the drawing\'s size) | load avg (1 min, start–end) |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
