// Import benchmark (issue 10): a 50k-node / 250k-edge network as an Excel workbook and as a GEXF file,
// uploaded end to end — multipart POST /api/v2/networks/import to the real service (started as a process
// like `npm start`, SQLite in a temp dir) until the stored network's answer arrives. Target ≤ 5 s each.
// The files are written by Netloom's own exporters (what a download gives; Gephi's GEXF has the same
// shape): nodes with a name, a category, two numbers and x/y (GEXF: also viz size and colour), edges with
// a weight and a category.
// While each upload runs, /healthz is asked every 50 ms (the file is read in a worker thread, so the
// server keeps answering): median and slowest answer. On Linux, also the CPU time the service used per
// import (all its threads, from /proc): on a shared machine the best guide to a quiet machine's wall time.
// Also, in this process, the parser alone (domain/formats read + network JSON validation) for each
// format, to show where the time goes, with the CPU time it used (on a loaded machine wall time is
// mostly waiting for a core).
//
//   node bench/import.ts [--runs 3] [--nodes 50000] [--edges 250000] [--formats xlsx,gexf]
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, openAsBlob, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { readNetworkFile, writeNetworkFile, type FormatId } from '../packages/server/src/domain/formats/index.ts';
import type { NetworkJSON } from '@netloom/engine';

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : def;
};
const RUNS = Number(arg('--runs', '3'));
const N = Number(arg('--nodes', '50000'));
const M = Number(arg('--edges', '250000'));
const FORMATS = arg('--formats', 'xlsx,gexf').split(',') as FormatId[];

function bigNetwork(n: number, m: number): NetworkJSON {
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const nodes = Array.from({ length: n }, (_, i) => ({
    id: `p${i}`,
    x: Math.round(rnd() * 1e5) / 100,
    y: Math.round(rnd() * 1e5) / 100,
    attributes: { name: `Person ${i}`, team: `Team ${i % 40}`, tenure: i % 23, score: Math.round(rnd() * 1000) / 10, _size: 1 + (i % 5), _color: ['#1f77b4', '#ff7f0e', '#2ca02c'][i % 3] },
  }));
  const edges = Array.from({ length: m }, (_, i) => ({ id: i + 1, source: `p${Math.floor(rnd() * n)}`, target: `p${Math.floor(rnd() * n)}`, attributes: { weight: 1 + (i % 5), kind: i % 2 ? 'advice' : 'friendship' } }));
  return { nodes, edges } as NetworkJSON;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () => loadavg().map((l) => l.toFixed(2)).join(', ');

const dir = mkdtempSync(join(tmpdir(), 'netloom-bench-import-'));
const net = bigNetwork(N, M);
const files: Partial<Record<FormatId, { path: string; bytes: number; name: string }>> = {};
for (const f of FORMATS) {
  const t0 = performance.now();
  const out = await writeNetworkFile(f, { name: 'Bench', description: '', isDirected: true, networkJSON: net, resource: {} });
  const path = join(dir, `bench.${out.extension}`);
  writeFileSync(path, out.body);
  files[f] = { path, bytes: out.body.length, name: `bench.${out.extension}` };
  console.error(`wrote ${f}: ${(out.body.length / 1e6).toFixed(1)} MB in ${Math.round(performance.now() - t0)} ms`);
}

// The parser alone, in this process.
const limits = { maxBytes: 256 * 2 ** 20, maxInflatedBytes: 1024 * 2 ** 20, maxNodes: 1_000_000, maxEdges: 5_000_000 };
const parseRows: string[] = [];
for (const f of FORMATS) {
  const file = files[f]!;
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const r = await readNetworkFile(f, { path: file.path, filename: file.name, bytes: statSync(file.path).size }, undefined, limits);
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    if (r.nodeCount !== N || r.edgeCount !== M) throw new Error(`${f}: read ${r.nodeCount}/${r.edgeCount}`);
  }
  parseRows.push(`| parse only (in process): ${f} | ${Math.round(median(times))} ms (CPU ${Math.round(median(cpu))} ms) | runs ${times.map(Math.round).join(', ')} |`);
}

