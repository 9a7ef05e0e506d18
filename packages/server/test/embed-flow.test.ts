// The full host flow of docs/spec/api.md through real HTTP, on SQLite and PostgreSQL: provision → grant → session →
// launch token → exchange → viewer calls → revoke → every later call 410.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from './helpers/app.ts';
import { embedFixture, openSession, accessToken, viewer, exchange, ORIGIN, VIEW, type EmbedFixture } from './helpers/embed.ts';

for (const dialect of DIALECTS) {
  describe(`embedding: host flow (${dialect})`, () => {
    let f: EmbedFixture;
    before(async () => {
      f = await embedFixture(dialect);
    });
    after(async () => f.t.close());

    test('provision → grant → session → launch token → exchange → viewer API → revoke → 410', async () => {
      const put = await f.host('PUT', '/api/v2/embed/users/alice@host|42', { displayName: 'Alice', chatAccess: 'presetOnly' });
      assert.equal(put.statusCode, 201, put.body);
      assert.deepEqual(Object.keys(put.json()).sort(), ['chatAccess', 'created', 'deactivatedAt', 'displayName', 'externalId', 'lastActiveAt', 'modified', 'networks', 'orgPermission', 'readOnly', 'status'].sort());
      assert.equal(put.json().orgPermission, 'Access-only');
      assert.equal(put.json().readOnly, false);
      const grant = await f.host('PUT', `/api/v2/embed/users/alice@host|42/networks/${f.networkId}`, { permission: 'Edit' });
      assert.equal(grant.statusCode, 200, grant.body);
      assert.deepEqual(grant.json().networks, [{ networkId: f.networkId, name: 'Team', permission: 'Edit' }]);

      const s = await f.host('POST', '/api/v2/embed/sessions', { externalId: 'alice@host|42', networkIds: [f.networkId], origin: ORIGIN, ui: { menu: ['filter', 'layout'], aiChat: false }, header: 'title' });
      assert.equal(s.statusCode, 201, s.body);
      const sess = s.json();
      assert.deepEqual(Object.keys(sess).sort(), ['expiresAt', 'header', 'launchToken', 'launchTokenExpiresAt', 'sessionId', 'ui']);
      assert.deepEqual(sess.ui, { menu: ['layout', 'filter'], aiChat: false });
      assert.equal(sess.header, 'title');
      assert.equal(Date.parse(sess.expiresAt) - f.clock.now, 60 * 60_000);
      assert.equal(Date.parse(sess.launchTokenExpiresAt) - f.clock.now, 60_000);

      const page = await f.app.inject({ method: 'GET', url: `/embed/${sess.sessionId}` });
      assert.equal(page.statusCode, 200);
      assert.match(String(page.headers['content-security-policy']), new RegExp(`frame-ancestors ${ORIGIN.replaceAll('.', '\\.')}(;|$)`));
      assert.equal(page.headers['referrer-policy'], 'no-referrer');
      assert.equal(page.headers['set-cookie'], undefined);

      const ex = await exchange(f.app, sess.sessionId, sess.launchToken);
      assert.equal(ex.statusCode, 200, ex.body);
      const { accessToken: at, expiresAt } = ex.json();
      assert.match(at, /^nla_/);
      assert.equal(Date.parse(expiresAt) - f.clock.now, 15 * 60_000);

      const info = await viewer(f.app, at, 'GET', 'session');
      assert.equal(info.statusCode, 200, info.body);
      const i = info.json();
      assert.equal(i.displayName, 'Alice');
      assert.deepEqual(i.capabilities, { view: true, edit: true, saveViews: true, runMetrics: true, chat: 'off', chatReason: 'hidden' });
      assert.equal(i.chatAccess, 'presetOnly');
      assert.deepEqual(i.network, { networkId: f.networkId, name: 'Team', permission: 'Edit' });
      assert.deepEqual(i.ui, { menu: ['layout', 'filter'], aiChat: false });
      assert.equal(i.expiresAt, sess.expiresAt);

      const net = await viewer(f.app, at, 'GET', 'network');
      assert.equal(net.statusCode, 200, net.body);
      assert.equal(net.json().nodeCount, 3);
      const dataUrl = new URL(net.json().dataUrl);
      assert.equal(Date.parse(net.json().dataUrlExpiresAt) - f.clock.now, 5 * 60_000);
      const data = await f.app.inject({ method: 'GET', url: dataUrl.pathname + dataUrl.search });
      assert.equal(data.statusCode, 200, data.body);
      assert.equal(data.json().nodes.length, 3);
      const tampered = await f.app.inject({ method: 'GET', url: dataUrl.pathname + dataUrl.search.replace(/exp=\d+/, `exp=${f.clock.now + 3_600_000}`) });
      assert.equal(tampered.statusCode, 403);

      const saved = await viewer(f.app, at, 'POST', 'views', VIEW);
      assert.equal(saved.statusCode, 201, saved.body);
      const v = saved.json();
      assert.equal(v.version, 1);
      assert.deepEqual(v.layers, VIEW.layers);
      const list = await viewer(f.app, at, 'GET', 'views');
      assert.deepEqual(list.json().map((x: { id: string }) => x.id), [v.id]);
      const open = await viewer(f.app, at, 'GET', `views/${v.id}`);
      assert.equal(open.json().name, 'Sales only');
      const upd = await viewer(f.app, at, 'PUT', `views/${v.id}`, { camera: { x: 1, y: 2, ratio: 0.5, angle: 0 }, layers: [], display: VIEW.display });
      assert.equal(upd.statusCode, 200, upd.body);
      assert.deepEqual(upd.json().camera, { x: 1, y: 2, ratio: 0.5, angle: 0 });
      // Visible to the network's other users through the ordinary API.
      const ordinary = await f.host('GET', `/api/v2/networks/${f.networkId}/views`);
      assert.equal(ordinary.statusCode, 200, ordinary.body);
      assert.equal(ordinary.json()[0].id, v.id);

      const m = await viewer(f.app, at, 'POST', 'metrics/nodes/inDegree', {});
      assert.equal(m.statusCode, 200, m.body);
      assert.deepEqual(m.json().values, { 'In Degree': { a: 0, b: 1, '3': 1 } });
      const mn = await viewer(f.app, at, 'POST', 'metrics/network/diameter', {});
      assert.equal(mn.statusCode, 200, mn.body);
      assert.equal(mn.json(), 2);
      const hb = await viewer(f.app, at, 'POST', 'heartbeat');
      assert.equal(hb.statusCode, 200, hb.body);

      // A new launch token for the same session (the SDK's refresh), exchanged again.
      const lt = await f.host('POST', `/api/v2/embed/sessions/${sess.sessionId}/launch-tokens`);
      assert.equal(lt.statusCode, 200, lt.body);
      assert.deepEqual(Object.keys(lt.json()), ['launchToken']);
      const at2 = await accessToken(f, sess.sessionId, lt.json().launchToken);

      const lt2 = await f.host('POST', `/api/v2/embed/sessions/${sess.sessionId}/launch-tokens`);
      const rev = await f.host('DELETE', `/api/v2/embed/sessions/${sess.sessionId}`);
      assert.equal(rev.statusCode, 200);
      assert.deepEqual(rev.json(), { sessionId: sess.sessionId, revoked: true });
      assert.deepEqual((await f.host('DELETE', `/api/v2/embed/sessions/${sess.sessionId}`)).json(), { sessionId: sess.sessionId, revoked: true });

      for (const token of [at, at2]) {
        for (const [method, path] of [['GET', 'session'], ['GET', 'network'], ['GET', 'views'], ['POST', 'heartbeat'], ['POST', 'metrics/nodes/inDegree']] as const) {
          const r = await viewer(f.app, token, method, path, method === 'POST' ? {} : undefined);
          assert.equal(r.statusCode, 410, `${method} ${path}: ${r.body}`);
          assert.equal(r.json().code, 'SESSION_EXPIRED');
        }
      }
      const ltAfter = await f.host('POST', `/api/v2/embed/sessions/${sess.sessionId}/launch-tokens`);
      assert.equal(ltAfter.statusCode, 410);
      const exAfter = await exchange(f.app, sess.sessionId, lt2.json().launchToken);
      assert.equal(exAfter.statusCode, 410, exAfter.body);
      const pageAfter = await f.app.inject({ method: 'GET', url: `/embed/${sess.sessionId}` });
      assert.match(String(pageAfter.headers['content-security-policy']), /frame-ancestors 'none'/);

      // The signed data link already issued keeps working up to 5 minutes, then stops.
      f.clock.advance(4 * 60_000);
      assert.equal((await f.app.inject({ method: 'GET', url: dataUrl.pathname + dataUrl.search })).statusCode, 200);
      f.clock.advance(61_000);
      assert.equal((await f.app.inject({ method: 'GET', url: dataUrl.pathname + dataUrl.search })).statusCode, 403);

      const audit = await f.host('GET', '/api/v2/embed/audit?limit=100');
      assert.equal(audit.statusCode, 200, audit.body);
      const actions = audit.json().entries.map((e: { action: string }) => e.action);
      for (const a of ['user.create', 'grant.set', 'session.create', 'launch_token.issue', 'launch_token.redeem', 'view.save', 'view.update', 'metric.run', 'session.revoke']) {
        assert.ok(actions.includes(a), `audit has ${a}: ${actions.join(', ')}`);
      }
    });

    test('deleting a network deletes its views, grants and sessions', async () => {
      const netId = await f.createNetwork('Doomed');
      const s = await openSession(f, { networkId: netId });
      const at = await accessToken(f, s.sessionId, s.launchToken);
      assert.equal((await viewer(f.app, at, 'POST', 'views', VIEW)).statusCode, 201);
      const del = await f.host('DELETE', `/api/v2/networks/${netId}`);
      assert.equal(del.statusCode, 200, del.body);
      const db = f.t.database.db;
      assert.equal((await db.selectFrom('embed_views').selectAll().where('network_id', '=', netId).execute()).length, 0);
      assert.equal((await db.selectFrom('embed_grants').selectAll().where('network_id', '=', netId).execute()).length, 0);
      assert.equal((await db.selectFrom('embed_sessions').selectAll().where('network_id', '=', netId).execute()).length, 0);
      const u = await f.host('GET', `/api/v2/embed/users/${s.externalId}`);
      assert.deepEqual(u.json().networks, []);
      const r = await viewer(f.app, at, 'GET', 'session');
      assert.ok(r.statusCode === 410 || r.statusCode === 401, r.body);
    });
  });
}
