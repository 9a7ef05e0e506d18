// Issue 9 item 2, measured from outside: the service runs as its own process (as `npm start`), 400
// connections each send a body one byte every 200 ms (half with a valid token to POST /networks, half to
// the unauthenticated access-token exchange), and a third process polls /healthz every 50 ms and reports
// its latency while they are held and cut by the body timeout. The service's own event-loop turns are
// recorded by bench/loop-monitor.ts, so a slow answer can be told apart from the machine's other load.
// Usage: node bench/slow-bodies.ts [connections=400] [requestTimeoutMs=10000]
import { spawn } from 'node:child_process';
import { holdSlowBodies } from './slow-clients.ts';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const N = Number(process.argv[2] ?? 400);
const TIMEOUT = Number(process.argv[3] ?? 10_000);
const port = 20_000 + Math.floor(Math.random() * 20_000);
const dataDir = mkdtempSync(join(tmpdir(), 'netloom-slow-'));
const loopOut = join(dataDir, 'loop.json');
const server = spawn(process.execPath, ['--import', './bench/loop-monitor.ts', 'packages/server/src/main.ts'], {
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', NETLOOM_DATA_DIR: dataDir, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', DATABASE_URL: '', NETLOOM_REQUEST_TIMEOUT_MS: String(TIMEOUT), NETLOOM_BENCH_LOOP_OUT: loopOut },
  stdio: ['ignore', 'ignore', 'pipe'],
});
let banner = '';
server.stderr.on('data', (d) => (banner += d));
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  if ((await fetch(`${base}/healthz`).catch(() => null))?.ok) break;
  if (i > 300) throw new Error('server did not start');
  await new Promise((r) => setTimeout(r, 100));
}
const token = /nl_[A-Za-z0-9_-]+/.exec(banner)?.[0] ?? '';

// The poller: its own process, so the slow clients' work here cannot delay its measurements.
const pollerSrc = `
// one answer first, unmeasured: the poller's first fetch() loads Node's fetch implementation and connects
await (await fetch('${base}/healthz')).text();
console.log('ready');
const lat = []; let fail = 0; let slowestAt = 0; let slowest = 0; const end = Date.now() + ${TIMEOUT + 4000};
while (Date.now() < end) { const t0 = performance.now(); const at = Date.now();
  try { const r = await fetch('${base}/healthz'); await r.text(); const ms = performance.now() - t0; if (r.ok) lat.push(ms); else fail++; if (ms > slowest) { slowest = ms; slowestAt = at; } } catch { fail++; }
  await new Promise((r) => setTimeout(r, 50)); }
lat.sort((a, b) => a - b); const q = (p) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))];
console.log(JSON.stringify({ answers: lat.length, failures: fail, medianMs: q(0.5), p99Ms: q(0.99), maxMs: lat[lat.length - 1], slowestAt }));`;
const poller = spawn(process.execPath, ['--input-type=module', '-e', pollerSrc], { stdio: ['ignore', 'pipe', 'inherit'] });
let pollOut = '';
// the slow clients start once the poller is polling, so it sees their arrival too
await new Promise<void>((resolve) => poller.stdout.on('data', (d) => {
  pollOut += d;
  if (pollOut.includes('ready\n')) resolve();
}));

const load = [loadavg()[0]];
const started = performance.now();
const startedAt = Date.now();
const { statuses, closedAt } = await holdSlowBodies(port, N, token, started);
await new Promise((r) => poller.on('exit', r));
const endedAt = Date.now();
load.push(loadavg()[0]);
server.kill('SIGTERM');
await new Promise((r) => server.on('exit', r));
// the service's event-loop turns over 20 ms while the slow clients ran
const turns = (JSON.parse(readFileSync(loopOut, 'utf8')) as { at: number; ms: number; cpuMs: number }[]).filter((t) => t.at >= startedAt && t.at <= endedAt);
const longest = turns.reduce((a, t) => (t.ms > a.ms ? t : a), { at: startedAt, ms: 0, cpuMs: 0 });
const busiest = turns.reduce((a, t) => (t.cpuMs > a.cpuMs ? t : a), { at: startedAt, ms: 0, cpuMs: 0 });
rmSync(dataDir, { recursive: true, force: true });
closedAt.sort((a, b) => a - b);
const health = JSON.parse(pollOut.split('\n').filter(Boolean).pop() ?? '{}') as { slowestAt?: number };
console.log(JSON.stringify({
  connections: N, requestTimeoutMs: TIMEOUT, loadAverage: load.map((l) => Number(l.toFixed(1))),
  statuses: Object.fromEntries(statuses), lastClosedMs: Math.round(closedAt[closedAt.length - 1]),
  healthz: { ...health, slowestAt: undefined, slowestAtMs: health.slowestAt ? health.slowestAt - startedAt : undefined },
  serviceTurnsOver20ms: turns.length,
  longestTurn: { atMs: longest.at - startedAt, ms: longest.ms, cpuMs: longest.cpuMs },
  busiestTurn: { atMs: busiest.at - startedAt, ms: busiest.ms, cpuMs: busiest.cpuMs },
}, null, 1));
