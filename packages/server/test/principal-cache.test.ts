/**
 * The principal cache (domain/identity/credentials/principal-cache.ts, store/migrations/0004-auth-epoch.ts) never outlives a
 * change: on SQLite and PostgreSQL, a credential revoked by the CLI in another process, or a credential,
 * user or organization changed through another database connection or another server instance, takes
 * effect on the very next request after a warm cache; lastUsedAt is still maintained (once a minute)
 * without invalidating the cache.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { after, before, describe, mock, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import { sql, type Kysely } from 'kysely';
import { buildApp } from '../src/app.ts';
import { openDatabase, sqliteFile, type DatabaseHandle } from '../src/store/db.ts';
import { getCredentialById, readAuthEpoch } from '../src/store/credentials.ts';
import { createToken } from '../src/domain/identity/credentials/tokens.ts';
import type { Database } from '../src/store/schema.ts';
import { testDialects } from './helpers/db.ts';
import { basic, bearer, smallNetwork, testApp, type TestApp } from './helpers/app.ts';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'netloom.js');

function cliEnv(t: TestApp): Record<string, string> {
  return {
    ...process.env,
    LOG_LEVEL: 'silent',
    NETLOOM_DATA_DIR: t.config.dataDir,
    DATABASE_URL: t.config.databaseUrl ?? '',
    NETLOOM_DB_SCHEMA: t.config.databaseSchema ?? '',
  } as Record<string, string>;
}

function cli(env: Record<string, string>, args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout, err: stderr });
    });
  });
}

for (const { dialect, skip } of await testDialects()) {
  describe(`principal cache (${dialect})`, { skip }, () => {
    let t: TestApp;
    /** A second, independent connection to the same database (another process's view). */
    let other: DatabaseHandle;
    let otherDb: Kysely<Database>;
    let netId: string;
    let ownerId: string;

    before(async () => {
      t = await testApp(dialect);
      other = await openDatabase(t.config);
      otherDb = other.db;
      const u = await t.user();
      ownerId = u.id;
      const token = await t.token(u.id);
      const res = await t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: bearer(token), payload: { name: 'n', networkJSON: smallNetwork() } });
      assert.equal(res.statusCode, 200, res.body);
      netId = res.json()._id;
    });
    after(async () => {
      await other?.close();
      await t?.close();
    });

    const get = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: `/api/v2/networks/${netId}`, headers });
    async function warm(headers: Record<string, string>, expected = 200): Promise<void> {
      for (let i = 0; i < 5; i++) assert.equal((await get(headers)).statusCode, expected);
    }

    test('a token revoked by `netloom tokens revoke` in another process is refused on the next request', async () => {
      const token = await t.token(ownerId);
      await warm(bearer(token));
      const id = (await t.database.db.selectFrom('credentials').select('id').where('prefix', '=', token.slice(0, 11)).executeTakeFirstOrThrow()).id;
      const r = await cli(cliEnv(t), ['tokens', 'revoke', '--id', id]);
      assert.equal(r.code, 0, r.err);
      const res = await get(bearer(token));
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().code, 'UNAUTHENTICATED');
      assert.ok(res.headers['www-authenticate']);
    });

    test('revocation, scope change and suspension through another connection are effective on the next request', async () => {
      const u = await t.user();
      await t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: bearer(await t.token(ownerId)), payload: { name: 'x', networkJSON: smallNetwork() } });
      // revocation
      const a = await createToken(t.database.db, { userId: ownerId });
      await warm(bearer(a.token));
      await otherDb.updateTable('credentials').set({ revoked_at: new Date().toISOString() }).where('id', '=', a.credential.id).execute();
      assert.equal((await get(bearer(a.token))).statusCode, 401);
      // scopes narrowed: networks:read removed → 403 naming the scope
      const b = await createToken(t.database.db, { userId: ownerId });
      await warm(bearer(b.token));
      await otherDb.updateTable('credentials').set({ scopes: JSON.stringify(['metrics:read']) }).where('id', '=', b.credential.id).execute();
      const res = await get(bearer(b.token));
      assert.equal(res.statusCode, 403);
      assert.match(res.json().detail, /networks:read/);
      // the owner suspended → every user credential refused
      const c = await createToken(t.database.db, { userId: u.id });
      const list = (h: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/v2/networks', headers: h });
      for (let i = 0; i < 3; i++) assert.equal((await list(bearer(c.token))).statusCode, 200);
      await otherDb.updateTable('users').set({ status: 'suspended' }).where('id', '=', u.id).execute();
      assert.equal((await list(bearer(c.token))).statusCode, 401);
    });

    test('a Basic key pair is checked on every request even when cached; revocation by another connection', async () => {
      const k = await t.keys(ownerId);
      await warm(basic(k));
      assert.equal((await get(basic({ publicKey: k.publicKey, privateKey: k.privateKey.slice(0, -1) + (k.privateKey.endsWith('a') ? 'b' : 'a') }))).statusCode, 401, 'wrong private key, same public key');
      assert.equal((await get(basic(k))).statusCode, 200);
      await otherDb.updateTable('credentials').set({ revoked_at: new Date().toISOString() }).where('prefix', '=', k.publicKey).execute();
      assert.equal((await get(basic(k))).statusCode, 401);
    });

    test('another server instance on the same database sees a revocation committed through the first one', async () => {
      const second = await buildApp(t.config, { database: other, logger: false });
      try {
        await second.ready();
        const token = await t.token(ownerId);
        const id = (await t.database.db.selectFrom('credentials').select('id').where('prefix', '=', token.slice(0, 11)).executeTakeFirstOrThrow()).id;
        for (let i = 0; i < 3; i++) {
          assert.equal((await second.inject({ method: 'GET', url: `/api/v2/networks/${netId}`, headers: bearer(token) })).statusCode, 200);
        }
        assert.equal((await get(bearer(token))).statusCode, 200, 'cached by the first instance too');
        await sql`update credentials set revoked_at = ${new Date().toISOString()} where id = ${id}`.execute(t.database.db);
        assert.equal((await second.inject({ method: 'GET', url: `/api/v2/networks/${netId}`, headers: bearer(token) })).statusCode, 401);
        assert.equal((await get(bearer(token))).statusCode, 401);
      } finally {
        await second.close();
      }
    });

    test('the epoch moves with principal changes only: not with lastUsedAt, network writes or new users', async () => {
      const db = t.database.db;
      const e0 = await readAuthEpoch(db);
      const { token, credential } = await createToken(db, { userId: ownerId });
      await t.user();
      await t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: bearer(token), payload: { name: 'y', networkJSON: smallNetwork() } });
      assert.ok((await getCredentialById(db, credential.id))!.last_used_at !== null, 'lastUsedAt written on first use');
      assert.equal(await readAuthEpoch(db), e0);
      await otherDb.updateTable('users').set({ name: 'Renamed' }).where('id', '=', ownerId).execute();
      assert.ok((await readAuthEpoch(db)) > e0);
    });

    test('concurrent epoch reads are shared, but a caller never gets a read that started before its call', async () => {
      const db = t.database.db;
      const e0 = await readAuthEpoch(db);
      const p1 = readAuthEpoch(db);
      if (dialect === 'sqlite') {
        // committed by another connection while p1 (which read e0) has not delivered yet
        const raw = new DatabaseSync(sqliteFile(t.config.dataDir), { timeout: 10_000 });
        raw.prepare('update users set name = ? where id = ?').run('Concurrent', ownerId);
        raw.close();
      } else {
        await otherDb.updateTable('users').set({ name: 'Concurrent' }).where('id', '=', ownerId).execute();
      }
      const p2 = readAuthEpoch(db);
      const p3 = readAuthEpoch(db);
      const [v1, v2, v3] = await Promise.all([p1, p2, p3]);
      if (dialect === 'sqlite') assert.equal(v1, e0, 'p1 read before the change');
      assert.ok(v2 > e0, `the change is seen by a read asked for after it (${e0} → ${v2})`);
      assert.equal(v3, v2, 'callers waiting meanwhile share one read');
    });

    test('lastUsedAt is still written (at most once a minute) while the principal is served from the cache', async () => {
      const db = t.database.db;
      const { token, credential } = await createToken(db, { userId: ownerId });
      await warm(bearer(token));
      const first = (await getCredentialById(db, credential.id))!.last_used_at;
      assert.ok(first !== null);
      const epoch = await readAuthEpoch(db);
      mock.timers.enable({ apis: ['Date'], now: Date.parse(first) + 61_000 });
      try {
        await warm(bearer(token));
      } finally {
        mock.timers.reset();
      }
      const second = (await getCredentialById(db, credential.id))!.last_used_at;
      assert.ok(second !== null && Date.parse(second) >= Date.parse(first) + 60_000, `lastUsedAt moved on: ${first} → ${second}`);
      assert.equal(await readAuthEpoch(db), epoch, 'writing lastUsedAt does not flush the cache');
    });
  });
}
