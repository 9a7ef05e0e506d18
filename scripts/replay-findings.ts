// Issue 9's ten findings, replayed from outside against a running service (docs/security.md, "Replayed
// from outside"). The service runs as its own process exactly as `npm start` runs it (a temporary data
// directory; PostgreSQL with --postgres, Redis with --redis); this script talks to it only over TCP, as the
// attack pass did, and prints one line per finding: what was sent, what came back, and whether the finding
// still reproduces. Exit code 1 if any does.
//
//   node scripts/replay-findings.ts [--postgres] [--redis] [--slow 400]
//
// The service trusts 127.0.0.1 as a proxy (NETLOOM_TRUSTED_PROXIES), so X-Forwarded-For stands for the
// client addresses behind a load balancer (finding 4); everything else is defaults.
import { spawn, execFileSync } from 'node:child_process';
import { holdSlowBodies } from '../bench/slow-clients.ts';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createGzip } from 'node:zlib';
import { request as httpRequest } from 'node:http';

const ROOT = join(import.meta.dirname, '..');
const MAIN = join(ROOT, 'packages/server/src/main.ts');
const CLI = join(ROOT, 'packages/server/bin/netloom.js');
const flag = (n: string) => process.argv.includes(n);
const arg = (n: string, d: string) => (process.argv.indexOf(n) >= 0 ? process.argv[process.argv.indexOf(n) + 1] : d);
const SLOW = Number(arg('--slow', '400'));
const MiB = 1024 * 1024;
const OPERATOR = `op_replay_${randomBytes(16).toString('hex')}`;

const port = 20_000 + Math.floor(Math.random() * 20_000);
const dataDir = mkdtempSync(join(tmpdir(), 'netloom-replay-'));
const pgDb = `replay_${randomBytes(4).toString('hex')}`;
if (flag('--postgres')) execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', 'test', '-qc', `CREATE DATABASE ${pgDb}`]);
const env: Record<string, string> = {
  ...(process.env as Record<string, string>),
  PORT: String(port), HOST: '127.0.0.1', NETLOOM_DATA_DIR: dataDir, LOG_LEVEL: 'info',
  DATABASE_URL: flag('--postgres') ? `postgres://postgres@127.0.0.1:5432/${pgDb}` : '',
  REDIS_URL: flag('--redis') ? 'redis://127.0.0.1:6379' : '',
  NETLOOM_REDIS_PREFIX: `replay:${randomBytes(4).toString('hex')}:`,
  NETLOOM_OPERATOR_TOKEN: OPERATOR, NETLOOM_TRUSTED_PROXIES: '127.0.0.1', NETLOOM_REQUEST_TIMEOUT_MS: '5000',
};
const server = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
let stdout = '';
let stderr = '';
server.stdout.on('data', (d) => (stdout += d));
server.stderr.on('data', (d) => (stderr += d));
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  if ((await fetch(`${base}/healthz`).catch(() => null))?.ok) break;
  if (i > 600) throw new Error(`service did not start:\n${stderr}`);
  await sleep(100);
}
const token = /API token \(full access\): (nl_\S+)/.exec(stderr)?.[1];
const password = /password:\s+(\S+)/.exec(stderr)?.[1];
if (!token || !password) throw new Error(`no first-run banner on stderr:\n${stderr}`);

