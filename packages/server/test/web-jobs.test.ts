// The web app's metric jobs through the real HTTP stack on SQLite and PostgreSQL (docs/web-app.md
// "Metric jobs"): run a metric on a network as a job (202), see it in the list with its network's name
// and its progress, its values written when it succeeds; cancel; another person's job is 404 and not
// listed; a View share cannot run a node metric (403); CSRF applies. PostgreSQL runs with the Redis
// queue (BullMQ), SQLite with the table queue.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, testApp, bearer, smallNetwork, type TestApp } from './helpers/app.ts';
import { signedInClient } from './helpers/web.ts';
import { deleteRedisKeys, queueEnv } from './helpers/redis.ts';

for (const dialect of DIALECTS) {
  describe(`web metric jobs (${dialect})`, () => {
    let t: TestApp;
    let idle: TestApp;
    // each app its own Redis prefix (their databases differ)
    const qenv = queueEnv(dialect);
    const qidle = queueEnv(dialect);
    before(async () => {
      t = await testApp(dialect, { NETLOOM_JOB_POLL_MS: '50', ...qenv });
      idle = await testApp(dialect, { NETLOOM_WORKERS: '0', ...qidle });
    });
    after(async () => {
      await t.close();
      await idle.close();
      for (const q of [qenv, qidle]) if (q.NETLOOM_REDIS_PREFIX) await deleteRedisKeys(q.NETLOOM_REDIS_PREFIX);
    });

    const signedIn = (app: TestApp, email: string) => signedInClient(app.app, email);
    async function network(app: TestApp, token: string, name: string): Promise<string> {
      const res = await app.app.inject({ method: 'POST', url: '/api/v2/networks', headers: bearer(token), payload: { name, networkJSON: smallNetwork() } });
      assert.equal(res.statusCode, 200, res.body);
      return res.json()._id as string;
    }

    test('run on a network → 202; listed with the network name; succeeds and writes the values; 404 and unlisted for someone else', async () => {
      const me = await t.user({ plan: 'enterprise' });
      const other = await t.user({ plan: 'enterprise' });
      const id = await network(t, await t.token(me.id), 'Advice');
      const c = await signedIn(t, me.email);
      const started = await c.request('POST', `/app/api/networks/${id}/metrics/pageRank`, { body: {} });
      assert.equal(started.statusCode, 202, started.body);
      const job = started.json();
      assert.equal(job.metric, 'pageRank');
      assert.equal(job.networkId, id);
      assert.equal(job.networkName, 'Advice');
      let listed: Record<string, unknown> | undefined;
      for (let i = 0; i < 200; i++) {
        const list = await c.request('GET', '/app/api/jobs');
        assert.equal(list.statusCode, 200, list.body);
        listed = list.json().jobs.find((j: { jobId: string }) => j.jobId === job.jobId);
        if (listed && listed.status === 'succeeded') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(listed?.status, 'succeeded');
      assert.equal(listed?.progress, 1);
      assert.equal(listed?.networkName, 'Advice');
      assert.equal('result' in (listed ?? {}), false, 'the list carries no results');
      const stored = await t.app.inject({ method: 'GET', url: `/api/v2/networks/${id}`, headers: bearer(await t.token(me.id)) });
      assert.ok(stored.json().networkJSON.nodes.every((n: { attributes?: Record<string, unknown> }) => typeof n.attributes?.['PageRank'] === 'number'), 'values written on the nodes');
      const oc = await signedIn(t, other.email);
      assert.equal((await oc.request('GET', '/app/api/jobs')).json().jobs.length, 0);
      assert.equal((await oc.request('DELETE', `/app/api/jobs/${job.jobId}`)).statusCode, 404);
      assert.equal((await oc.request('POST', `/app/api/networks/${id}/metrics/pageRank`, { body: {} })).statusCode, 404, "someone else's network");
      assert.equal((await c.request('POST', `/app/api/networks/${id}/metrics/nope`, { body: {} })).statusCode, 404);
      assert.equal((await c.request('POST', `/app/api/networks/${id}/metrics/pageRank`, { body: { alpha: 5 } })).statusCode, 400);
    });

    test('cancel a queued job → cancelled; a View share cannot run a node metric; CSRF applies', async () => {
      const me = await idle.user({ plan: 'enterprise' });
      const viewer = await idle.user({ plan: 'enterprise' });
      const id = await network(idle, await idle.token(me.id), 'Team');
      const c = await signedIn(idle, me.email);
      assert.equal((await c.request('PUT', `/app/api/networks/${id}/shares`, { body: { email: viewer.email, permission: 'View' } })).statusCode, 200);
      const started = await c.request('POST', `/app/api/networks/${id}/metrics/betweennessCentrality`, { body: {} });
      assert.equal(started.statusCode, 202, started.body);
      assert.equal(started.json().status, 'queued');
      const noCsrf = await c.request('DELETE', `/app/api/jobs/${started.json().jobId}`, { csrf: false });
      assert.equal(noCsrf.statusCode, 403, noCsrf.body);
      const cancelled = await c.request('DELETE', `/app/api/jobs/${started.json().jobId}`);
      assert.equal(cancelled.statusCode, 200, cancelled.body);
      assert.equal(cancelled.json().status, 'cancelled');
      assert.equal(cancelled.json().networkName, 'Team');
      assert.equal((await c.request('GET', '/app/api/jobs')).json().jobs[0].status, 'cancelled');
      const vc = await signedIn(idle, viewer.email);
      assert.equal((await vc.request('POST', `/app/api/networks/${id}/metrics/pageRank`, { body: {} })).statusCode, 403, 'node metrics write: edit access');
      assert.equal((await vc.request('POST', `/app/api/networks/${id}/metrics/diameter`, { body: {} })).statusCode, 202, 'a network metric needs only read');
      assert.equal((await c.request('GET', '/app/api/jobs?limit=0')).statusCode, 400);
    });
  });
}
