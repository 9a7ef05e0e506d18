// Web-app sessions through the real HTTP stack on SQLite and PostgreSQL (docs/web-app.md): sign-in and
// cookies, CSRF + Origin, throttling, fixation, expiry, and the wall between cookies and the public API.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, testApp, bearer, type TestApp } from './helpers/app.ts';
import { PASSWORD, setCookieOf, webClient } from './helpers/web.ts';

for (const dialect of DIALECTS) {
  describe(`web sessions (${dialect})`, () => {
    let t: TestApp;
    let clock = Date.parse('2026-11-24T10:00:00Z');
    before(async () => {
      t = await testApp(dialect, { NETLOOM_WEB_SIGNIN_FAILURES_PER_ACCOUNT: '3', NETLOOM_WEB_SIGNIN_FAILURES_PER_IP: '8' }, { now: () => clock });
    });
    after(() => t.close());

    test('sign-in sets an HttpOnly, SameSite=Lax session cookie; GET /app/api/session tells who is signed in', async () => {
      const u = await t.user({ name: 'Ada' });
      const c = webClient(t.app);
      assert.equal((await c.request('GET', '/app/api/session')).statusCode, 401);
      const res = await c.signIn(u.email.toUpperCase());
      assert.equal(res.statusCode, 200, res.body);
      const set = setCookieOf(res)!;
      assert.match(set.raw, /HttpOnly/);
      assert.match(set.raw, /SameSite=Lax/);
      assert.match(set.raw, /Path=\//);
      assert.doesNotMatch(set.raw, /Secure/); // http public URL
      assert.equal(set.value.length, 43);
      const body = res.json();
      assert.equal(body.user.email, u.email);
      assert.equal(body.user.mfaEnabled, false);
      assert.equal(body.organization, null);
      assert.equal(body.mfaEnrolmentRequired, false);
      assert.equal(typeof body.csrfToken, 'string');
      const me = await c.request('GET', '/app/api/session');
      assert.equal(me.statusCode, 200);
      assert.equal(me.json().user.id, u.id);
      assert.equal(me.json().csrfToken, body.csrfToken);
      // the cookie value is not what the database holds
      const rows = await t.database.db.selectFrom('web_sessions').selectAll().where('user_id', '=', u.id).execute();
      assert.equal(rows.length, 1);
      assert.notEqual(rows[0].secret_hash, set.value);
      assert.ok(!JSON.stringify(rows).includes(set.value));
    });

    test('organization members see their organization and role', async () => {
      const u = await t.user();
      const o = await t.org(u.id, { name: 'Acme' });
      const c = webClient(t.app);
      const res = await c.signIn(u.email);
      assert.deepEqual(res.json().organization, { id: o.id, name: 'Acme', role: 'Owner', plan: 'enterprise', requireMfa: false, embeddingEnabled: false });
    });

    test('wrong password and unknown e-mail are the same 401 INVALID_CREDENTIALS; no cookie', async () => {
      const u = await t.user();
      const c = webClient(t.app, t.config.publicUrl);
      const a = await c.signIn(u.email, 'wrong password!');
      const b = await c.signIn('nobody@example.com', 'wrong password!');
      for (const r of [a, b]) {
        assert.equal(r.statusCode, 401);
        assert.equal(r.json().code, 'INVALID_CREDENTIALS');
        assert.equal(setCookieOf(r), undefined);
      }
      assert.equal(a.json().detail, b.json().detail);
    });

    test('failed sign-ins are throttled per account: 429 + Retry-After, even for the right password', async () => {
      const u = await t.user();
      const c = webClient(t.app);
      for (let i = 0; i < 3; i++) assert.equal((await c.signIn(u.email, `bad guess ${i}`, {})).statusCode, 401);
      const res = await c.signIn(u.email);
      assert.equal(res.statusCode, 429);
      assert.equal(res.json().code, 'RATE_LIMITED');
      assert.ok(Number(res.headers['retry-after']) > 0);
      assert.equal(setCookieOf(res), undefined);
      // the window ends → the right password works again
      clock += t.config.web.signInWindowMs;
      assert.equal((await c.signIn(u.email)).statusCode, 200);
    });

    test('failed sign-ins are throttled per IP address across accounts', async () => {
      const c = webClient(t.app);
      clock += t.config.web.signInWindowMs;
      const users = await Promise.all(Array.from({ length: 5 }, () => t.user()));
      let codes: number[] = [];
      for (let i = 0; i < 8; i++) codes.push((await c.signIn(users[i % 4].email, 'not it at all')).statusCode);
      assert.ok(codes.every((s) => s === 401), String(codes));
      codes = [(await c.signIn(users[4].email)).statusCode];
      assert.deepEqual(codes, [429]);
      clock += t.config.web.signInWindowMs;
    });

    test('a session cookie sent to /api/v2 does not authenticate; a bearer token does not open /app/api', async () => {
      const u = await t.user();
      const token = await t.token(u.id);
      const c = webClient(t.app);
      await c.signIn(u.email);
      const api = await t.app.inject({ method: 'GET', url: '/api/v2/networks', headers: { cookie: `nl_session=${c.cookie}` } });
      assert.equal(api.statusCode, 401);
      const web = await t.app.inject({ method: 'GET', url: '/app/api/session', headers: bearer(token) });
      assert.equal(web.statusCode, 401);
      // and the public API never sets a cookie
      const ok = await t.app.inject({ method: 'GET', url: '/api/v2/networks', headers: { ...bearer(token), cookie: `nl_session=${c.cookie}` } });
      assert.equal(ok.statusCode, 200);
      assert.equal(ok.headers['set-cookie'], undefined);
    });

    test('CSRF: a cross-site form post (no token, foreign Origin) changes nothing', async () => {
      const u = await t.user();
      const c = webClient(t.app);
      await c.signIn(u.email);
      // sign-out is state-changing: try it without the token, with a foreign origin, without any origin
      const noToken = await c.request('DELETE', '/app/api/session', { csrf: false });
      const foreign = await c.request('DELETE', '/app/api/session', { origin: 'https://evil.example' });
      const noOrigin = await c.request('DELETE', '/app/api/session', { origin: null });
      const form = await t.app.inject({
        method: 'POST',
        url: '/app/api/session',
        headers: { cookie: `nl_session=${c.cookie}`, origin: 'https://evil.example', 'content-type': 'application/json' },
        payload: JSON.stringify({ email: u.email, password: PASSWORD }),
      });
      for (const r of [noToken, foreign, noOrigin, form]) {
        assert.equal(r.statusCode, 403, r.body);
        assert.equal(r.json().code, 'CSRF_FAILED');
      }
      assert.equal((await c.request('GET', '/app/api/session')).statusCode, 200, 'still signed in');
      // with token and own origin it works; a Referer of our own origin stands in for Origin
      const out = await c.request('DELETE', '/app/api/session', { origin: null, headers: { referer: `${t.config.publicUrl}/account` } });
      assert.equal(out.statusCode, 200, out.body);
      assert.deepEqual(out.json(), { signedOut: true });
    });

    test('a real cross-site HTML form post (urlencoded, foreign Origin) to change the password changes nothing', async () => {
      const u = await t.user();
      const c = webClient(t.app);
      await c.signIn(u.email);
      for (const origin of ['https://evil.example', undefined]) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/app/api/account/password',
          headers: { cookie: `nl_session=${c.cookie}`, 'content-type': 'application/x-www-form-urlencoded', ...(origin ? { origin } : {}) },
          payload: `currentPassword=${encodeURIComponent(PASSWORD)}&newPassword=hijacked-password-1`,
        });
        assert.equal(res.statusCode, 403, res.body);
        assert.equal(res.json().code, 'CSRF_FAILED');
      }
      assert.equal((await webClient(t.app).signIn(u.email, 'hijacked-password-1')).statusCode, 401);
      assert.equal((await webClient(t.app).signIn(u.email)).statusCode, 200, 'the password is unchanged');
    });

    test('the web endpoints are documented apart (/app/api/openapi.json) with the cookie scheme, not in the public API document', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/app/api/openapi.json' })).json();
      assert.ok(doc.components.securitySchemes.cookieAuth);
      for (const p of ['/app/api/session', '/app/api/account', '/app/api/credentials', '/app/api/links/{token}', '/app/api/networks/{id}/explore']) assert.ok(doc.paths[p], p);
      assert.deepEqual(doc.paths['/app/api/account'].get.security, [{ cookieAuth: [] }]);
      const publicDoc = (await t.app.inject({ method: 'GET', url: '/api/v2/openapi.json' })).json();
      assert.equal(Object.keys(publicDoc.paths).filter((p) => p.startsWith('/app/')).length, 0, 'no web endpoint in the public document');
      assert.equal(publicDoc.components.securitySchemes.cookieAuth, undefined);
    });

    test('sign-out ends the session and clears the cookie', async () => {
      const u = await t.user();
      const c = webClient(t.app);
      await c.signIn(u.email);
      const cookie = c.cookie!;
      const res = await c.request('DELETE', '/app/api/session');
      assert.equal(res.statusCode, 200);
      assert.match(setCookieOf(res)!.raw, /Max-Age=0|Expires=Thu, 01 Jan 1970/);
      const again = await t.app.inject({ method: 'GET', url: '/app/api/session', headers: { cookie: `nl_session=${cookie}` } });
      assert.equal(again.statusCode, 401);
    });

    test('session fixation: a cookie set before sign-in is replaced, and the old session ends', async () => {
      const u = await t.user();
      const planted = 'A'.repeat(43);
      const c = webClient(t.app);
      c.cookie = planted;
      const res = await c.signIn(u.email);
      assert.equal(res.statusCode, 200);
      assert.notEqual(c.cookie, planted);
      assert.equal((await t.app.inject({ method: 'GET', url: '/app/api/session', headers: { cookie: `nl_session=${planted}` } })).statusCode, 401);
      // signing in again from a signed-in browser replaces that session too
      const first = c.cookie!;
      await c.signIn(u.email);
      assert.notEqual(c.cookie, first);
      assert.equal((await t.app.inject({ method: 'GET', url: '/app/api/session', headers: { cookie: `nl_session=${first}` } })).statusCode, 401);
      assert.equal((await c.request('GET', '/app/api/session')).statusCode, 200);
    });

    test('sessions end after 12 h idle and 7 days in any case', async () => {
      const u = await t.user();
      const c = webClient(t.app);
      await c.signIn(u.email);
      clock += 11 * 3_600_000;
      assert.equal((await c.request('GET', '/app/api/session')).statusCode, 200);
      clock += 11 * 3_600_000; // 11 h since last use: still alive
      assert.equal((await c.request('GET', '/app/api/session')).statusCode, 200);
      clock += 12 * 3_600_000 + 1000;
      const idle = await c.request('GET', '/app/api/session');
      assert.equal(idle.statusCode, 401);
      assert.equal(c.cookie, null, 'an ended session clears the cookie');
      // a session never presented again is deleted at the next sign-in
      const stale = webClient(t.app);
      await stale.signIn(u.email);
      clock += 12 * 3_600_000 + 1000;
      // absolute: used every 10 h, still ends after 7 days
      await c.signIn(u.email);
      assert.equal((await t.database.db.selectFrom('web_sessions').select('id').where('user_id', '=', u.id).execute()).length, 1);
      let last = 200;
      for (let h = 10; h <= 7 * 24 + 10 && last === 200; h += 10) {
        clock += 10 * 3_600_000;
        last = (await c.request('GET', '/app/api/session')).statusCode;
        if (h < 7 * 24) assert.equal(last, 200, `at ${h} h`);
      }
      assert.equal(last, 401);
    });

    test('a suspended user\'s session stops working', async () => {
      const u = await t.user();
      const c = webClient(t.app);
      await c.signIn(u.email);
      await t.database.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', u.id).execute();
      assert.equal((await c.request('GET', '/app/api/session')).statusCode, 401);
      const again = await c.signIn(u.email);
      assert.equal(again.statusCode, 403);
    });

    test('bad bodies are 400 naming the field', async () => {
      const c = webClient(t.app);
      const res = await c.request('POST', '/app/api/session', { body: { email: 'a@b.c' } });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().errors[0].path, '/password');
    });
  });
}
