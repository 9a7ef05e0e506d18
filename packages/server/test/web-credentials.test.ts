// The credentials page endpoints through the real HTTP stack on SQLite and PostgreSQL
// (docs/web-app.md "Credentials"): create after re-entering the password, custom scopes that hold on
// the public API, revoke (next API call 401), organization credentials by Owners/Admins, legacy key
// pairs listed and revocable, and no credential can reach these endpoints.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, testApp, bearer, basic, smallNetwork } from './helpers/app.ts';
import { fixture } from './helpers/fixture.ts';
import { PASSWORD, signedInClient } from './helpers/web.ts';
import { FULL_ACCESS } from '../src/domain/identity/credentials/scopes.ts';

for (const dialect of DIALECTS) {
  describe(`web credentials (${dialect})`, () => {
    const t = fixture(() => testApp(dialect));

    const signedIn = (email: string) => signedInClient(t.app, email);
    const count = async (userId: string) => (await t.database.db.selectFrom('credentials').select('id').where('user_id', '=', userId).execute()).length;

    test('a custom-scope token works on the API with exactly those scopes; revoked → 401 on the next call', async () => {
      const u = await t.user();
      const c = await signedIn(u.email);
      const scopesList = (await c.request('GET', '/app/api/scopes')).json();
      assert.deepEqual(scopesList.resources, ['networks', 'metrics', 'employees', 'customFields', 'responses', 'surveys']);
      assert.equal(scopesList.scopes.at(-1), 'embed:manage');

      const wrong = await c.request('POST', '/app/api/credentials', { body: { name: 'x', password: 'not the password', scopes: 'full' } });
      assert.equal(wrong.statusCode, 401);
      assert.equal(wrong.json().code, 'INVALID_CREDENTIALS');
      assert.equal(await count(u.id), 0);

      const res = await c.request('POST', '/app/api/credentials', { body: { name: 'Reader', password: PASSWORD, scopes: ['networks:read'] } });
      assert.equal(res.statusCode, 201, res.body);
      const { credential, token } = res.json();
      assert.match(token, /^nl_[0-9A-Za-z]{43}_[0-9A-Za-z]{6}$/);
      assert.deepEqual(credential.scopes, ['networks:read']);
      assert.equal(credential.fullAccess, false);
      assert.equal(credential.kind, 'token');
      assert.ok(token.startsWith(credential.prefix));
      assert.deepEqual(credential.owner, { type: 'user', id: u.id, name: u.name });

      assert.equal((await t.app.inject({ method: 'GET', url: '/api/v2/networks', headers: bearer(token) })).statusCode, 200);
      const write = await t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: bearer(token), payload: { name: 'n', networkJSON: smallNetwork() } });
      assert.equal(write.statusCode, 403);
      assert.equal(write.json().code, 'INSUFFICIENT_SCOPE');

      const list = (await c.request('GET', '/app/api/credentials')).json().credentials;
      assert.equal(list.length, 1);
      assert.equal(list[0].id, credential.id);
      assert.ok(!JSON.stringify(list).includes(token));

      const del = await c.request('DELETE', `/app/api/credentials/${credential.id}`);
      assert.deepEqual(del.json(), { id: credential.id, revoked: true });
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/v2/networks', headers: bearer(token) })).statusCode, 401);
      assert.equal((await c.request('DELETE', `/app/api/credentials/${credential.id}`)).statusCode, 404);
      assert.deepEqual((await c.request('GET', '/app/api/credentials')).json().credentials, []);
    });

    test('full access holds every scope incl. embed:manage; custom scopes hold embed:manage only when listed; unknown scopes are 400', async () => {
      const u = await t.user();
      const c = await signedIn(u.email);
      const full = (await c.request('POST', '/app/api/credentials', { body: { name: 'All', password: PASSWORD, scopes: 'full' } })).json().credential;
      assert.equal(full.fullAccess, true);
      assert.deepEqual([...full.scopes].sort(), [...FULL_ACCESS].sort());
      const rw = SCOPESWithout('embed:manage');
      const custom = (await c.request('POST', '/app/api/credentials', { body: { name: 'Almost', password: PASSWORD, scopes: rw } })).json().credential;
      assert.equal(custom.fullAccess, false);
      assert.ok(!custom.scopes.includes('embed:manage'));
      const bad = await c.request('POST', '/app/api/credentials', { body: { name: 'Bad', password: PASSWORD, scopes: ['networks:read', 'networks:delete'] } });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().errors[0].path, '/scopes/1');
      const basicKind = await c.request('POST', '/app/api/credentials', { body: { name: 'Key', password: PASSWORD, scopes: 'full', kind: 'basic' } });
      assert.equal(basicKind.statusCode, 400, 'key pairs are not created here');
    });

    test('a credential can never call the credential endpoints (no session → 401, nothing created)', async () => {
      const u = await t.user();
      const token = await t.token(u.id);
      const keys = await t.keys(u.id);
      const before = await count(u.id);
      for (const auth of [bearer(token), basic(keys)]) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/app/api/credentials',
          headers: { ...auth, origin: t.config.publicUrl, 'content-type': 'application/json' },
          payload: JSON.stringify({ name: 'minted', password: PASSWORD, scopes: 'full' }),
        });
        assert.equal(res.statusCode, 401);
        assert.equal((await t.app.inject({ method: 'GET', url: '/app/api/credentials', headers: auth })).statusCode, 401);
        assert.equal((await t.app.inject({ method: 'POST', url: '/api/v2/credentials', headers: auth, payload: {} })).statusCode, 404, 'no public route creates credentials');
      }
      assert.equal(await count(u.id), before);
    });

    test('without the CSRF token a credential is not created', async () => {
      const u = await t.user();
      const c = await signedIn(u.email);
      const res = await c.request('POST', '/app/api/credentials', { body: { name: 'csrf', password: PASSWORD, scopes: 'full' }, csrf: false });
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().code, 'CSRF_FAILED');
      assert.equal(await count(u.id), 0);
    });

    test('organization credentials: created and seen by Owners/Admins only; legacy key pairs listed and revocable', async () => {
      const owner = await t.user();
      const org = await t.org(owner.id, { name: 'Cred Org' });
      const member = await t.user();
      await t.member(org.id, member.id, 'Standard User');
      const o = await signedIn(owner.email);
      const m = await signedIn(member.email);
      const oc = await o.request('POST', '/app/api/credentials', { body: { name: 'Org token', password: PASSWORD, scopes: ['embed:manage'], owner: 'organization' } });
      assert.equal(oc.statusCode, 201, oc.body);
      assert.deepEqual(oc.json().credential.owner, { type: 'organization', id: org.id, name: 'Cred Org' });
      const orgToken = oc.json().token;
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/v2/embed/settings', headers: bearer(orgToken) })).statusCode, 200, 'an organization credential with embed:manage');
      const mc = await m.request('POST', '/app/api/credentials', { body: { name: 'Nope', password: PASSWORD, scopes: 'full', owner: 'organization' } });
      assert.equal(mc.statusCode, 403);
      assert.equal((await m.request('GET', '/app/api/credentials')).json().credentials.length, 0);
      assert.equal((await m.request('DELETE', `/app/api/credentials/${oc.json().credential.id}`)).statusCode, 404);

      const keys = await t.keys(member.id, { scopes: ['networks:read'] });
      const listed = (await m.request('GET', '/app/api/credentials')).json().credentials;
      assert.equal(listed.length, 1);
      assert.equal(listed[0].kind, 'basic');
      assert.equal(listed[0].prefix, keys.publicKey);
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/v2/networks', headers: basic(keys) })).statusCode, 200);
      assert.equal((await m.request('DELETE', `/app/api/credentials/${listed[0].id}`)).statusCode, 200);
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/v2/networks', headers: basic(keys) })).statusCode, 401);

      // the owner sees the organization's credential and their own, and revokes the organization's
      const ol = (await o.request('GET', '/app/api/credentials')).json().credentials;
      assert.deepEqual(ol.map((x: { owner: { type: string } }) => x.owner.type), ['organization']);
      assert.equal((await o.request('DELETE', `/app/api/credentials/${oc.json().credential.id}`)).statusCode, 200);
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/v2/embed/settings', headers: bearer(orgToken) })).statusCode, 401);
    });
  });
}

function SCOPESWithout(s: string): string[] {
  return FULL_ACCESS.filter((x) => x !== s);
}
