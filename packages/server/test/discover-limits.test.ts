// Issue 19 finding 7 (docs/security.md "Discover"): Discover viewers — read-only viewers of Public
// networks, signed out allowed — spend their own metric budget, per client address and per Public
// network, never the owning organization's paid hourly allowance; and one address opens at most
// NETLOOM_DISCOVER_SESSIONS_PER_IP_PER_HOUR Discover sessions. Real HTTP (the service on a port, requests
// sent in parallel with fetch) behind a trusted proxy (X-Forwarded-For), on SQLite, PostgreSQL and
// PostgreSQL with the counters in Redis.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, smallNetwork } from './helpers/app.ts';
import { embedFixture, openSession, clock, type EmbedFixture } from './helpers/embed.ts';
import { REDIS_URL, deleteRedisKeys, redisTestPrefix, storageModes } from './helpers/redis.ts';

const PER_IP = 20;
const PER_NETWORK = 30;
const ORG_PER_HOUR = 25;

for (const mode of await storageModes()) {
  describe(`Discover viewers in their own budget (${mode.name})`, { skip: mode.skip }, () => {
    const prefix = redisTestPrefix();
    let f: EmbedFixture;
    let base: string;
    let publicId: string;
    before(async () => {
      f = await embedFixture(
        mode.dialect,
        {
          NETLOOM_TRUSTED_PROXIES: '127.0.0.1',
          NETLOOM_DISCOVER_METRICS_PER_IP_PER_HOUR: String(PER_IP),
          NETLOOM_DISCOVER_METRICS_PER_NETWORK_PER_HOUR: String(PER_NETWORK),
          NETLOOM_EMBED_METRICS_PER_HOUR: String(ORG_PER_HOUR),
          ...(mode.redis ? { REDIS_URL, NETLOOM_REDIS_PREFIX: prefix } : {}),
        },
        { clock: clock(Date.parse('2026-11-27T10:00:00Z')) },
      );
      base = await f.app.listen({ port: 0, host: '127.0.0.1' });
      // the organization's Public network (created through its credential, so it is the organization's)
      const r = await f.host('POST', '/api/v2/networks', { name: 'Open data', status: 'Public', networkJSON: smallNetwork() });
      assert.equal(r.statusCode, 200, r.body);
      publicId = r.json()._id;
    });
    after(async () => {
      await f.t.close();
      if (mode.redis) await deleteRedisKeys(prefix);
    });

    async function call(method: string, path: string, from: string, opts: { body?: unknown; token?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; body: { code?: string; detail?: string; [k: string]: unknown }; retryAfter: string | null }> {
      const res = await fetch(base + path, {
        method,
        headers: {
          'x-forwarded-for': from,
          origin: f.t.config.publicUrl,
          ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
          ...opts.headers,
        },
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : {}, retryAfter: res.headers.get('retry-after') };
    }
    /** A Discover viewer from `from`: its session and access token, as the viewer in the browser gets them. */
    async function discoverViewer(from: string): Promise<string> {
      const s = await call('POST', `/app/api/public-networks/${publicId}/explore`, from);
      assert.equal(s.status, 201, JSON.stringify(s.body));
      const at = await call('POST', `/api/v2/embed/sessions/${s.body.sessionId}/access-tokens`, from, { body: { launchToken: s.body.launchToken } });
      assert.equal(at.status, 200, JSON.stringify(at.body));
      return String(at.body.accessToken);
    }
    const metric = (token: string, from: string) => call('POST', '/api/v2/embed/viewer/metrics/nodes/inDegree', from, { token, body: {} });
    const tally = (answers: { status: number }[]) => answers.reduce<Record<number, number>>((m, a) => ({ ...m, [a.status]: (m[a.status] ?? 0) + 1 }), {});

    test("strangers exhaust their own budget (per address, then per network); the organization's own viewer still runs metrics", async () => {
      // 25 Discover viewers from one address run a metric each, all at once
      const strangers = await Promise.all(Array.from({ length: 25 }, () => discoverViewer('203.0.113.7')));
      const burst = await Promise.all(strangers.map((token) => metric(token, '203.0.113.7')));
      assert.deepEqual(tally(burst), { 200: PER_IP, 429: 25 - PER_IP });
      for (const refused of burst.filter((a) => a.status === 429)) {
        assert.equal(refused.body.code, 'RATE_LIMITED');
        assert.match(String(refused.body.detail), /Discover viewers from one address/);
        assert.ok(Number(refused.retryAfter) > 0);
      }
      // the viewer's metric jobs (Prefer: respond-async) count against the same budget
      const job = await call('POST', '/api/v2/embed/viewer/metrics/nodes/inDegree', '203.0.113.7', { token: strangers[0], body: {}, headers: { prefer: 'respond-async' } });
      assert.equal(job.status, 429, JSON.stringify(job.body));
      // the organization's own embedded viewer: its allowance (25 an hour) is untouched by the 20 runs above
      const own = await openSession(f, { permission: 'View' });
      const ownToken = await call('POST', `/api/v2/embed/sessions/${own.sessionId}/access-tokens`, '198.51.100.1', { body: { launchToken: own.launchToken } });
      assert.equal(ownToken.status, 200);
      const mine = await metric(String(ownToken.body.accessToken), '198.51.100.1');
      assert.equal(mine.status, 200, JSON.stringify(mine.body));
      assert.deepEqual(Object.keys((mine.body as { values: object }).values), ['In Degree']);

      // a second address: its own 20, but the network's budget (30) has only 10 left
      const others = await Promise.all(Array.from({ length: 15 }, () => discoverViewer('203.0.113.8')));
      const second = await Promise.all(others.map((token) => metric(token, '203.0.113.8')));
      assert.deepEqual(tally(second), { 200: PER_NETWORK - PER_IP, 429: 15 - (PER_NETWORK - PER_IP) });
      assert.ok(second.filter((a) => a.status === 429).every((a) => /Discover viewers of this network/.test(String(a.body.detail))));
      // … while the organization's viewer keeps its whole allowance: 24 more runs this hour, one at a time per session
      for (let i = 0; i < ORG_PER_HOUR - 1; i++) {
        const r = await metric(String(ownToken.body.accessToken), '198.51.100.1');
        assert.equal(r.status, 200, `run ${i + 2} of the organization's viewer: ${JSON.stringify(r.body)}`);
      }
      // and its allowance is its own limit: the 26th is refused by the organization's budget, not Discover's
      const over = await metric(String(ownToken.body.accessToken), '198.51.100.1');
      assert.equal(over.status, 429);
      assert.match(String(over.body.detail), /embedded metric calculations/);
      // Discover from the first address stays refused; the next hour (a new viewer: tokens live 15 min) it may run again
      assert.equal((await metric(strangers[0], '203.0.113.7')).status, 429);
      f.clock.advance(3_600_000);
      assert.equal((await metric(await discoverViewer('203.0.113.7'), '203.0.113.7')).status, 200);
    });

    test('300 Discover sessions asked for at once from one address: exactly the cap (60) opened; another address is not affected', async () => {
      const count = async () => Number((await f.t.database.db.selectFrom('embed_sessions').select((eb) => eb.fn.countAll().as('n')).where('mode', '=', 'public').executeTakeFirstOrThrow()).n);
      const before = await count();
      const answers = await Promise.all(Array.from({ length: 300 }, () => call('POST', `/app/api/public-networks/${publicId}/explore`, '192.0.2.50')));
      assert.deepEqual(tally(answers), { 201: 60, 429: 240 });
      const refused = answers.find((a) => a.status === 429)!;
      assert.equal(refused.body.code, 'RATE_LIMITED');
      assert.match(String(refused.body.detail), /Discover viewer sessions from one address/);
      assert.ok(Number(refused.retryAfter) > 0);
      assert.equal((await count()) - before, 60, 'only the accepted ones were created');
      assert.equal((await call('POST', `/app/api/public-networks/${publicId}/explore`, '192.0.2.51')).status, 201);
      // Private networks are still 404 (checked after the cap: an address over it gets 429 first)
      const priv = await f.host('POST', '/api/v2/networks', { name: 'Closed', status: 'Private', networkJSON: smallNetwork() });
      assert.equal((await call('POST', `/app/api/public-networks/${priv.json()._id}/explore`, '192.0.2.52')).status, 404);
      assert.equal((await fetch(`${base}/api/v2/networks/${publicId}`, { headers: bearer(f.orgToken) })).status, 200);
    });
  });
}
