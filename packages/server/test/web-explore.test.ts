// Explore from the web app through the real HTTP stack on SQLite and PostgreSQL (docs/web-app.md
// "Explore"): an owner-mode viewer session for the signed-in user (edit → node metrics written to the
// stored network; view → read-only), Discover's read-only public sessions, the launch-token renewal
// bound to the web session, the end with sign-out, and no cookie on the embed page or the viewer API.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, testApp, bearer, smallNetwork } from './helpers/app.ts';
import { fixture } from './helpers/fixture.ts';
import { webClient, signedInClient } from './helpers/web.ts';
import { viewer } from './helpers/embed.ts';
import { endSessionsWhere } from '../src/store/embed-sessions.ts';

for (const dialect of DIALECTS) {
  describe(`web Explore (${dialect})`, () => {
    const t = fixture(() => testApp(dialect));

    const signedIn = (email: string) => signedInClient(t.app, email);
    async function network(token: string, status: 'Public' | 'Private' = 'Private'): Promise<string> {
      const r = await t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: bearer(token), payload: { name: 'Team', status, isDirected: true, networkJSON: smallNetwork() } });
      assert.equal(r.statusCode, 200, r.body);
      return r.json()._id;
    }
    async function exchange(sessionId: string, launchToken: string): Promise<string> {
      const r = await t.app.inject({ method: 'POST', url: `/api/v2/embed/sessions/${sessionId}/access-tokens`, payload: { launchToken } });
      assert.equal(r.statusCode, 200, r.body);
      return r.json().accessToken;
    }

    test('owner mode: the signed-in owner explores with every capability; node metrics are written to the network', async () => {
      const u = await t.user({ plan: 'enterprise' });
      await t.org(u.id, { name: 'Explorers' });
      const token = await t.token(u.id);
      const id = await network(token);
      const c = await signedIn(u.email);
      const res = await c.request('POST', `/app/api/networks/${id}/explore`);
      assert.equal(res.statusCode, 201, res.body);
      const s = res.json();
      assert.equal(s.access, 'owner');
      assert.equal(s.viewerUrl, `${t.config.publicUrl}/embed/${s.sessionId}`);
      const at = await exchange(s.sessionId, s.launchToken);
      const info = (await viewer(t.app, at, 'GET', 'session')).json();
      assert.equal(info.capabilities.edit, true);
      assert.equal(info.capabilities.saveViews, true);
      assert.equal(info.capabilities.runMetrics, true);
      assert.equal(info.capabilities.chat, 'full', "chat under the user's organization");
      assert.equal(info.displayName, u.name);
      assert.equal(info.ui.menu.length > 10, true, 'every Explore item');
      assert.equal(info.origin, t.config.publicUrl);

      const m = await viewer(t.app, at, 'POST', 'metrics/nodes/inDegree', {});
      assert.equal(m.statusCode, 200, m.body);
      assert.deepEqual(m.json().values, { 'In Degree': { a: 0, b: 1, '3': 1 } });
      const stored = (await t.app.inject({ method: 'GET', url: `/api/v2/networks/${id}`, headers: bearer(token) })).json();
      const b = stored.networkJSON.nodes.find((n: { id: unknown }) => n.id === 'b');
      assert.equal(b.attributes['In Degree'], 1, 'written to the stored network');
      assert.equal(b.attributes.name, 'Ben', 'other attributes kept');

      // saved views are stored with the network
      const v = await viewer(t.app, at, 'POST', 'views', { name: 'Mine', layers: [], camera: { x: 0.5, y: 0.5, ratio: 1, angle: 0 }, display: { backgroundColor: '#ffffff', showLabels: 'always', showEdges: true } });
      assert.equal(v.statusCode, 201, v.body);

      // the embed page frames only in the web app, sets no cookie even when one is sent
      const page = await t.app.inject({ method: 'GET', url: `/embed/${s.sessionId}`, headers: { cookie: `nl_session=${c.cookie}` } });
      assert.equal(page.statusCode, 200);
      assert.match(String(page.headers['content-security-policy']), new RegExp(`frame-ancestors ${t.config.publicUrl}`));
      assert.equal(page.headers['set-cookie'], undefined);
      const api = await t.app.inject({ method: 'GET', url: '/api/v2/embed/viewer/session', headers: { authorization: `Bearer ${at}`, cookie: `nl_session=${c.cookie}` } });
      assert.equal(api.headers['set-cookie'], undefined);
      // the cookie alone opens nothing in the viewer API
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/v2/embed/viewer/session', headers: { cookie: `nl_session=${c.cookie}` } })).statusCode, 401);

      // renewal: only this web session gets launch tokens for it
      const lt = await c.request('POST', `/app/api/explore/${s.sessionId}/launch-tokens`);
      assert.equal(lt.statusCode, 200, lt.body);
      await exchange(s.sessionId, lt.json().launchToken);
      const other = await signedIn(u.email);
      assert.equal((await other.request('POST', `/app/api/explore/${s.sessionId}/launch-tokens`)).statusCode, 404);
      assert.equal((await webClient(t.app).request('POST', `/app/api/explore/${s.sessionId}/launch-tokens`)).statusCode, 404);
      assert.equal((await c.request('POST', `/app/api/explore/${s.sessionId}/launch-tokens`, { csrf: false })).statusCode, 403);

      // signing out ends the viewer
      assert.equal((await c.request('DELETE', '/app/api/session')).statusCode, 200);
      const gone = await viewer(t.app, at, 'GET', 'session');
      assert.equal(gone.statusCode, 410);
      assert.equal(gone.json().code, 'SESSION_EXPIRED');
    });

    test('view access is read-only: values come back, nothing is written, no views saved; a removed share ends it', async () => {
      const owner = await t.user({ plan: 'enterprise' });
      const token = await t.token(owner.id);
      const id = await network(token);
      const reader = await t.user({ plan: 'enterprise' });
      await t.database.db.insertInto('network_shares').values({ network_id: id, user_id: reader.id, permission: 'View', created: new Date().toISOString() }).execute();
      const c = await signedIn(reader.email);
      const s = (await c.request('POST', `/app/api/networks/${id}/explore`)).json();
      assert.equal(s.access, 'read');
      const at = await exchange(s.sessionId, s.launchToken);
      const info = (await viewer(t.app, at, 'GET', 'session')).json();
      assert.equal(info.capabilities.edit, false);
      assert.equal(info.capabilities.chat, 'off', 'no organization: no chat');
      const m = await viewer(t.app, at, 'POST', 'metrics/nodes/inDegree', {});
      assert.equal(m.statusCode, 200, m.body);
      const stored = (await t.app.inject({ method: 'GET', url: `/api/v2/networks/${id}`, headers: bearer(token) })).json();
      assert.equal(stored.networkJSON.nodes[1].attributes['In Degree'], undefined, 'not written');
      const v = await viewer(t.app, at, 'POST', 'views', { name: 'x', layers: [], camera: { x: 0, y: 0, ratio: 1, angle: 0 }, display: { backgroundColor: '#ffffff', showLabels: 'always', showEdges: true } });
      assert.equal(v.statusCode, 403);
      await t.database.db.deleteFrom('network_shares').where('network_id', '=', id).execute();
      assert.equal((await viewer(t.app, at, 'GET', 'session')).statusCode, 410);
      // a stranger cannot open it at all
      const stranger = await signedIn((await t.user()).email);
      assert.equal((await stranger.request('POST', `/app/api/networks/${id}/explore`)).statusCode, 404);
    });

    test('Discover: a Public network opens read-only signed out; a Private one is 404', async () => {
      const owner = await t.user({ plan: 'enterprise' });
      const token = await t.token(owner.id);
      const pub = await network(token, 'Public');
      const priv = await network(token, 'Private');
      const anon = webClient(t.app);
      assert.equal((await anon.request('POST', `/app/api/public-networks/${priv}/explore`)).statusCode, 404);
      assert.equal((await anon.request('POST', `/app/api/public-networks/${pub}/explore`, { origin: 'https://evil.example' })).statusCode, 403);
      const res = await anon.request('POST', `/app/api/public-networks/${pub}/explore`);
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().access, 'read');
      assert.equal(res.headers['set-cookie'], undefined);
      const at = await exchange(res.json().sessionId, res.json().launchToken);
      const info = (await viewer(t.app, at, 'GET', 'session')).json();
      assert.equal(info.capabilities.edit, false);
      assert.equal(info.capabilities.chat, 'off');
      const net = await viewer(t.app, at, 'GET', 'network');
      assert.equal(net.statusCode, 200);
      const lt = await anon.request('POST', `/app/api/explore/${res.json().sessionId}/launch-tokens`);
      assert.equal(lt.statusCode, 200, lt.body);
      // made Private → the public viewer ends
      await t.app.inject({ method: 'PUT', url: `/api/v2/networks/${pub}`, headers: bearer(token), payload: { name: 'Team', status: 'Private', networkJSON: smallNetwork() } });
      assert.equal((await viewer(t.app, at, 'GET', 'session')).statusCode, 410);
    });

    test('embedding settings do not end Explore sessions; they are not listed as embed sessions', async () => {
      const u = await t.user({ plan: 'enterprise' });
      const o = await t.org(u.id);
      const token = await t.token(u.id);
      const id = await network(token);
      const c = await signedIn(u.email);
      const s = (await c.request('POST', `/app/api/networks/${id}/explore`)).json();
      const at = await exchange(s.sessionId, s.launchToken);
      const rows = await t.database.db.selectFrom('embed_sessions').select(['mode', 'org_id', 'web_session_id']).where('id', '=', s.sessionId).execute();
      assert.deepEqual(rows.map((r) => [r.mode, r.org_id]), [['owner', o.id]]);
      // what turning embedding off (or removing an origin) does to the organization's sessions
      const ended = await endSessionsWhere(t.database.db, { orgId: o.id }, 'embedding-disabled', new Date().toISOString());
      assert.deepEqual(ended, []);
      assert.equal((await viewer(t.app, at, 'GET', 'session')).statusCode, 200);
      const live = await t.app.inject({ method: 'GET', url: '/api/v2/embed/sessions', headers: bearer(await t.token(u.id, { orgId: o.id })) });
      if (live.statusCode === 200) assert.ok(!JSON.stringify(live.json()).includes(s.sessionId));
    });
  });
}
