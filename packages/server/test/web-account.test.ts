// The account endpoints of the web app through the real HTTP stack on SQLite and PostgreSQL
// (docs/web-app.md): password change, sessions, TOTP MFA with real codes (otpauth), the organization's
// require-MFA setting, invitation and reset links.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { TOTP, Secret } from 'otpauth';
import { DIALECTS, testApp, bearer, smallNetwork, type TestApp } from './helpers/app.ts';
import { PASSWORD, webClient, type WebClient, signedInClient } from './helpers/web.ts';
import { createResetLink } from '../src/domain/identity/user-links.ts';

const code = (secret: string, at: number) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at, algorithm: 'SHA1', digits: 6, period: 30 });

for (const dialect of DIALECTS) {
  describe(`web account (${dialect})`, () => {
    let t: TestApp;
    let clock = Date.parse('2026-11-24T10:00:00Z');
    before(async () => {
      t = await testApp(dialect, {}, { now: () => clock });
    });
    after(() => t.close());

    const signedIn = (email: string, password = PASSWORD) => signedInClient(t.app, email, password);

    async function enrol(c: WebClient, password = PASSWORD): Promise<{ secret: string; recoveryCodes: string[] }> {
      const setup = await c.request('POST', '/app/api/account/mfa/setup');
      assert.equal(setup.statusCode, 200, setup.body);
      const { secret, otpauthUrl } = setup.json();
      assert.match(otpauthUrl, /^otpauth:\/\/totp\/Netloom:/);
      assert.ok(otpauthUrl.includes(`secret=${secret}`));
      const wrong = await c.request('POST', '/app/api/account/mfa/enable', { body: { code: code(secret, clock - 3_600_000), password } });
      assert.equal(wrong.statusCode, 400);
      // a session alone cannot turn MFA on (issue 19 finding 10): the password is required and checked
      const noPassword = await c.request('POST', '/app/api/account/mfa/enable', { body: { code: code(secret, clock) } });
      assert.equal(noPassword.statusCode, 400, noPassword.body);
      const wrongPassword = await c.request('POST', '/app/api/account/mfa/enable', { body: { code: code(secret, clock), password: 'not the password' } });
      assert.equal(wrongPassword.statusCode, 401, wrongPassword.body);
      assert.equal(wrongPassword.json().code, 'INVALID_CREDENTIALS');
      const ok = await c.request('POST', '/app/api/account/mfa/enable', { body: { code: code(secret, clock), password } });
      assert.equal(ok.statusCode, 200, ok.body);
      return { secret, recoveryCodes: ok.json().recoveryCodes };
    }

    test('account: plan, counts against the maxima (null = unlimited), organization', async () => {
      const free = await t.user({ plan: 'free' });
      const token = await t.token(free.id);
      await t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: bearer(token), payload: { name: 'pub', status: 'Public', networkJSON: smallNetwork() } });
      const c = await signedIn(free.email);
      const a = (await c.request('GET', '/app/api/account')).json();
      assert.equal(a.plan, 'free');
      assert.deepEqual(a.networkCounts, { public: 1, private: 0 });
      assert.deepEqual(a.networkMaxima, { public: 3, private: 3 });
      assert.equal(a.organization, null);
      assert.deepEqual(a.mfa, { enabled: false, recoveryCodesLeft: 0 });
      const ent = await t.user({ plan: 'enterprise' });
      await t.org(ent.id, { name: 'Big' });
      const b = (await (await signedIn(ent.email)).request('GET', '/app/api/account')).json();
      assert.deepEqual(b.networkMaxima, { public: null, private: null });
      assert.equal(b.organization.name, 'Big');
    });

    test('password change checks the current password, ends the other sessions, keeps this one', async () => {
      const u = await t.user();
      const a = await signedIn(u.email);
      const b = await signedIn(u.email);
      const wrong = await a.request('POST', '/app/api/account/password', { body: { currentPassword: 'not my password', newPassword: 'a brand new passphrase' } });
      assert.equal(wrong.statusCode, 401);
      assert.equal(wrong.json().errors[0].path, '/currentPassword');
      const short = await a.request('POST', '/app/api/account/password', { body: { currentPassword: PASSWORD, newPassword: 'short' } });
      assert.equal(short.statusCode, 400);
      assert.equal(short.json().errors[0].path, '/newPassword');
      const ok = await a.request('POST', '/app/api/account/password', { body: { currentPassword: PASSWORD, newPassword: 'a brand new passphrase' } });
      assert.equal(ok.statusCode, 200, ok.body);
      assert.deepEqual(ok.json(), { changed: true, endedSessions: 1 });
      assert.equal((await a.request('GET', '/app/api/session')).statusCode, 200);
      assert.equal((await b.request('GET', '/app/api/session')).statusCode, 401);
      assert.equal((await webClient(t.app).signIn(u.email)).statusCode, 401);
      assert.equal((await webClient(t.app).signIn(u.email, 'a brand new passphrase')).statusCode, 200);
    });

    test('sessions: list with the current one marked, end one, sign out everywhere', async () => {
      const u = await t.user();
      const a = await signedIn(u.email);
      const b = await signedIn(u.email);
      const list = (await a.request('GET', '/app/api/account/sessions')).json().sessions;
      assert.equal(list.length, 2);
      assert.equal(list.filter((s: { current: boolean }) => s.current).length, 1);
      const other = list.find((s: { current: boolean }) => !s.current);
      assert.equal((await a.request('DELETE', `/app/api/account/sessions/${other.id}`)).statusCode, 200);
      assert.equal((await b.request('GET', '/app/api/session')).statusCode, 401);
      // another user's session id is not found
      const v = await t.user();
      const vc = await signedIn(v.email);
      const mine = (await a.request('GET', '/app/api/account/sessions')).json().sessions[0].id;
      assert.equal((await vc.request('DELETE', `/app/api/account/sessions/${mine}`)).statusCode, 404);
      const c2 = await signedIn(u.email);
      const all = await a.request('POST', '/app/api/account/sessions/sign-out-everywhere');
      assert.deepEqual(all.json(), { ended: 2 });
      assert.equal((await a.request('GET', '/app/api/session')).statusCode, 401);
      assert.equal((await c2.request('GET', '/app/api/session')).statusCode, 401);
    });

    test('TOTP MFA with real codes: enrol, sign in with a code (each once), recovery codes once, regenerate, disable', async () => {
      const u = await t.user();
      const c = await signedIn(u.email);
      const { secret, recoveryCodes } = await enrol(c);
      assert.equal(recoveryCodes.length, 10);
      assert.equal(new Set(recoveryCodes).size, 10);
      assert.equal((await c.request('GET', '/app/api/session')).json().user.mfaEnabled, true);
      // stored hashed
      const rows = await t.database.db.selectFrom('mfa_recovery_codes').selectAll().where('user_id', '=', u.id).execute();
      assert.equal(rows.length, 10);
      assert.ok(!JSON.stringify(rows).includes(recoveryCodes[0]));

      const s = webClient(t.app);
      const need = await s.signIn(u.email);
      assert.equal(need.statusCode, 401);
      assert.equal(need.json().code, 'MFA_REQUIRED');
      const replay = await s.signIn(u.email, PASSWORD, { totp: code(secret, clock) });
      assert.equal(replay.json().code, 'MFA_REQUIRED', 'the code used to enable cannot be used again');
      clock += 30_000;
      const ok = await s.signIn(u.email, PASSWORD, { totp: code(secret, clock) });
      assert.equal(ok.statusCode, 200, ok.body);
      const wrongPw = await webClient(t.app).signIn(u.email, 'wrong password here', { totp: code(secret, clock + 30_000) });
      assert.equal(wrongPw.json().code, 'INVALID_CREDENTIALS', 'a code does not help a wrong password');

      const r1 = await webClient(t.app).signIn(u.email, PASSWORD, { recoveryCode: recoveryCodes[3].toUpperCase() });
      assert.equal(r1.statusCode, 200, r1.body);
      const r2 = await webClient(t.app).signIn(u.email, PASSWORD, { recoveryCode: recoveryCodes[3] });
      assert.equal(r2.json().code, 'MFA_REQUIRED', 'a recovery code works once');
      assert.equal((await c.request('GET', '/app/api/account')).json().mfa.recoveryCodesLeft, 9);

      const regenBad = await c.request('POST', '/app/api/account/mfa/recovery-codes', { body: { password: 'nope nope nope' } });
      assert.equal(regenBad.statusCode, 401);
      const regen = await c.request('POST', '/app/api/account/mfa/recovery-codes', { body: { password: PASSWORD } });
      assert.equal(regen.statusCode, 200);
      assert.equal((await webClient(t.app).signIn(u.email, PASSWORD, { recoveryCode: recoveryCodes[4] })).json().code, 'MFA_REQUIRED', 'old codes stop working');
      assert.equal((await webClient(t.app).signIn(u.email, PASSWORD, { recoveryCode: regen.json().recoveryCodes[0] })).statusCode, 200);

      assert.equal((await c.request('POST', '/app/api/account/mfa/disable', { body: { password: 'wrong password!' } })).statusCode, 401);
      const off = await c.request('POST', '/app/api/account/mfa/disable', { body: { password: PASSWORD } });
      assert.deepEqual(off.json(), { mfaEnabled: false });
      assert.equal((await webClient(t.app).signIn(u.email)).statusCode, 200);
      clock += 3_600_000;
    });

    test('an organization that requires MFA makes members enrol before anything else', async () => {
      const owner = await t.user();
      const org = await t.org(owner.id);
      const member = await t.user();
      await t.member(org.id, member.id, 'Standard User');
      const m = await signedIn(member.email);
      assert.equal((await m.request('PUT', '/app/api/organization/settings', { body: { requireMfa: true } })).statusCode, 403, 'members cannot change it');
      const o = await signedIn(owner.email);
      const set = await o.request('PUT', '/app/api/organization/settings', { body: { requireMfa: true } });
      assert.equal(set.statusCode, 200, set.body);
      // the next sign-in of a member: enrolment required; everything else 403 until enrolled
      const m2 = await signedIn(member.email);
      const info = (await m2.request('GET', '/app/api/session')).json();
      assert.equal(info.mfaEnrolmentRequired, true);
      assert.equal(info.organization.requireMfa, true);
      const blocked = await m2.request('GET', '/app/api/account');
      assert.equal(blocked.statusCode, 403);
      assert.equal(blocked.json().code, 'MFA_ENROLMENT_REQUIRED');
      assert.equal((await m2.request('GET', '/app/api/account/sessions')).json().code, 'MFA_ENROLMENT_REQUIRED');
      await enrol(m2);
      assert.equal((await m2.request('GET', '/app/api/session')).json().mfaEnrolmentRequired, false);
      assert.equal((await m2.request('GET', '/app/api/account')).statusCode, 200);
      const dis = await m2.request('POST', '/app/api/account/mfa/disable', { body: { password: PASSWORD } });
      assert.equal(dis.statusCode, 403, 'cannot turn it off while required');
      clock += 60_000;
    });

    test('invitations: admins create one-time links (7 days); redeeming creates the member and signs in', async () => {
      const owner = await t.user();
      const org = await t.org(owner.id, { name: 'Invite Co' });
      const o = await signedIn(owner.email);
      const inv = await o.request('POST', '/app/api/organization/invitations', { body: { email: 'New.Person@Example.com', role: 'Admin' } });
      assert.equal(inv.statusCode, 201, inv.body);
      const { url, expiresAt } = inv.json();
      assert.equal(Date.parse(expiresAt) - clock, 7 * 24 * 3_600_000);
      assert.ok(url.startsWith(`${t.config.publicUrl}/link/nlk_`));
      const token = url.split('/link/')[1];
      const stored = await t.database.db.selectFrom('user_links').selectAll().execute();
      assert.ok(!JSON.stringify(stored).includes(token), 'stored hashed');
      const c = webClient(t.app);
      const info = await c.request('GET', `/app/api/links/${token}`);
      assert.deepEqual(info.json(), { kind: 'invite', email: 'new.person@example.com', organization: { name: 'Invite Co' }, expiresAt, needsName: true, acceptable: false });
      const noName = await c.request('POST', `/app/api/links/${token}`, { body: { password: 'my own passphrase' } });
      assert.equal(noName.statusCode, 400);
      const foreign = await c.request('POST', `/app/api/links/${token}`, { body: { name: 'New', password: 'my own passphrase' }, origin: 'https://evil.example' });
      assert.equal(foreign.statusCode, 403);
      const red = await c.request('POST', `/app/api/links/${token}`, { body: { name: 'New Person', password: 'my own passphrase' } });
      assert.equal(red.statusCode, 200, red.body);
      assert.equal(red.json().organization.id, org.id);
      assert.equal(red.json().organization.role, 'Admin');
      assert.equal((await c.request('GET', '/app/api/session')).statusCode, 200);
      assert.equal((await webClient(t.app).request('GET', `/app/api/links/${token}`)).statusCode, 404, 'single use');
      assert.equal((await webClient(t.app).request('POST', `/app/api/links/${token}`, { body: { name: 'X', password: 'another passphrase' } })).statusCode, 404);
      // non-admins cannot invite; an existing account is a conflict; links expire
      const m = await t.user();
      await t.member(org.id, m.id, 'Standard User');
      assert.equal((await (await signedIn(m.email)).request('POST', '/app/api/organization/invitations', { body: { email: 'x@example.com' } })).statusCode, 403);
      assert.equal((await o.request('POST', '/app/api/organization/invitations', { body: { email: m.email } })).statusCode, 409);
      const late = (await o.request('POST', '/app/api/organization/invitations', { body: { email: 'late@example.com' } })).json().url.split('/link/')[1];
      clock += 7 * 24 * 3_600_000 + 1;
      assert.equal((await webClient(t.app).request('GET', `/app/api/links/${late}`)).statusCode, 404);
    });

    test('reset links (1 hour): set a new password, end every session; MFA still asked', async () => {
      const u = await t.user();
      const before = await signedIn(u.email);
      const old = await createResetLink(t.database.db, t.config.publicUrl, u.email, 'cli', clock);
      const link = await createResetLink(t.database.db, t.config.publicUrl, u.email, 'cli', clock);
      assert.equal(Date.parse(link.expiresAt) - clock, 3_600_000);
      assert.equal((await webClient(t.app).request('GET', `/app/api/links/${old.token}`)).statusCode, 404, 'a newer reset link retires the older');
      const c = webClient(t.app);
      const r = await c.request('POST', `/app/api/links/${link.token}`, { body: { password: 'reset passphrase 1' } });
      assert.equal(r.statusCode, 200, r.body);
      assert.equal((await before.request('GET', '/app/api/session')).statusCode, 401, 'sessions ended');
      assert.equal((await webClient(t.app).signIn(u.email)).statusCode, 401);
      assert.equal((await webClient(t.app).signIn(u.email, 'reset passphrase 1')).statusCode, 200);
      // with MFA the link alone is not enough
      const { secret } = await enrol(c, 'reset passphrase 1');
      clock += 30_000;
      const l2 = await createResetLink(t.database.db, t.config.publicUrl, u.email, 'cli', clock);
      const noCode = await webClient(t.app).request('POST', `/app/api/links/${l2.token}`, { body: { password: 'reset passphrase 2' } });
      assert.equal(noCode.json().code, 'MFA_REQUIRED');
      const withCode = await webClient(t.app).request('POST', `/app/api/links/${l2.token}`, { body: { password: 'reset passphrase 2', totp: code(secret, clock) } });
      assert.equal(withCode.statusCode, 200, withCode.body);
      clock += 2 * 3_600_000;
      const l3 = await createResetLink(t.database.db, t.config.publicUrl, u.email, 'cli', clock);
      clock += 3_600_001;
      assert.equal((await webClient(t.app).request('GET', `/app/api/links/${l3.token}`)).statusCode, 404, 'expired after 1 hour');
    });
  });
}
