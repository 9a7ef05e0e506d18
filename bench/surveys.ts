// People and surveys benchmark (issue 21): against the real service started as a process like `npm start`
// (SQLite in a temp dir, or PostgreSQL with --pg):
//  1. bulk upsert of 100,000 employees with 3 custom fields, `PUT /api/v2/employees` (target ≤ 10 s), then
//     the same list again with 10 % changed (the update path);
//  2. 1,000 respondents saving an answer concurrently through the respondent API (`PUT
//     /s/api/<token>/answers/<q>`: 1,000 requests in flight at once, each a relationship answer naming 3
//     people), latency p50/p99/max (target p99 ≤ 200 ms), then the stored answers counted (nothing lost);
//  3. 1,000 respondents answering at once at a person's pace (`--paced`, default on): each opens within
//     the first 5 s, then saves 4 answers (the relationship question, the choice, each changed once) with
//     2–8 s between them — about 170 saves a second at the peak; p50/p99/max, then every stored answer
//     counted (each respondent's last value of both questions).
// The machine is shared: the load average is printed with every figure.
//
//   node bench/surveys.ts [--pg] [--people 100000] [--respondents 1000] [--rounds 3]
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request as httpRequest } from 'node:http';

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : def;
};
const usePg = process.argv.includes('--pg');
const PEOPLE = Number(arg('--people', '100000'));
const RESPONDENTS = Number(arg('--respondents', '1000'));
const ROUNDS = Number(arg('--rounds', '3'));
const PACED = !process.argv.includes('--no-paced');
// --server-times: the server logs every request (LOG_LEVEL=info) and the paced phase also reports the
// server's own response times (Fastify's `responseTime`: request read → answer sent), apart from the time
// the request and answer spent in the client and the kernel on this loaded machine
const SERVER_TIMES = process.argv.includes('--server-times');
// --cpu-prof DIR: the server runs with `node --cpu-prof --cpu-prof-dir DIR` (a .cpuprofile written at exit;
// summarise it with `node bench/cpuprofile-summary.ts DIR/<file>`)
const CPU_PROF = arg('--cpu-prof', '');
const load = () => loadavg().map((l) => l.toFixed(2)).join(', ');

