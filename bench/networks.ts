// Networks API benchmark (issue: foundation). Starts the real service (SQLite, temp dir) as a process,
// then measures: create a 100k-node / 500k-edge network from a gzip body (validate + store), read it
// back (gzip passthrough and plain JSON), and small authenticated GET /networks/:id throughput with
// autocannon. Usage: node bench/networks.ts [--pg] [--prof] [--get-only]   (prints a Markdown table)
// The server gets a free port (a fixed one could be taken by another run, which made the wait for the
// server hang); the bench fails instead of waiting forever if the server exits or is not up in 60 s.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';

const usePg = process.argv.includes('--pg');
const dir = mkdtempSync(join(tmpdir(), 'netloom-bench-'));
const port = await new Promise<number>((resolve, reject) => {
  const probe = createServer();
  probe.once('error', reject);
  probe.listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => resolve(port));
  });
});
const base = `http://127.0.0.1:${port}`;
const env: Record<string, string> = { ...process.env, PORT: String(port), HOST: '127.0.0.1', NETLOOM_DATA_DIR: dir, LOG_LEVEL: 'warn', NETLOOM_RATE_LIMIT_PER_HOUR: '100000000' } as Record<string, string>;
if (usePg) {
  env.DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
  env.NETLOOM_DB_SCHEMA = `bench_${Date.now()}`;
} else env.DATABASE_URL = '';
// --prof: the server writes a V8 CPU profile (.cpuprofile) into ./prof at exit (SIGTERM → graceful stop)
const profArgs = process.argv.includes('--prof') ? ['--cpu-prof', '--cpu-prof-dir', join(process.cwd(), 'prof')] : [];
const child = spawn(process.execPath, [...profArgs, join(import.meta.dirname, '..', 'packages', 'server', 'src', 'main.ts')], { env, stdio: ['ignore', 'pipe', 'inherit'] });
let out = '';
let exited: number | null = null;
child.stdout.on('data', (d) => (out += d));
child.on('exit', (code) => (exited = code ?? -1));
const deadline = Date.now() + 60_000;
async function waitFor(what: string, ready: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await ready())) {
    if (exited !== null) throw new Error(`the server exited (code ${exited}) before ${what}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not get to ${what} within 60 s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
await waitFor('printing the first-run token', () => /API token \(full access\): (nl_\S+)/.test(out));
const token = /API token \(full access\): (nl_\S+)/.exec(out)![1];
const auth = { authorization: `Bearer ${token}` };
// the first-run banner is printed before the server listens: wait for /healthz
await waitFor('answering /healthz', () => fetch(`${base}/healthz`).then((r) => r.ok, () => false));

function bigNetwork(n: number, m: number) {
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const nodes = Array.from({ length: n }, (_, i) => ({ id: `n${i}`, attributes: { name: `Person ${i}`, team: `T${i % 50}`, score: i % 97 } }));
  const edges = Array.from({ length: m }, (_, i) => ({ id: i, source: `n${Math.floor(rnd() * n)}`, target: `n${Math.floor(rnd() * n)}`, attributes: { weight: 1 + (i % 5) } }));
  return { nodes, edges };
}

const rows: string[] = [];
if (!process.argv.includes('--get-only')) {
  const net = bigNetwork(100_000, 500_000);
  const raw = Buffer.from(JSON.stringify({ name: 'big', isDirected: true, networkJSON: net }));
  const gz = gzipSync(raw, { level: 6 });
  const times: number[] = [];
  let id = '';
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const res = await fetch(`${base}/api/v2/networks`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gz });
    const body = (await res.json()) as { _id: string };
    times.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`create failed ${res.status} ${JSON.stringify(body)}`);
    id = body._id;
  }
  const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  rows.push(`| create 100k nodes / 500k edges (gzip body ${(gz.length / 1e6).toFixed(1)} MB, JSON ${(raw.length / 1e6).toFixed(1)} MB) | ${med(times).toFixed(0)} ms | ≤ 3000 ms |`);
  for (const [label, headers] of [['read it back, Accept-Encoding: gzip', { ...auth, 'accept-encoding': 'gzip' }], ['read it back, identity', { ...auth, 'accept-encoding': 'identity' }]] as const) {
    const rt: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const res = await fetch(`${base}/api/v2/networks/${id}`, { headers });
      const buf = await res.arrayBuffer();
      rt.push(performance.now() - t0);
      if (res.status !== 200 || buf.byteLength < 1000) throw new Error('read failed');
    }
    rows.push(`| ${label} (incl. client decode) | ${med(rt).toFixed(0)} ms | ≤ 1000 ms |`);
  }
}
const small = await fetch(`${base}/api/v2/networks`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'small', networkJSON: { nodes: [{ id: 1 }, { id: 2 }], edges: [{ id: 1, source: 1, target: 2 }] } }) });
const smallId = ((await small.json()) as { _id: string })._id;
const ac = await autocannon({ url: `${base}/api/v2/networks/${smallId}`, headers: auth, connections: 64, duration: 10, pipelining: 1 });
rows.push(`| small authenticated GET /networks/:id, 64 connections, 10 s (autocannon) | ${Math.round(ac.requests.average)} req/s (p99 ${ac.latency.p99} ms, ${ac.non2xx} non-2xx) | ≥ 8000 req/s |`);
child.kill('SIGTERM');
if (exited === null) await new Promise((r) => child.on('exit', r));
rmSync(dir, { recursive: true, force: true });
console.log(`Networks API (${usePg ? 'PostgreSQL' : 'SQLite'}), ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, 2 cores\n`);
console.log('| what | measured | target |\n|---|---|---|');
console.log(rows.join('\n'));
