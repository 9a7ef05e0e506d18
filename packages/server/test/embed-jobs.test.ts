// The embedded viewer's metric jobs (docs/embedding-api.md "Metric jobs"; issue 13 item 4) through real
// routes on SQLite and PostgreSQL: `Prefer: respond-async` on the viewer's metric call → 202 + Location,
// the job's values equal the synchronous call's and are never written to the stored network (View);
// one job at a time per session; Cancel; only the session's own jobs (another session, the organization's
// API credential and an API job id are all 404). PostgreSQL runs with the Redis queue (BullMQ), SQLite
// with the table queue.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { DIALECTS, type Dialect } from './helpers/app.ts';
import { embedFixture, openSession, accessToken, viewer, type EmbedFixture } from './helpers/embed.ts';
import { fixture } from './helpers/fixture.ts';
import { deleteRedisKeys, queueEnv } from './helpers/redis.ts';

function vcall(app: FastifyInstance, token: string, method: 'GET' | 'POST' | 'DELETE', path: string, opts: { payload?: unknown; async?: boolean } = {}) {
  return app.inject({
    method,
    url: `/api/v2/embed/viewer/${path}`,
    headers: { authorization: `Bearer ${token}`, ...(opts.async ? { prefer: 'respond-async' } : {}) },
    ...(opts.payload !== undefined ? { payload: opts.payload as object } : {}),
  });
}

async function finished(app: FastifyInstance, token: string, jobId: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 300; i++) {
    const r = await vcall(app, token, 'GET', `jobs/${jobId}`);
    assert.equal(r.statusCode, 200, r.body);
    const job = r.json();
    if (!['queued', 'running'].includes(job.status)) return job;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`job ${jobId} did not finish`);
}

/** embedFixture on the dialect's job queue (PostgreSQL: BullMQ on Redis under a prefix of its own, whose keys go at close). */
async function queuedEmbedFixture(dialect: Dialect, env: Record<string, string>): Promise<EmbedFixture> {
  const qenv = queueEnv(dialect);
  const f = await embedFixture(dialect, { ...env, ...qenv });
  return {
    ...f,
    async close() {
      await f.close();
      if (qenv.NETLOOM_REDIS_PREFIX) await deleteRedisKeys(qenv.NETLOOM_REDIS_PREFIX);
    },
  };
}

