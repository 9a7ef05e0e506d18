// Security of embedding through real HTTP: who is refused, and that no token ever appears in a log line
// or in any response other than the one that issued it (all log output captured from pino).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { buildApp, loggerOptions } from '../src/app.ts';
import { openDatabase } from '../src/store/db.ts';
import { migrate } from '../src/store/migrations/index.ts';
import { createUser, createOrganization } from '../src/domain/identity/users.ts';
import { createToken } from '../src/domain/identity/credentials/tokens.ts';
import { DIALECTS, bearer, testApp, smallNetwork } from './helpers/app.ts';
import { embedFixture, openSession, accessToken, viewer, exchange, ORIGIN, OPERATOR_TOKEN, VIEW, type EmbedFixture } from './helpers/embed.ts';

for (const dialect of DIALECTS) {
  describe(`embedding: security (${dialect})`, () => {
    let f: EmbedFixture;
    let g: EmbedFixture;
    before(async () => {
      f = await embedFixture(dialect);
      g = await embedFixture(dialect);
    });
    after(async () => {
      await f.t.close();
      await g.t.close();
    });

    test('refused: no credential, a credential without embed:manage, a user-owned credential, another organization’s credential', async () => {
      const s = await openSession(f, { externalId: 'victim' });
      const calls: [string, string, unknown?][] = [
        ['GET', '/api/v2/embed/settings'],
        ['PUT', '/api/v2/embed/settings', { allowedOrigins: ['https://evil.example.com'] }],
        ['GET', '/api/v2/embed/users'],
        ['GET', '/api/v2/embed/users/victim'],
        ['PUT', '/api/v2/embed/users/victim', { displayName: 'Hijacked' }],
        ['PUT', `/api/v2/embed/users/victim/networks/${f.networkId}`, { permission: 'Edit' }],
        ['DELETE', `/api/v2/embed/users/victim/networks/${f.networkId}`],
        ['POST', '/api/v2/embed/users/victim/deactivate'],
        ['POST', '/api/v2/embed/sessions', { externalId: 'victim', networkIds: [f.networkId], origin: ORIGIN }],
        ['POST', `/api/v2/embed/sessions/${s.sessionId}/launch-tokens`],
        ['DELETE', `/api/v2/embed/sessions/${s.sessionId}`],
        ['GET', '/api/v2/embed/audit'],
      ];
      const noScope = await f.t.token(f.ownerId, { orgId: f.orgId, scopes: ['networks:read', 'networks:write', 'metrics:write'] });
      const userOwned = await f.t.token(f.ownerId);
      for (const [method, url, payload] of calls) {
        const inject = (headers: Record<string, string>) => f.app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload: payload as object } : {}) });
        const anon = await inject({});
        assert.equal(anon.statusCode, 401, `anonymous ${method} ${url}`);
        const a = await inject(bearer(noScope));
        assert.equal(a.statusCode, 403, `no scope ${method} ${url}`);
        assert.equal(a.json().code, 'INSUFFICIENT_SCOPE');
        assert.match(a.json().detail, /embed:manage/);
        const b = await inject(bearer(userOwned));
        assert.equal(b.statusCode, 403, `user-owned ${method} ${url}`);
        assert.equal(b.json().code, 'FORBIDDEN');
      }
      // Another organization (embedding enabled too) sees nothing of this one: externalIds are per
      // organization (its own "victim" would be another user); A's sessions and networks are 404 to it.
      assert.equal((await g.host('GET', '/api/v2/embed/users/victim')).statusCode, 404);
      assert.equal((await g.host('POST', `/api/v2/embed/sessions/${s.sessionId}/launch-tokens`)).statusCode, 404);
      assert.equal((await g.host('DELETE', `/api/v2/embed/sessions/${s.sessionId}`)).statusCode, 404);
      const grant = await g.host('PUT', '/api/v2/embed/users/intruder', { displayName: 'I' });
      assert.equal(grant.statusCode, 201);
      assert.equal((await g.host('PUT', `/api/v2/embed/users/intruder/networks/${f.networkId}`, { permission: 'View' })).statusCode, 404);
      assert.equal((await g.host('GET', '/api/v2/embed/users')).json().users.some((u: { externalId: string }) => u.externalId === 'victim'), false);
      // The victim is untouched and its session still lives.
      const v = await f.host('GET', '/api/v2/embed/users/victim');
      assert.equal(v.json().displayName, 'Viewer victim');
      assert.equal(v.json().status, 'active');
      assert.equal((await exchange(f.app, s.sessionId, s.launchToken)).statusCode, 200);
      // An API credential is not a viewer access token, and vice versa.
      assert.equal((await viewer(f.app, f.orgToken, 'GET', 'session')).statusCode, 401);
      const at = await accessToken(f, s.sessionId, (await f.host('POST', `/api/v2/embed/sessions/${s.sessionId}/launch-tokens`)).json().launchToken);
      assert.equal((await f.app.inject({ method: 'GET', url: '/api/v2/networks', headers: bearer(at) })).statusCode, 401);
      // Members list: org admins only.
      const plain = await f.t.user();
      await f.t.member(f.orgId, plain.id, 'Standard User');
      assert.equal((await f.app.inject({ method: 'GET', url: '/api/v2/organization/members', headers: bearer(await f.t.token(plain.id)) })).statusCode, 403);
      assert.equal((await f.app.inject({ method: 'GET', url: '/api/v2/organization/members', headers: bearer(userOwned) })).statusCode, 200);
      // … and the credential needs employees:read: names, e-mails and roles are people data (docs/spec/decisions.md §9).
      const metricsOnly = await f.t.token(f.ownerId, { orgId: f.orgId, scopes: ['metrics:write', 'networks:read'] });
      const refused = await f.app.inject({ method: 'GET', url: '/api/v2/organization/members', headers: bearer(metricsOnly) });
      assert.equal(refused.statusCode, 403, refused.body);
      assert.equal(refused.json().code, 'INSUFFICIENT_SCOPE');
      assert.match(refused.json().detail, /employees:read/);
      assert.doesNotMatch(refused.body, /@/);
      const peopleReader = await f.t.token(f.ownerId, { orgId: f.orgId, scopes: ['employees:read'] });
      assert.equal((await f.app.inject({ method: 'GET', url: '/api/v2/organization/members', headers: bearer(peopleReader) })).statusCode, 200);
      // Views of a network: same visibility as the network.
      assert.equal((await f.app.inject({ method: 'GET', url: `/api/v2/networks/${f.networkId}/views`, headers: bearer(await f.t.token(plain.id)) })).statusCode, 404);
      assert.equal((await g.host('GET', `/api/v2/networks/${f.networkId}/views`)).statusCode, 404);
    });

    test('operator API absent without NETLOOM_OPERATOR_TOKEN', async () => {
      const t = await testApp(dialect);
      try {
        const r = await t.app.inject({ method: 'GET', url: '/api/v2/operator/organizations/0123456789abcdef01234567/embedding', headers: bearer(OPERATOR_TOKEN) });
        assert.equal(r.statusCode, 404);
      } finally {
        await t.close();
      }
    });
  });
}

