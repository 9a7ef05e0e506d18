// Issue 9 item 5 (docs/security.md, "Credentials"): failed authentication is limited per client address.
// 1,000 refused credentials (unknown bearer tokens, wrong Basic key pairs, a revoked organization
// credential) from one address get 429 with Retry-After well before the 1,000th; once refused, that
// address's valid credential is refused too (a guess cannot succeed meanwhile); another address's valid
// credential is never affected; the next hour the address is served again. Through the real HTTP stack
// on SQLite, PostgreSQL, and PostgreSQL with the counters in Redis (shared by two instances).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { testApp, bearer, basic, type TestApp } from './helpers/app.ts';
import { REDIS_URL, deleteRedisKeys, redisTestPrefix, storageModes } from './helpers/redis.ts';
import { buildApp } from '../src/app.ts';
import { revokeCredential } from '../src/domain/identity/credentials/listing.ts';
import { createToken } from '../src/domain/identity/credentials/tokens.ts';

for (const mode of await storageModes()) {
  describe(`failed authentication is limited per address (${mode.name})`, { skip: mode.skip }, () => {
    const prefix = redisTestPrefix();
    const clock = { now: Date.parse('2026-05-04T10:00:00.000Z') };
    let t: TestApp;
    before(async () => {
      t = await testApp(mode.dialect, mode.redis ? { REDIS_URL, NETLOOM_REDIS_PREFIX: prefix } : {}, { now: () => clock.now });
    });
    after(async () => {
      await t.close();
      if (mode.redis) {
        await deleteRedisKeys(prefix);
      }
    });

    test('1,000 invalid credentials from one address: 429 with Retry-After before the 1,000th; other addresses unaffected', async () => {
      assert.equal(t.config.limits.authFailuresPerIpPerHour, 300, 'the default limit');
      const owner = await t.user();
      const org = await t.org(owner.id);
      const good = await t.token(owner.id);
      const keys = await t.keys(owner.id);
      const orgCred = await createToken(t.database.db, { userId: owner.id, orgId: org.id, scopes: null });
      await revokeCredential(t.database.db, orgCred.credential.id);
      const revokedOrg = orgCred.token;

      const attacker = '198.51.100.23';
      const bad = (i: number) =>
        i % 3 === 0
          ? bearer(`nl_${randomBytes(24).toString('hex')}`)
          : i % 3 === 1
            ? basic({ publicKey: keys.publicKey, privateKey: `sk_${randomBytes(20).toString('hex')}` })
            : bearer(revokedOrg);
      let first429 = -1;
      for (let i = 0; i < 1000; i++) {
        const r = await t.app.inject({ method: 'GET', url: '/api/v2/networks', headers: bad(i), remoteAddress: attacker });
        if (r.statusCode === 429) {
          if (first429 < 0) {
            first429 = i;
            assert.equal(r.json().code, 'RATE_LIMITED');
            assert.ok(Number(r.headers['retry-after']) > 0 && Number(r.headers['retry-after']) <= 3600, String(r.headers['retry-after']));
          }
        } else {
          assert.equal(r.statusCode, 401, `attempt ${i + 1}: ${r.body}`);
          assert.equal(first429, -1, `attempt ${i + 1} was 401 after a 429`);
        }
      }
      assert.equal(first429, 300, 'the 301st failure is the first 429');
      // The refused address cannot authenticate even with a good credential until the window ends.
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/v2/networks', headers: bearer(good), remoteAddress: attacker })).statusCode, 429);
      // Another address: the valid credential works.
      const other = await t.app.inject({ method: 'GET', url: '/api/v2/networks', headers: bearer(good), remoteAddress: '203.0.113.9' });
      assert.equal(other.statusCode, 200, other.body);
      const otherBasic = await t.app.inject({ method: 'GET', url: '/api/v2/networks', headers: basic(keys), remoteAddress: '203.0.113.9' });
      assert.equal(otherBasic.statusCode, 200, otherBasic.body);
      // The next hour the address is served again.
      clock.now += 3_600_000;
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/v2/networks', headers: bearer(good), remoteAddress: attacker })).statusCode, 200);
    });

    test('successful authentications and anonymous requests never count', async () => {
      const limited = await testApp(mode.dialect, { NETLOOM_AUTH_FAILURES_PER_IP_PER_HOUR: '2', ...(mode.redis ? { REDIS_URL, NETLOOM_REDIS_PREFIX: `${prefix}s:` } : {}) }, { now: () => clock.now });
      try {
        const owner = await limited.user();
        const good = await limited.token(owner.id);
        for (let i = 0; i < 20; i++) assert.equal((await limited.app.inject({ method: 'GET', url: '/api/v2/networks', headers: bearer(good), remoteAddress: '10.4.0.1' })).statusCode, 200);
        for (let i = 0; i < 20; i++) assert.equal((await limited.app.inject({ method: 'GET', url: '/api/v2/networks', remoteAddress: '10.4.0.1' })).statusCode, 401);
        for (let i = 0; i < 2; i++) assert.equal((await limited.app.inject({ method: 'GET', url: '/api/v2/networks', headers: bearer('nl_wrong'), remoteAddress: '10.4.0.1' })).statusCode, 401);
        assert.equal((await limited.app.inject({ method: 'GET', url: '/api/v2/networks', headers: bearer('nl_wrong'), remoteAddress: '10.4.0.1' })).statusCode, 429);
      } finally {
        await limited.close();
      }
    });

    test('instances count together: failures on one make the address refused on the other', { skip: mode.dialect === 'sqlite' ? 'one process per SQLite file here' : false }, async () => {
      const env = { NETLOOM_AUTH_FAILURES_PER_IP_PER_HOUR: '4', ...(mode.redis ? { REDIS_URL, NETLOOM_REDIS_PREFIX: `${prefix}m:` } : {}) };
      const a = await testApp(mode.dialect, env, { now: () => clock.now });
      const b = await buildApp(a.config, { database: a.database, logger: false, now: () => clock.now });
      try {
        for (const app of [a.app, b, a.app, b]) assert.equal((await app.inject({ method: 'GET', url: '/api/v2/networks', headers: bearer('nl_wrong'), remoteAddress: '10.5.0.1' })).statusCode, 401);
        assert.equal((await b.inject({ method: 'GET', url: '/api/v2/networks', headers: bearer('nl_wrong'), remoteAddress: '10.5.0.1' })).statusCode, 429);
        assert.equal((await a.app.inject({ method: 'GET', url: '/api/v2/networks', headers: bearer('nl_wrong'), remoteAddress: '10.5.0.1' })).statusCode, 429);
      } finally {
        await b.close();
        await a.close();
      }
    });
  });
}