const results: { finding: string; sent: string; got: string; fixed: boolean }[] = [];
const report = (finding: string, sent: string, got: string, fixed: boolean) => {
  results.push({ finding, sent, got, fixed });
  console.log(`${fixed ? 'fixed     ' : 'REPRODUCES'}  ${finding}\n            sent: ${sent}\n            got:  ${got}`);
};

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}
async function call(method: string, path: string, opts: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.raw !== undefined || opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = opts.raw ?? JSON.stringify(opts.body);
  }
  const r = await fetch(`${base}${path}`, { method, headers, body });
  const text = await r.text();
  let json: any = null; // eslint-disable-line @typescript-eslint/no-explicit-any
  try { json = JSON.parse(text); } catch { /* not JSON */ }
  return { status: r.status, json, text, headers: r.headers };
}
const cli = (...a: string[]) => execFileSync(process.execPath, [CLI, ...a], { env, encoding: 'utf8' }).trim();
function memory(pid: number) {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (n: string) => Number(new RegExp(`^${n}:\\s+(\\d+) kB`, 'm').exec(s)![1]) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

// ---- Set-up through the public interfaces: an organization credential, embedding, a network, a session.
const orgs = JSON.parse(cli('orgs', 'list'));
const first = orgs[0] ?? orgs.organizations?.[0];
const org = { ...first, id: first.id ?? first._id ?? first.orgId };
if (!org.id) throw new Error(`orgs list: ${JSON.stringify(orgs)}`);
const orgToken = /nl_[A-Za-z0-9_-]+/.exec(cli('tokens', 'create', '--email', 'owner@netloom.local', '--org', org.id, '--name', 'replay'))![0];
const metricsOnly = /nl_[A-Za-z0-9_-]+/.exec(cli('tokens', 'create', '--email', 'owner@netloom.local', '--org', org.id, '--scopes', 'metrics:write', '--name', 'metrics only'))![0];
const must = <R extends { status: number; text: string }>(r: R, ok: number[], what: string): R => {
  if (!ok.includes(r.status)) throw new Error(`${what}: ${r.status} ${r.text}`);
  return r;
};
must(await call('PUT', `/api/v2/operator/organizations/${org.id}/embedding`, { token: OPERATOR, body: { enabled: true, seats: 20 } }), [200], 'enable embedding');
must(await call('PUT', '/api/v2/embed/settings', { token: orgToken, body: { allowedOrigins: ['https://host.example.com'], dataDisclosureAccepted: true } }), [200], 'embed settings');
const net = must(await call('POST', '/api/v2/networks', { token: orgToken, body: { name: 'Replay', networkJSON: { nodes: [{ id: 'a' }, { id: 'b' }, { id: 'c' }], edges: [{ id: 'e1', source: 'a', target: 'b' }, { id: 'e2', source: 'b', target: 'c' }] } } }), [200, 201], 'network').json._id;
async function openSession(externalId: string) {
  must(await call('PUT', `/api/v2/embed/users/${externalId}`, { token: orgToken, body: { displayName: externalId } }), [200, 201], 'managed user');
  must(await call('PUT', `/api/v2/embed/users/${externalId}/networks/${net}`, { token: orgToken, body: { permission: 'View' } }), [200], 'grant');
  const s = must(await call('POST', '/api/v2/embed/sessions', { token: orgToken, body: { externalId, networkIds: [net], origin: 'https://host.example.com', maxMinutes: 720 } }), [201], 'session').json;
  return { sessionId: s.sessionId as string, launchToken: s.launchToken as string };
}
const exchange = (sessionId: string, launchToken: string, client: string) =>
  call('POST', `/api/v2/embed/sessions/${sessionId}/access-tokens`, { body: { launchToken }, headers: { 'x-forwarded-for': client } });

// ---- 1. Unauthenticated memory amplification.
{
  const gz = createGzip({ level: 1 });
  const parts: Buffer[] = [];
  gz.on('data', (d: Buffer) => parts.push(d));
  const ended = new Promise((r) => gz.on('end', r));
  gz.write('{"launchToken":"');
  const filler = Buffer.alloc(MiB - 8192, 0x61);
  for (let i = 0; i < 250; i++) {
    gz.write(randomBytes(6144).toString('base64'));
    gz.write(filler);
    await new Promise((r) => setImmediate(r));
  }
  gz.end('"}');
  await ended;
  const bomb = Buffer.concat(parts);
  const { sessionId } = await openSession('bomb-target');
  const paths = [`/api/v2/embed/sessions/${sessionId}/access-tokens`, '/api/v2/embed/viewer/views', '/api/v2/embed/viewer/chat/ask', '/api/v2/embed/viewer/network/positions'];
  const before = memory(server.pid!);
  const statuses: number[] = await Promise.all(Array.from({ length: 8 }, (_, i) => new Promise<number>((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: paths[i % paths.length], method: i % paths.length === 3 ? 'PUT' : 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(bomb.length), authorization: 'Bearer nla_forged' } }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode ?? 0)); });
    req.on('error', () => resolve(-1));
    req.end(bomb);
  })));
  await sleep(2000);
  const after = memory(server.pid!);
  const peak = (after.hwm - before.rss) / MiB;
  const held = (after.rss - before.rss) / MiB;
  report('1 unauthenticated memory amplification', `8 concurrent ${(bomb.length / MiB).toFixed(1)} MiB gzip bodies inflating to 250 MiB, to the token exchange and 3 viewer routes`,
    `statuses ${[...new Set(statuses)].join(',')}; peak RSS +${peak.toFixed(1)} MiB, +${held.toFixed(1)} MiB 2 s later (limit 64 MiB)`, peak < 64 && held < 64 && statuses.every((s) => s >= 400 && s < 500 || s === -1));
}

