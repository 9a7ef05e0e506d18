/**
 * The organization console's endpoints (/app/api/organization/...) through the real HTTP stack with web
 * sessions, on SQLite and PostgreSQL: members (roles, Owner rules, suspension ending sessions and
 * credentials), the embedding console (settings, managed users with seat accounting, try-it session,
 * live sessions and revocation, audit log with filters and CSV, AI chat and presets), admin-only actions
 * refused with 403 for a Standard User, and isolation between organizations over every endpoint.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { DIALECTS, bearer } from './helpers/app.ts';
import { embedFixture, exchange, ORIGIN } from './helpers/embed.ts';
import { fixture } from './helpers/fixture.ts';
import { signedInClient, webClient, type WebClient } from './helpers/web.ts';

const P = '/app/api/organization';

for (const dialect of DIALECTS) {
  describe(`organization console (${dialect})`, () => {
    const f = fixture(() => embedFixture(dialect));
    let admin: WebClient;
    let standard: WebClient;
    let standardUser: { id: string; email: string };
    // A second organization with its own admin, managed user and session.
    let other: { admin: WebClient; orgId: string; sessionId: string; externalId: string; memberId: string; networkId: string };

    before(async () => {
      const owner = await f.t.database.db.selectFrom('users').select('email').where('id', '=', f.ownerId).executeTakeFirstOrThrow();
      admin = await signedInClient(f.app, owner.email);
      standardUser = await f.t.user();
      await f.t.member(f.orgId, standardUser.id, 'Standard User');
      standard = await signedInClient(f.app, standardUser.email);

      const o = await f.t.user();
      const oOrg = await f.t.org(o.id);
      const oToken = await f.t.token(o.id, { orgId: oOrg.id });
      await f.operator({ enabled: true, seats: 5 }, oOrg.id);
      const api = (method: 'PUT' | 'POST', url: string, payload: unknown) => f.app.inject({ method, url, headers: bearer(oToken), payload: payload as object });
      assert.equal((await api('PUT', '/api/v2/embed/settings', { allowedOrigins: [ORIGIN], dataDisclosureAccepted: true })).statusCode, 200);
      const net = await api('POST', '/api/v2/networks', { name: 'Other', networkJSON: { nodes: [{ id: 1 }, { id: 2 }], edges: [{ id: 1, source: 1, target: 2 }] } });
      const networkId = net.json()._id as string;
      assert.equal((await api('PUT', '/api/v2/embed/users/other-user', { displayName: 'Other' })).statusCode, 201);
      assert.equal((await api('PUT', `/api/v2/embed/users/other-user/networks/${networkId}`, { permission: 'View' })).statusCode, 200);
      const s = await api('POST', '/api/v2/embed/sessions', { externalId: 'other-user', networkIds: [networkId], origin: ORIGIN });
      assert.equal(s.statusCode, 201, s.body);
      other = { admin: await signedInClient(f.app, o.email), orgId: oOrg.id, sessionId: s.json().sessionId, externalId: 'other-user', memberId: o.id, networkId };
    });

    test('overview and members: any member reads, canManage only for Owners/Admins', async () => {
      const a = await admin.request('GET', P);
      assert.equal(a.statusCode, 200, a.body);
      assert.equal(a.json()._id, f.orgId);
      assert.equal(a.json().canManage, true);
      assert.equal(a.json().embedding.enabled, true);
      assert.equal(a.json().networkCounts.private, 1);
      const s = await standard.request('GET', P);
      assert.equal(s.statusCode, 200);
      assert.equal(s.json().canManage, false);
      assert.equal(s.json().role, 'Standard User');
      const m = await standard.request('GET', `${P}/members`);
      assert.deepEqual(m.json().members.map((x: { _id: string; role: string }) => [x._id, x.role]), [[f.ownerId, 'Owner'], [standardUser.id, 'Standard User']]);
      assert.equal((await webClient(f.app).request('GET', P)).statusCode, 401, 'signed out');
    });

    test('a Standard User gets 403 from every admin action (not only hidden buttons)', async () => {
      const calls: [string, string, unknown?][] = [
        ['POST', `${P}/members`, { email: 'x@example.com', role: 'Admin' }],
        ['PATCH', `${P}/members/${f.ownerId}`, { role: 'Admin' }],
        ['POST', `${P}/members/${f.ownerId}/suspend`],
        ['POST', `${P}/members/${f.ownerId}/reinstate`],
        ['GET', `${P}/embedding`],
        ['PUT', `${P}/embedding/settings`, { allowedOrigins: [] }],
        ['GET', `${P}/embedding/networks`],
        ['GET', `${P}/embedding/users`],
        ['PUT', `${P}/embedding/users/u1`, { displayName: 'U' }],
        ['PUT', `${P}/embedding/users/u1/networks/${f.networkId}`, { permission: 'View' }],
        ['DELETE', `${P}/embedding/users/u1/networks/${f.networkId}`],
        ['POST', `${P}/embedding/users/u1/deactivate`],
        ['GET', `${P}/embedding/sessions`],
        ['POST', `${P}/embedding/sessions`, { externalId: 'u1', networkId: f.networkId, origin: ORIGIN }],
        ['DELETE', `${P}/embedding/sessions/abc`],
        ['GET', `${P}/embedding/audit`],
        ['GET', `${P}/embedding/audit.csv`],
        ['PUT', `${P}/embedding/chat`, { aiChat: false }],
        ['GET', `${P}/embedding/networks/${f.networkId}/presets`],
      ];
      for (const [method, url, body] of calls) {
        const r = await standard.request(method, url, body === undefined ? {} : { body });
        assert.equal(r.statusCode, 403, `${method} ${url}: ${r.body}`);
        assert.equal(r.json().code, 'FORBIDDEN');
      }
    });

    test('members: add existing (an invitation Bob accepts), change role, Owner rules, suspend ends sessions and credentials, reinstate; audited with the admin as actor', async () => {
      const bob = await f.t.user();
      const add = await admin.request('POST', `${P}/members`, { body: { email: bob.email.toUpperCase(), role: 'Admin' } });
      assert.equal(add.statusCode, 201, add.body);
      const nobody = await admin.request('POST', `${P}/members`, { body: { email: 'nobody-here@example.com', role: 'Admin' } });
      assert.equal(nobody.statusCode, 201, 'the same answer for an e-mail without an account');
      assert.deepEqual(Object.keys(nobody.json()).sort(), Object.keys(add.json()).sort());
      assert.equal((await admin.request('POST', `${P}/members`, { body: { email: bob.email, role: 'Boss' } })).statusCode, 400);
      const bobClient = webClient(f.app);
      assert.equal((await bobClient.signIn(bob.email)).statusCode, 200);
      const accepted = await bobClient.request('POST', `/app/api/links/${add.json().url.split('/link/')[1]}/accept`);
      assert.equal(accepted.statusCode, 200, accepted.body);
      assert.equal(accepted.json().role, 'Admin');
      assert.equal((await admin.request('POST', `${P}/members`, { body: { email: bob.email, role: 'Admin' } })).statusCode, 409);
      assert.equal((await bobClient.request('GET', '/app/api/session')).json().organization.role, 'Admin');

      // Bob (Admin) may not touch the Owner; the last Owner cannot be demoted.
      assert.equal((await bobClient.request('PATCH', `${P}/members/${f.ownerId}`, { body: { role: 'Admin' } })).statusCode, 403);
      assert.equal((await bobClient.request('POST', `${P}/members/${f.ownerId}/suspend`)).statusCode, 403);
      assert.equal((await admin.request('PATCH', `${P}/members/${f.ownerId}`, { body: { role: 'Admin' } })).statusCode, 409);
      assert.equal((await admin.request('POST', `${P}/members/${f.ownerId}/suspend`)).statusCode, 403, 'not yourself');

      const role = await admin.request('PATCH', `${P}/members/${standardUser.id}`, { body: { role: 'Access-only' } });
      assert.equal(role.statusCode, 200, role.body);
      assert.equal(role.json().role, 'Access-only');
      assert.equal((await admin.request('PATCH', `${P}/members/${standardUser.id}`, { body: { role: 'Standard User' } })).statusCode, 200);

      // Suspension: Bob's web session and his own token stop working at once; reinstating restores the token.
      const bobToken = await f.t.token(bob.id);
      assert.equal((await f.app.inject({ method: 'GET', url: '/api/v2/networks', headers: bearer(bobToken) })).statusCode, 200);
      const sus = await admin.request('POST', `${P}/members/${bob.id}/suspend`);
      assert.equal(sus.statusCode, 200, sus.body);
      assert.equal(sus.json().status, 'suspended');
      assert.equal((await bobClient.request('GET', '/app/api/session')).statusCode, 401);
      assert.equal((await f.app.inject({ method: 'GET', url: '/api/v2/networks', headers: bearer(bobToken) })).statusCode, 401);
      assert.equal((await bobClient.signIn(bob.email)).statusCode, 403, 'a suspended member cannot sign in');
      const re = await admin.request('POST', `${P}/members/${bob.id}/reinstate`);
      assert.equal(re.json().status, 'active');
      assert.equal((await f.app.inject({ method: 'GET', url: '/api/v2/networks', headers: bearer(bobToken) })).statusCode, 200);

      const audit = await admin.request('GET', `${P}/embedding/audit?target=${bob.id}`);
      assert.equal(audit.statusCode, 200, audit.body);
      assert.deepEqual(
        audit.json().entries.map((e: { action: string; actor: { kind: string; id: string } }) => [e.action, e.actor.kind, e.actor.id]),
        [['member.reinstate', 'user', f.ownerId], ['member.suspend', 'user', f.ownerId], ['member.join', 'user', bob.id]],
      );
    });

    test('embedding console: origin validation, managed user, grant, try-it session with snippet, revoke ends it, deactivate frees a seat; audit + CSV', async () => {
      const bad = await admin.request('PUT', `${P}/embedding/settings`, { body: { allowedOrigins: ['https://ok.example.com', 'https://x.example.com/path'] } });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.json().errors[0].path, /^\/allowedOrigins\/1/);
      const ok = await admin.request('PUT', `${P}/embedding/settings`, { body: { allowedOrigins: [ORIGIN, f.app.config.publicUrl] } });
      assert.equal(ok.statusCode, 200, ok.body);
      const choices = await admin.request('GET', `${P}/embedding/networks`);
      assert.deepEqual(choices.json().networks.map((n: { _id: string; embeddable: boolean }) => [n._id, n.embeddable]), [[f.networkId, true]]);

      const before = (await admin.request('GET', P)).json().embedding.seatsUsed as number;
      const u = await admin.request('PUT', `${P}/embedding/users/console-user`, { body: { displayName: 'Console User', chatAccess: 'full' } });
      assert.equal(u.statusCode, 201, u.body);
      assert.equal((await admin.request('GET', P)).json().embedding.seatsUsed, before + 1);
      const g = await admin.request('PUT', `${P}/embedding/users/console-user/networks/${f.networkId}`, { body: { permission: 'View' } });
      assert.equal(g.statusCode, 200, g.body);
      assert.deepEqual(g.json().networks.map((n: { networkId: string; permission: string }) => [n.networkId, n.permission]), [[f.networkId, 'View']]);

      const s = await admin.request('POST', `${P}/embedding/sessions`, { body: { externalId: 'console-user', networkId: f.networkId, origin: f.app.config.publicUrl } });
      assert.equal(s.statusCode, 201, s.body);
      const session = s.json();
      assert.equal(session.previewAvailable, true);
      assert.match(session.snippet.backend, new RegExp(`networks/${f.networkId}`));
      assert.match(session.snippet.page, new RegExp(session.sessionId));
      assert.ok(!session.snippet.backend.includes('nl_'), 'no credential in the snippet');
      const at = await exchange(f.app, session.sessionId, session.launchToken);
      assert.equal(at.statusCode, 200, at.body);
      const accessToken = at.json().accessToken as string;
      const live = await admin.request('GET', `${P}/embedding/sessions`);
      const row = live.json().sessions.find((x: { sessionId: string }) => x.sessionId === session.sessionId);
      assert.deepEqual(row && [row.user.externalId, row.network._id, row.origin], ['console-user', f.networkId, f.app.config.publicUrl]);

      const rev = await admin.request('DELETE', `${P}/embedding/sessions/${session.sessionId}`);
      assert.deepEqual(rev.json(), { sessionId: session.sessionId, revoked: true });
      const viewerCall = await f.app.inject({ method: 'GET', url: '/api/v2/embed/viewer/session', headers: bearer(accessToken) });
      assert.equal(viewerCall.statusCode, 410, 'the viewer learns its session ended');
      assert.ok(!(await admin.request('GET', `${P}/embedding/sessions`)).json().sessions.some((x: { sessionId: string }) => x.sessionId === session.sessionId));

      // Deactivation ends the user's sessions and frees the seat.
      const s2 = await admin.request('POST', `${P}/embedding/sessions`, { body: { externalId: 'console-user', networkId: f.networkId, origin: ORIGIN } });
      assert.equal(s2.statusCode, 201);
      assert.equal(s2.json().previewAvailable, false);
      const d = await admin.request('POST', `${P}/embedding/users/console-user/deactivate`);
      assert.equal(d.json().status, 'deactivated');
      assert.equal((await admin.request('GET', P)).json().embedding.seatsUsed, before);
      assert.ok(!(await admin.request('GET', `${P}/embedding/sessions`)).json().sessions.some((x: { sessionId: string }) => x.sessionId === s2.json().sessionId));

      const chat = await admin.request('PUT', `${P}/embedding/chat`, { body: { aiChat: false } });
      assert.equal(chat.json().aiChat, false);
      const presets = await admin.request('PUT', `${P}/embedding/networks/${f.networkId}/presets`, { body: { presetQuestions: ['Who bridges teams?'] } });
      assert.deepEqual(presets.json().presetQuestions, ['Who bridges teams?']);
      assert.equal((await admin.request('PUT', `${P}/embedding/networks/${f.networkId}/presets`, { body: { presetQuestions: 'nope' } })).statusCode, 400);

      const log = await admin.request('GET', `${P}/embedding/audit?actor=${f.ownerId}&limit=100`);
      const actions = log.json().entries.map((e: { action: string }) => e.action);
      for (const a of ['settings.update', 'user.create', 'grant.put', 'session.create', 'session.revoke', 'user.deactivate', 'chat.settings', 'chat.presets']) {
        assert.ok(actions.some((x: string) => x === a || x.startsWith(a.split('.')[0])), `audit has ${a}: ${actions.join(', ')}`);
      }
      assert.ok(log.json().entries.every((e: { actor: { kind: string } }) => e.actor.kind === 'user'));
      const filtered = await admin.request('GET', `${P}/embedding/audit?action=chat.presets`);
      assert.deepEqual(filtered.json().entries.map((e: { action: string }) => e.action), ['chat.presets']);
      const today = new Date(f.clock.now).toISOString().slice(0, 10);
      const all = (await admin.request('GET', `${P}/embedding/audit?limit=1`)).json().total as number;
      assert.equal((await admin.request('GET', `${P}/embedding/audit?from=${today}&to=${today}`)).json().total, all, 'today (whole day) holds every entry');
      const tomorrow = new Date(f.clock.now + 86_400_000).toISOString().slice(0, 10);
      assert.equal((await admin.request('GET', `${P}/embedding/audit?from=${tomorrow}`)).json().total, 0);
      assert.equal((await admin.request('GET', `${P}/embedding/audit?from=yesterday`)).statusCode, 400);
      const csv = await admin.request('GET', `${P}/embedding/audit.csv?action=chat.presets`);
      assert.equal(csv.statusCode, 200);
      assert.match(String(csv.headers['content-disposition']), /attachment; filename="netloom-audit-\d{4}-\d{2}-\d{2}\.csv"/);
      const lines = csv.body.trim().split('\r\n');
      assert.equal(lines.length, 2);
      assert.match(lines[1], /"chat.presets"/);
    });

    test('isolation: an admin of another organization never sees or changes this one (every endpoint)', async () => {
      const o = other.admin;
      const mine = await o.request('GET', `${P}/members`);
      const listed = mine.json().members as { _id: string; embedded: boolean; externalId?: string }[];
      assert.deepEqual(listed.filter((m) => !m.embedded).map((m) => m._id), [other.memberId]);
      assert.deepEqual(listed.filter((m) => m.embedded).map((m) => m.externalId), [other.externalId]);
      const sessions = await admin.request('GET', `${P}/embedding/sessions`);
      assert.ok(!sessions.json().sessions.some((s: { sessionId: string }) => s.sessionId === other.sessionId));
      const users = await admin.request('GET', `${P}/embedding/users?limit=500`);
      assert.ok(!users.json().users.some((u: { externalId: string }) => u.externalId === other.externalId));
      const audit = await admin.request('GET', `${P}/embedding/audit?limit=500`);
      assert.ok(!JSON.stringify(audit.json()).includes(other.sessionId));
      // Cross-organization targets are 404 (or refused), never changed.
      assert.equal((await admin.request('DELETE', `${P}/embedding/sessions/${other.sessionId}`)).statusCode, 404);
      assert.equal((await admin.request('GET', `${P}/embedding/users/${other.externalId}`)).statusCode, 404);
      assert.equal((await admin.request('POST', `${P}/embedding/users/${other.externalId}/deactivate`)).statusCode, 404);
      assert.equal((await admin.request('DELETE', `${P}/embedding/users/${other.externalId}/networks/${other.networkId}`)).statusCode, 404);
      assert.equal((await admin.request('GET', `${P}/embedding/networks/${other.networkId}/presets`)).statusCode, 404);
      assert.equal((await admin.request('PATCH', `${P}/members/${other.memberId}`, { body: { role: 'Admin' } })).statusCode, 404);
      assert.equal((await admin.request('POST', `${P}/members/${other.memberId}/suspend`)).statusCode, 404);
      assert.equal((await admin.request('POST', `${P}/embedding/sessions`, { body: { externalId: other.externalId, networkId: other.networkId, origin: ORIGIN } })).statusCode, 404);
      const still = await o.request('GET', `${P}/embedding/sessions`);
      assert.ok(still.json().sessions.some((s: { sessionId: string }) => s.sessionId === other.sessionId), 'the other session still lives');
    });
  });
}
