/**
 * Loose ends of the shared state (docs/operations.md): /readyz checks Redis when REDIS_URL is set; every
 * Redis key the service writes starts with NETLOOM_REDIS_PREFIX; without Redis, expired embed tokens,
 * leases and rate-limit windows are deleted from the database by the housekeeping pass.
 */
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { DIALECTS, testApp } from './helpers/app.ts';
import { embedFixture, openSession, accessToken, viewer, clock, exchange } from './helpers/embed.ts';
import { REDIS_URL, redisTestPrefix, redisUnavailable, scanKeys } from './helpers/redis.ts';
import { pruneExpired } from '../src/domain/housekeeping.ts';

const redisSkip = await redisUnavailable();

describe('/readyz and Redis', () => {
  test('a configured Redis that does not answer makes /readyz 503 UNAVAILABLE (the database still answers)', async () => {
    // Port 1 on loopback: connection refused at once.
    const t = await testApp('sqlite', { REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const r = await t.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(r.statusCode, 503, r.body);
      assert.equal(r.json().code, 'UNAVAILABLE');
      assert.match(r.json().detail, /redis/);
      // liveness is not readiness
      assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
    } finally {
      await t.close();
    }
  });

  test('without REDIS_URL /readyz checks the database only', async () => {
    const t = await testApp('sqlite');
    try {
      const r = await t.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(r.statusCode, 200, r.body);
      assert.deepEqual(r.json(), { status: 'ready', database: 'sqlite' });
    } finally {
      await t.close();
    }
  });

  test('a reachable Redis: /readyz 200 and says so', { skip: redisSkip }, async () => {
    const t = await testApp('sqlite', { REDIS_URL, NETLOOM_REDIS_PREFIX: `netloom-test:${randomBytes(4).toString('hex')}:` });
    try {
      let r = await t.app.inject({ method: 'GET', url: '/readyz' });
      for (let i = 0; i < 50 && r.statusCode === 503; i++) {
        await new Promise((res) => setTimeout(res, 20)); // the connection is still being opened
        r = await t.app.inject({ method: 'GET', url: '/readyz' });
      }
      assert.equal(r.statusCode, 200, r.body);
      assert.deepEqual(r.json(), { status: 'ready', database: 'sqlite', redis: 'ready' });
    } finally {
      await t.close();
    }
  });
});

describe('every Redis key starts with NETLOOM_REDIS_PREFIX', { skip: redisSkip }, () => {
  const prefix = redisTestPrefix();
  let r: Redis | undefined;
  after(async () => {
    if (!r) return;
    const keys = await scanKeys(r, `${prefix}*`);
    if (keys.length) await r.del(...keys);
    r.disconnect();
  });

  test('request rate limits and the embedding state (launch and access tokens, activity, embedding rate limits)', async () => {
    r = new Redis(REDIS_URL);
    const f = await embedFixture('sqlite', { REDIS_URL, NETLOOM_REDIS_PREFIX: prefix });
    try {
      const ip = `10.${1 + (process.pid % 200)}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
      const s = await openSession(f);
      const ex = await exchange(f.app, s.sessionId, s.launchToken, ip);
      assert.equal(ex.statusCode, 200, ex.body);
      const at = ex.json().accessToken as string;
      assert.equal((await viewer(f.app, at, 'POST', 'heartbeat')).statusCode, 200);
      assert.equal((await viewer(f.app, at, 'POST', 'metrics/nodes/inDegree', {})).statusCode, 200);
      // a second launch token stays unused (its key lives until it expires)
      assert.equal((await f.host('POST', `/api/v2/embed/sessions/${s.sessionId}/launch-tokens`)).statusCode, 200);
      const ours = await scanKeys(r, `${prefix}*`);
      const kinds = new Set(ours.map((k) => k.slice(prefix.length).split(':').slice(0, 2).join(':')));
      for (const kind of ['rl:cred', 'embed:lt', 'embed:at', 'embed:act', 'embed:rl']) assert.ok(kinds.has(kind), `no ${kind} key under the prefix: ${[...kinds].join(', ')}`);
      // nothing of this test outside the prefix
      const credentialIds = (await f.t.database.db.selectFrom('credentials').select('id').execute()).map((c) => c.id);
      const markers = [s.sessionId, f.orgId, ip, ...credentialIds];
      const strays = (await scanKeys(r, '*')).filter((k) => !k.startsWith(prefix) && markers.some((m) => k.includes(m)));
      assert.deepEqual(strays, []);
    } finally {
      await f.t.close();
    }
  });
});

for (const dialect of DIALECTS) {
  describe(`housekeeping without Redis (${dialect})`, () => {
    test('expired embed tokens, leases and ended rate-limit windows are deleted; live ones are kept', async () => {
      const c = clock();
      const f = await embedFixture(dialect, {}, { clock: c });
      try {
        const db = f.t.database.db;
        const s = await openSession(f);
        const at = await accessToken(f, s.sessionId, s.launchToken);
        await db.insertInto('embed_locks').values([
          { key: 'test:expired', expires_at: new Date(c.now - 1).toISOString() },
          { key: 'test:held', expires_at: new Date(c.now + 3_600_000).toISOString() },
        ]).execute();
        const tokens = async () => Number((await db.selectFrom('embed_tokens').select((eb) => eb.fn.countAll<number>().as('n')).where('session_id', '=', s.sessionId).executeTakeFirstOrThrow()).n);
        const windows = async () => Number((await db.selectFrom('rate_limits').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
        assert.equal(await tokens(), 2); // the used launch token and the access token
        assert.ok((await windows()) > 0);

        // Now: nothing live is deleted (the used launch token has not expired yet either).
        const first = await pruneExpired(db, c.now, 3_600_000);
        assert.deepEqual({ tokens: first.tokens, locks: first.locks, windows: first.windows }, { tokens: 0, locks: 1, windows: 0 });
        assert.equal(await tokens(), 2);
        assert.equal((await viewer(f.app, at, 'GET', 'session')).statusCode, 200);

        // 16 minutes later: the launch token (60 s) and the access token (15 min) have expired.
        c.advance(16 * 60_000);
        const second = await pruneExpired(db, c.now, 3_600_000);
        assert.equal(second.tokens, 2);
        assert.equal(await tokens(), 0);
        assert.deepEqual((await db.selectFrom('embed_locks').select('key').execute()).map((l) => l.key), ['test:held']);
        // Two hours later every hourly window has ended.
        c.advance(2 * 3_600_000);
        await pruneExpired(db, c.now, 3_600_000);
        assert.equal(await windows(), 0);
      } finally {
        await f.t.close();
      }
    });

    test('the app runs the pass periodically (NETLOOM_HOUSEKEEPING_MS)', async () => {
      const c = clock();
      const f = await embedFixture(dialect, { NETLOOM_HOUSEKEEPING_MS: '20' }, { clock: c });
      try {
        const db = f.t.database.db;
        const s = await openSession(f);
        await accessToken(f, s.sessionId, s.launchToken);
        const count = async () => Number((await db.selectFrom('embed_tokens').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
        assert.ok((await count()) >= 2);
        c.advance(16 * 60_000);
        // waits for the timer to fire (every 20 ms); a never-scheduled pass leaves the rows forever
        for (let i = 0; i < 250 && (await count()) > 0; i++) await new Promise((res) => setTimeout(res, 20));
        assert.equal(await count(), 0);
      } finally {
        await f.t.close();
      }
    });
  });
}
