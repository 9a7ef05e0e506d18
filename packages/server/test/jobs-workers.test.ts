// `netloom worker` processes sharing one database (docs/jobs.md): two workers both take shards of one job
// and the merged result equals the single-process one; a job survives the API process being replaced; a
// worker SIGKILLed mid-shard → the shard is retried by the other worker, the job succeeds and its
// attributes are written once. SQLite with the table queue; PostgreSQL with BullMQ on Redis (the API and
// both workers share a key prefix of their own).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createUser } from '../src/domain/identity/users.ts';
import { createToken } from '../src/domain/identity/credentials/tokens.ts';
import { openTestDatabase, postgresUnavailable, TEST_DIALECTS, type TestDatabase } from './helpers/db.ts';
import { bearer } from './helpers/app.ts';
import { baNetwork } from './helpers/graphs.ts';
import { deleteRedisKeys, queueEnv, redisUnavailable } from './helpers/redis.ts';

const pgRedisSkip = TEST_DIALECTS.includes('postgres') ? ((await postgresUnavailable()) ?? (await redisUnavailable())) : null;

const main = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));

const JOB_ENV = {
  NETLOOM_JOB_SHARD_MIN_NODES: '1000',
  NETLOOM_JOB_SHARD_SOURCES: '400',
  NETLOOM_JOB_LEASE_MS: '1500',
  NETLOOM_JOB_HEARTBEAT_MS: '200',
  NETLOOM_JOB_POLL_MS: '50',
  NETLOOM_METRIC_WORKERS: '2',
};

type Job = { jobId: string; status: string; progress: number; result?: unknown; error?: unknown; shards?: { index: number; status: string; workerId: string | null; attempts: number }[] };

interface Worker {
  proc: ChildProcess;
  exited: Promise<number | null>;
  log: string[];
}

