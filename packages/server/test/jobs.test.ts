// Metric jobs through the real HTTP stack (docs/jobs.md): Prefer: respond-async, batch, the job
// resource, tenancy, shards merged exactly, write-back once and only onto an unchanged network, cancel.
// Twice: SQLite with the table queue, PostgreSQL with BullMQ on Redis (its own key prefix per run).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, bearer, DIALECTS, type TestApp } from './helpers/app.ts';
import { postgresUnavailable } from './helpers/db.ts';
import { deleteRedisKeys, queueEnv, redisUnavailable, REDIS_URL } from './helpers/redis.ts';
import { Redis } from 'ioredis';
import { JobRunner } from '../src/domain/metrics/job-runner.ts';
import { baNetwork, type Net } from './helpers/graphs.ts';

type Job = { jobId: string; status: string; progress: number; etaSeconds: number | null; result?: unknown; error?: { code: string; status: number; detail: string }; shards?: { index: number; status: string; workerId: string | null; attempts: number }[]; metric?: string; networkId?: string };

async function waitJob(t: TestApp, token: string, id: string, until = (j: Job) => ['succeeded', 'failed', 'cancelled'].includes(j.status), timeoutMs = 60_000): Promise<Job> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.app.inject({ method: 'GET', url: `/api/v2/jobs/${id}`, headers: bearer(token) });
    assert.equal(res.statusCode, 200, res.body);
    const job = res.json() as Job;
    if (until(job)) return job;
    if (Date.now() > end) throw new Error(`job ${id} still ${job.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function closeValues(a: Record<string, Record<string, number>>, b: Record<string, Record<string, number>>, tol = 1e-12): void {
  assert.deepEqual(Object.keys(a).sort(), Object.keys(b).sort());
  for (const attr of Object.keys(a)) {
    assert.deepEqual(Object.keys(a[attr]).sort(), Object.keys(b[attr]).sort());
    for (const [id, v] of Object.entries(a[attr])) assert.ok(Math.abs(v - b[attr][id]) <= tol * Math.max(1, Math.abs(v)), `${attr}[${id}]: ${v} vs ${b[attr][id]}`);
  }
}

// PostgreSQL runs with Redis (BullMQ); either missing skips that half
const pgRedisSkip = DIALECTS.includes('postgres') ? ((await postgresUnavailable()) ?? (await redisUnavailable())) : null;

for (const dialect of DIALECTS) {
  describe(`metric jobs (${dialect})`, async () => {
    const skip = dialect === 'postgres' ? pgRedisSkip : null;
    const qenv = queueEnv(dialect);
    let t: TestApp;
    let token: string;
    let userId: string;
    before(async () => {
      if (skip) return;
      t = await testApp(dialect, { NETLOOM_JOB_SHARD_MIN_NODES: '60', NETLOOM_JOB_SHARD_SOURCES: '25', NETLOOM_JOB_POLL_MS: '50', NETLOOM_METRIC_WORKERS: '2', NETLOOM_WORKERS: '2', ...qenv });
      assert.equal(t.app.jobQueue === null, dialect === 'sqlite', 'PostgreSQL runs on BullMQ, SQLite on the table queue');
      userId = (await t.user()).id;
      token = await t.token(userId);
    });
    after(async () => {
      if (skip) return;
      await t.close();
      if (qenv.NETLOOM_REDIS_PREFIX) await deleteRedisKeys(qenv.NETLOOM_REDIS_PREFIX);
    });

    test('Prefer: respond-async → 202, Location, the job; its result is the synchronous answer', { skip: skip ?? false }, async () => {
      const body = { networkJSON: baNetwork(40, 2), isDirected: false };
      const sync = await t.app.inject({ method: 'POST', url: '/api/v2/metrics/nodes/pageRank', headers: bearer(token), payload: body });
      assert.equal(sync.statusCode, 200, sync.body);
      const res = await t.app.inject({ method: 'POST', url: '/api/v2/metrics/nodes/pageRank', headers: { ...bearer(token), prefer: 'respond-async' }, payload: body });
      assert.equal(res.statusCode, 202, res.body);
      const created = res.json() as Job;
      assert.equal(res.headers.location, `/api/v2/jobs/${created.jobId}`);
      assert.equal(res.headers['preference-applied'], 'respond-async');
      assert.ok(['queued', 'running', 'succeeded'].includes(created.status));
      assert.equal(created.metric, 'pageRank');
      const done = await waitJob(t, token, created.jobId);
      assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
      assert.equal(done.progress, 1);
      const a = done.result as { values: Record<string, Record<string, number>>; meta: Record<string, unknown> };
      const b = sync.json() as typeof a;
      closeValues(a.values, b.values, 0);
      assert.equal(a.meta.metric, 'pageRank');
      // a network metric's job answers the bare number
      const net = await t.app.inject({ method: 'POST', url: '/api/v2/metrics/network/diameter', headers: { ...bearer(token), prefer: 'wait=5, respond-async' }, payload: body });
      assert.equal(net.statusCode, 202, net.body);
      const nd = await waitJob(t, token, (net.json() as Job).jobId);
      assert.equal(typeof nd.result, 'number');
      // bad input is refused at once, as synchronously
      const bad = await t.app.inject({ method: 'POST', url: '/api/v2/metrics/nodes/pageRank', headers: { ...bearer(token), prefer: 'respond-async' }, payload: { ...body, alpha: 7 } });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().code, 'INVALID_ARGS');
    });

    test('split job: shard records, merged result equals the unsplit one within 1e-12, written to the network once', { skip: skip ?? false }, async () => {
      const network = baNetwork(150, 3);
      const created = await t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: bearer(token), payload: { name: 'ba150', networkJSON: network, isDirected: false } });
      assert.equal(created.statusCode, 200, created.body);
      const { _id: networkId, networkUUID: uuid0 } = created.json() as { _id: string; networkUUID: string };
      for (const metric of ['betweennessCentrality', 'closenessCentrality', 'harmonicCentrality', 'loadCentrality']) {
        const sync = await t.app.inject({ method: 'POST', url: `/api/v2/metrics/nodes/${metric}`, headers: bearer(token), payload: { networkJSON: network, isDirected: false } });
        assert.equal(sync.statusCode, 200, sync.body);
        const res = await t.app.inject({ method: 'POST', url: `/api/v2/metrics/nodes/${metric}`, headers: { ...bearer(token), prefer: 'respond-async' }, payload: { networkId } });
        assert.equal(res.statusCode, 202, res.body);
        const job = await waitJob(t, token, (res.json() as Job).jobId);
        assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
        assert.equal(job.shards?.length, 6, 'ceil(150 / 25) shards');
        for (const s of job.shards ?? []) {
          assert.equal(s.status, 'succeeded');
          assert.match(s.workerId ?? '', /:\d+:/);
        }
        const result = job.result as { _id: string; networkUUID: string; attributes: string[]; meta: { elapsedMs: number } };
        assert.equal(result._id, networkId);
        // meta.elapsedMs covers the shards, not only the merge (it measured the merge alone before)
        const shardTimes = await t.database.db.selectFrom('metric_jobs').select(['started_at', 'finished_at']).where('parent_id', '=', job.jobId).execute();
        const span = Math.max(...shardTimes.map((r) => Date.parse(String(r.finished_at)))) - Math.min(...shardTimes.map((r) => Date.parse(String(r.started_at))));
        assert.ok(Number.isFinite(span) && result.meta.elapsedMs >= span - 2, `${metric}: elapsedMs ${result.meta.elapsedMs} covers the shards' ${span} ms`);
        const stored = await t.app.inject({ method: 'GET', url: `/api/v2/networks/${networkId}`, headers: bearer(token) });
        const got = stored.json() as { networkUUID: string; networkJSON: Net };
        assert.equal(got.networkUUID, result.networkUUID, 'the job wrote the network exactly once (its UUID is the last change)');
        const written: Record<string, Record<string, number>> = {};
        for (const attr of result.attributes) {
          written[attr] = {};
          for (const nd of got.networkJSON.nodes) if (typeof nd.attributes?.[attr] === 'number') written[attr][String(nd.id)] = nd.attributes[attr] as number;
        }
        closeValues(written, (sync.json() as { values: Record<string, Record<string, number>> }).values);
      }
      assert.notEqual(uuid0, undefined);
    });

    test('batch with networkId on a 1,000-node stored network: every metric runs (the network text is no longer detached after the first)', { skip: skip ?? false }, async () => {
      // issue 19 (Low): 500 "detached ArrayBuffer" for stored networks of 400+ nodes — the pool transferred
      // the job's own copy of the text (Buffer#slice is a view) with the first metric
      const created = await t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: bearer(token), payload: { name: 'batch1000', networkJSON: baNetwork(1000, 3) } });
      assert.equal(created.statusCode, 200, created.body);
      const { _id: networkId } = created.json() as { _id: string };
      const res = await t.app.inject({ method: 'POST', url: '/api/v2/metrics/batch', headers: bearer(token), payload: { networkId, metrics: [{ metric: 'pageRank' }, { metric: 'diameter' }, { metric: 'totalDegree' }] } });
      assert.equal(res.statusCode, 202, res.body);
      const job = await waitJob(t, token, (res.json() as Job).jobId);
      assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
      const result = job.result as { attributes: string[]; results: { metric: string; value?: number }[] };
      assert.deepEqual(result.results.map((r) => r.metric), ['pageRank', 'diameter', 'totalDegree']);
      const stored = (await t.app.inject({ method: 'GET', url: `/api/v2/networks/${networkId}`, headers: bearer(token) })).json() as { networkJSON: Net };
      assert.equal(stored.networkJSON.nodes.length, 1000);
      for (const attr of result.attributes) assert.equal(stored.networkJSON.nodes.filter((n) => typeof n.attributes?.[attr] === 'number').length, 1000, attr);
    });

    test('batch: several metrics, one write of all attributes', { skip: skip ?? false }, async () => {
      const network = baNetwork(30, 2);
      const created = await t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: bearer(token), payload: { name: 'batch', networkJSON: network } });
      const { _id: networkId } = created.json() as { _id: string };
      const bad = await t.app.inject({ method: 'POST', url: '/api/v2/metrics/batch', headers: bearer(token), payload: { networkId, metrics: [{ metric: 'pageRank', alpha: 3 }, { metric: 'nope' }] } });
      assert.equal(bad.statusCode, 400, bad.body);
      assert.deepEqual((bad.json() as { errors: { path: string }[] }).errors.map((e) => e.path).sort(), ['/metrics/0/alpha', '/metrics/1/metric']);
      const res = await t.app.inject({ method: 'POST', url: '/api/v2/metrics/batch', headers: bearer(token), payload: { networkId, metrics: [{ metric: 'pageRank' }, { metric: 'diameter' }, { metric: 'totalDegree' }] } });
      assert.equal(res.statusCode, 202, res.body);
      assert.match(String(res.headers.location), /^\/api\/v2\/jobs\/[0-9a-f]{24}$/);
      const job = await waitJob(t, token, (res.json() as Job).jobId);
      assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
      const result = job.result as { networkUUID: string; attributes: string[]; results: { metric: string; value?: number }[] };
      assert.deepEqual(result.results.map((r) => r.metric), ['pageRank', 'diameter', 'totalDegree']);
      assert.equal(typeof result.results[1].value, 'number');
      const stored = (await t.app.inject({ method: 'GET', url: `/api/v2/networks/${networkId}`, headers: bearer(token) })).json() as { networkUUID: string; networkJSON: Net };
      assert.equal(stored.networkUUID, result.networkUUID);
      for (const attr of result.attributes) assert.ok(stored.networkJSON.nodes.some((n) => n.attributes?.[attr] !== undefined), attr);
      // networkJSON batch: values in the answer
      const posted = await t.app.inject({ method: 'POST', url: '/api/v2/metrics/batch', headers: bearer(token), payload: { networkJSON: network, isDirected: false, metrics: [{ metric: 'totalDegree' }] } });
      assert.equal(posted.statusCode, 202, posted.body);
      const pj = await waitJob(t, token, (posted.json() as Job).jobId);
      assert.equal(pj.status, 'succeeded', JSON.stringify(pj.error));
      assert.ok((pj.result as { results: { values: object }[] }).results[0].values);
    });

    test('tenancy: another user’s job is 404 for GET and DELETE; metrics:read cannot create; list is own, newest first', { skip: skip ?? false }, async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v2/metrics/network/diameter', headers: { ...bearer(token), prefer: 'respond-async' }, payload: { networkJSON: baNetwork(10, 1) } });
      const { jobId } = res.json() as Job;
      const other = await t.token((await t.user()).id);
      for (const method of ['GET', 'DELETE'] as const) {
        const r = await t.app.inject({ method, url: `/api/v2/jobs/${jobId}`, headers: bearer(other) });
        assert.equal(r.statusCode, 404, `${method}: ${r.body}`);
        assert.equal(r.json().code, 'NOT_FOUND');
      }
      const readOnly = await t.token(userId, { scopes: ['metrics:read'] });
      const denied = await t.app.inject({ method: 'POST', url: '/api/v2/metrics/network/diameter', headers: { ...bearer(readOnly), prefer: 'respond-async' }, payload: { networkJSON: baNetwork(10, 1) } });
      assert.equal(denied.statusCode, 403);
      assert.equal(denied.json().code, 'INSUFFICIENT_SCOPE');
      const deniedBatch = await t.app.inject({ method: 'POST', url: '/api/v2/metrics/batch', headers: bearer(readOnly), payload: { networkJSON: baNetwork(10, 1), metrics: [{ metric: 'diameter' }] } });
      assert.equal(deniedBatch.statusCode, 403);
      const cancelDenied = await t.app.inject({ method: 'DELETE', url: `/api/v2/jobs/${jobId}`, headers: bearer(readOnly) });
      assert.equal(cancelDenied.statusCode, 403);
      const readable = await t.app.inject({ method: 'GET', url: `/api/v2/jobs/${jobId}`, headers: bearer(readOnly) });
      assert.equal(readable.statusCode, 200);
      const writeOnly = await t.token(userId, { scopes: ['metrics:write'] });
      assert.equal((await t.app.inject({ method: 'GET', url: `/api/v2/jobs/${jobId}`, headers: bearer(writeOnly) })).statusCode, 403);
      const list = await t.app.inject({ method: 'GET', url: '/api/v2/jobs?limit=3', headers: bearer(token) });
      assert.equal(list.statusCode, 200, list.body);
      const l = list.json() as { jobs: Job[]; total: number; limit: number };
      assert.equal(l.jobs[0].jobId, jobId);
      assert.ok(l.total >= 3 && l.jobs.length === 3);
      assert.equal(l.jobs[0].result, undefined);
      const otherList = (await t.app.inject({ method: 'GET', url: '/api/v2/jobs', headers: bearer(other) })).json() as { jobs: Job[]; total: number };
      assert.equal(otherList.total, 0);
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/v2/jobs?limit=0', headers: bearer(token) })).statusCode, 400);
    });

    test('OpenAPI: the job routes, the Job schema, and 202 on every metric endpoint', { skip: skip ?? false }, async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/api/v2/openapi.json' })).json() as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>>; components: { schemas: Record<string, unknown> } };
      for (const [path, method] of [['/api/v2/jobs', 'get'], ['/api/v2/jobs/{id}', 'get'], ['/api/v2/jobs/{id}', 'delete'], ['/api/v2/metrics/batch', 'post']]) assert.ok(doc.paths[path]?.[method], `${method} ${path}`);
      for (const name of ['Job', 'JobList', 'JobShard', 'MetricBatch']) assert.ok(doc.components.schemas[name], name);
      assert.match(JSON.stringify(doc.paths['/api/v2/metrics/nodes/betweennessCentrality'].post.responses['202']), /Job/);
      assert.match(JSON.stringify(doc.paths['/api/v2/jobs/{id}'].get.responses['404']), /Problem/);
    });

    test('cancel frees the worker within 1 s', { skip: skip ?? false }, async () => {
      const network = baNetwork(4000, 4);
      const res = await t.app.inject({ method: 'POST', url: '/api/v2/metrics/nodes/currentFlowClosenessCentrality', headers: { ...bearer(token), prefer: 'respond-async' }, payload: { networkJSON: network, isDirected: false } });
      assert.equal(res.statusCode, 202, res.body);
      const { jobId } = res.json() as Job;
      await waitJob(t, token, jobId, (j) => j.status === 'running');
      const end = Date.now() + 20_000;
      while (t.app.metricPool.busyWorkers === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      assert.ok(t.app.metricPool.busyWorkers > 0, 'the job occupies a worker thread');
      const t0 = Date.now();
      const del = await t.app.inject({ method: 'DELETE', url: `/api/v2/jobs/${jobId}`, headers: bearer(token) });
      assert.equal(del.statusCode, 200, del.body);
      assert.equal((del.json() as Job).status, 'cancelled');
      while (t.app.metricPool.busyWorkers > 0 && Date.now() - t0 < 1000) await new Promise((r) => setTimeout(r, 10));
      assert.equal(t.app.metricPool.busyWorkers, 0, 'worker freed within 1 s');
      const again = await t.app.inject({ method: 'DELETE', url: `/api/v2/jobs/${jobId}`, headers: bearer(token) });
      assert.equal((again.json() as Job).status, 'cancelled');
    });
  });

  describe(`metric jobs without API workers (${dialect})`, async () => {
    const skip = dialect === 'postgres' ? pgRedisSkip : null;
    test('a queued job waits for a worker; a network changed meanwhile → CONFLICT, nothing written', { skip: skip ?? false }, async () => {
      const qenv = queueEnv(dialect);
      const t = await testApp(dialect, { NETLOOM_WORKERS: '0', NETLOOM_JOB_POLL_MS: '50', ...qenv });
      try {
        assert.equal(t.app.jobRunner, null);
        const token = await t.token((await t.user()).id);
        const created = await t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: bearer(token), payload: { name: 'c', networkJSON: baNetwork(20, 2) } });
        const { _id: networkId } = created.json() as { _id: string };
        const ok = await t.app.inject({ method: 'POST', url: '/api/v2/metrics/nodes/totalDegree', headers: { ...bearer(token), prefer: 'respond-async' }, payload: { networkId } });
        const stale = await t.app.inject({ method: 'POST', url: '/api/v2/metrics/nodes/pageRank', headers: { ...bearer(token), prefer: 'respond-async' }, payload: { networkId } });
        await new Promise((r) => setTimeout(r, 200));
        assert.equal(((await t.app.inject({ method: 'GET', url: `/api/v2/jobs/${(ok.json() as Job).jobId}`, headers: bearer(token) })).json() as Job).status, 'queued');
        if (qenv.NETLOOM_REDIS_PREFIX) {
          // with Redis the job waits as a BullMQ message named after its row
          const r = new Redis(REDIS_URL);
          try {
            assert.equal(await r.exists(`${qenv.NETLOOM_REDIS_PREFIX}bull:metric-jobs:${(ok.json() as Job).jobId}-run`), 1);
          } finally {
            r.disconnect();
          }
        }
        // a worker (as `netloom worker` runs it) picks the jobs up: the first changes the network, so the second conflicts
        const runner = new JobRunner({ db: t.database.db, pool: t.app.metricPool, config: t.config, concurrency: 1, log: t.app.log, queue: t.app.jobQueue });
        runner.start();
        try {
          const first = await waitJob(t, token, (ok.json() as Job).jobId);
          assert.equal(first.status, 'succeeded', JSON.stringify(first.error));
          const second = await waitJob(t, token, (stale.json() as Job).jobId);
          assert.equal(second.status, 'failed');
          assert.equal(second.error?.code, 'CONFLICT');
          assert.equal(second.error?.status, 409);
          const stored = (await t.app.inject({ method: 'GET', url: `/api/v2/networks/${networkId}`, headers: bearer(token) })).json() as { networkUUID: string; networkJSON: Net };
          assert.equal(stored.networkUUID, (first.result as { networkUUID: string }).networkUUID);
          assert.ok(stored.networkJSON.nodes.every((n) => n.attributes?.PageRank === undefined));
        } finally {
          await runner.stop();
        }
      } finally {
        await t.close();
        if (qenv.NETLOOM_REDIS_PREFIX) await deleteRedisKeys(qenv.NETLOOM_REDIS_PREFIX);
      }
    });

    test('a job whose worker was lost three times fails with 503 UNAVAILABLE; a job whose queue message was lost still runs', { skip: skip ?? false }, async () => {
      const qenv = queueEnv(dialect);
      const t = await testApp(dialect, { NETLOOM_WORKERS: '0', NETLOOM_JOB_POLL_MS: '50', ...qenv });
      const runner = new JobRunner({ db: t.database.db, pool: t.app.metricPool, config: t.config, concurrency: 1, log: t.app.log, queue: t.app.jobQueue });
      try {
        const token = await t.token((await t.user()).id);
        const submit = async () => {
          const res = await t.app.inject({ method: 'POST', url: '/api/v2/metrics/network/diameter', headers: { ...bearer(token), prefer: 'respond-async' }, payload: { networkJSON: baNetwork(20, 2) } });
          assert.equal(res.statusCode, 202, res.body);
          return (res.json() as Job).jobId;
        };
        const lost = await submit();
        const orphan = await submit();
        // `lost`: as if a third worker had claimed it and died (claims spent, lease passed)
        await t.database.db.updateTable('metric_jobs').set({ status: 'running', attempts: 3, worker_id: 'gone:1:abc', lease_until: Date.now() - 1 }).where('id', '=', lost).execute();
        // `orphan` (Redis only): its message vanishes, as with a Redis restarted without persistence
        if (qenv.NETLOOM_REDIS_PREFIX) await deleteRedisKeys(qenv.NETLOOM_REDIS_PREFIX);
        runner.start();
        const failed = await waitJob(t, token, lost);
        assert.equal(failed.status, 'failed');
        assert.equal(failed.error?.code, 'UNAVAILABLE');
        assert.equal(failed.error?.status, 503);
        assert.match(failed.error?.detail ?? '', /stopped \(killed or crashed\) 3 times/);
        const ran = await waitJob(t, token, orphan);
        assert.equal(ran.status, 'succeeded', JSON.stringify(ran.error));
      } finally {
        await runner.stop();
        await t.close();
        if (qenv.NETLOOM_REDIS_PREFIX) await deleteRedisKeys(qenv.NETLOOM_REDIS_PREFIX);
      }
    });
  });
}