const dir = mkdtempSync(join(tmpdir(), 'netloom-bench-surveys-'));
const port = await new Promise<number>((resolve) => {
  const probe = createServer();
  probe.listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => resolve(port));
  });
});
const base = `http://127.0.0.1:${port}`;
const env: Record<string, string> = {
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  NETLOOM_DATA_DIR: dir,
  LOG_LEVEL: SERVER_TIMES ? 'info' : 'warn',
  NETLOOM_RATE_LIMIT_PER_HOUR: '100000000',
  NETLOOM_MAX_CONNECTIONS: String(RESPONDENTS * 2 + 100),
} as Record<string, string>;
if (usePg) {
  env.DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
  env.NETLOOM_DB_SCHEMA = `bench_${Date.now()}`;
} else env.DATABASE_URL = '';
const child = spawn(process.execPath, [...(CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', CPU_PROF] : []), join(import.meta.dirname, '..', 'packages', 'server', 'src', 'main.ts')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
let out = '';
let exited: number | null = null;
child.stdout.on('data', (d) => (out += d));
child.stderr.on('data', (d) => (out += d));
child.on('exit', (code) => (exited = code ?? -1));
async function waitFor(what: string, ready: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (!(await ready())) {
    if (exited !== null) throw new Error(`the server exited (code ${exited}) before ${what}`);
    if (Date.now() > deadline) throw new Error(`the server did not get to ${what} within 180 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
await waitFor('printing the first-run token', () => /API token \(full access\): (nl_\S+)/.test(out));
const token = /API token \(full access\): (nl_\S+)/.exec(out)![1];
const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
await waitFor('answering /healthz', () => fetch(`${base}/healthz`).then((r) => r.ok, () => false));

/** CPU seconds the server process has used (user + system, all threads; Linux /proc). */
const serverCpu = (): number => {
  const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};

// the respondents' connections: at most 256 open at once (kept alive); the other requests wait in the
// client, and that wait is part of their measured latency
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
function put(path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method: 'PUT', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = await fetch(`${base}/api/v2${path}`, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  if (r.status >= 400) throw new Error(`${method} ${path} → ${r.status} ${text.slice(0, 300)}`);
  return { status: r.status, json: JSON.parse(text) };
}

/** The server's own response times (Fastify's `responseTime`) of the saves it read since `from` (ms since the epoch). */
async function serverTimes(from: number, expected: number): Promise<string> {
  // the log lines of the last answers may still be on their way through the pipe
  for (let i = 0; i < 20; i++) {
    if (serverSaves(from).length >= expected) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const times = serverSaves(from).sort((x, y) => x - y);
  if (!times.length) return '';
  const sq = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(1);
  return `server's own response times (${times.length} saves): p50 ${sq(0.5)} ms, p99 ${sq(0.99)} ms, max ${times[times.length - 1].toFixed(1)} ms`;
}
function serverSaves(from: number): number[] {
  const saves = new Set<string>();
  const times: number[] = [];
  for (const line of out.split('\n')) {
    if (!line.startsWith('{')) continue;
    const o = JSON.parse(line) as { time?: number; reqId?: string; msg?: string; req?: { method?: string; url?: string }; responseTime?: number };
    if (o.msg === 'incoming request' && (o.time ?? 0) >= from && o.req?.method === 'PUT' && o.req.url?.includes('/answers/') && o.reqId) saves.add(o.reqId);
    else if (o.msg === 'request completed' && o.reqId && saves.has(o.reqId) && typeof o.responseTime === 'number') times.push(o.responseTime);
  }
  return times;
}

try {
  console.log(`# surveys benchmark (${usePg ? 'PostgreSQL' : 'SQLite'}), load ${load()}`);
  for (const f of [
    { key: 'dept', label: 'Department', type: 'category', options: Array.from({ length: 20 }, (_, i) => `D${i}`) },
    { key: 'site', label: 'Site', type: 'text' },
    { key: 'level', label: 'Level', type: 'number' },
  ]) await api('POST', '/customFields', f);
  const people = (changed: number) =>
    Array.from({ length: PEOPLE }, (_, i) => ({
      employeeId: `E${i}`,
      name: `Person ${i}${i < changed ? ' (moved)' : ''}`,
      email: `person${i}@example.com`,
      ...(i > 0 ? { managerId: `E${Math.floor(i / 8)}` } : {}),
      fields: { dept: `D${i % 20}`, site: `Site ${i % 7}`, level: i % 9 },
    }));
  // 1. bulk upsert
  for (const [label, list] of [['create', people(0)], ['again, 10 % changed', people(PEOPLE / 10)]] as const) {
    const body = JSON.stringify({ mode: 'merge', employees: list });
    const t0 = performance.now();
    const c0 = serverCpu();
    const r = await fetch(`${base}/api/v2/employees`, { method: 'PUT', headers: auth, body });
    const res = await r.json();
    const ms = performance.now() - t0;
    console.log(`bulk upsert ${PEOPLE.toLocaleString('en')} (${label}; ${(body.length / 1e6).toFixed(1)} MB): ${(ms / 1000).toFixed(2)} s wall, ${(serverCpu() - c0).toFixed(2)} s server CPU → ${JSON.stringify(res)}; load ${load()}`);
  }

  // 2. concurrent saves: a survey whose roster is everyone and whose respondents are the first RESPONDENTS people
  const respondents = Array.from({ length: RESPONDENTS }, (_, i) => `E${i}`);
  const s = (await api('POST', '/surveys', { name: 'Bench', questions: [{ id: 'advice', type: 'relationship', text: 'Who?', maxSelections: 10 }, { id: 'office', type: 'singleChoice', text: 'Office?', options: ['N', 'S'] }], respondents: { employeeIds: respondents } })).json;
  let t0 = performance.now();
  await api('PUT', `/surveys/${s._id}`, { status: 'collecting' });
  console.log(`launch (roster ${PEOPLE.toLocaleString('en')}, ${RESPONDENTS} respondents): ${Math.round(performance.now() - t0)} ms`);
  const links = (await api('GET', `/surveys/${s._id}/links`)).json.links as { employeeId: string; link: string }[];
  const tokens = links.map((l) => ({ eid: l.employeeId, token: l.link.split('/s/')[1] }));
  for (let round = 1; round <= ROUNDS; round++) {
    const lat: number[] = [];
    let failed = 0;
    t0 = performance.now();
    const c0 = serverCpu();
    const roundFrom = Date.now();
    await Promise.all(
      tokens.map(async ({ eid, token: tk }) => {
        const n = Number(eid.slice(1));
        const value = [1, 2, 3].map((k) => ({ employeeId: `E${(n + k * 37 + round) % PEOPLE}` })).filter((v) => v.employeeId !== eid);
        const a = performance.now();
        const status = await put(`/s/api/${tk}/answers/advice`, JSON.stringify({ value }));
        lat.push(performance.now() - a);
        if (status !== 200) failed++;
      }),
    );
    const wall = performance.now() - t0;
    const cpu = serverCpu() - c0;
    lat.sort((x, y) => x - y);
    const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))].toFixed(0);
    const stored = (await api('GET', `/surveys/${s._id}/responses?limit=1`)).json.total as number;
    const tr = (await api('GET', `/surveys/${s._id}/tracking`)).json;
    if (SERVER_TIMES) console.log(`round ${round}, ${await serverTimes(roundFrom, RESPONDENTS)}`);
    console.log(`round ${round}: ${RESPONDENTS} concurrent saves in ${(wall / 1000).toFixed(2)} s (server CPU ${cpu.toFixed(2)} s, ${((cpu / RESPONDENTS) * 1000).toFixed(2)} ms a save) — p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${lat[lat.length - 1].toFixed(0)} ms, failed ${failed}; respondents with a stored answer ${stored}/${RESPONDENTS} (in progress ${tr.inProgress}); load ${load()}`);
  }

  // 3. the same 1,000 respondents at a person's pace, all at the same time
  if (PACED) {
    const lat: number[] = [];
    let failed = 0;
    const expected = new Map<string, { advice: string[]; office: string }>();
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    // a fixed sequence (mulberry32) so every run asks the same
    let seed = 12345;
    const rand = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const plans = tokens.map(({ eid, token: tk }) => ({ eid, tk, start: rand() * 5000, gaps: [0, 1, 2].map(() => 2000 + rand() * 6000) }));
    const timed = async (path: string, body: unknown) => {
      const a = performance.now();
      const status = await put(path, JSON.stringify(body));
      lat.push(performance.now() - a);
      if (status !== 200) failed++;
    };
    t0 = performance.now();
    const c0 = serverCpu();
    const pacedFrom = Date.now();
    await Promise.all(
      plans.map(async ({ eid, tk, start, gaps }) => {
        const n = Number(eid.slice(1));
        const pick = (k: number) => [1, 2, 3].map((j) => `E${(n + j * k * 53) % PEOPLE}`).filter((x) => x !== eid);
        await sleep(start);
        await timed(`/s/api/${tk}/answers/advice`, { value: pick(1).map((employeeId) => ({ employeeId })) });
        await sleep(gaps[0]);
        await timed(`/s/api/${tk}/answers/office`, { value: 'N' });
        await sleep(gaps[1]);
        const advice = pick(2);
        await timed(`/s/api/${tk}/answers/advice`, { value: advice.map((employeeId) => ({ employeeId })) });
        await sleep(gaps[2]);
        await timed(`/s/api/${tk}/answers/office`, { value: 'S' });
        expected.set(eid, { advice, office: 'S' });
      }),
    );
    const wall = performance.now() - t0;
    const cpu = serverCpu() - c0;
    lat.sort((x, y) => x - y);
    const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))].toFixed(0);
    // every answer as stored: the last value of both questions of every respondent
    let stored = 0;
    let right = 0;
    for (let offset = 0; ; offset += 500) {
      const page = (await api('GET', `/surveys/${s._id}/responses?limit=500&offset=${offset}`)).json as { total: number; responses: { employeeId: string; answers: Record<string, unknown> }[] };
      for (const r of page.responses) {
        const want = expected.get(r.employeeId);
        const adv = (r.answers.advice as { employeeId: string }[] | undefined)?.map((x) => x.employeeId);
        stored += (adv ? 1 : 0) + (r.answers.office !== undefined ? 1 : 0);
        if (want && JSON.stringify(adv) === JSON.stringify(want.advice) && r.answers.office === want.office) right++;
      }
      if (offset + 500 >= page.total) break;
    }
    if (SERVER_TIMES) console.log(`paced, ${await serverTimes(pacedFrom, lat.length)}`);
    console.log(`paced: ${RESPONDENTS} respondents at once, ${lat.length} saves over ${(wall / 1000).toFixed(1)} s (server CPU ${cpu.toFixed(2)} s, ${((cpu / lat.length) * 1000).toFixed(2)} ms a save) — p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${lat[lat.length - 1].toFixed(0)} ms, failed ${failed}; stored answers ${stored}/${RESPONDENTS * 2}, respondents whose last answers are exactly what they sent ${right}/${RESPONDENTS}; load ${load()}`);
  }
} finally {
  const ex = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await ex;
  rmSync(dir, { recursive: true, force: true });
}
