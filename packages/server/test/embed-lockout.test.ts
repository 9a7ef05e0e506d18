// Issue 9 items 3 and 4 (docs/security.md, "Launch tokens" and "Client addresses"): whoever knows a
// session id cannot lock its viewer out with wrong launch tokens, and behind a trusted proxy every
// per-IP limit keys on the client's address from X-Forwarded-For, not on the proxy's. Through the real
// HTTP stack on SQLite, PostgreSQL, and PostgreSQL with Redis holding the counters.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { REDIS_URL, deleteRedisKeys, redisTestPrefix, storageModes } from './helpers/redis.ts';
import { embedFixture, openSession, exchange, type EmbedFixture } from './helpers/embed.ts';

const wrongToken = (i: number) => 'nll_' + randomBytes(32).toString('base64url').replace(/[-_]/g, 'x').slice(0, 39) + String(i).padStart(4, '0');

for (const mode of await storageModes()) {
  describe(`launch-token lockout and client addresses (${mode.name})`, { skip: mode.skip }, () => {
    const prefix = redisTestPrefix();
    const redisEnv: Record<string, string> = mode.redis ? { REDIS_URL, NETLOOM_REDIS_PREFIX: prefix } : {};
    let f: EmbedFixture;
    before(async () => {
      f = await embedFixture(mode.dialect, redisEnv, { seats: 100 });
    });
    after(async () => {
      await f.t.close();
      if (mode.redis) {
        await deleteRedisKeys(prefix);
      }
    });

    test('1,000 wrong launch tokens for a session from other addresses: the real viewer’s fresh token is still redeemed', async () => {
      const s = await openSession(f, { maxMinutes: 720 });
      // 1,000 wrong tokens from 10 addresses, 10 at a time; each address is capped (60 per session per hour).
      const codes: Record<number, number> = {};
      for (let batch = 0; batch < 100; batch++) {
        const rs = await Promise.all(Array.from({ length: 10 }, (_, j) => exchange(f.app, s.sessionId, wrongToken(batch * 10 + j), `203.0.113.${j}`)));
        for (const r of rs) codes[r.statusCode] = (codes[r.statusCode] ?? 0) + 1;
      }
      assert.deepEqual(Object.keys(codes).sort(), ['401', '429'], JSON.stringify(codes));
      assert.equal(codes[401], 10 * 60, 'each address gets exactly 60 attempts at this session');
      const lt = await f.host('POST', `/api/v2/embed/sessions/${s.sessionId}/launch-tokens`);
      assert.equal(lt.statusCode, 200, lt.body);
      const mine = await exchange(f.app, s.sessionId, lt.json().launchToken, '198.51.100.7');
      assert.equal(mine.statusCode, 200, mine.body);
      assert.match(mine.json().accessToken, /^nla_/);
    });

    test('wrong tokens spread over many sessions are capped per address; successes never count against it', async () => {
      const limited = await embedFixture(mode.dialect, { ...redisEnv, NETLOOM_REDIS_PREFIX: `${prefix}b:`, NETLOOM_EMBED_REDEMPTIONS_PER_IP_PER_HOUR: '5' });
      try {
        const mine = await openSession(limited);
        const other = await openSession(limited);
        // Successes from an address never count: six good redemptions from it, more than the ceiling of 5.
        for (let i = 0; i < 6; i++) {
          const lt = i === 0 ? mine.launchToken : (await limited.host('POST', `/api/v2/embed/sessions/${mine.sessionId}/launch-tokens`)).json().launchToken;
          assert.equal((await exchange(limited.app, mine.sessionId, lt, '10.7.0.1')).statusCode, 200, `good redemption ${i + 1}`);
        }
        // Five failures from another address, over two sessions and an unknown one: then it is refused.
        for (const sid of [other.sessionId, other.sessionId, mine.sessionId, '0123456789abcdef01234567', 'not-a-session']) {
          assert.equal((await exchange(limited.app, sid, wrongToken(1), '10.7.0.2')).statusCode, 401);
        }
        const refused = await exchange(limited.app, other.sessionId, other.launchToken, '10.7.0.2');
        assert.equal(refused.statusCode, 429, refused.body);
        assert.ok(Number(refused.headers['retry-after']) > 0);
        // The viewer at its own address is not affected.
        assert.equal((await exchange(limited.app, other.sessionId, other.launchToken, '10.7.0.3')).statusCode, 200);
      } finally {
        await limited.t.close();
      }
    });

    test('NETLOOM_TRUSTED_PROXIES: behind the proxy each client is limited on its own address; without it they share the proxy’s', async () => {
      const viaProxy = (g: EmbedFixture, sessionId: string, token: string, client: string, peer = '10.0.0.5') =>
        g.app.inject({ method: 'POST', url: `/api/v2/embed/sessions/${sessionId}/access-tokens`, payload: { launchToken: token }, remoteAddress: peer, headers: { 'x-forwarded-for': client } });
      const run = async (trusted: string | null) => {
        const g = await embedFixture(mode.dialect, {
          ...redisEnv,
          NETLOOM_REDIS_PREFIX: `${prefix}p${trusted === null ? 0 : 1}:`,
          NETLOOM_EMBED_REDEMPTIONS_PER_IP_PER_HOUR: '3',
          NETLOOM_RATE_LIMIT_PER_HOUR: '20',
          ...(trusted !== null ? { NETLOOM_TRUSTED_PROXIES: trusted } : {}),
        });
        try {
          const s = await openSession(g);
          for (let i = 0; i < 3; i++) assert.equal((await viaProxy(g, s.sessionId, wrongToken(i), '192.0.2.66')).statusCode, 401);
          const other = (await viaProxy(g, s.sessionId, s.launchToken, '192.0.2.77')).statusCode;
          // A peer that is not a trusted proxy cannot choose its address by sending X-Forwarded-For.
          for (let i = 0; i < 3; i++) assert.equal((await viaProxy(g, s.sessionId, wrongToken(i), `192.0.2.${100 + i}`, '172.16.9.9')).statusCode, 401);
          const spoofed = (await viaProxy(g, s.sessionId, wrongToken(9), '192.0.2.200', '172.16.9.9')).statusCode;
          // The general anonymous limit (per IP, 20 per hour here) keys on the same address.
          const anon = (client: string) => g.app.inject({ method: 'GET', url: `/api/v2/networks/${g.networkId}`, remoteAddress: '10.0.0.5', headers: { 'x-forwarded-for': client } });
          for (let i = 0; i < 20; i++) assert.notEqual((await anon('192.0.2.88')).statusCode, 429);
          const anonOver = (await anon('192.0.2.88')).statusCode;
          const anonOther = (await anon('192.0.2.99')).statusCode;
          return { other, spoofed, anonOver, anonOther };
        } finally {
          await g.t.close();
        }
      };
      assert.deepEqual(await run('10.0.0.0/8'), { other: 200, spoofed: 429, anonOver: 429, anonOther: 404 });
      // Without the setting every client behind the proxy is the proxy: one client's failures refuse another.
      assert.deepEqual(await run(null), { other: 429, spoofed: 429, anonOver: 429, anonOther: 429 });
    });
  });
}
