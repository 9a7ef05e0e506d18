// Issue 19 findings 1 and 2 (docs/security.md "Accounts and organizations"): invitations and adding
// members never touch an existing account's credentials — an existing account joins only by accepting
// while signed in as itself, the answer to the inviter is the same for every e-mail, and what a person
// owned before joining stays outside the organization's credentials until they move it; members can
// leave; Access-only members cannot own networks. Real HTTP stack, SQLite and PostgreSQL.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, bearer, smallNetwork, testApp, type TestApp } from './helpers/app.ts';
import { PASSWORD, setCookieOf, webClient, signedInClient } from './helpers/web.ts';
import { createUser } from '../src/domain/identity/users.ts';
import { createResetLink } from '../src/domain/identity/user-links.ts';

for (const dialect of DIALECTS) {
  describe(`invitations and membership need the account's consent (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await testApp(dialect);
    });
    after(() => t.close());

    const signedIn = (email: string, password = PASSWORD) => signedInClient(t.app, email, password);
    const createNet = async (token: string, name: string) => {
      const r = await t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: bearer(token), payload: { name, status: 'Private', networkJSON: smallNetwork() } });
      assert.equal(r.statusCode, 200, r.body);
      return r.json()._id as string;
    };
    const read = async (token: string, id: string) => (await t.app.inject({ method: 'GET', url: `/api/v2/networks/${id}`, headers: bearer(token) })).statusCode;
    const tokenOf = (url: string) => url.split('/link/')[1];

    test('an invitation of an existing password-less account gives its inviter no session and no password; its private network stays 404 to the organization', async () => {
      // the victim: an API-only account (no password) in no organization, with a private network
      const victim = await createUser(t.database.db, { email: 'api-only@example.com', name: 'API only', plan: 'enterprise' });
      const victimToken = await t.token(victim.id);
      const secret = await createNet(victimToken, 'Private data');
      // the attacker: Owner of organization B
      const attacker = await t.user();
      const orgB = await t.org(attacker.id, { name: 'B' });
      const orgToken = await t.token(attacker.id, { orgId: orgB.id });
      const a = await signedIn(attacker.email);
      // the same answer for an existing password-less account, one with a password, one in another organization, and a new e-mail
      const withPassword = await t.user();
      const elsewhere = await t.user();
      await t.org(elsewhere.id);
      const answers = await Promise.all(
        [victim.email, withPassword.email, elsewhere.email, 'brand-new@example.com'].map((email) => a.request('POST', '/app/api/organization/invitations', { body: { email, role: 'Admin' } })),
      );
      for (const r of answers) {
        assert.equal(r.statusCode, 201, r.body);
        assert.deepEqual(Object.keys(r.json()).sort(), ['expiresAt', 'url']);
      }
      const link = tokenOf(answers[0].json().url);
      // what the link tells its holder is the same too
      const infoVictim = (await webClient(t.app).request('GET', `/app/api/links/${link}`)).json();
      const infoNew = (await webClient(t.app).request('GET', `/app/api/links/${tokenOf(answers[3].json().url)}`)).json();
      assert.deepEqual({ ...infoVictim, email: '', expiresAt: '' }, { ...infoNew, email: '', expiresAt: '' });
      assert.equal(infoVictim.acceptable, false);
      // redeeming it signed out (choosing a password) is refused: no session, nothing changes
      const stranger = webClient(t.app);
      const redeem = await stranger.request('POST', `/app/api/links/${link}`, { body: { name: 'Mallory', password: 'attacker passphrase' } });
      assert.equal(redeem.statusCode, 409, redeem.body);
      assert.equal(redeem.json().code, 'CONFLICT');
      assert.equal(setCookieOf(redeem), undefined);
      assert.equal((await stranger.request('GET', '/app/api/session')).statusCode, 401);
      const after = await t.database.db.selectFrom('users').select(['password_hash', 'name']).where('id', '=', victim.id).executeTakeFirstOrThrow();
      assert.equal(after.password_hash, null, 'the password was not set');
      assert.equal(after.name, 'API only');
      assert.equal((await webClient(t.app).signIn(victim.email, 'attacker passphrase')).statusCode, 401);
      // accepting it signed in as someone else (the inviter) is refused
      const accept = await a.request('POST', `/app/api/links/${link}/accept`);
      assert.equal(accept.statusCode, 403, accept.body);
      assert.equal(await t.database.db.selectFrom('memberships').select('org_id').where('user_id', '=', victim.id).executeTakeFirst(), undefined);
      // adding the account as a member directly is an invitation too: same answer, no membership
      const add = await a.request('POST', '/app/api/organization/members', { body: { email: victim.email, role: 'Standard User' } });
      assert.equal(add.statusCode, 201, add.body);
      assert.deepEqual(Object.keys(add.json()).sort(), ['expiresAt', 'url']);
      const addNew = await a.request('POST', '/app/api/organization/members', { body: { email: 'someone-else@example.com', role: 'Standard User' } });
      assert.equal(addNew.statusCode, 201);
      assert.equal(await t.database.db.selectFrom('memberships').select('org_id').where('user_id', '=', victim.id).executeTakeFirst(), undefined);
      // the victim's private network: 404 to the organization's credential throughout
      assert.equal(await read(orgToken, secret), 404);
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/v2/networks', headers: bearer(orgToken) })).json().some((n: { _id: string }) => n._id === secret), false);
      assert.equal(await read(victimToken, secret), 200);
    });

    test('the invited account accepts signed in as itself; what it owned before stays its own until it moves it; it can leave', async () => {
      const owner = await t.user();
      const org = await t.org(owner.id, { name: 'Joiners' });
      const orgToken = await t.token(owner.id, { orgId: org.id });
      const o = await signedIn(owner.email);
      const person = await t.user();
      const personToken = await t.token(person.id);
      const before = await createNet(personToken, 'Mine from before');
      const url = (await o.request('POST', '/app/api/organization/members', { body: { email: person.email, role: 'Admin' } })).json().url;
      const p = await signedIn(person.email);
      const info = await p.request('GET', `/app/api/links/${tokenOf(url)}`);
      assert.equal(info.json().acceptable, true);
      const accepted = await p.request('POST', `/app/api/links/${tokenOf(url)}/accept`);
      assert.equal(accepted.statusCode, 200, accepted.body);
      assert.deepEqual(accepted.json(), { accepted: true, organizationId: org.id, role: 'Admin' });
      assert.equal((await p.request('GET', '/app/api/session')).json().organization.id, org.id);
      assert.equal((await p.request('POST', `/app/api/links/${tokenOf(url)}/accept`)).statusCode, 404, 'single use');
      // the password is the person's own, unchanged
      assert.equal((await webClient(t.app).signIn(person.email)).statusCode, 200);
      // before joining: personal; after: the organization's
      assert.equal(await read(orgToken, before), 404);
      const during = await createNet(personToken, 'Made as a member');
      assert.equal(await read(orgToken, during), 200);
      const overview = (await o.request('GET', '/app/api/organization')).json();
      assert.equal(overview.networkCounts.private, 1, 'the organization counts only its own networks');
      // moving it in is the owner's choice
      assert.equal((await o.request('POST', `/app/api/organization/networks/${before}/move-in`)).statusCode, 404, 'not the owner');
      const moved = await p.request('POST', `/app/api/organization/networks/${before}/move-in`);
      assert.equal(moved.statusCode, 200, moved.body);
      assert.equal(await read(orgToken, before), 200);
      // leaving: the organization credential the person made is revoked; the networks stay the organization's
      const personOrgToken = await t.token(person.id, { orgId: org.id });
      assert.equal(await read(personOrgToken, during), 200);
      const left = await p.request('POST', '/app/api/organization/leave');
      assert.equal(left.statusCode, 200, left.body);
      assert.deepEqual(left.json(), { left: true, revokedCredentials: 1 });
      assert.equal((await p.request('GET', '/app/api/session')).json().organization, null);
      assert.equal(await read(personOrgToken, during), 401);
      assert.equal(await read(orgToken, during), 200);
      assert.equal(await read(personToken, during), 200, 'still the owner');
      const mine = await createNet(personToken, 'Personal again');
      assert.equal(await read(orgToken, mine), 404);
      // the last active Owner cannot leave
      const last = await o.request('POST', '/app/api/organization/leave');
      assert.equal(last.statusCode, 409, last.body);
    });

    test('an existing account in another organization cannot accept until it leaves it; the inviter learned nothing', async () => {
      const a = await t.user();
      const orgA = await t.org(a.id);
      const b = await t.user();
      await t.org(b.id);
      const url = (await (await signedIn(a.email)).request('POST', '/app/api/organization/invitations', { body: { email: b.email } })).json().url;
      const accept = await (await signedIn(b.email)).request('POST', `/app/api/links/${tokenOf(url)}/accept`);
      assert.equal(accept.statusCode, 409, accept.body);
      assert.match(accept.json().detail, /leave it first/);
      assert.notEqual((await t.database.db.selectFrom('memberships').select('org_id').where('user_id', '=', b.id).executeTakeFirstOrThrow()).org_id, orgA.id);
    });

    test('a reset link of an account still works; a new account sets its own password through its invitation', async () => {
      const owner = await t.user();
      await t.org(owner.id);
      const url = (await (await signedIn(owner.email)).request('POST', '/app/api/organization/invitations', { body: { email: 'newcomer@example.com' } })).json().url;
      const c = webClient(t.app);
      const r = await c.request('POST', `/app/api/links/${tokenOf(url)}`, { body: { name: 'Newcomer', password: 'my own passphrase' } });
      assert.equal(r.statusCode, 200, r.body);
      assert.equal((await webClient(t.app).signIn('newcomer@example.com', 'my own passphrase')).statusCode, 200);
      const apiOnly = await createUser(t.database.db, { email: 'api-only-2@example.com', name: 'API', plan: 'free' });
      const reset = await createResetLink(t.database.db, t.config.publicUrl, apiOnly.email, 'cli', Date.now());
      assert.equal((await webClient(t.app).request('POST', `/app/api/links/${reset.token}`, { body: { password: 'operator given passphrase' } })).statusCode, 200);
    });

    test('Access-only members cannot own networks (own credential or web upload)', async () => {
      const owner = await t.user();
      const org = await t.org(owner.id);
      for (const role of ['Access-only', 'Simplified Access-only'] as const) {
        const m = await t.user();
        await t.member(org.id, m.id, role);
        const r = await t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: bearer(await t.token(m.id)), payload: { name: 'x', networkJSON: smallNetwork() } });
        assert.equal(r.statusCode, 403, r.body);
        assert.equal(r.json().code, 'FORBIDDEN');
        assert.equal((await t.database.db.selectFrom('networks').select('id').where('owner_id', '=', m.id).execute()).length, 0);
      }
    });
  });
}
