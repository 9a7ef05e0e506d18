// Exact betweenness on BA(n, m) through the synchronous API (issue 13 item 6: BA(30000, 5) within the
// 60 s limit on a 2-core machine). Starts a real server process (SQLite, temp dir, default metric pool
// and the DEFAULT time limit, so a run that does not fit answers METRIC_TIMEOUT), POSTs the network as
// `networkJSON` and measures the wall time of each call from the client. Also times the kernel alone
// on 1 and 2 worker threads (sources split as the pool splits them). The machine is shared: the load
// average is printed with every figure.
// Usage: node bench/betweenness-sync.ts [n] [m] [--repeat N] [--port P] [--skip-api] [--skip-kernel]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { barabasiAlbert } from './kernels-paths.ts';
import { buildGraph } from '../packages/engine/src/graph/build.ts';
import type { NetworkJSON } from '../packages/engine/src/graph/network-json.ts';
import { allNodes, shardSources } from '../packages/engine/src/kernels/sources.ts';
import { brandes } from '../packages/engine/src/kernels/brandes.ts';

const args = process.argv.slice(2);
const nums = args.filter((a, i) => /^\d+$/.test(a) && !['--repeat', '--port'].includes(args[i - 1]));
const n = Number(nums[0] ?? 30000);
const m = Number(nums[1] ?? 5);
const opt = (name: string, def: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : def);
const repeat = opt('--repeat', 2);
const port = opt('--port', 9104);
const load = () => loadavg().map((x) => x.toFixed(1)).join(' / ');

if (!isMainThread) {
  const { text, index, count } = workerData as { text: string; index: number; count: number };
  const g = buildGraph(JSON.parse(text) as NetworkJSON, { directed: false, weight: null, selfLoops: false });
  const out = new Float64Array(g.n);
  parentPort!.once('message', () => {
    const t0 = performance.now();
    // this thread's CPU time (process.cpuUsage counts every thread of the process)
    const c0 = process.threadCpuUsage();
    brandes(g, shardSources(allNodes(g.n), index, count), out);
    const c = process.threadCpuUsage(c0);
    parentPort!.postMessage({ ms: performance.now() - t0, cpu: (c.user + c.system) / 1000 });
  });
  parentPort!.postMessage('ready');
} else {
  await main();
}

/** The kernel on `count` threads at once; wall time from the common start to the last finish, and each thread's own time. */
async function splitKernel(text: string, count: number): Promise<{ wall: number; threads: number[]; cpu: number[] }> {
  const workers = Array.from({ length: count }, (_, index) => new Worker(new URL(import.meta.url), { workerData: { text, index, count } }));
  await Promise.all(workers.map((w) => new Promise((r) => w.once('message', r))));
  const done = workers.map((w) => new Promise<{ ms: number; cpu: number }>((r) => w.once('message', r)));
  const t0 = performance.now();
  for (const w of workers) w.postMessage('go');
  const res = await Promise.all(done);
  const wall = (performance.now() - t0) / 1000;
  await Promise.all(workers.map((w) => w.terminate()));
  return { wall, threads: res.map((r) => r.ms / 1000), cpu: res.map((r) => r.cpu / 1000) };
}

async function main(): Promise<void> {
  const net = barabasiAlbert(n, m);
  const lines: string[] = [`BA(${n}, ${m}): ${net.nodes.length} nodes, ${net.edges?.length} edges; Node ${process.version}; ${new Date().toISOString().slice(0, 16)}Z`];
  console.log(lines[0]);
  if (!args.includes('--skip-api')) await api(net);
  if (!args.includes('--skip-kernel')) {
    const text = JSON.stringify(net);
    for (const count of [2, 1]) {
      const before = load();
      const r = await splitKernel(text, count);
      console.log(`kernel on ${count} thread(s): wall ${r.wall.toFixed(1)} s (threads ${r.threads.map((t) => t.toFixed(1)).join(', ')} s, CPU ${r.cpu.map((t) => t.toFixed(1)).join(', ')} s); load avg before ${before}, after ${load()}`);
    }
  }
}

async function api(net: NetworkJSON): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'netloom-bench-bc-'));
  const base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', NETLOOM_DATA_DIR: dir, LOG_LEVEL: 'warn', DATABASE_URL: '', NETLOOM_RATE_LIMIT_PER_HOUR: '100000000' };
  const child = spawn(process.execPath, [join(import.meta.dirname, '..', 'packages', 'server', 'src', 'main.ts')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  try {
    const deadline = Date.now() + 60_000;
    const tokenRe = /API token \(full access\): (nl_\S+)/;
    while (!tokenRe.test(out)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server did not start:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const token = tokenRe.exec(out)![1];
    while (!(await fetch(`${base}/healthz`).then((r) => r.ok, () => false))) {
      if (Date.now() > deadline) throw new Error('server did not answer /healthz');
      await new Promise((r) => setTimeout(r, 100));
    }
    const body = JSON.stringify({ networkJSON: net, isDirected: false });
    for (let i = 0; i < repeat; i++) {
      const before = load();
      const t0 = performance.now();
      const res = await fetch(`${base}/api/v2/metrics/nodes/betweennessCentrality`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });
      const json = (await res.json()) as { values?: Record<string, Record<string, number>>; meta?: { elapsedMs: number }; code?: string };
      const s = (performance.now() - t0) / 1000;
      const what = res.status === 200 ? `200, ${Object.keys(json.values!['Betweenness Centrality']).length} values, meta.elapsedMs ${Math.round(json.meta!.elapsedMs)}` : `${res.status} ${json.code}`;
      console.log(`API call ${i + 1}: ${s.toFixed(1)} s (${what}); body ${(body.length / 1e6).toFixed(1)} MB; load avg before ${before}, after ${load()}`);
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}