// End to end through the service.
const port = await new Promise<number>((resolve, reject) => {
  const probe = createServer();
  probe.once('error', reject);
  probe.listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => resolve(port));
  });
});
const base = `http://127.0.0.1:${port}`;
const dataDir = join(dir, 'data');
const child = spawn(process.execPath, [join(import.meta.dirname, '..', 'packages', 'server', 'src', 'main.ts')], {
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', NETLOOM_DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '', NETLOOM_RATE_LIMIT_PER_HOUR: '100000000' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let out = '';
let exited: number | null = null;
child.stdout.on('data', (d) => (out += d));
child.stderr.on('data', (d) => (out += d));
child.on('exit', (code) => (exited = code ?? -1));
const deadline = Date.now() + 180_000; // a loaded machine starts slowly
for (;;) {
  const tok = /API token \(full access\): (nl_\S+)/.exec(out);
  if (tok && (await fetch(`${base}/healthz`).then((r) => r.ok, () => false))) break;
  if (exited !== null) throw new Error(`server exited (${exited}):\n${out}`);
  if (Date.now() > deadline) {
    child.kill('SIGKILL'); // never leave it running
    throw new Error(`server not up in 180 s:\n${out}`);
  }
  await new Promise((r) => setTimeout(r, 100));
}
const token = /API token \(full access\): (nl_\S+)/.exec(out)![1];
/** CPU time (ms) the service process has used, all threads (Linux /proc; NaN elsewhere). */
const serverCpu = (): number => {
  try {
    const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime + stime in clock ticks (USER_HZ = 100)
  } catch {
    return NaN;
  }
};

const rows: string[] = [];
try {
  for (const f of FORMATS) {
    const file = files[f]!;
    const times: number[] = [];
    const health: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const form = new FormData();
      form.append('file', await openAsBlob(file.path), file.name);
      // /healthz asked every 50 ms during the import: the server must keep answering
      let importing = true;
      const poller = (async () => {
        while (importing) {
          const h0 = performance.now();
          await fetch(`${base}/healthz`).then((r) => r.arrayBuffer());
          health.push(performance.now() - h0);
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
      const k0 = serverCpu();
      const t0 = performance.now();
      const res = await fetch(`${base}/api/v2/networks/import`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      const body = (await res.json()) as { nodeCount?: number; edgeCount?: number };
      times.push(performance.now() - t0);
      cpu.push(serverCpu() - k0);
      importing = false;
      await poller;
      if (res.status !== 200 || body.nodeCount !== N || body.edgeCount !== M) throw new Error(`${f}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    }
    rows.push(`| import ${f === 'xlsx' ? 'Excel' : 'GEXF'} ${N / 1000}k nodes / ${M / 1000}k edges (file ${(file.bytes / 1e6).toFixed(1)} MB), end to end | ${Math.round(median(times))} ms | runs ${times.map(Math.round).join(', ')} | ≤ 5000 ms |`);
    if (cpu.every((c) => !Number.isNaN(c))) rows.push(`| server CPU per ${f === 'xlsx' ? 'Excel' : 'GEXF'} import (all threads) | ${Math.round(median(cpu))} ms | runs ${cpu.map(Math.round).join(', ')} | |`);
    rows.push(`| /healthz during the ${f === 'xlsx' ? 'Excel' : 'GEXF'} imports (${health.length} requests) | ${median(health).toFixed(1)} ms | slowest ${Math.round(Math.max(...health))} ms | |`);
  }
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
}
console.log(`load average (1, 5, 15 min) at the end: ${load()}\n`);
console.log('| what | median | runs | target |\n|---|---|---|---|');
for (const r of rows) console.log(r);
for (const r of parseRows) console.log(r.replace(/ \|$/, ' | |'));
