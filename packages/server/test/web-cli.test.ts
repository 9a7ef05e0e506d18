/**
 * `netloom users invite` and `netloom users reset-link` (the real CLI process) print one-time links that
 * the web app redeems (docs/web-app.md "Invitations and password resets").
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../src/app.ts';
import { createOrganization, createUser } from '../src/domain/identity/users.ts';
import { openTestDatabase, testDialects, type TestDatabase } from './helpers/db.ts';
import { webClient } from './helpers/web.ts';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'netloom.js');

function cli(env: Record<string, string>, args: string[]): Promise<{ code: number; out: Record<string, string> | null; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, ...env, NETLOOM_DB_SCHEMA: env.NETLOOM_DB_SCHEMA ?? '', DATABASE_URL: env.DATABASE_URL ?? '' } }, (error, stdout, stderr) => {
      resolve({ code: error ? 1 : 0, out: stdout ? JSON.parse(stdout) : null, err: stderr });
    });
  });
}

for (const { dialect, skip } of await testDialects()) {
  describe(`netloom users invite / reset-link (${dialect})`, { skip }, () => {
    let t: TestDatabase;
    before(async () => {
      t = await openTestDatabase(dialect, { NETLOOM_PUBLIC_URL: 'https://netloom.example.com' });
    });
    after(async () => {
      await t?.close();
    });

    test('invite into an organization with a role, then reset-link; both redeem once in the web app', async () => {
      const owner = await createUser(t.db, { email: 'boss@example.com', name: 'Boss', password: 'boss password 1' });
      await createOrganization(t.db, { name: 'CLI Org', plan: 'enterprise', ownerUserId: owner.id });
      const inv = await cli(t.env, ['users', 'invite', 'Guest@Example.com', '--org', 'CLI Org', '--role', 'Admin']);
      assert.equal(inv.code, 0, inv.err);
      assert.match(inv.out!.url, /^https:\/\/netloom\.example\.com\/link\/nlk_[A-Za-z0-9_-]{43}$/);
      assert.equal(inv.out!.organization, 'CLI Org');
      const bad = await cli(t.env, ['users', 'invite', 'x@example.com', '--org', 'CLI Org', '--role', 'King']);
      assert.equal(bad.code, 1);
      assert.match(bad.err, /INVALID_ARGS/);
      assert.equal((await cli(t.env, ['users', 'reset-link', 'nobody@example.com'])).code, 1);

      const app = await buildApp(t.config, { database: t.handle, logger: false });
      try {
        const c = webClient(app);
        const token = inv.out!.url.split('/link/')[1];
        const red = await c.request('POST', `/app/api/links/${token}`, { body: { name: 'Guest', password: 'guest passphrase' } });
        assert.equal(red.statusCode, 200, red.body);
        assert.equal(red.json().organization.role, 'Admin');
        assert.equal(red.json().user.email, 'guest@example.com');

        const reset = await cli(t.env, ['users', 'reset-link', 'guest@example.com']);
        assert.equal(reset.code, 0, reset.err);
        const rt = reset.out!.url.split('/link/')[1];
        const r = await webClient(app).request('POST', `/app/api/links/${rt}`, { body: { password: 'second passphrase' } });
        assert.equal(r.statusCode, 200, r.body);
        assert.equal((await webClient(app).request('POST', `/app/api/links/${rt}`, { body: { password: 'third passphrase' } })).statusCode, 404);
        assert.equal((await c.request('GET', '/app/api/session')).statusCode, 401, 'the reset ended the old session');
        assert.equal((await webClient(app).signIn('guest@example.com', 'second passphrase')).statusCode, 200);
      } finally {
        await app.close();
      }
    });
  });
}
