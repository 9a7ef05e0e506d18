// Networks API through the real HTTP stack, on SQLite and PostgreSQL.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync, deflateRawSync, gzipSync, brotliCompressSync, gunzipSync } from 'node:zlib';
import { testApp, bearer, basic, smallNetwork, DIALECTS, type TestApp } from './helpers/app.ts';

for (const dialect of DIALECTS) {
  describe(`networks API (${dialect})`, () => {
    let t: TestApp;
    let owner: { id: string; email: string; name: string };
    let token: string;
    before(async () => {
      t = await testApp(dialect);
      owner = await t.user({ plan: 'enterprise' });
      token = await t.token(owner.id);
    });
    after(async () => t.close());

    const create = (body: unknown, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: { ...bearer(token), ...headers }, payload: body as object });

    test('a client written for the original service works unchanged (Basic keys, string booleans, deflate/gzip, _id)', async () => {
      const keys = await t.keys(owner.id);
      const body = {
        name: 'Legacy',
        description: 'from the old client',
        fileType: 'GEXF',
        originalFileType: 'Excel',
        _id: 'ignored',
        networkUUID: 'ignored',
        isDirected: 'true',
        networkJSON: smallNetwork(),
      };
      for (const [enc, fn] of [['deflate', deflateSync], ['gzip', gzipSync], ['deflate', deflateRawSync], ['br', brotliCompressSync]] as const) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v2/networks',
          headers: { ...basic(keys), 'content-type': 'application/json', 'content-encoding': enc },
          payload: fn(Buffer.from(JSON.stringify(body))),
        });
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers.deprecation, 'true');
        assert.match(String(res.headers.link), /rel="deprecation"/);
        const created = res.json();
        assert.match(created._id, /^[0-9a-f]{24}$/);
        assert.notEqual(created._id, 'ignored');
        assert.equal(created.fileType, 'JSON');
        assert.equal(created.originalFileType, 'JSON');
        assert.equal(created.isDirected, true);
        assert.equal(created.status, 'Private');
        assert.equal(created.nodeCount, 3);
        assert.equal(created.edgeCount, 2);
        assert.equal(created.networkJSON, undefined);
        assert.deepEqual(created.owner, { _id: owner.id, name: owner.name });

        const got = await t.app.inject({ method: 'GET', url: `/api/v2/networks/${created._id}`, headers: basic(keys) });
        assert.equal(got.statusCode, 200);
        assert.deepEqual(got.json().networkJSON, smallNetwork());
        const gz = await t.app.inject({ method: 'GET', url: `/api/v2/networks/${created._id}`, headers: { ...basic(keys), 'accept-encoding': 'gzip' } });
        assert.equal(gz.headers['content-encoding'], 'gzip');
        assert.deepEqual(JSON.parse(gunzipSync(gz.rawPayload).toString()), got.json());
      }
    });

    test('GET/PUT/DELETE round-trip exactly what was sent; networkUUID changes on every JSON change', async () => {
      const res = await create({ name: 'RT', networkJSON: smallNetwork(), isDirected: false, status: 'Public', description: 'd' });
      assert.equal(res.statusCode, 200);
      const c = res.json();
      const net2 = { nodes: [{ id: 1, x: 1.5, y: -2, image: { url: 'https://example.com/a.png' }, attributes: { _hidden: 'x', score: 2.5 } }, { id: 2 }], edges: [{ id: 9, source: 1, target: 1 }, { id: 10, source: 1, target: 2 }, { id: 11, source: 1, target: 2 }] };
      const put = await t.app.inject({ method: 'PUT', url: `/api/v2/networks/${c._id}`, headers: bearer(token), payload: { name: 'RT2', networkJSON: net2 } });
      assert.equal(put.statusCode, 200, put.body);
      const p = put.json();
      assert.equal(p.name, 'RT2');
      // unsent description, isDirected and status keep their stored values (docs/spec/decisions.md §3)
      assert.equal(p.status, 'Public');
      assert.equal(p.isDirected, false);
      assert.equal(p.description, 'd');
      assert.notEqual(p.networkUUID, c.networkUUID);
      assert.ok(p.modified >= c.modified);
      const got = await t.app.inject({ method: 'GET', url: `/api/v2/networks/${c._id}`, headers: bearer(token) });
      assert.deepEqual(got.json().networkJSON, net2);
      const list = await t.app.inject({ method: 'GET', url: '/api/v2/networks', headers: bearer(token) });
      const item = list.json().find((n: { _id: string }) => n._id === c._id);
      assert.equal(item.name, 'RT2');
      assert.equal(item.networkJSON, undefined);
      assert.equal(item.edgeCount, 3);
      const del = await t.app.inject({ method: 'DELETE', url: `/api/v2/networks/${c._id}`, headers: bearer(token) });
      assert.deepEqual(del.json(), { _id: c._id, deleted: true });
      const gone = await t.app.inject({ method: 'GET', url: `/api/v2/networks/${c._id}`, headers: bearer(token) });
      assert.equal(gone.statusCode, 404);
      assert.equal(gone.json().code, 'NOT_FOUND');
    });

    test('empty and null attribute values are dropped on save', async () => {
      const res = await create({ name: 'attrs', networkJSON: { nodes: [{ id: 1, attributes: { a: '', b: null, c: 0, d: 'x' } }], edges: [] } });
      const got = await t.app.inject({ method: 'GET', url: `/api/v2/networks/${res.json()._id}`, headers: bearer(token) });
      assert.deepEqual(got.json().networkJSON.nodes[0].attributes, { c: 0, d: 'x' });
    });

    test('a bad network JSON gets one 400 listing every problem with JSON pointers', async () => {
      const res = await create({
        name: '',
        status: 'Open',
        isDirected: 'yes',
        networkJSON: {
          nodes: [{ id: 1, attributes: { ok: ['a list'] } }, { id: '1' }, { id: 2, image: { url: 'javascript:alert(1)' }, x: 'left' }, { attributes: {} }],
          edges: [{ id: 'e', source: 1, target: 'x9' }, { id: 'e', source: 2, target: 1 }],
        },
      });
      assert.equal(res.statusCode, 400);
      assert.match(String(res.headers['content-type']), /application\/problem\+json/);
      const body = res.json();
      assert.equal(body.code, 'INVALID_ARGS');
      const paths = body.errors.map((e: { path: string }) => e.path).sort();
      assert.deepEqual(paths, [
        '/isDirected',
        '/name',
        '/networkJSON/edges/0/target',
        '/networkJSON/edges/1/id',
        '/networkJSON/nodes/0/attributes/ok',
        '/networkJSON/nodes/1/id',
        '/networkJSON/nodes/2/image/url',
        '/networkJSON/nodes/2/x',
        '/networkJSON/nodes/3/id',
        '/status',
      ]);
      assert.match(body.errors.find((e: { path: string }) => e.path === '/networkJSON/edges/0/target').message, /x9/);
      assert.ok(body.requestId);
    });

    test('missing name / networkJSON, malformed JSON, wrong content type, unknown encoding', async () => {
      const r1 = await create({});
      assert.equal(r1.statusCode, 400);
      assert.deepEqual(r1.json().errors.map((e: { path: string }) => e.path).sort(), ['/name', '/networkJSON']);
      const r2 = await t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: { ...bearer(token), 'content-type': 'application/json' }, payload: '{"name": ' });
      assert.equal(r2.statusCode, 400);
      assert.equal(r2.json().code, 'INVALID_ARGS');
      const r3 = await t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: { ...bearer(token), 'content-type': 'text/plain' }, payload: 'hello' });
      assert.equal(r3.statusCode, 415);
      assert.equal(r3.json().code, 'UNSUPPORTED_MEDIA_TYPE');
      const r4 = await t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: { ...bearer(token), 'content-type': 'application/json', 'content-encoding': 'compress' }, payload: '{}' });
      assert.equal(r4.statusCode, 415);
      assert.equal(r4.json().code, 'UNSUPPORTED_ENCODING');
      const r5 = await t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: { ...bearer(token), 'content-type': 'application/json', 'content-encoding': 'gzip' }, payload: 'not gzip at all' });
      assert.equal(r5.statusCode, 400);
    });

    test('authentication: 401 with WWW-Authenticate for missing, malformed, unknown and revoked credentials', async () => {
      for (const headers of [{}, { authorization: 'Bearer nl_nope' }, { authorization: 'Basic !!!' }, { authorization: 'Token abc' }]) {
        const res = await t.app.inject({ method: 'GET', url: '/api/v2/networks', headers });
        assert.equal(res.statusCode, 401);
        assert.equal(res.json().code, 'UNAUTHENTICATED');
        assert.match(String(res.headers['www-authenticate']), /Bearer realm="netloom"/);
      }
      const u = await t.user();
      const tok = await t.token(u.id);
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/v2/networks', headers: bearer(tok) })).statusCode, 200);
      const { revokeCredential, listCredentials } = await import('../src/domain/identity/credentials/listing.ts');
      const [cred] = await listCredentials(t.database.db, { userId: u.id });
      await revokeCredential(t.database.db, cred._id);
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/v2/networks', headers: bearer(tok) })).statusCode, 401);
    });

    test('scope matrix: every endpoint × missing scope → 403 INSUFFICIENT_SCOPE; read never implies write and back', async () => {
      const u = await t.user();
      const full = await t.token(u.id);
      const id = (await t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: bearer(full), payload: { name: 'n', networkJSON: smallNetwork() } })).json()._id;
      const readOnly = await t.token(u.id, { scopes: ['networks:read', 'metrics:read', 'metrics:write'] });
      const writeOnly = await t.token(u.id, { scopes: ['networks:write'] });
      const none = await t.token(u.id, { scopes: ['surveys:read'] });
      const calls = [
        { method: 'GET', url: '/api/v2/networks', need: 'networks:read' },
        { method: 'GET', url: `/api/v2/networks/${id}`, need: 'networks:read' },
        { method: 'GET', url: '/api/v2/networks/000000000000000000000000', need: 'networks:read' },
        { method: 'POST', url: '/api/v2/networks', need: 'networks:write', payload: { name: 'x', networkJSON: smallNetwork() } },
        { method: 'PUT', url: `/api/v2/networks/${id}`, need: 'networks:write', payload: { name: 'x', networkJSON: smallNetwork() } },
        { method: 'DELETE', url: `/api/v2/networks/${id}`, need: 'networks:write' },
      ] as const;
      for (const c of calls) {
        const lacking = c.need === 'networks:read' ? [writeOnly, none] : [readOnly, none];
        for (const tok of lacking) {
          const res = await t.app.inject({ method: c.method, url: c.url, headers: bearer(tok), payload: 'payload' in c ? c.payload : undefined });
          assert.equal(res.statusCode, 403, `${c.method} ${c.url}`);
          assert.equal(res.json().code, 'INSUFFICIENT_SCOPE');
          assert.match(res.json().detail, new RegExp(c.need));
        }
      }
      // the network is untouched by every refused call
      const got = await t.app.inject({ method: 'GET', url: `/api/v2/networks/${id}`, headers: bearer(readOnly) });
      assert.equal(got.statusCode, 200);
      assert.equal(got.json().name, 'n');
    });

    test("another user's private network is 404 for GET, PUT and DELETE; a Public one is readable anonymously but not writable", async () => {
      const other = await t.user();
      const otherTok = await t.token(other.id);
      const priv = (await create({ name: 'private', networkJSON: smallNetwork() })).json()._id;
      const pub = (await create({ name: 'public', status: 'Public', networkJSON: smallNetwork() })).json()._id;
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const res = await t.app.inject({ method, url: `/api/v2/networks/${priv}`, headers: bearer(otherTok), payload: method === 'PUT' ? { name: 'x', networkJSON: smallNetwork() } : undefined });
        assert.equal(res.statusCode, 404, method);
      }
      const anon = await t.app.inject({ method: 'GET', url: `/api/v2/networks/${pub}` });
      assert.equal(anon.statusCode, 200);
      assert.equal(anon.json().name, 'public');
      assert.equal((await t.app.inject({ method: 'GET', url: `/api/v2/networks/${priv}` })).statusCode, 404);
      assert.equal((await t.app.inject({ method: 'GET', url: `/api/v2/networks/${pub}`, headers: { authorization: 'Bearer nl_invalid' } })).statusCode, 401);
      const put = await t.app.inject({ method: 'PUT', url: `/api/v2/networks/${pub}`, headers: bearer(otherTok), payload: { name: 'x', networkJSON: smallNetwork() } });
      assert.equal(put.statusCode, 403);
      const list = await t.app.inject({ method: 'GET', url: '/api/v2/networks', headers: bearer(otherTok) });
      assert.deepEqual(list.json(), []);
    });

    test('networks shared with a user: View reads, Edit writes, neither deletes', async () => {
      const { upsertShare } = await import('../src/store/networks.ts');
      const viewer = await t.user();
      const editor = await t.user();
      const vt = await t.token(viewer.id);
      const et = await t.token(editor.id);
      const id = (await create({ name: 'shared', networkJSON: smallNetwork() })).json()._id;
      await upsertShare(t.database.db, id, viewer.id, 'View');
      await upsertShare(t.database.db, id, editor.id, 'Edit');
      assert.equal((await t.app.inject({ method: 'GET', url: `/api/v2/networks/${id}`, headers: bearer(vt) })).statusCode, 200);
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/v2/networks', headers: bearer(vt) })).json().length, 1);
      const body = { name: 'edited', networkJSON: smallNetwork() };
      assert.equal((await t.app.inject({ method: 'PUT', url: `/api/v2/networks/${id}`, headers: bearer(vt), payload: body })).statusCode, 403);
      assert.equal((await t.app.inject({ method: 'PUT', url: `/api/v2/networks/${id}`, headers: bearer(et), payload: body })).statusCode, 200);
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/v2/networks/${id}`, headers: bearer(et) })).statusCode, 403);
    });

    test('plan maxima: 403 NETWORK_LIMIT_REACHED naming the owner', async () => {
      const free = await t.user({ plan: 'free', name: 'Frieda Free' });
      const ft = await t.token(free.id);
      for (let i = 0; i < 3; i++) {
        assert.equal((await t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: bearer(ft), payload: { name: `p${i}`, networkJSON: smallNetwork() } })).statusCode, 200);
      }
      const res = await t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: bearer(ft), payload: { name: 'p4', networkJSON: smallNetwork() } });
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().code, 'NETWORK_LIMIT_REACHED');
      assert.match(res.json().detail, /Frieda Free/);
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: bearer(ft), payload: { name: 'pub', status: 'Public', networkJSON: smallNetwork() } })).statusCode, 200);
    });

    test('organization credentials: owner rules of POST /networks', async () => {
      const admin = await t.user();
      const org = await t.org(admin.id);
      const member = await t.user();
      await t.member(org.id, member.id, 'Standard User');
      const accessOnly = await t.user();
      await t.member(org.id, accessOnly.id, 'Access-only');
      const suspended = await t.user({ status: 'suspended' });
      await t.member(org.id, suspended.id, 'Standard User');
      const outsider = await t.user();
      const orgTok = await t.token(admin.id, { orgId: org.id });
      const post = (owner?: string) =>
        t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: bearer(orgTok), payload: { name: 'o', networkJSON: smallNetwork(), ...(owner === undefined ? {} : { owner }) } });
      const byEmail = await post(member.email.toUpperCase());
      assert.equal(byEmail.statusCode, 200, byEmail.body);
      assert.equal(byEmail.json().owner._id, member.id);
      assert.equal((await post(member.id)).json().owner._id, member.id);
      assert.equal((await post()).json().owner._id, admin.id);
      const { createUser } = await import('../src/domain/identity/users.ts');
      const managed = await createUser(t.database.db, { email: `managed-${Date.now()}@managed.example.invalid`, name: 'Embedded viewer', kind: 'managed' });
      await t.member(org.id, managed.id, 'Standard User');
      for (const bad of [outsider.email, 'nobody@example.com', accessOnly.email, suspended.email, managed.id]) {
        const res = await post(bad);
        assert.equal(res.statusCode, 400, bad);
        assert.equal(res.json().code, 'INVALID_OWNER');
      }
      // the organization credential sees and edits members' networks
      const list = await t.app.inject({ method: 'GET', url: '/api/v2/networks', headers: bearer(orgTok) });
      assert.ok(list.json().length >= 3);
      // a user credential ignores `owner`
      const userTok = await t.token(member.id);
      const own = await t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: bearer(userTok), payload: { name: 'u', owner: admin.email, networkJSON: smallNetwork() } });
      assert.equal(own.json().owner._id, member.id);
      // creator who left the organization: owner required
      const leaver = await t.user();
      await t.member(org.id, leaver.id, 'Admin');
      const leaverTok = await t.token(leaver.id, { orgId: org.id });
      const { deleteMembership } = await import('../src/store/organizations.ts');
      await deleteMembership(t.database.db, org.id, leaver.id);
      const res = await t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: bearer(leaverTok), payload: { name: 'l', networkJSON: smallNetwork() } });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().code, 'OWNER_REQUIRED');
    });

    test('health, readiness, request ids and the OpenAPI document', async () => {
      const h = await t.app.inject({ method: 'GET', url: '/healthz' });
      assert.equal(h.statusCode, 200);
      assert.ok(h.headers['x-request-id']);
      const r = await t.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(r.statusCode, 200);
      assert.equal(r.json().database, dialect);
      const o = await t.app.inject({ method: 'GET', url: '/api/v2/openapi.json' });
      assert.equal(o.statusCode, 200);
      const doc = o.json();
      assert.equal(doc.openapi, '3.1.0');
      assert.ok(doc.paths['/api/v2/networks'].post);
      assert.ok(doc.paths['/api/v2/networks/{id}'].get);
      // every operation has a unique operationId (client generators name methods after them)
      const ids = Object.values(doc.paths as Record<string, Record<string, { operationId?: string }>>).flatMap((p) => Object.values(p).map((op) => op.operationId));
      assert.ok(ids.length > 40 && ids.every((i) => typeof i === 'string' && /^[a-z][A-Za-z0-9]+$/.test(i)), 'operationIds present');
      assert.equal(new Set(ids).size, ids.length, 'operationIds unique');
      assert.equal(doc.paths['/api/v2/networks/{id}'].get.operationId, 'getNetworksById');
      const page = await t.app.inject({ method: 'GET', url: '/docs/api/credentials' });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /Deprecat|deprecat/);
      assert.equal((await t.app.inject({ method: 'GET', url: '/docs/..%2F..%2Fpackage' })).statusCode, 404);
      const nf = await t.app.inject({ method: 'GET', url: '/api/v2/nothing-here', headers: bearer(token) });
      assert.equal(nf.statusCode, 404);
      assert.equal(nf.json().code, 'NOT_FOUND');
    });
  });
}

describe('limits', () => {
  test('per-credential rate limit: 429 RATE_LIMITED with Retry-After and RateLimit-* headers', async () => {
    const t = await testApp('sqlite', { NETLOOM_RATE_LIMIT_PER_HOUR: '3' });
    try {
      const u = await t.user();
      const tok = await t.token(u.id);
      const other = await t.token(u.id);
      for (let i = 0; i < 3; i++) {
        const res = await t.app.inject({ method: 'GET', url: '/api/v2/networks', headers: bearer(tok) });
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['ratelimit-limit'], '3');
        assert.equal(res.headers['ratelimit-remaining'], String(2 - i));
      }
      const res = await t.app.inject({ method: 'GET', url: '/api/v2/networks', headers: bearer(tok) });
      assert.equal(res.statusCode, 429);
      assert.equal(res.json().code, 'RATE_LIMITED');
      assert.ok(Number(res.headers['retry-after']) > 0);
      // limits are per credential
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/v2/networks', headers: bearer(other) })).statusCode, 200);
    } finally {
      await t.close();
    }
  });

  test('a compression bomb is refused with 413 without inflating it (memory stays flat; speed is in bench/, not here)', async () => {
    const t = await testApp('sqlite');
    try {
      const u = await t.user();
      const tok = await t.token(u.id);
      // 600 MB of spaces inside a JSON string, gzip-compressed to ~600 KB
      const chunk = Buffer.alloc(16 * 1024 * 1024, 0x20);
      const zlib = await import('node:zlib');
      const gz = zlib.createGzip({ level: 9 });
      const parts: Buffer[] = [];
      gz.on('data', (d: Buffer) => parts.push(d));
      const done = new Promise((r) => gz.on('end', r));
      gz.write('{"name":"bomb","networkJSON":{"nodes":[]},"pad":"');
      for (let i = 0; i < 600 / 16; i++) gz.write(chunk);
      gz.end('"}');
      await done;
      const body = Buffer.concat(parts);
      const rssBefore = process.memoryUsage().rss;
      const res = await t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: { ...bearer(tok), 'content-type': 'application/json', 'content-encoding': 'gzip' }, payload: body });
      assert.equal(res.statusCode, 413);
      assert.equal(res.json().code, 'PAYLOAD_TOO_LARGE');
      assert.ok(process.memoryUsage().rss - rssBefore < 200 * 1024 * 1024, 'memory stayed flat');
    } finally {
      await t.close();
    }
  });

  test('node and edge limits answer 413', async () => {
    const t = await testApp('sqlite', { NETLOOM_MAX_NODES: '2' });
    try {
      const u = await t.user();
      const res = await t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: bearer(await t.token(u.id)), payload: { name: 'big', networkJSON: smallNetwork() } });
      assert.equal(res.statusCode, 413);
      assert.equal(res.json().code, 'PAYLOAD_TOO_LARGE');
    } finally {
      await t.close();
    }
  });
});