describe('embedding: no token in any log line or foreign response', () => {
  test('full flow with all log output captured (trace level)', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const dir = mkdtempSync(join(tmpdir(), 'netloom-sec-'));
    const config = loadConfig({ NETLOOM_DATA_DIR: dir, LOG_LEVEL: 'trace', NETLOOM_OPERATOR_TOKEN: OPERATOR_TOKEN });
    const database = await openDatabase(config);
    await migrate(database.db);
    const app = await buildApp(config, { database, logger: { ...loggerOptions(config), level: 'trace', stream } });
    try {
      const owner = await createUser(database.db, { email: 'sec@example.com', name: 'Sec', plan: 'enterprise', password: 'long enough pw' });
      const { org } = await createOrganization(database.db, { name: 'Sec Org', plan: 'enterprise', ownerUserId: owner.id });
      const { token } = await createToken(database.db, { userId: owner.id, orgId: org.id });
      const secrets = new Set<string>([token, OPERATOR_TOKEN]);
      const responses: { body: string; issued: string[] }[] = [];
      const call = async (method: string, url: string, headers: Record<string, string>, payload?: unknown, issues: string[] = []) => {
        const r = await app.inject({ method: method as 'GET', url, headers, ...(payload !== undefined ? { payload: payload as object } : {}) });
        const body = r.body;
        const json = (() => {
          try {
            return JSON.parse(body) as Record<string, unknown>;
          } catch {
            return {};
          }
        })();
        const issued = issues.map((k) => String(json[k] ?? '')).filter(Boolean);
        issued.forEach((s) => secrets.add(s));
        responses.push({ body: body + JSON.stringify(r.headers), issued });
        return { status: r.statusCode, json };
      };
      const h = bearer(token);
      assert.equal((await call('PUT', `/api/v2/operator/organizations/${org.id}/embedding`, bearer(OPERATOR_TOKEN), { enabled: true, seats: 5 })).status, 200);
      await call('PUT', '/api/v2/embed/settings', h, { allowedOrigins: [ORIGIN], dataDisclosureAccepted: true });
      const net = await call('POST', '/api/v2/networks', h, { name: 'N', networkJSON: smallNetwork() });
      const netId = net.json._id as string;
      await call('PUT', '/api/v2/embed/users/sec-user', h, { displayName: 'S' });
      await call('PUT', `/api/v2/embed/users/sec-user/networks/${netId}`, h, { permission: 'Edit' });
      const s = await call('POST', '/api/v2/embed/sessions', h, { externalId: 'sec-user', networkIds: [netId], origin: ORIGIN }, ['launchToken']);
      const sessionId = s.json.sessionId as string;
      const lt = s.json.launchToken as string;
      const ex = await call('POST', `/api/v2/embed/sessions/${sessionId}/access-tokens`, {}, { launchToken: lt }, ['accessToken']);
      assert.equal(ex.status, 200);
      await call('POST', `/api/v2/embed/sessions/${sessionId}/access-tokens`, {}, { launchToken: lt }); // reuse: refused
      await call('POST', `/api/v2/embed/sessions/${sessionId}/access-tokens`, {}, { launchToken: 'nll_' + lt.slice(4, -1) + 'x' });
      const at = ex.json.accessToken as string;
      const vh = { authorization: `Bearer ${at}` };
      await call('GET', '/api/v2/embed/viewer/session', vh);
      const n = await call('GET', '/api/v2/embed/viewer/network', vh, undefined, ['dataUrl']);
      const dataUrl = new URL(n.json.dataUrl as string);
      secrets.add(dataUrl.searchParams.get('sig')!);
      await call('GET', dataUrl.pathname + dataUrl.search, {});
      await call('POST', '/api/v2/embed/viewer/views', vh, VIEW);
      await call('POST', '/api/v2/embed/viewer/metrics/nodes/inDegree', vh, {});
      await call('POST', '/api/v2/embed/viewer/metrics/nodes/inDegree', vh, { bogus: 1 });
      const lt2 = await call('POST', `/api/v2/embed/sessions/${sessionId}/launch-tokens`, h, undefined, ['launchToken']);
      await call('GET', `/embed/${sessionId}`, {});
      await call('DELETE', `/api/v2/embed/sessions/${sessionId}`, h);
      await call('GET', '/api/v2/embed/viewer/session', vh);
      await call('POST', `/api/v2/embed/sessions/${sessionId}/access-tokens`, {}, { launchToken: lt2.json.launchToken });
      await call('GET', '/api/v2/embed/audit', h);
      await call('GET', '/api/v2/embed/viewer/session', { authorization: `Bearer ${at}x` });

      assert.ok(lines.length > 20, 'logs were captured');
      const log = lines.join('');
      for (const secret of secrets) {
        assert.ok(!log.includes(secret), `a secret (${secret.slice(0, 6)}…) appears in the log`);
        // Only the response that issued a token contains it.
        const holders = responses.filter((r) => r.body.includes(secret));
        assert.ok(holders.every((r) => r.issued.some((i) => i.includes(secret))), `a secret (${secret.slice(0, 6)}…) appears in a response that did not issue it`);
      }
      // Stored at rest only hashed.
      const tokens = await database.db.selectFrom('embed_tokens').selectAll().execute();
      assert.ok(tokens.length >= 3);
      for (const row of tokens) assert.match(row.hash, /^[0-9a-f]{64}$/);
      const dump = JSON.stringify(await database.db.selectFrom('embed_tokens').selectAll().execute()) + JSON.stringify(await database.db.selectFrom('embed_audit').selectAll().execute());
      for (const secret of secrets) assert.ok(!dump.includes(secret), 'a secret is stored in clear');
    } finally {
      await app.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