for (const dialect of DIALECTS) {
  describe(`embedded viewer: metric jobs (${dialect})`, () => {
    const f = fixture(() => queuedEmbedFixture(dialect, { NETLOOM_JOB_POLL_MS: '50' }));

    async function token(permission: 'View' | 'Edit' = 'View'): Promise<string> {
      const s = await openSession(f, { permission });
      return accessToken(f, s.sessionId, s.launchToken);
    }

    test('a run as a job: 202 + Location, progress to 1, the values of the synchronous call, nothing written to the network', async () => {
      assert.equal(f.app.jobQueue === null, dialect === 'sqlite', 'PostgreSQL runs on BullMQ, SQLite on the table queue');
      const at = await token('View');
      const uuid = (await f.host('GET', `/api/v2/networks/${f.networkId}`)).json().networkUUID;
      const r = await vcall(f.app, at, 'POST', 'metrics/nodes/pageRank', { payload: {}, async: true });
      assert.equal(r.statusCode, 202, r.body);
      const job = r.json();
      assert.equal(r.headers.location, `/api/v2/embed/viewer/jobs/${job.jobId}`);
      assert.equal(r.headers['preference-applied'], 'respond-async');
      assert.equal(job.metric, 'pageRank');
      assert.ok(['queued', 'running'].includes(job.status), job.status);
      assert.equal('shards' in job || 'networkId' in job, false, 'no API-only fields');
      const done = await finished(f.app, at, job.jobId);
      assert.equal(done.status, 'succeeded', JSON.stringify(done));
      assert.equal(done.progress, 1);
      assert.ok(done.finishedAt);
      const sync = await viewer(f.app, at, 'POST', 'metrics/nodes/pageRank', {});
      assert.equal(sync.statusCode, 200, sync.body);
      assert.deepEqual((done.result as { values: unknown }).values, sync.json().values);
      assert.equal((await f.host('GET', `/api/v2/networks/${f.networkId}`)).json().networkUUID, uuid, 'the stored network is unchanged');
      const network = await vcall(f.app, at, 'POST', 'metrics/network/diameter', { payload: {}, async: true });
      assert.equal(network.statusCode, 202, network.body);
      const nd = await finished(f.app, at, network.json().jobId);
      assert.equal(typeof nd.result, 'number');
    });

    test("only the session's own jobs: another session, the organization's credential and an API job id are 404", async () => {
      const mine = await token();
      const other = await token();
      const r = await vcall(f.app, mine, 'POST', 'metrics/nodes/closenessCentrality', { payload: {}, async: true });
      assert.equal(r.statusCode, 202, r.body);
      const id = r.json().jobId as string;
      for (const method of ['GET', 'DELETE'] as const) {
        const x = await vcall(f.app, other, method, `jobs/${id}`);
        assert.equal(x.statusCode, 404, `${method}: ${x.body}`);
        assert.equal(x.json().code, 'NOT_FOUND');
      }
      assert.equal((await f.host('GET', `/api/v2/jobs/${id}`)).statusCode, 404, 'not an API job of the organization');
      assert.equal((await f.host('GET', '/api/v2/jobs')).json().jobs.some((j: { jobId: string }) => j.jobId === id), false);
      const apiJob = await f.app.inject({ method: 'POST', url: '/api/v2/metrics/nodes/pageRank', headers: { authorization: `Bearer ${f.orgToken}`, prefer: 'respond-async' }, payload: { networkId: f.networkId } });
      assert.equal(apiJob.statusCode, 202, apiJob.body);
      for (const method of ['GET', 'DELETE'] as const) assert.equal((await vcall(f.app, mine, method, `jobs/${apiJob.json().jobId}`)).statusCode, 404);
      assert.equal((await vcall(f.app, mine, 'GET', `jobs/${id}`)).statusCode, 200, 'its own session still reads it');
      assert.equal((await vcall(f.app, mine, 'GET', 'jobs/x')).statusCode, 404);
      assert.equal((await f.app.inject({ method: 'GET', url: `/api/v2/embed/viewer/jobs/${id}` })).statusCode, 401, 'no access token');
      await finished(f.app, mine, id);
    });

    test('bad parameters and unknown metrics are refused before a job exists', async () => {
      const at = await token();
      const bad = await vcall(f.app, at, 'POST', 'metrics/nodes/pageRank', { payload: { alpha: 7 }, async: true });
      assert.equal(bad.statusCode, 400, bad.body);
      const unknown = await vcall(f.app, at, 'POST', 'metrics/nodes/nope', { payload: {}, async: true });
      assert.equal(unknown.statusCode, 404, unknown.body);
      const source = await vcall(f.app, at, 'POST', 'metrics/nodes/pageRank', { payload: { networkId: f.networkId }, async: true });
      assert.equal(source.statusCode, 400, source.body);
    });
  });

  describe(`embedded viewer: metric jobs without a worker (${dialect})`, () => {
    const f = fixture(() => queuedEmbedFixture(dialect, { NETLOOM_WORKERS: '0' }));

    test('one job at a time per session (429); Cancel → cancelled, and the session may start another', async () => {
      const s = await openSession(f, { permission: 'View' });
      const at = await accessToken(f, s.sessionId, s.launchToken);
      const first = await vcall(f.app, at, 'POST', 'metrics/nodes/betweennessCentrality', { payload: {}, async: true });
      assert.equal(first.statusCode, 202, first.body);
      assert.equal(first.json().status, 'queued');
      const second = await vcall(f.app, at, 'POST', 'metrics/nodes/pageRank', { payload: {}, async: true });
      assert.equal(second.statusCode, 429, second.body);
      assert.equal(second.json().code, 'RATE_LIMITED');
      assert.ok(second.headers['retry-after']);
      const cancelled = await vcall(f.app, at, 'DELETE', `jobs/${first.json().jobId}`);
      assert.equal(cancelled.statusCode, 200, cancelled.body);
      assert.equal(cancelled.json().status, 'cancelled');
      assert.equal((await vcall(f.app, at, 'GET', `jobs/${first.json().jobId}`)).json().status, 'cancelled');
      const again = await vcall(f.app, at, 'POST', 'metrics/nodes/pageRank', { payload: {}, async: true });
      assert.equal(again.statusCode, 202, again.body);
      const other = await openSession(f, { permission: 'View' });
      const ot = await accessToken(f, other.sessionId, other.launchToken);
      assert.equal((await vcall(f.app, ot, 'POST', 'metrics/nodes/pageRank', { payload: {}, async: true })).statusCode, 202, 'another session is not held up');
    });
  });
}