function startWorker(env: Record<string, string>): Worker {
  const proc = spawn(process.execPath, [main, 'worker', '--threads', '1', '--concurrency', '1'], { env: { ...process.env, ...env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const log: string[] = [];
  proc.stdout?.on('data', (d: Buffer) => log.push(d.toString()));
  proc.stderr?.on('data', (d: Buffer) => log.push(d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, exited, log };
}

async function untilStarted(w: Worker): Promise<void> {
  const end = Date.now() + 60_000;
  while (!w.log.join('').includes('worker started')) {
    if (Date.now() > end || w.proc.exitCode !== null) throw new Error(`worker did not start: ${w.log.join('')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function stopWorker(w: Worker): Promise<void> {
  if (w.proc.exitCode === null && w.proc.signalCode === null) w.proc.kill('SIGTERM');
  await w.exited;
}

for (const dialect of TEST_DIALECTS) {
  describe(`netloom worker processes (${dialect})`, async () => {
    const skip = dialect === 'postgres' ? pgRedisSkip : null;
    const env: Record<string, string> = { ...JOB_ENV, ...queueEnv(dialect) };
    let tdb: TestDatabase;
    let token: string;
    const workers: Worker[] = [];
    const apps: FastifyInstance[] = [];

    async function api(): Promise<FastifyInstance> {
      const app = await buildApp(loadConfig({ ...tdb.env, ...env, NETLOOM_WORKERS: '0' }), { database: tdb.handle, logger: false });
      assert.equal(app.jobQueue === null, dialect === 'sqlite');
      await app.ready();
      apps.push(app);
      return app;
    }

    async function waitJob(app: FastifyInstance, id: string, until: (j: Job) => boolean, timeoutMs = 120_000): Promise<Job> {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const res = await app.inject({ method: 'GET', url: `/api/v2/jobs/${id}`, headers: bearer(token) });
        assert.equal(res.statusCode, 200, res.body);
        const job = res.json() as Job;
        if (until(job)) return job;
        if (Date.now() > end) throw new Error(`job ${id}: ${JSON.stringify(job)}\nworkers:\n${workers.map((w) => w.log.join('')).join('\n---\n')}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    }

    before(async () => {
      if (skip) return;
      tdb = await openTestDatabase(dialect, env);
      const user = await createUser(tdb.db, { email: `w${Date.now()}@example.com`, name: 'W', plan: 'enterprise', password: 'correct horse battery staple' });
      token = (await createToken(tdb.db, { userId: user.id, orgId: null, scopes: null })).token;
    });
    after(async () => {
      if (skip) return;
      await Promise.all(workers.map(stopWorker));
      for (const app of apps) await app.close();
      await tdb.close();
      if (env.NETLOOM_REDIS_PREFIX) await deleteRedisKeys(env.NETLOOM_REDIS_PREFIX);
    });

    test('two workers share one job’s shards; the merged result equals the single-process one; the job survives the API process being replaced', { skip: skip ?? false }, async () => {
      const network = baNetwork(2400, 4, 11);
      const app1 = await api();
      const created = await app1.inject({ method: 'POST', url: '/api/v2/networks', headers: bearer(token), payload: { name: 'ba', networkJSON: network, isDirected: false } });
      assert.equal(created.statusCode, 200, created.body);
      const networkId = (created.json() as { _id: string })._id;
      const single = await app1.inject({ method: 'POST', url: '/api/v2/metrics/nodes/betweennessCentrality', headers: bearer(token), payload: { networkJSON: network, isDirected: false } });
      assert.equal(single.statusCode, 200, single.body);
      const res = await app1.inject({ method: 'POST', url: '/api/v2/metrics/nodes/betweennessCentrality', headers: { ...bearer(token), prefer: 'respond-async' }, payload: { networkId } });
      assert.equal(res.statusCode, 202, res.body);
      const { jobId } = res.json() as Job;
      // the API process goes away; the job waits in the database
      await app1.close();
      workers.push(startWorker({ ...tdb.env, ...env }), startWorker({ ...tdb.env, ...env }));
      await Promise.all(workers.map(untilStarted));
      for (const w of workers) assert.match(w.log.join(''), dialect === 'postgres' ? /"queue":"redis"/ : /"queue":"table"/);
      const app2 = await api();
      const job = await waitJob(app2, jobId, (j) => ['succeeded', 'failed', 'cancelled'].includes(j.status));
      assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
      assert.equal(job.shards?.length, 6);
      const takers = new Set(job.shards?.map((s) => s.workerId?.split(':')[1]));
      assert.equal(takers.size, 2, `both worker processes took shards: ${JSON.stringify(job.shards)}`);
      for (const w of workers) assert.ok(takers.has(String(w.proc.pid)));
      const stored = (await app2.inject({ method: 'GET', url: `/api/v2/networks/${networkId}`, headers: bearer(token) })).json() as { networkUUID: string; networkJSON: { nodes: { id: string; attributes?: Record<string, number> }[] } };
      assert.equal(stored.networkUUID, (job.result as { networkUUID: string }).networkUUID);
      const [[attr, expected]] = Object.entries((single.json() as { values: Record<string, Record<string, number>> }).values);
      let checked = 0;
      for (const nd of stored.networkJSON.nodes) {
        const want = expected[nd.id];
        if (want === undefined) continue;
        const got = nd.attributes?.[attr] as number;
        assert.ok(Math.abs(got - want) <= 1e-12 * Math.max(1, Math.abs(want)), `${nd.id}: ${got} vs ${want}`);
        checked++;
      }
      assert.ok(checked > 2000);
    });

    test('a worker SIGKILLed mid-shard: the other retries the shard, the job succeeds, attributes written once', { skip: skip ?? false }, async () => {
      const app = apps[apps.length - 1];
      const network = baNetwork(3000, 5, 5);
      const created = await app.inject({ method: 'POST', url: '/api/v2/networks', headers: bearer(token), payload: { name: 'kill', networkJSON: network, isDirected: false } });
      const networkId = (created.json() as { _id: string })._id;
      const before = await tdb.db.selectFrom('networks').select('version').where('id', '=', networkId).executeTakeFirstOrThrow();
      const res = await app.inject({ method: 'POST', url: '/api/v2/metrics/nodes/betweennessCentrality', headers: { ...bearer(token), prefer: 'respond-async' }, payload: { networkId } });
      const { jobId } = res.json() as Job;
      // wait until a shard is running on one of the workers, then kill that worker process
      const running = await waitJob(app, jobId, (j) => (j.shards ?? []).some((s) => s.status === 'running' && s.workerId !== null));
      const shard = running.shards?.find((s) => s.status === 'running') as { index: number; workerId: string };
      const victimPid = Number(shard.workerId.split(':')[1]);
      const victim = workers.find((w) => w.proc.pid === victimPid);
      assert.ok(victim, 'the shard runs on one of our workers');
      victim.proc.kill('SIGKILL');
      await victim.exited;
      const job = await waitJob(app, jobId, (j) => ['succeeded', 'failed', 'cancelled'].includes(j.status));
      assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
      const retried = job.shards?.find((s) => s.index === shard.index);
      assert.equal(retried?.attempts, 2, 'the killed shard was claimed a second time');
      assert.notEqual(retried?.workerId, shard.workerId);
      const afterRow = await tdb.db.selectFrom('networks').select(['version', 'network_uuid']).where('id', '=', networkId).executeTakeFirstOrThrow();
      assert.equal(afterRow.version, before.version + 1, 'written exactly once');
      assert.equal(afterRow.network_uuid, (job.result as { networkUUID: string }).networkUUID);
    });

    test('cancelling a job running in a worker process stops its computation within 1 s', { skip: skip ?? false }, async () => {
      const app = apps[apps.length - 1];
      const alive = workers.find((w) => w.proc.exitCode === null && w.proc.signalCode === null);
      assert.ok(alive, 'a worker process is running');
      const res = await app.inject({ method: 'POST', url: '/api/v2/metrics/nodes/currentFlowClosenessCentrality', headers: { ...bearer(token), prefer: 'respond-async' }, payload: { networkJSON: baNetwork(4000, 4, 3), isDirected: false } });
      assert.equal(res.statusCode, 202, res.body);
      const { jobId } = res.json() as Job;
      await waitJob(app, jobId, (j) => j.status === 'running');
      await new Promise((r) => setTimeout(r, 300)); // computing on the worker's thread by now
      const cancelledBefore = alive.log.join('').split('metric cancelled').length;
      const t0 = Date.now();
      const del = await app.inject({ method: 'DELETE', url: `/api/v2/jobs/${jobId}`, headers: bearer(token) });
      assert.equal((del.json() as Job).status, 'cancelled');
      // the worker notices at its next heartbeat (200 ms here) and terminates the thread
      while (alive.log.join('').split('metric cancelled').length === cancelledBefore && Date.now() - t0 < 5_000) await new Promise((r) => setTimeout(r, 10));
      const ms = Date.now() - t0;
      assert.ok(alive.log.join('').split('metric cancelled').length > cancelledBefore, `the worker stopped the computation: ${alive.log.join('').slice(-2000)}`);
      assert.ok(ms < 1_000, `stopped ${ms} ms after the cancel`);
    });
  });
}
