// Two server instances (two buildApp instances, each with its own database pool) on one PostgreSQL
// schema: with Redis (a unique key prefix per run; only this run's keys are deleted afterwards, nothing
// is flushed) and without it (database mode). A launch token redeemed on one is refused on the other,
// concurrent redemptions have exactly one winner, an organization's rate limit is shared, and a
// revocation on one is seen by the other at once.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { openDatabase, type DatabaseHandle } from '../src/store/db.ts';
import { postgresUnavailable } from './helpers/db.ts';
import { REDIS_URL, deleteRedisKeys, redisTestPrefix, redisUnavailable } from './helpers/redis.ts';
import { embedFixture, openSession, exchange, viewer, clock, ORIGIN, type EmbedFixture } from './helpers/embed.ts';


const pgSkip = (await postgresUnavailable()) ?? false;
const redisSkip = pgSkip || (await redisUnavailable());

for (const mode of ['redis', 'database'] as const) {
  describe(`embedding: two instances on one PostgreSQL (${mode})`, { skip: mode === 'redis' ? redisSkip : pgSkip }, () => {
    const prefix = redisTestPrefix();
    const c = clock();
    let a: EmbedFixture;
    let bDb: DatabaseHandle;
    let b: FastifyInstance;
    before(async () => {
      a = await embedFixture('postgres', mode === 'redis' ? { REDIS_URL, NETLOOM_REDIS_PREFIX: prefix } : {}, { clock: c });
      bDb = await openDatabase(a.t.config);
      b = await buildApp(a.t.config, { database: bDb, logger: false, now: () => c.now });
      await b.ready();
    });
    after(async () => {
      await b?.close();
      await bDb?.close();
      if (mode === 'redis') {
        await deleteRedisKeys(prefix);
      }
      await a?.t.close();
    });

    test('a launch token redeemed on one instance is refused on the other; concurrent redemptions have one winner', async () => {
      const s = await openSession(a);
      const onA = await exchange(a.app, s.sessionId, s.launchToken);
      assert.equal(onA.statusCode, 200, onA.body);
      const onB = await exchange(b, s.sessionId, s.launchToken);
      assert.equal(onB.statusCode, 401, onB.body);
      // The access token from A works on B (shared state).
      assert.equal((await viewer(b, onA.json().accessToken, 'GET', 'session')).statusCode, 200);
      for (let round = 0; round < 5; round++) {
        const lt = (await a.host('POST', `/api/v2/embed/sessions/${s.sessionId}/launch-tokens`)).json().launchToken;
        const results = await Promise.all([exchange(a.app, s.sessionId, lt, '10.3.0.1'), exchange(b, s.sessionId, lt, '10.3.0.2'), exchange(a.app, s.sessionId, lt, '10.3.0.3'), exchange(b, s.sessionId, lt, '10.3.0.4')]);
        assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 401, 401, 401], `round ${round}`);
      }
    });

    test("an organization's rate limit is shared by the instances", async () => {
      const r = await a.app.inject({ method: 'PUT', url: `/api/v2/operator/organizations/${a.orgId}/embedding`, headers: { authorization: `Bearer ${'op_test_0123456789abcdefghijklmnopqrstuvwxyz'}` }, payload: { limits: { provisioningPerHour: 4 } } });
      assert.equal(r.statusCode, 200, r.body);
      c.advance(3_600_000); // a fresh hourly window
      const put = (app: FastifyInstance, id: string) => app.inject({ method: 'PUT', url: `/api/v2/embed/users/${id}`, headers: { authorization: `Bearer ${a.orgToken}` }, payload: { displayName: id } });
      assert.equal((await put(a.app, 'r1')).statusCode, 201);
      assert.equal((await put(b, 'r2')).statusCode, 201);
      assert.equal((await put(a.app, 'r3')).statusCode, 201);
      assert.equal((await put(b, 'r4')).statusCode, 201);
      const over = await put(b, 'r5');
      assert.equal(over.statusCode, 429, over.body);
      assert.equal((await put(a.app, 'r5')).statusCode, 429);
    });

    test('revocation and session activity are seen by both instances', async () => {
      await a.app.inject({ method: 'PUT', url: `/api/v2/operator/organizations/${a.orgId}/embedding`, headers: { authorization: 'Bearer op_test_0123456789abcdefghijklmnopqrstuvwxyz' }, payload: { limits: { provisioningPerHour: null } } });
      c.advance(3_600_000);
      const s = await openSession(a, { maxMinutes: 720 });
      const at = (await exchange(a.app, s.sessionId, s.launchToken)).json().accessToken;
      c.advance(14 * 60_000);
      assert.equal((await viewer(a.app, at, 'POST', 'heartbeat')).statusCode, 200); // activity recorded via A
      c.advance(29 * 60_000); // 43 min after creation, 29 min after the heartbeat
      const page = await b.inject({ method: 'GET', url: `/embed/${s.sessionId}` });
      assert.match(String(page.headers['content-security-policy']), new RegExp(`frame-ancestors ${ORIGIN.replaceAll('.', '\\.')}`), 'B sees the activity recorded on A');
      const lt = await b.inject({ method: 'POST', url: `/api/v2/embed/sessions/${s.sessionId}/launch-tokens`, headers: { authorization: `Bearer ${a.orgToken}` } });
      assert.equal(lt.statusCode, 200, lt.body);
      const at2 = (await exchange(a.app, s.sessionId, lt.json().launchToken)).json().accessToken;
      await b.inject({ method: 'DELETE', url: `/api/v2/embed/sessions/${s.sessionId}`, headers: { authorization: `Bearer ${a.orgToken}` } });
      assert.equal((await viewer(a.app, at2, 'GET', 'session')).statusCode, 410);
    });
  });
}
