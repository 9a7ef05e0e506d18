// Managed users, grants, settings and session-creation rules through real HTTP (SQLite and PostgreSQL).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, bearer } from './helpers/app.ts';
import { embedFixture, ORIGIN, OPERATOR_TOKEN, type EmbedFixture } from './helpers/embed.ts';

for (const dialect of DIALECTS) {
  describe(`embedding: managed users, grants, settings (${dialect})`, () => {
    let f: EmbedFixture;
    before(async () => {
      f = await embedFixture(dialect, {}, { seats: 2 });
    });
    after(async () => f.t.close());

    test('externalId charset and length; idempotent PUT 201/200; displayName required on create; unknown fields 400', async () => {
      for (const bad of ['a%20b', 'a%2Fb', 'x'.repeat(129), 'caf%C3%A9', 'a%23b']) {
        const r = await f.host('PUT', `/api/v2/embed/users/${bad}`, { displayName: 'X' });
        assert.equal(r.statusCode, 400, `${bad}: ${r.body}`);
        assert.equal(r.json().code, 'INVALID_ARGS');
      }
      const ok = 'A.b_c:d@e|f-' + 'x'.repeat(116);
      assert.equal(ok.length, 128);
      const missing = await f.host('PUT', `/api/v2/embed/users/${encodeURIComponent(ok)}`, { chatAccess: 'off' });
      assert.equal(missing.statusCode, 400);
      assert.match(missing.json().detail, /displayName/);
      const c = await f.host('PUT', `/api/v2/embed/users/${encodeURIComponent(ok)}`, { displayName: 'Max' });
      assert.equal(c.statusCode, 201, c.body);
      assert.equal(c.json().externalId, ok);
      assert.equal(c.json().chatAccess, 'full');
      const again = await f.host('PUT', `/api/v2/embed/users/${encodeURIComponent(ok)}`, { displayName: 'Max' });
      assert.equal(again.statusCode, 200);
      const upd = await f.host('PUT', `/api/v2/embed/users/${encodeURIComponent(ok)}`, { displayName: 'Maxi', chatAccess: 'off', orgPermission: 'Access-only', readOnly: false });
      assert.equal(upd.statusCode, 200, upd.body);
      assert.equal(upd.json().displayName, 'Maxi');
      assert.equal(upd.json().chatAccess, 'off');
      const bad = await f.host('PUT', `/api/v2/embed/users/${encodeURIComponent(ok)}`, { displayName: 'M', chatAccess: 'all', extra: 1 });
      assert.equal(bad.statusCode, 400);
      assert.deepEqual(bad.json().errors.map((e: { path: string }) => e.path).sort(), ['/chatAccess', '/extra']);
      // Orphan cleanup: deactivate to free the seat for the next tests.
      assert.equal((await f.host('POST', `/api/v2/embed/users/${encodeURIComponent(ok)}/deactivate`)).statusCode, 200);
    });

    test('orgPermission and readOnly are fixed after creation (409 EMBED_MEMBERSHIP_IMMUTABLE)', async () => {
      const c = await f.host('PUT', '/api/v2/embed/users/fixed', { displayName: 'F', orgPermission: 'Standard User', readOnly: true });
      assert.equal(c.statusCode, 201, c.body);
      assert.equal(c.json().orgPermission, 'Standard User');
      for (const body of [{ orgPermission: 'Access-only' }, { readOnly: false }]) {
        const r = await f.host('PUT', '/api/v2/embed/users/fixed', body);
        assert.equal(r.statusCode, 409, r.body);
        assert.equal(r.json().code, 'EMBED_MEMBERSHIP_IMMUTABLE');
      }
      assert.equal((await f.host('PUT', '/api/v2/embed/users/fixed', { orgPermission: 'Standard User', readOnly: true })).statusCode, 200);
      // readOnly users can only be granted View.
      const edit = await f.host('PUT', `/api/v2/embed/users/fixed/networks/${f.networkId}`, { permission: 'Edit' });
      assert.equal(edit.statusCode, 400, edit.body);
      assert.equal((await f.host('PUT', `/api/v2/embed/users/fixed/networks/${f.networkId}`, { permission: 'View' })).statusCode, 200);
      assert.equal((await f.host('POST', '/api/v2/embed/users/fixed/deactivate')).statusCode, 200);
    });

    test('seats: 402 on create beyond seats; deactivation frees the seat (idempotent, keeps views); PUT reactivates when free, 402 when not', async () => {
      assert.equal((await f.host('PUT', '/api/v2/embed/users/s1', { displayName: 'S1' })).statusCode, 201);
      assert.equal((await f.host('PUT', '/api/v2/embed/users/s2', { displayName: 'S2' })).statusCode, 201);
      const full = await f.host('PUT', '/api/v2/embed/users/s3', { displayName: 'S3' });
      assert.equal(full.statusCode, 402, full.body);
      assert.equal(full.json().code, 'EMBEDDED_SEAT_LIMIT');
      assert.equal((await f.host('GET', '/api/v2/embed/users/s3')).statusCode, 404);

      assert.equal((await f.host('PUT', `/api/v2/embed/users/s1/networks/${f.networkId}`, { permission: 'View' })).statusCode, 200);
      const d = await f.host('POST', '/api/v2/embed/users/s1/deactivate');
      assert.equal(d.statusCode, 200, d.body);
      assert.equal(d.json().status, 'deactivated');
      assert.deepEqual(d.json().networks, []);
      assert.ok(d.json().deactivatedAt);
      assert.equal((await f.host('POST', '/api/v2/embed/users/s1/deactivate')).json().status, 'deactivated');
      const settings = await f.host('GET', '/api/v2/embed/settings');
      assert.equal(settings.json().seatsUsed, 1);
      assert.equal((await f.host('PUT', '/api/v2/embed/users/s3', { displayName: 'S3' })).statusCode, 201);
      const noSeat = await f.host('PUT', '/api/v2/embed/users/s1', {});
      assert.equal(noSeat.statusCode, 402);
      assert.equal((await f.host('POST', '/api/v2/embed/users/s3/deactivate')).statusCode, 200);
      const re = await f.host('PUT', '/api/v2/embed/users/s1', {});
      assert.equal(re.statusCode, 200, re.body);
      assert.equal(re.json().status, 'active');
      assert.equal(re.json().deactivatedAt, null);
      assert.deepEqual(re.json().networks, [], 'access is not restored by reactivation');
      // A deactivated user cannot be granted or get a session.
      const g = await f.host('PUT', `/api/v2/embed/users/s3/networks/${f.networkId}`, { permission: 'View' });
      assert.equal(g.statusCode, 403);
      for (const id of ['s1', 's2']) await f.host('POST', `/api/v2/embed/users/${id}/deactivate`);
    });

    test('listing with status, limit (≤ 500), offset; members list flags managed users embedded; no password', async () => {
      const all = await f.host('GET', '/api/v2/embed/users');
      assert.equal(all.statusCode, 200, all.body);
      assert.equal(all.json().limit, 50);
      assert.equal(all.json().offset, 0);
      assert.equal(all.json().total, all.json().users.length);
      const deact = await f.host('GET', '/api/v2/embed/users?status=deactivated&limit=2&offset=1');
      assert.equal(deact.statusCode, 200, deact.body);
      assert.equal(deact.json().users.length, 2);
      assert.ok(deact.json().users.every((u: { status: string }) => u.status === 'deactivated'));
      assert.equal(deact.json().total, all.json().users.filter((u: { status: string }) => u.status === 'deactivated').length);
      for (const q of ['limit=501', 'limit=0', 'offset=-1', 'status=gone', 'limit=abc']) {
        assert.equal((await f.host('GET', `/api/v2/embed/users?${q}`)).statusCode, 400, q);
      }
      const badStatus = (await f.host('GET', '/api/v2/embed/users?status=gone')).json();
      assert.deepEqual(badStatus.errors, [{ path: '/query/status', message: 'must be one of "active", "deactivated"' }]);
      const members = await f.host('GET', '/api/v2/organization/members');
      assert.equal(members.statusCode, 200, members.body);
      const m = members.json().members;
      const owner = m.find((x: { _id: string }) => x._id === f.ownerId);
      assert.equal(owner.embedded, false);
      const managed = m.filter((x: { embedded: boolean }) => x.embedded);
      assert.equal(managed.length, all.json().total);
      assert.ok(managed.every((x: { email: string }) => x.email.endsWith('.netloom.invalid')));
      const rows = await f.t.database.db.selectFrom('users').select(['kind', 'password_hash']).where('kind', '=', 'managed').execute();
      assert.ok(rows.length > 0 && rows.every((r) => r.password_hash === null));
    });

    test('settings: origins exact (wildcards, paths refused with a clear 400); subset PUT; enablement read-only; embeddable networks', async () => {
      for (const [origin, why] of [['https://*.example.com', /wildcard/], ['https://example.com/app', /path/], ['https://example.com/', /path/], ['ftp://example.com', /scheme/], ['example.com', /origin/], ['https://u:p@example.com', /user/]] as const) {
        const r = await f.host('PUT', '/api/v2/embed/settings', { allowedOrigins: [ORIGIN, origin] });
        assert.equal(r.statusCode, 400, origin);
        assert.equal(r.json().errors[0].path, '/allowedOrigins/1');
        assert.match(r.json().detail, why, r.json().detail);
      }
      const ok = await f.host('PUT', '/api/v2/embed/settings', { allowedOrigins: [ORIGIN, 'https://App.Example.com:443', 'http://localhost:3000'] });
      assert.equal(ok.statusCode, 200, ok.body);
      assert.deepEqual(ok.json().allowedOrigins, [ORIGIN, 'https://app.example.com', 'http://localhost:3000']);
      const got = (await f.host('GET', '/api/v2/embed/settings')).json();
      assert.equal(got.enabled, true);
      assert.equal(got.seats, 2);
      assert.equal(got.allOwnedNetworks, true);
      assert.equal(got.dataDisclosureAccepted, true);
      assert.deepEqual(got.limits, { provisioningPerHour: 600, launchTokensPerHour: 6000, metricsPerHour: 3000, redemptionsPerSessionPerHour: 60, aiQuestionsPerMonth: 1000 });
      // The GET body can be sent back; changing a read-only field is refused.
      assert.equal((await f.host('PUT', '/api/v2/embed/settings', got)).statusCode, 200);
      const seats = await f.host('PUT', '/api/v2/embed/settings', { seats: 100 });
      assert.equal(seats.statusCode, 400);
      assert.match(seats.json().detail, /read-only/);
      assert.equal((await f.host('PUT', '/api/v2/embed/settings', { enabled: false })).statusCode, 400);

      // Chosen networks: another network stops being embeddable.
      const other = await f.createNetwork('Other');
      const chosen = await f.host('PUT', '/api/v2/embed/settings', { allOwnedNetworks: false, embeddableNetworkIds: [f.networkId] });
      assert.equal(chosen.statusCode, 200, chosen.body);
      assert.deepEqual(chosen.json().embeddableNetworkIds, [f.networkId]);
      assert.equal((await f.host('PUT', '/api/v2/embed/users/e1', { displayName: 'E1' })).statusCode, 201);
      const g = await f.host('PUT', `/api/v2/embed/users/e1/networks/${other}`, { permission: 'View' });
      assert.equal(g.statusCode, 403, g.body);
      assert.equal(g.json().code, 'NETWORK_NOT_EMBEDDABLE');
      assert.equal((await f.host('PUT', `/api/v2/embed/users/e1/networks/${f.networkId}`, { permission: 'View' })).statusCode, 200);
      // A network of another organization / unknown: 400 in settings, 404 on grants.
      const stranger = await f.t.user();
      const strangerToken = await f.t.token(stranger.id);
      const foreign = (await f.app.inject({ method: 'POST', url: '/api/v2/networks', headers: bearer(strangerToken), payload: { name: 'X', networkJSON: { nodes: [{ id: 1 }] } } })).json()._id;
      const fs = await f.host('PUT', '/api/v2/embed/settings', { embeddableNetworkIds: [foreign] });
      assert.equal(fs.statusCode, 400);
      assert.equal(fs.json().errors[0].path, '/embeddableNetworkIds/0');
      assert.equal((await f.host('PUT', `/api/v2/embed/users/e1/networks/${foreign}`, { permission: 'View' })).statusCode, 404);
      // The data-disclosure acknowledgement is recorded (and can be withdrawn) but does not gate
      // embeddability: by default all owned networks are embeddable (docs/spec/api.md).
      const wd = await f.host('PUT', '/api/v2/embed/settings', { allOwnedNetworks: true, dataDisclosureAccepted: false });
      assert.equal(wd.statusCode, 200);
      assert.equal(wd.json().dataDisclosureAccepted, false);
      assert.equal(wd.json().dataDisclosureAcceptedAt, null);
      assert.equal((await f.host('PUT', `/api/v2/embed/users/e1/networks/${other}`, { permission: 'View' })).statusCode, 200);
      const acc = await f.host('PUT', '/api/v2/embed/settings', { dataDisclosureAccepted: true });
      assert.ok(acc.json().dataDisclosureAcceptedAt);
      await f.host('POST', '/api/v2/embed/users/e1/deactivate');
    });

    test('session creation: every validation', async () => {
      assert.equal((await f.host('PUT', '/api/v2/embed/users/v1', { displayName: 'V1' })).statusCode, 201);
      await f.host('PUT', `/api/v2/embed/users/v1/networks/${f.networkId}`, { permission: 'View' });
      const base = { externalId: 'v1', networkIds: [f.networkId], origin: ORIGIN };
      const post = (body: unknown) => f.host('POST', '/api/v2/embed/sessions', body);
      const cases: [unknown, number, string, RegExp?][] = [
        [{ ...base, maxMinutes: 0 }, 400, 'INVALID_ARGS', /maxMinutes/],
        [{ ...base, maxMinutes: 721 }, 400, 'INVALID_ARGS', /maxMinutes/],
        [{ ...base, maxMinutes: 1.5 }, 400, 'INVALID_ARGS'],
        [{ ...base, maxMinutes: '60' }, 400, 'INVALID_ARGS'],
        [{ ...base, ui: { menu: ['layout', 'chat'] } }, 400, 'INVALID_ARGS', /chat/],
        [{ ...base, ui: { theme: 'dark' } }, 400, 'INVALID_ARGS', /theme/],
        [{ ...base, ui: { aiChat: 'no' } }, 400, 'INVALID_ARGS', /aiChat/],
        [{ ...base, ui: { menu: 'layout' } }, 400, 'INVALID_ARGS'],
        [{ ...base, ui: [] }, 400, 'INVALID_ARGS'],
        [{ ...base, header: 'big' }, 400, 'INVALID_ARGS'],
        [{ ...base, networkIds: [f.networkId, f.networkId] }, 400, 'INVALID_ARGS', /exactly one/],
        [{ ...base, networkIds: [] }, 400, 'INVALID_ARGS'],
        [{ ...base, externalId: undefined }, 400, 'INVALID_ARGS'],
        [{ ...base, extra: true }, 400, 'INVALID_ARGS'],
        [{ ...base, origin: 'https://evil.example.com' }, 403, 'ORIGIN_NOT_ALLOWED'],
        [{ ...base, origin: `${ORIGIN}/path` }, 400, 'INVALID_ARGS'],
        [{ ...base, externalId: 'nobody' }, 404, 'NOT_FOUND'],
        [{ ...base, networkIds: ['0123456789abcdef01234567'] }, 404, 'NOT_FOUND'],
      ];
      for (const [body, status, code, detail] of cases) {
        const r = await post(body);
        assert.equal(r.statusCode, status, `${JSON.stringify(body)} → ${r.body}`);
        assert.equal(r.json().code, code);
        if (detail) assert.match(r.json().detail, detail);
      }
      // All problems listed at once.
      const many = await post({ ...base, maxMinutes: 0, header: 'x', ui: { menu: ['nope'], x: 1 } });
      assert.deepEqual(many.json().errors.map((e: { path: string }) => e.path).sort(), ['/header', '/maxMinutes', '/ui/menu/0', '/ui/x']);
      // No grant on that network.
      const other = await f.createNetwork('NoGrant');
      const ng = await post({ ...base, networkIds: [other] });
      assert.equal(ng.statusCode, 403);
      // ui normalisation: viewer order, duplicates dropped, defaults.
      const s = await post({ ...base, ui: { menu: ['settings', 'layout', 'layout'] }, maxMinutes: 720 });
      assert.equal(s.statusCode, 201, s.body);
      assert.deepEqual(s.json().ui, { menu: ['layout', 'settings'], aiChat: true });
      assert.equal(s.json().header, 'none');
      const d = await post(base);
      assert.equal(d.json().ui.menu.length, 16);
      assert.deepEqual((await post({ ...base, ui: { menu: [] } })).json().ui, { menu: [], aiChat: true });
      await f.host('POST', '/api/v2/embed/users/v1/deactivate');
      const deact = await post(base);
      assert.equal(deact.statusCode, 403);
    });

    test('operator API: wrong or missing token → 401; validation; unknown organization 404', async () => {
      const url = `/api/v2/operator/organizations/${f.orgId}/embedding`;
      assert.equal((await f.app.inject({ method: 'GET', url })).statusCode, 401);
      assert.equal((await f.app.inject({ method: 'GET', url, headers: bearer(OPERATOR_TOKEN + 'x') })).statusCode, 401);
      assert.equal((await f.app.inject({ method: 'GET', url, headers: bearer(f.orgToken) })).statusCode, 401);
      const ok = await f.app.inject({ method: 'GET', url, headers: bearer(OPERATOR_TOKEN) });
      assert.equal(ok.statusCode, 200);
      assert.equal(ok.json().orgId, f.orgId);
      const bad = await f.app.inject({ method: 'PUT', url, headers: bearer(OPERATOR_TOKEN), payload: { seats: -1, limits: { nope: 1 } } });
      assert.equal(bad.statusCode, 400);
      const lim = await f.app.inject({ method: 'PUT', url, headers: bearer(OPERATOR_TOKEN), payload: { limits: { nope: 1 } } });
      assert.equal(lim.statusCode, 400, lim.body);
      assert.equal((await f.app.inject({ method: 'GET', url: '/api/v2/operator/organizations/0123456789abcdef01234567/embedding', headers: bearer(OPERATOR_TOKEN) })).statusCode, 404);
    });
  });
}
