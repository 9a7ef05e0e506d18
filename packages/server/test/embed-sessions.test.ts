// Launch tokens, access tokens, every session-ending condition, the embed page and the embedding rate
// limits, through real HTTP with an injected clock (no sleeping), on SQLite and PostgreSQL.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from './helpers/app.ts';
import { embedFixture, openSession, accessToken, viewer, exchange, ORIGIN, type EmbedFixture } from './helpers/embed.ts';

const MIN = 60_000;

for (const dialect of DIALECTS) {
  describe(`embedding: sessions and tokens (${dialect})`, () => {
    let f: EmbedFixture;
    before(async () => {
      f = await embedFixture(dialect, {}, { seats: 100 });
    });
    after(async () => f.t.close());

    const alive = async (at: string) => (await viewer(f.app, at, 'GET', 'session')).statusCode;
    const frameAncestors = async (sessionId: string) => /frame-ancestors ([^;]+)/.exec(String((await f.app.inject({ method: 'GET', url: `/embed/${sessionId}` })).headers['content-security-policy']))?.[1];

    test('launch tokens: single use, 60 s expiry, bound to their session; a session id alone yields nothing', async () => {
      const a = await openSession(f);
      const b = await openSession(f);
      // Wrong session: A's token on B is refused and stays usable on A.
      const wrong = await exchange(f.app, b.sessionId, a.launchToken);
      assert.equal(wrong.statusCode, 401, wrong.body);
      assert.equal(wrong.json().code, 'UNAUTHENTICATED');
      assert.equal((await exchange(f.app, a.sessionId, a.launchToken)).statusCode, 200);
      // Reuse refused.
      const reuse = await exchange(f.app, a.sessionId, a.launchToken);
      assert.equal(reuse.statusCode, 401);
      // No token / garbage: refused.
      assert.equal((await f.app.inject({ method: 'POST', url: `/api/v2/embed/sessions/${b.sessionId}/access-tokens`, payload: {} })).statusCode, 400);
      assert.equal((await exchange(f.app, b.sessionId, 'nll_' + 'A'.repeat(43))).statusCode, 401);
      assert.equal((await exchange(f.app, '0123456789abcdef01234567', b.launchToken)).statusCode, 401);
      // Expiry by the injected clock: valid at 59 s, refused at 60 s.
      const lt1 = (await f.host('POST', `/api/v2/embed/sessions/${b.sessionId}/launch-tokens`)).json().launchToken;
      const lt2 = (await f.host('POST', `/api/v2/embed/sessions/${b.sessionId}/launch-tokens`)).json().launchToken;
      f.clock.advance(59_000);
      assert.equal((await exchange(f.app, b.sessionId, lt1)).statusCode, 200);
      f.clock.advance(1_000);
      assert.equal((await exchange(f.app, b.sessionId, lt2)).statusCode, 401);
      // The access token lives 15 minutes.
      const c = await openSession(f);
      const at = await accessToken(f, c.sessionId, c.launchToken);
      f.clock.advance(14 * MIN);
      assert.equal(await alive(at), 200);
      f.clock.advance(MIN);
      const exp = await viewer(f.app, at, 'GET', 'session');
      assert.equal(exp.statusCode, 401);
      assert.match(String(exp.headers['www-authenticate']), /Bearer/);
      // Host-side launch tokens for another organization's or an unknown session: 404.
      assert.equal((await f.host('POST', '/api/v2/embed/sessions/0123456789abcdef01234567/launch-tokens')).statusCode, 404);
    });

    test('redemptions beyond 60 per session per hour from one address are refused (429 with Retry-After), then allowed in the next hour; other addresses unaffected', async () => {
      const s = await openSession(f, { maxMinutes: 720 });
      for (let i = 0; i < 60; i++) {
        const r = await exchange(f.app, s.sessionId, 'nll_' + String(i).padStart(43, 'x'), '10.1.0.1');
        assert.equal(r.statusCode, 401, `attempt ${i + 1}`);
      }
      const over = await exchange(f.app, s.sessionId, s.launchToken, '10.1.0.1');
      assert.equal(over.statusCode, 429, over.body);
      assert.equal(over.json().code, 'RATE_LIMITED');
      assert.ok(Number(over.headers['retry-after']) > 0);
      // The same token from the viewer's own address: the attacker's attempts did not use its allowance.
      assert.equal((await exchange(f.app, s.sessionId, s.launchToken, '10.2.0.1')).statusCode, 200);
      // Next hourly window (the host's launch-token requests keep the session active meanwhile).
      for (let i = 0; i < 3; i++) {
        f.clock.advance(20 * MIN);
        assert.equal((await f.host('POST', `/api/v2/embed/sessions/${s.sessionId}/launch-tokens`)).statusCode, 200);
      }
      const lt = (await f.host('POST', `/api/v2/embed/sessions/${s.sessionId}/launch-tokens`)).json().launchToken;
      assert.equal((await exchange(f.app, s.sessionId, lt, '10.1.0.1')).statusCode, 200);
    });

    test('per-IP ceiling on redemptions', async () => {
      const limited = await embedFixture(dialect, { NETLOOM_EMBED_REDEMPTIONS_PER_IP_PER_HOUR: '3' });
      try {
        const s = await openSession(limited);
        for (let i = 0; i < 3; i++) assert.equal((await exchange(limited.app, s.sessionId, 'nll_bad', '10.9.9.9')).statusCode, 401);
        assert.equal((await exchange(limited.app, s.sessionId, s.launchToken, '10.9.9.9')).statusCode, 429);
        assert.equal((await exchange(limited.app, s.sessionId, s.launchToken, '10.9.9.10')).statusCode, 200);
      } finally {
        await limited.t.close();
      }
    });

    /** The viewer's refresh: a new launch token from the host, exchanged for a new access token. */
    const refresh = async (sessionId: string) => {
      const lt = await f.host('POST', `/api/v2/embed/sessions/${sessionId}/launch-tokens`);
      assert.equal(lt.statusCode, 200, lt.body);
      return accessToken(f, sessionId, lt.json().launchToken);
    };

    test('ends on maxMinutes', async () => {
      const s = await openSession(f, { maxMinutes: 20 });
      const at = await accessToken(f, s.sessionId, s.launchToken);
      f.clock.advance(10 * MIN);
      assert.equal((await viewer(f.app, at, 'POST', 'heartbeat')).statusCode, 200);
      const at2 = await refresh(s.sessionId);
      f.clock.advance(9 * MIN + 59_000);
      assert.equal((await viewer(f.app, at2, 'POST', 'heartbeat')).statusCode, 200);
      f.clock.advance(1_000); // 20 minutes
      const r = await viewer(f.app, at2, 'GET', 'session');
      assert.equal(r.statusCode, 410);
      assert.match(r.json().detail, /maxMinutes/);
      assert.equal(await frameAncestors(s.sessionId), "'none'");
      assert.equal((await f.host('POST', `/api/v2/embed/sessions/${s.sessionId}/launch-tokens`)).statusCode, 410);
    });

    test('ends after 30 minutes without activity; viewer calls, heartbeats and launch tokens keep it alive', async () => {
      const s = await openSession(f, { maxMinutes: 720 });
      const at = await accessToken(f, s.sessionId, s.launchToken);
      f.clock.advance(14 * MIN);
      assert.equal((await viewer(f.app, at, 'POST', 'heartbeat')).statusCode, 200);
      f.clock.advance(14 * MIN);
      const at2 = await refresh(s.sessionId); // host launch token + exchange: activity at 28 min
      f.clock.advance(14 * MIN);
      assert.equal(await alive(at2), 200); // activity at 42 min
      // 29 min 59 s without activity: still alive (the page does not count as activity).
      f.clock.advance(30 * MIN - 1_000);
      assert.equal(await frameAncestors(s.sessionId), ORIGIN);
      f.clock.advance(1_000);
      assert.equal(await frameAncestors(s.sessionId), "'none'");
      const lt = await f.host('POST', `/api/v2/embed/sessions/${s.sessionId}/launch-tokens`);
      assert.equal(lt.statusCode, 410);
      assert.match(lt.json().detail, /inactive/);
    });

    test('ends on revocation, deactivation, grant removal (next request)', async () => {
      const r1 = await openSession(f);
      const at1 = await accessToken(f, r1.sessionId, r1.launchToken);
      await f.host('DELETE', `/api/v2/embed/sessions/${r1.sessionId}`);
      assert.equal(await alive(at1), 410);

      const d = await openSession(f);
      const atD = await accessToken(f, d.sessionId, d.launchToken);
      const d2 = await f.host('POST', '/api/v2/embed/sessions', { externalId: d.externalId, networkIds: [f.networkId], origin: ORIGIN });
      await f.host('POST', `/api/v2/embed/users/${d.externalId}/deactivate`);
      assert.equal(await alive(atD), 410);
      assert.equal(await frameAncestors(d2.json().sessionId), "'none'");
      assert.equal((await exchange(f.app, d2.json().sessionId, d2.json().launchToken)).statusCode, 410);

      const g = await openSession(f);
      const atG = await accessToken(f, g.sessionId, g.launchToken);
      assert.equal(await alive(atG), 200);
      await f.host('DELETE', `/api/v2/embed/users/${g.externalId}/networks/${f.networkId}`);
      const r = await viewer(f.app, atG, 'GET', 'views');
      assert.equal(r.statusCode, 410);
      assert.match(r.json().detail, /access/);
    });

    test('permission change takes effect on the next request (Edit → View cannot save)', async () => {
      const s = await openSession(f, { permission: 'Edit' });
      const at = await accessToken(f, s.sessionId, s.launchToken);
      assert.equal((await viewer(f.app, at, 'GET', 'session')).json().capabilities.edit, true);
      await f.host('PUT', `/api/v2/embed/users/${s.externalId}/networks/${f.networkId}`, { permission: 'View' });
      const info = await viewer(f.app, at, 'GET', 'session');
      assert.equal(info.json().capabilities.edit, false);
      const save = await viewer(f.app, at, 'POST', 'views', { name: 'x', layers: [], camera: { x: 0, y: 0, ratio: 1, angle: 0 }, display: { backgroundColor: '#fff', showLabels: 'always', showEdges: true } });
      assert.equal(save.statusCode, 403, save.body);
    });

    test('ends when an origin is removed (page frame-ancestors none at once); other origins unaffected', async () => {
      const other = 'https://other.example.com';
      await f.host('PUT', '/api/v2/embed/settings', { allowedOrigins: [ORIGIN, other] });
      const keep = await openSession(f);
      const atKeep = await accessToken(f, keep.sessionId, keep.launchToken);
      const ext = `o-${Date.now()}`;
      await f.host('PUT', `/api/v2/embed/users/${ext}`, { displayName: 'O' });
      await f.host('PUT', `/api/v2/embed/users/${ext}/networks/${f.networkId}`, { permission: 'View' });
      const s = (await f.host('POST', '/api/v2/embed/sessions', { externalId: ext, networkIds: [f.networkId], origin: other })).json();
      assert.equal(await frameAncestors(s.sessionId), other);
      const at = await accessToken(f, s.sessionId, s.launchToken);
      await f.host('PUT', '/api/v2/embed/settings', { allowedOrigins: [ORIGIN] });
      assert.equal(await frameAncestors(s.sessionId), "'none'");
      assert.equal(await alive(at), 410);
      // Adding the origin back does not revive it.
      await f.host('PUT', '/api/v2/embed/settings', { allowedOrigins: [ORIGIN, other] });
      assert.equal(await alive(at), 410);
      assert.equal(await alive(atKeep), 200);
    });

    test('ends when embedding is disabled (page stops at once); re-enabling does not revive; embedding calls 403 EMBEDDING_DISABLED', async () => {
      const s = await openSession(f);
      const at = await accessToken(f, s.sessionId, s.launchToken);
      assert.equal(await frameAncestors(s.sessionId), ORIGIN);
      await f.operator({ enabled: false });
      assert.equal(await frameAncestors(s.sessionId), "'none'");
      assert.equal(await alive(at), 410);
      for (const [m, u] of [['GET', '/api/v2/embed/users'], ['PUT', '/api/v2/embed/users/zz'], ['POST', '/api/v2/embed/sessions'], ['PUT', '/api/v2/embed/settings']] as const) {
        const r = await f.host(m, u, m === 'GET' ? undefined : {});
        assert.equal(r.statusCode, 403, `${m} ${u}`);
        assert.equal(r.json().code, 'EMBEDDING_DISABLED');
      }
      assert.equal((await f.host('GET', '/api/v2/embed/settings')).json().enabled, false);
      await f.operator({ enabled: true });
      assert.equal(await alive(at), 410);
    });

    test('embed page: no cookies, no-referrer, unknown session → none', async () => {
      const s = await openSession(f);
      const page = await f.app.inject({ method: 'GET', url: `/embed/${s.sessionId}` });
      assert.equal(page.statusCode, 200);
      assert.equal(page.headers['set-cookie'], undefined);
      assert.equal(page.headers['referrer-policy'], 'no-referrer');
      assert.match(page.body, new RegExp(s.sessionId));
      assert.ok(!page.body.includes(s.launchToken));
      for (const id of ['0123456789abcdef01234567', 'not-an-id']) {
        const p = await f.app.inject({ method: 'GET', url: `/embed/${id}` });
        assert.match(String(p.headers['content-security-policy']), /frame-ancestors 'none'/);
      }
    });

    test('rate limits per organization: provisioning/grants/sessions, launch tokens, metrics; one metric at a time per session', async () => {
      const g = await embedFixture(dialect);
      try {
        const s = await openSession(g); // 3 provisioning requests (user, grant, session)
        await g.operator({ limits: { provisioningPerHour: 5, launchTokensPerHour: 3, metricsPerHour: 2 } });
        assert.equal((await g.host('PUT', '/api/v2/embed/users/p1', { displayName: 'P' })).statusCode, 201);
        assert.equal((await g.host('PUT', `/api/v2/embed/users/p1/networks/${g.networkId}`, { permission: 'View' })).statusCode, 200);
        const over = await g.host('POST', '/api/v2/embed/sessions', { externalId: 'p1', networkIds: [g.networkId], origin: ORIGIN });
        assert.equal(over.statusCode, 429, over.body);
        assert.ok(Number(over.headers['retry-after']) > 0);
        assert.equal(over.headers['ratelimit-limit'], '5');
        // Launch tokens: the session's first one counted separately; 3 more per hour.
        for (let i = 0; i < 3; i++) assert.equal((await g.host('POST', `/api/v2/embed/sessions/${s.sessionId}/launch-tokens`)).statusCode, 200);
        assert.equal((await g.host('POST', `/api/v2/embed/sessions/${s.sessionId}/launch-tokens`)).statusCode, 429);
        // Metrics: one at a time per session (a lease held elsewhere → 429), then 2 per hour.
        const at = await accessToken(g, s.sessionId, s.launchToken);
        if (g.t.config.redisUrl === null) {
          await g.t.database.db.insertInto('embed_locks').values({ key: `session:${s.sessionId}:metric`, expires_at: new Date(g.clock.now + MIN).toISOString() }).execute();
          const busy = await viewer(g.app, at, 'POST', 'metrics/nodes/inDegree', {});
          assert.equal(busy.statusCode, 429, busy.body);
          assert.match(busy.json().detail, /one metric/);
          await g.t.database.db.deleteFrom('embed_locks').execute();
        }
        const [m1, m2] = await Promise.all([viewer(g.app, at, 'POST', 'metrics/nodes/inDegree', {}), viewer(g.app, at, 'POST', 'metrics/nodes/outDegree', {})]);
        const codes = [m1.statusCode, m2.statusCode].sort();
        assert.ok(codes[0] === 200 && (codes[1] === 200 || codes[1] === 429), codes.join());
        if (codes[1] === 200) assert.equal((await viewer(g.app, at, 'POST', 'metrics/nodes/inDegree', {})).statusCode, 429);
        // Bad metric parameters are 400 and unknown metrics 404.
        assert.equal((await viewer(g.app, at, 'POST', 'metrics/nodes/nope', {})).statusCode, 404);
        // Next hour: allowed again; overrides can be reset.
        g.clock.advance(60 * MIN);
        await g.operator({ limits: { provisioningPerHour: null } });
        assert.equal((await g.host('GET', '/api/v2/embed/settings')).json().limits.provisioningPerHour, 600);
      } finally {
        await g.t.close();
      }
    });
  });
}
