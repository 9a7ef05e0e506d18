// The organization's audit log names who acted (issue 23 item 9), through the real HTTP stack on SQLite and
// PostgreSQL: the owner's own Explore metric run is the owner (a `user`, with name and e-mail), a signed-out
// Discover visitor's run is "anonymous (Discover)", a managed user created with the organization credential
// is the credential's doing; invitations (created, revoked, accepted), API credentials (created, revoked),
// MFA (on, off) and sharing (set, removed) are logged with the person as the actor; pending invitations are
// listed and revoked (the revoked link no longer works); the log filters by actor kind and kind of event.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import { DIALECTS, smallNetwork } from './helpers/app.ts';
import { embedFixture, ORIGIN, type EmbedFixture } from './helpers/embed.ts';
import { PASSWORD, webClient, type WebClient } from './helpers/web.ts';
import { viewer } from './helpers/embed.ts';

const code = (secret: string, at: number) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at, algorithm: 'SHA1', digits: 6, period: 30 });

interface Entry { action: string; actor: { kind: string; id: string; name?: string }; target: string | null; details: Record<string, unknown> }

for (const dialect of DIALECTS) {
  describe(`audit log actors and events (${dialect})`, () => {
    let f: EmbedFixture;
    let owner: WebClient;
    let ownerEmail: string;
    before(async () => {
      f = await embedFixture(dialect);
      ownerEmail = (await (f.app as unknown as { database: { db: import('kysely').Kysely<import('../src/store/schema.ts').Database> } }).database.db.selectFrom('users').select('email').where('id', '=', f.ownerId).executeTakeFirstOrThrow()).email;
      owner = webClient(f.app);
      assert.equal((await owner.signIn(ownerEmail)).statusCode, 200);
    });
    after(() => f.t.close());

    async function log(query = ''): Promise<Entry[]> {
      const r = await owner.request('GET', `/app/api/organization/embedding/audit?limit=500${query}`);
      assert.equal(r.statusCode, 200, r.body);
      return r.json().entries as Entry[];
    }
    async function exchange(sessionId: string, launchToken: string): Promise<string> {
      const r = await f.app.inject({ method: 'POST', url: `/api/v2/embed/sessions/${sessionId}/access-tokens`, payload: { launchToken } });
      assert.equal(r.statusCode, 200, r.body);
      return r.json().accessToken;
    }

    test("the owner's Explore metric run is the owner; a Discover visitor's is anonymous; a managed user made with the organization credential is the credential's", async () => {
      const s = await owner.request('POST', `/app/api/networks/${f.networkId}/explore`);
      assert.equal(s.statusCode, 201, s.body);
      const at = await exchange(s.json().sessionId, s.json().launchToken);
      assert.equal((await viewer(f.app, at, 'POST', 'metrics/network/diameter', {})).statusCode, 200);

      const pub = await f.host('POST', '/api/v2/networks', { name: 'Open', status: 'Public', networkJSON: smallNetwork() });
      assert.equal(pub.statusCode, 200, pub.body);
      const anon = webClient(f.app);
      const d = await anon.request('POST', `/app/api/public-networks/${pub.json()._id}/explore`);
      assert.equal(d.statusCode, 201, d.body);
      const dat = await exchange(d.json().sessionId, d.json().launchToken);
      const run = await viewer(f.app, dat, 'POST', 'metrics/network/diameter', {});
      assert.equal(run.statusCode, 200, run.body);

      const made = await f.host('PUT', '/api/v2/embed/users/ext-ada', { displayName: 'Ada' });
      assert.ok(made.statusCode === 200 || made.statusCode === 201, made.body);

      const runs = (await log('&action=metric.run')).filter((e) => e.action === 'metric.run');
      const mine = runs.find((e) => e.details.networkId === f.networkId || e.target === ownerEmail);
      assert.ok(mine, JSON.stringify(runs));
      assert.equal(mine.actor.kind, 'user');
      assert.equal(mine.actor.id, f.ownerId);
      assert.match(mine.actor.name ?? '', new RegExp(`<${ownerEmail.replace('.', '\\.')}>$`));
      const visitor = runs.find((e) => e.actor.kind === 'anonymous');
      assert.ok(visitor, `a Discover run logged as anonymous: ${JSON.stringify(runs.map((e) => e.actor))}`);
      assert.equal(visitor.actor.name, 'anonymous (Discover)');
      assert.equal(runs.some((e) => e.actor.kind === 'managed_user'), false, 'nobody is logged as a managed user for Explore');

      const created = (await log('&action=user.create')).find((e) => e.target === 'ext-ada');
      assert.ok(created);
      assert.equal(created.actor.kind, 'credential');
      assert.match(created.actor.name ?? '', /^credential “.+”$/);

      const onlyAnon = await log('&actorKind=anonymous');
      assert.ok(onlyAnon.length > 0 && onlyAnon.every((e) => e.actor.kind === 'anonymous'));
    });

    test('invitations: created, listed as pending, revoked (the link stops working), accepted → member.join; all with the person as actor', async () => {
      const inv = await owner.request('POST', '/app/api/organization/members', { body: { email: 'grace@example.org', role: 'Standard User' } });
      assert.equal(inv.statusCode, 201, inv.body);
      const token = String(inv.json().url).split('/link/')[1];
      const pending = await owner.request('GET', '/app/api/organization/invitations');
      assert.equal(pending.statusCode, 200, pending.body);
      const mine = (pending.json().invitations as { id: string; email: string; role: string; invitedBy: string }[]).find((i) => i.email === 'grace@example.org');
      assert.ok(mine);
      assert.equal(mine.role, 'Standard User');
      assert.match(mine.invitedBy, new RegExp(ownerEmail.replace('.', '\\.')));
      const revoked = await owner.request('DELETE', `/app/api/organization/invitations/${mine.id}`);
      assert.equal(revoked.statusCode, 200, revoked.body);
      assert.equal((revoked.json().invitations as { email: string }[]).some((i) => i.email === 'grace@example.org'), false);
      assert.equal((await owner.request('DELETE', `/app/api/organization/invitations/${mine.id}`)).statusCode, 404);
      assert.notEqual((await webClient(f.app).request('GET', `/app/api/links/${token}`)).json().valid, true, 'the revoked link no longer works');

      // an existing account accepts a fresh invitation
      const linus = await f.t.user({ email: 'linus@example.org' });
      const again = await owner.request('POST', '/app/api/organization/members', { body: { email: linus.email, role: 'Standard User' } });
      assert.equal(again.statusCode, 201, again.body);
      const l = webClient(f.app);
      assert.equal((await l.signIn(linus.email)).statusCode, 200);
      const accepted = await l.request('POST', `/app/api/links/${String(again.json().url).split('/link/')[1]}/accept`);
      assert.equal(accepted.statusCode, 200, accepted.body);

      const events = await log('&action=invitation.');
      assert.deepEqual(new Set(events.map((e) => e.action)), new Set(['invitation.create', 'invitation.revoke']));
      assert.ok(events.every((e) => e.actor.kind === 'user' && e.actor.id === f.ownerId));
      const join = (await log('&action=member.join')).find((e) => e.actor.id === linus.id);
      assert.ok(join, 'member.join logged');
      assert.equal(join.actor.kind, 'user');
      assert.match(join.actor.name ?? '', /linus@example\.org/);
    });

    test('credentials, MFA and sharing are logged with the person as actor; no secret in the details', async () => {
      const cr = await owner.request('POST', '/app/api/credentials', { body: { name: 'Reporting script', password: PASSWORD, scopes: ['networks:read'] } });
      assert.equal(cr.statusCode, 201, cr.body);
      const id = cr.json().credential.id as string;
      const secret = cr.json().token as string;
      assert.equal((await owner.request('DELETE', `/app/api/credentials/${id}`)).statusCode, 200);

      const setup = await owner.request('POST', '/app/api/account/mfa/setup');
      assert.equal(setup.statusCode, 200, setup.body);
      const on = await owner.request('POST', '/app/api/account/mfa/enable', { body: { code: code(setup.json().secret, f.clock.now), password: PASSWORD } });
      assert.equal(on.statusCode, 200, on.body);
      const off = await owner.request('POST', '/app/api/account/mfa/disable', { body: { password: PASSWORD } });
      assert.equal(off.statusCode, 200, off.body);

      const peer = await f.t.user({ email: 'peer@example.org' });
      const share = await owner.request('PUT', `/app/api/networks/${f.networkId}/shares`, { body: { email: peer.email, permission: 'View' } });
      assert.equal(share.statusCode, 200, share.body);
      assert.equal((await owner.request('DELETE', `/app/api/networks/${f.networkId}/shares/${encodeURIComponent(peer.email)}`)).statusCode, 200);

      const all = await log();
      for (const action of ['credential.create', 'credential.revoke', 'mfa.enable', 'mfa.disable', 'share.set', 'share.remove']) {
        const e = all.find((x) => x.action === action);
        assert.ok(e, `${action} logged`);
        assert.equal(e.actor.kind, 'user', action);
        assert.equal(e.actor.id, f.ownerId, action);
      }
      assert.equal(all.find((x) => x.action === 'credential.create')?.target, id);
      assert.equal(all.find((x) => x.action === 'share.set')?.details.permission, 'View');
      const text = JSON.stringify(all);
      assert.equal(text.includes(secret), false, 'the token is never logged');
      assert.equal(text.includes(setup.json().secret), false, 'the TOTP secret is never logged');
      assert.equal(text.includes(PASSWORD), false);
      void ORIGIN;
    });
  });
}