// ---- 2. Slow bodies: each closed by the body timeout; /healthz answers throughout.
{
  const lat: number[] = [];
  let healthFailures = 0;
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const t0 = performance.now();
      try { const r = await fetch(`${base}/healthz`); await r.text(); if (r.ok) lat.push(performance.now() - t0); else healthFailures++; } catch { healthFailures++; }
      await sleep(50);
    }
  })();
  const { statuses } = await holdSlowBodies(port, SLOW, token);
  polling = false;
  await poller;
  lat.sort((a, b) => a - b);
  const max = lat[lat.length - 1];
  report('2 slow bodies never time out', `${SLOW} connections sending a body one byte every 200 ms (request timeout 5 s), /healthz polled every 50 ms meanwhile (same client process)`,
    `${JSON.stringify(Object.fromEntries(statuses))}; /healthz ${lat.length} answers, ${healthFailures} failures, median ${lat[Math.floor(lat.length / 2)].toFixed(1)} ms, slowest ${max.toFixed(1)} ms`,
    statuses.get('408') === SLOW && healthFailures === 0);
}

// ---- 3 and 4. Viewer lockout by session id; client addresses behind a trusted proxy.
{
  const s = await openSession('lockout-target');
  const codes: Record<number, number> = {};
  for (let batch = 0; batch < 100; batch++) {
    const rs = await Promise.all(Array.from({ length: 10 }, (_, j) => exchange(s.sessionId, `nll_${randomBytes(24).toString('base64url')}`, `203.0.113.${j + 1}`)));
    for (const r of rs) codes[r.status] = (codes[r.status] ?? 0) + 1;
  }
  const lt = must(await call('POST', `/api/v2/embed/sessions/${s.sessionId}/launch-tokens`, { token: orgToken }), [200, 201], 'launch token').json.launchToken;
  const mine = await exchange(s.sessionId, lt, '198.51.100.7');
  report('3 viewer lockout by session id', '1,000 wrong launch tokens for one session from 10 other addresses, then the viewer redeems a fresh token',
    `wrong tokens: ${JSON.stringify(codes)}; the viewer's fresh token: ${mine.status}`, mine.status === 200);
  const other = await openSession('proxy-neighbour');
  const lt2 = must(await call('POST', `/api/v2/embed/sessions/${other.sessionId}/launch-tokens`, { token: orgToken }), [200, 201], 'launch token').json.launchToken;
  const neighbour = await exchange(other.sessionId, lt2, '198.51.100.20');
  // All 1,000 came from one TCP peer (this process): only if the forwarded addresses are used does each of
  // the 10 get its own 60 attempts at the session (600 × 401); one shared address would get 60.
  report('4 no trusted-proxy setting', 'the 1,000 redemptions above all arrived through one proxy (127.0.0.1, trusted) with X-Forwarded-For naming 10 clients; then another client redeems its own session\'s token',
    `401s: ${codes[401] ?? 0} (600 = 60 per forwarded address; 60 = one shared address); the other client's valid token: ${neighbour.status}`, codes[401] === 600 && neighbour.status === 200);
}

// ---- 5. Failed authentication is rate limited per address; other addresses unaffected.
{
  let first429 = 0;
  let retryAfter: string | null = null;
  for (let i = 1; i <= 1000 && !first429; i++) {
    const r = await call('GET', '/api/v2/networks', { token: `nl_${randomBytes(24).toString('base64url')}`, headers: { 'x-forwarded-for': '192.0.2.50' } });
    if (r.status === 429) { first429 = i; retryAfter = r.headers.get('retry-after'); }
  }
  const other = await call('GET', '/api/v2/networks', { token, headers: { 'x-forwarded-for': '192.0.2.51' } });
  report('5 failed authentication never rate limited', '1,000 invalid bearer tokens from one address, then a valid token from another',
    first429 ? `first 429 at attempt ${first429} (Retry-After ${retryAfter}); the other address's valid token ${other.status}` : `no 429 in 1,000; other ${other.status}`,
    first429 > 0 && first429 < 1000 && retryAfter !== null && other.status === 200);
}

// ---- 6. GET /organization/members needs employees:read.
{
  const r = await call('GET', '/api/v2/organization/members', { token: metricsOnly });
  report('6 organization members without a scope', 'GET /api/v2/organization/members with a metrics:write-only organization credential',
    `${r.status} ${r.json?.code ?? ''}; names in body: ${/owner@netloom\.local/.test(r.text)}`, r.status === 403 && !/owner@netloom\.local/.test(r.text));
}

