// A Redis outage is a quick 503 with Retry-After, never a hang (docs/operations.md "Redis outage",
// docs/jobs.md "Faults"): the test runs its own redis-server on a free port, stops it (a hung Redis: 503
// after the 2 s command timeout), then kills it mid-test, and checks
// an ordinary authenticated request (its rate limit lives in Redis) and a job submission (BullMQ) answer
// 503 UNAVAILABLE with Retry-After within 2.5 s, /readyz says so, no job is created — then restarts
// Redis and checks both recover by themselves and a job submitted then runs to completion.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { testApp, bearer, type TestApp } from './helpers/app.ts';
import { baNetwork } from './helpers/graphs.ts';

const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

async function startRedis(port: number): Promise<ChildProcess> {
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  const end = Date.now() + 10_000;
  while (!out.includes('Ready to accept connections')) {
    if (Date.now() > end || proc.exitCode !== null) throw new Error(`redis-server did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return proc;
}

async function kill(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGKILL');
  await exited;
}

type Job = { jobId: string; status: string; error?: unknown };

describe('Redis outage: 503 + Retry-After at once, recovery by itself', { skip: hasRedisServer ? false : 'redis-server is not installed' }, () => {
  let port: number;
  let redis: ChildProcess;
  let t: TestApp;
  let token: string;
  const body = { networkJSON: baNetwork(30, 2), isDirected: false };
  const submit = () => t.app.inject({ method: 'POST', url: '/api/v2/metrics/network/diameter', headers: { ...bearer(token), prefer: 'respond-async' }, payload: body });

  async function until(what: string, ok: () => Promise<boolean>, ms: number): Promise<void> {
    const end = Date.now() + ms;
    while (!(await ok())) {
      if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function finished(id: string): Promise<Job> {
    let job: Job = { jobId: id, status: 'queued' };
    await until(`job ${id} finished`, async () => {
      job = (await t.app.inject({ method: 'GET', url: `/api/v2/jobs/${id}`, headers: bearer(token) })).json() as Job;
      return ['succeeded', 'failed', 'cancelled'].includes(job.status);
    }, 30_000);
    return job;
  }

  before(async () => {
    if (!hasRedisServer) return;
    port = await freePort();
    redis = await startRedis(port);
    t = await testApp('sqlite', { REDIS_URL: `redis://127.0.0.1:${port}`, NETLOOM_WORKERS: '1', NETLOOM_JOB_LEASE_MS: '1500', NETLOOM_JOB_HEARTBEAT_MS: '200' });
    token = await t.token((await t.user()).id);
  });
  after(async () => {
    if (!hasRedisServer) return;
    await t.close();
    await kill(redis);
  });

  test('Redis hung, then killed: 503 with Retry-After (after the 2 s command timeout, then at once); back: requests and jobs work again', async () => {
    assert.ok(t.app.jobQueue, 'jobs go through BullMQ');
    // all well: an ordinary request, a job through BullMQ
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/v2/jobs', headers: bearer(token) })).statusCode, 200);
    const ok = await submit();
    assert.equal(ok.statusCode, 202, ok.body);
    assert.equal((await finished((ok.json() as Job).jobId)).status, 'succeeded');

    // a hung Redis (the process stopped, its connections open): the 2 s command timeout answers for it
    redis.kill('SIGSTOP');
    try {
      const t0 = Date.now();
      const hung = await t.app.inject({ method: 'GET', url: '/api/v2/jobs', headers: bearer(token) });
      const ms = Date.now() - t0;
      assert.equal(hung.statusCode, 503, hung.body);
      assert.equal(hung.json().code, 'UNAVAILABLE');
      assert.match(String(hung.headers['retry-after']), /^\d+$/);
      assert.ok(ms < 4_000, `answered in ${ms} ms while Redis hung`);
    } finally {
      redis.kill('SIGCONT');
    }
    await until('requests answer again once Redis resumes', async () => (await t.app.inject({ method: 'GET', url: '/api/v2/jobs', headers: bearer(token) })).statusCode === 200, 10_000);

    await kill(redis);
    for (const [what, call] of [
      ['an authenticated GET', () => t.app.inject({ method: 'GET', url: '/api/v2/jobs', headers: bearer(token) })],
      ['a job submission', submit],
      ['a batch job submission', () => t.app.inject({ method: 'POST', url: '/api/v2/metrics/batch', headers: bearer(token), payload: { ...body, metrics: [{ metric: 'diameter' }] } })],
    ] as const) {
      const t0 = Date.now();
      const res = await call();
      const ms = Date.now() - t0;
      assert.equal(res.statusCode, 503, `${what}: ${res.body}`);
      assert.equal(res.json().code, 'UNAVAILABLE');
      assert.match(String(res.headers['retry-after']), /^\d+$/, `${what}: Retry-After`);
      assert.ok(ms < 2_500, `${what} answered in ${ms} ms`);
    }
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 503);
    assert.match(ready.json().detail, /redis/);
    assert.match(String(ready.headers['retry-after']), /^\d+$/);
    // nothing was created by the refused submissions
    const rows = await t.database.db.selectFrom('metric_jobs').select('id').execute();
    assert.equal(rows.length, 1);

    // Redis comes back (empty: no persistence): everything recovers without a restart of the service
    redis = await startRedis(port);
    await until('an authenticated GET answers 200 again', async () => (await t.app.inject({ method: 'GET', url: '/api/v2/jobs', headers: bearer(token) })).statusCode === 200, 10_000);
    await until('/readyz answers 200 again', async () => (await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode === 200, 10_000);
    let again = await submit();
    for (let i = 0; i < 100 && again.statusCode === 503; i++) {
      await new Promise((r) => setTimeout(r, 100)); // the queue's own connection reconnects on its own schedule
      again = await submit();
    }
    assert.equal(again.statusCode, 202, again.body);
    const job = await finished((again.json() as Job).jobId);
    assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
  });
});
