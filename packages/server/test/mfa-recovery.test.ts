// Issue 19 finding 10 (docs/security.md "MFA"): MFA is turned on only with the password (a session alone
// cannot lock the owner out with a second factor only the holder of the session has), and an operator
// can let an owner who lost the authenticator and the recovery codes back in: `netloom users mfa-reset`,
// or `netloom users reset-link --clear-mfa`. The real CLI process against the app's database; SQLite and
// PostgreSQL.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Secret, TOTP } from 'otpauth';
import { DIALECTS, testApp, type TestApp } from './helpers/app.ts';
import { PASSWORD, webClient, type WebClient, signedInClient } from './helpers/web.ts';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'netloom.js');

for (const dialect of DIALECTS) {
  describe(`MFA: password to turn on, operator reset (${dialect})`, () => {
    let t: TestApp;
    let clock = Date.parse('2026-11-27T12:00:00Z');
    before(async () => {
      t = await testApp(dialect, {}, { now: () => clock });
    });
    after(() => t.close());

    function cli(args: string[]): Promise<{ code: number; out: Record<string, unknown> | null; err: string }> {
      const env = { ...process.env, NETLOOM_DATA_DIR: t.config.dataDir, DATABASE_URL: t.config.databaseUrl ?? '', NETLOOM_DB_SCHEMA: t.config.databaseSchema ?? '', LOG_LEVEL: 'silent' };
      return new Promise((resolve) => {
        execFile(process.execPath, [BIN, ...args], { env }, (error, stdout, stderr) => {
          resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout ? (JSON.parse(stdout) as Record<string, unknown>) : null, err: stderr });
        });
      });
    }
    const signedIn = (email: string, password = PASSWORD) => signedInClient(t.app, email, password);
    /** Enrols MFA through the API (with the password) and forgets the secret: the authenticator is lost. */
    async function enrolAndLose(c: WebClient): Promise<void> {
      const { secret } = (await c.request('POST', '/app/api/account/mfa/setup')).json();
      const code = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: clock });
      const r = await c.request('POST', '/app/api/account/mfa/enable', { body: { code, password: PASSWORD } });
      assert.equal(r.statusCode, 200, r.body);
      clock += 60_000;
    }

    test('a session alone cannot turn MFA on: the password is required, a wrong one counts as a failed attempt', async () => {
      const u = await t.user();
      const stolen = await signedIn(u.email);
      const { secret } = (await stolen.request('POST', '/app/api/account/mfa/setup')).json();
      const code = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: clock });
      assert.equal((await stolen.request('POST', '/app/api/account/mfa/enable', { body: { code } })).statusCode, 400);
      const wrong = await stolen.request('POST', '/app/api/account/mfa/enable', { body: { code, password: 'a guessed password' } });
      assert.equal(wrong.statusCode, 401);
      assert.equal((await stolen.request('GET', '/app/api/account')).json().mfa.enabled, false);
      const owner = webClient(t.app);
      const again = await owner.signIn(u.email);
      assert.equal(again.statusCode, 200, 'the owner signs in with the password alone');
      assert.equal(again.json().user.mfaEnabled, false);
    });

    test('netloom users mfa-reset: the owner who lost the authenticator signs in with the password again; sessions ended', async () => {
      const u = await t.user();
      const c = await signedIn(u.email);
      await enrolAndLose(c);
      const stuck = await webClient(t.app).signIn(u.email);
      assert.equal(stuck.json().code, 'MFA_REQUIRED');
      const r = await cli(['users', 'mfa-reset', u.email]);
      assert.equal(r.code, 0, r.err);
      assert.deepEqual(r.out, { email: u.email, mfaCleared: true, endedSessions: 1 });
      assert.equal((await c.request('GET', '/app/api/session')).statusCode, 401, 'the sessions ended');
      const back = await webClient(t.app).signIn(u.email);
      assert.equal(back.statusCode, 200, back.body);
      assert.equal(back.json().user.mfaEnabled, false);
      const unknown = await cli(['users', 'mfa-reset', 'nobody@example.com']);
      assert.equal(unknown.code, 1);
    });

    test('a reset link keeps asking for the second factor; `reset-link --clear-mfa` lets the owner back in with the link alone', async () => {
      const u = await t.user();
      await enrolAndLose(await signedIn(u.email));
      const plain = await cli(['users', 'reset-link', u.email]);
      assert.equal(plain.code, 0, plain.err);
      const token = String(plain.out!.url).split('/link/')[1];
      const refused = await webClient(t.app).request('POST', `/app/api/links/${token}`, { body: { password: 'new passphrase 1' } });
      assert.equal(refused.json().code, 'MFA_REQUIRED');
      const cleared = await cli(['users', 'reset-link', u.email, '--clear-mfa']);
      assert.equal(cleared.code, 0, cleared.err);
      assert.equal(cleared.out!.mfaCleared, true);
      const link = String(cleared.out!.url).split('/link/')[1];
      const ok = await webClient(t.app).request('POST', `/app/api/links/${link}`, { body: { password: 'new passphrase 2' } });
      assert.equal(ok.statusCode, 200, ok.body);
      assert.equal((await webClient(t.app).signIn(u.email, 'new passphrase 2')).statusCode, 200);
    });
  });
}