// ---- 7. U+0000 in paths and text fields.
{
  const a = await call('GET', '/api/v2/networks/%00');
  const b = await call('GET', '/api/v2/networks/%00', { token });
  const c = await call('POST', '/api/v2/networks', { token, body: { name: 'nul\u0000name', networkJSON: { nodes: [{ id: 'x\u0000' }], edges: [] } } });
  const d = await call('PUT', '/api/v2/embed/users/ab%00cd', { token: orgToken, body: { displayName: 'x' } });
  const all = [a, b, c, d].map((r) => r.status);
  report('7 U+0000 is a 500', 'GET /networks/%00 without and with a token; NUL in a network name and node id; NUL in a managed user id',
    `statuses ${all.join(', ')} (${[a, b, c, d].map((r) => r.json?.code).join(', ')})`, all.every((s) => s >= 400 && s < 500));
}

// ---- 8. Very deep JSON.
{
  const deep = '['.repeat(200_000) + ']'.repeat(200_000);
  const targets: [string, string, string | undefined][] = [
    ['POST', '/api/v2/networks', token],
    ['POST', '/api/v2/metrics/nodes/degreeCentrality', token],
    ['PUT', `/api/v2/networks/${net}`, orgToken],
    ['POST', '/api/v2/embed/sessions', orgToken],
  ];
  const st: number[] = [];
  for (const [m, p, t] of targets) st.push((await call(m, p, { token: t, raw: `{"networkJSON":${deep}}` })).status);
  report('8 JSON nested 200,000 deep', `a body nested 200,000 deep to ${targets.map((t) => t[1]).join(', ')}`, `statuses ${st.join(', ')}`, st.every((s) => s === 400));
}

// ---- 9. Extreme finite numbers.
{
  const path3 = { nodes: [{ id: 'a' }, { id: 'b' }, { id: 'c' }], edges: [{ id: 'e1', source: 'a', target: 'b' }, { id: 'e2', source: 'b', target: 'c' }] };
  const weighted = (w: number) => ({ nodes: [{ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd' }], edges: [['a', 'b'], ['b', 'c'], ['c', 'd'], ['d', 'a']].map(([source, target], i) => ({ id: `e${i}`, source, target, weight: w })) });
  const cases: [string, string, unknown][] = [
    ['communities resolution 9e307, 3-node path', '/api/v2/metrics/nodes/communities', { networkJSON: path3, resolution: 9e307 }],
    ...[1e200, 1e308, 5e-324].map((w): [string, string, unknown] => [`communities, edge weights ${w}`, '/api/v2/metrics/nodes/communities', { networkJSON: weighted(w), metricEdgeWeights: true }]),
    ['currentFlowClosenessCentrality, 4-ring with weights 5e-324', '/api/v2/metrics/nodes/currentFlowClosenessCentrality', { networkJSON: weighted(5e-324), metricEdgeWeights: true }],
  ];
  const out: string[] = [];
  let ok = true;
  for (const [name, p, body] of cases) {
    const r = await call('POST', p, { token, body });
    const finite = r.status === 200 && !/null|NaN|Infinity/.test(JSON.stringify(r.json?.values ?? r.json?.value ?? r.json));
    const good = (r.status === 200 && finite) || ((r.status === 400 || r.status === 422) && typeof r.json?.message === 'string');
    ok &&= good;
    out.push(`${name}: ${r.status}${r.status === 200 ? (finite ? ' finite' : ' NOT FINITE') : ` ${r.json?.code}`}`);
  }
  report('9 extreme finite numbers crash metrics', 'the attack pass\'s five bodies', out.join('; '), ok);
}

// ---- 10. First-start secrets on the log stream.
{
  await sleep(200);
  const leaked = [token, password, orgToken].filter((s) => stdout.includes(s));
  const jsonLines = stdout.split('\n').filter(Boolean);
  const allJson = jsonLines.every((l) => { try { JSON.parse(l); return true; } catch { return false; } });
  report('10 first-start secrets on the log stream', `read the service's stdout (${jsonLines.length} log lines written during this replay)`,
    `secrets found on stdout: ${leaked.length}; every stdout line is JSON: ${allJson}; banner on stderr: ${/first start/.test(stderr)}`, leaked.length === 0 && allJson);
}

server.kill('SIGTERM');
await new Promise((r) => server.on('exit', r));
rmSync(dataDir, { recursive: true, force: true });
if (flag('--postgres')) execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', 'test', '-qc', `DROP DATABASE ${pgDb} WITH (FORCE)`]);
const failed = results.filter((r) => !r.fixed);
console.log(`\n${results.length - failed.length} of ${results.length} findings no longer reproduce (${flag('--postgres') ? 'PostgreSQL' : 'SQLite'}${flag('--redis') ? ' + Redis' : ''}).`);
process.exit(failed.length ? 1 : 0);
