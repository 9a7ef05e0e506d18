// Issue 19 finding 8 (docs/security.md "Secrets in logs"): invitation and reset link tokens travel in
// URL paths (`/link/:token`, `/app/api/links/:token`); the request log shows `nlk_[redacted]` instead,
// for every way a link is used — described, redeemed, accepted, refused, opened in the web app, or a
// route that does not exist. The app logs at info into a captured stream, SQLite and PostgreSQL.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { DIALECTS, testApp, type TestApp } from './helpers/app.ts';
import { webClient } from './helpers/web.ts';
import { loggerOptions } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createResetLink } from '../src/domain/identity/user-links.ts';
import { loggableUrl as loggedUrl } from '../src/http/log-redact.ts';

for (const dialect of DIALECTS) {
  describe(`link tokens never reach the logs (${dialect})`, () => {
    let t: TestApp;
    const out: string[] = [];
    before(async () => {
      const stream = new Writable({
        write(chunk, _enc, cb) {
          out.push(String(chunk));
          cb();
        },
      });
      t = await testApp(dialect, {}, { logger: { ...loggerOptions(loadConfig({ LOG_LEVEL: 'info', NETLOOM_DATA_DIR: '/nonexistent' })), level: 'info', stream } });
    });
    after(() => t.close());

    test('invitation and reset links used every way: the request lines name the route, never the token', async () => {
      const owner = await t.user();
      await t.org(owner.id);
      const o = webClient(t.app);
      assert.equal((await o.signIn(owner.email)).statusCode, 200);
      const member = await t.user();
      const invite = (await o.request('POST', '/app/api/organization/invitations', { body: { email: 'logged@example.com' } })).json().url.split('/link/')[1];
      const forMember = (await o.request('POST', '/app/api/organization/members', { body: { email: member.email, role: 'Standard User' } })).json().url.split('/link/')[1];
      const reset = (await createResetLink(t.database.db, t.config.publicUrl, owner.email, 'cli', Date.now())).token;
      const tokens = [invite, forMember, reset];
      out.length = 0;
      const c = webClient(t.app);
      assert.equal((await c.request('GET', `/app/api/links/${invite}`)).statusCode, 200);
      assert.equal((await c.request('GET', `/app/api/links/${invite}?x=1`)).statusCode, 200);
      assert.equal((await c.request('POST', `/app/api/links/${forMember}`, { body: { name: 'M', password: 'a long passphrase' } })).statusCode, 409);
      assert.equal((await o.request('POST', `/app/api/links/${forMember}/accept`)).statusCode, 403);
      assert.equal((await c.request('POST', `/app/api/links/${invite}`, { body: { name: 'Logged', password: 'a long passphrase' } })).statusCode, 200);
      assert.equal((await webClient(t.app).request('POST', `/app/api/links/${reset}`, { body: { password: 'another passphrase' } })).statusCode, 200);
      assert.equal((await webClient(t.app).request('GET', `/app/api/links/${reset}`)).statusCode, 404, 'used');
      await t.app.inject({ method: 'GET', url: `/link/${invite}` });
      assert.equal((await t.app.inject({ method: 'GET', url: `/app/api/links/${invite}/nope` })).statusCode, 404);
      const text = out.join('');
      const lines = text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { req?: { url: string } });
      const urls = lines.flatMap((l) => (l.req ? [l.req.url] : []));
      assert.ok(urls.length >= 9, `request lines were logged: ${urls.length}`);
      assert.ok(urls.includes('/app/api/links/nlk_[redacted]'), urls.join('\n'));
      assert.ok(urls.includes('/link/nlk_[redacted]'), urls.join('\n'));
      for (const token of tokens) {
        assert.ok(!text.includes(token), `token ${token.slice(0, 8)}… appears in the log`);
        assert.ok(!text.includes(token.slice(4)), 'not even without its prefix');
      }
      assert.ok(!text.includes('a long passphrase') && !text.includes('another passphrase'), 'passwords neither');
    });
  });
}

test('loggedUrl: the query dropped, every nlk_ token replaced', () => {
  assert.equal(loggedUrl('/app/api/links/nlk_abcDEF-_123?x=nlk_zzz'), '/app/api/links/nlk_[redacted]');
  assert.equal(loggedUrl('/link/nlk_abc/accept'), '/link/nlk_[redacted]/accept');
  assert.equal(loggedUrl('/api/v2/networks/abc'), '/api/v2/networks/abc');
});
