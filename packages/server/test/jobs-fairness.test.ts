// Job admission and fairness (docs/jobs.md "Fairness", docs/security.md "Jobs"; issue 19 finding 6):
// - the per-tenant cap (NETLOOM_JOB_MAX_ACTIVE) holds under 300 submissions sent at once over HTTP —
//   exactly the cap accepted, the rest 429 with Retry-After (counted and inserted atomically);
// - the next job is picked round-robin between tenants: a second tenant's job starts right after the
//   first tenant's first, not behind its 150 queued jobs.
// Three set-ups: SQLite and PostgreSQL with the table queue, PostgreSQL with BullMQ on Redis.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, bearer, DIALECTS, type Dialect, type TestApp } from './helpers/app.ts';
import { postgresUnavailable } from './helpers/db.ts';
import { deleteRedisKeys, queueEnv, redisUnavailable } from './helpers/redis.ts';
import { JobRunner } from '../src/domain/metrics/job-runner.ts';
import { baNetwork } from './helpers/graphs.ts';

const pgSkip = DIALECTS.includes('postgres') ? await postgresUnavailable() : null;
const redisSkip = pgSkip ?? (await redisUnavailable()) ?? null;
const SETUPS: { name: string; dialect: Dialect; redis: boolean; skip: string | null }[] = [
  ...(DIALECTS.includes('sqlite') ? [{ name: 'SQLite, table queue', dialect: 'sqlite' as const, redis: false, skip: null }] : []),
  ...(DIALECTS.includes('postgres') ? [{ name: 'PostgreSQL, table queue', dialect: 'postgres' as const, redis: false, skip: pgSkip }, { name: 'PostgreSQL + Redis (BullMQ)', dialect: 'postgres' as const, redis: true, skip: redisSkip || null }] : []),
];

for (const setup of SETUPS) {
  describe(`job admission and fairness (${setup.name})`, { skip: setup.skip ?? false }, () => {
    const qenv = setup.redis ? queueEnv('postgres') : {};
    let t: TestApp;
    let base: string;
    before(async () => {
      // no job workers in the API process: the jobs stay queued while they are counted, and the test
      // starts a worker itself once everything is queued
      t = await testApp(setup.dialect, { NETLOOM_WORKERS: '0', NETLOOM_JOB_POLL_MS: '20', NETLOOM_METRIC_WORKERS: '1', NETLOOM_JOB_MAX_ACTIVE: '100', ...qenv });
      assert.equal(t.app.jobQueue !== null, setup.redis);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    });
    after(async () => {
      await t.close();
      if (qenv.NETLOOM_REDIS_PREFIX) await deleteRedisKeys(qenv.NETLOOM_REDIS_PREFIX);
    });

    const submit = (token: string, i: number) =>
      fetch(`${base}/api/v2/metrics/network/diameter`, {
        method: 'POST',
        headers: { ...bearer(token), prefer: 'respond-async', 'content-type': 'application/json' },
        body: JSON.stringify({ networkJSON: baNetwork(12 + (i % 5), 2) }),
      });

    test('300 submissions sent at once: exactly NETLOOM_JOB_MAX_ACTIVE (100) accepted, the rest 429 with Retry-After', async () => {
      const user = await t.user();
      const token = await t.token(user.id);
      const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => submit(token, i)));
      const statuses = answers.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 202).length, 100, JSON.stringify(statuses.reduce<Record<number, number>>((m, s) => ((m[s] = (m[s] ?? 0) + 1), m), {})));
      assert.equal(statuses.filter((s) => s === 429).length, 200);
      const refused = answers.find((r) => r.status === 429) as Response;
      assert.equal(refused.headers.get('retry-after'), '30');
      assert.equal(((await refused.json()) as { code: string }).code, 'RATE_LIMITED');
      await Promise.all(answers.map((r) => (r.bodyUsed ? undefined : r.body?.cancel())));
      const { n } = await t.database.db.selectFrom('metric_jobs').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', user.id).executeTakeFirstOrThrow();
      assert.equal(Number(n), 100, 'rows stored');
      // cancelling frees places: one more is accepted, the next is refused again
      const list = (await (await fetch(`${base}/api/v2/jobs?limit=1`, { headers: bearer(token) })).json()) as { jobs: { jobId: string }[] };
      assert.equal((await fetch(`${base}/api/v2/jobs/${list.jobs[0].jobId}`, { method: 'DELETE', headers: bearer(token) })).status, 200);
      assert.equal((await submit(token, 0)).status, 202);
      assert.equal((await submit(token, 0)).status, 429);
      await t.database.db.deleteFrom('metric_jobs').where('user_id', '=', user.id).execute();
    });

    test('round-robin between tenants: the second tenant\'s job starts second, not behind the first tenant\'s 99 others', async () => {
      const a = await t.user();
      const b = await t.user();
      const tokA = await t.token(a.id);
      const tokB = await t.token(b.id);
      const idsA: string[] = [];
      for (let i = 0; i < 99; i++) {
        const r = await submit(tokA, i);
        assert.equal(r.status, 202, await r.clone().text());
        idsA.push(((await r.json()) as { jobId: string }).jobId);
      }
      const rb = await submit(tokB, 0);
      assert.equal(rb.status, 202);
      const idB = ((await rb.json()) as { jobId: string }).jobId;
      // one worker, one job at a time (as `netloom worker` runs it)
      const runner = new JobRunner({ db: t.database.db, pool: t.app.metricPool, config: t.config, concurrency: 1, log: t.app.log, queue: t.app.jobQueue });
      runner.start();
      try {
        const deadline = Date.now() + 120_000;
        for (;;) {
          const { n } = await t.database.db.selectFrom('metric_jobs').select((eb) => eb.fn.countAll<number>().as('n')).where('id', 'in', [...idsA, idB]).where('status', '=', 'succeeded').executeTakeFirstOrThrow();
          if (Number(n) === 100) break;
          assert.ok(Date.now() < deadline, `only ${n} of 100 jobs finished`);
          await new Promise((r) => setTimeout(r, 100));
        }
      } finally {
        await runner.stop();
      }
      const rows = await t.database.db.selectFrom('metric_jobs').select(['id', 'started_at']).where('id', 'in', [...idsA, idB]).execute();
      const order = rows.sort((x, y) => String(x.started_at).localeCompare(String(y.started_at)) || x.id.localeCompare(y.id)).map((r) => r.id);
      const place = order.indexOf(idB) + 1;
      // first-in-first-out would start it 100th; round-robin starts it right after the first tenant's first
      assert.ok(place <= 2, `the second tenant's job started ${place}th of 100`);
      assert.equal(order[0], idsA[0], 'the first tenant\'s oldest job went first');
    });
  });
}
