// The web app's networks endpoints through the real HTTP stack on SQLite and PostgreSQL
// (docs/web-app.md "Networks"): list with sort, counts and maxima; network page with access, views and
// shares; metadata edits; sharing by e-mail; delete; upload (problems listed, nothing stored) and
// download; CSRF and session rules.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, testApp, bearer, smallNetwork } from './helpers/app.ts';
import { fixture } from './helpers/fixture.ts';
import { webClient, signedInClient } from './helpers/web.ts';
import { workbookFromRows } from '../src/domain/formats/xlsx.ts';

async function multipart(files: Record<string, { body: Uint8Array | string; name: string }>, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [k, f] of Object.entries(files)) form.append(k, new Blob([typeof f.body === 'string' ? f.body : Buffer.from(f.body)]), f.name);
  const r = new Response(form);
  return { body: Buffer.from(await r.arrayBuffer()), headers: { 'content-type': String(r.headers.get('content-type')) } };
}

for (const dialect of DIALECTS) {
  describe(`web networks (${dialect})`, () => {
    const t = fixture(() => testApp(dialect));

    const signedIn = (email: string) => signedInClient(t.app, email);
    const create = async (token: string, body: Record<string, unknown>) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v2/networks', headers: bearer(token), payload: { networkJSON: smallNetwork(), ...body } });
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as { _id: string };
    };

    test('list: own and shared networks with access, last modified first or by name, counts against the plan maxima', async () => {
      const me = await t.user({ plan: 'free' });
      const other = await t.user();
      const myTok = await t.token(me.id);
      const otherTok = await t.token(other.id);
      const b = await create(myTok, { name: 'beta', status: 'Public' });
      const a = await create(myTok, { name: 'Alpha' });
      const shared = await create(otherTok, { name: 'shared one' });
      await create(otherTok, { name: 'not mine' });
      const c = await signedIn(me.email);
      // the other user shares through the web app
      const oc = await signedIn(other.email);
      assert.equal((await oc.request('PUT', `/app/api/networks/${shared._id}/shares`, { body: { email: me.email.toUpperCase(), permission: 'Edit' } })).statusCode, 200);
      const res = await c.request('GET', '/app/api/networks');
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.deepEqual(body.networks.map((n: { name: string }) => n.name), ['shared one', 'Alpha', 'beta']);
      assert.deepEqual(body.networks.map((n: { access: string }) => n.access), ['edit', 'owner', 'owner']);
      assert.equal(body.networks[0].networkJSON, undefined);
      assert.deepEqual(body.counts, { public: 1, private: 1 });
      assert.deepEqual(body.maxima, { public: 3, private: 3 });
      const byName = (await c.request('GET', '/app/api/networks?sort=name')).json();
      assert.deepEqual(byName.networks.map((n: { name: string }) => n.name), ['Alpha', 'beta', 'shared one']);
      assert.equal((await c.request('GET', '/app/api/networks?sort=size')).statusCode, 400);
      assert.ok(a._id && b._id);
    });

    test('network page, metadata edit, sharing by e-mail and delete follow owner / Edit / View access', async () => {
      const owner = await t.user({ name: 'Olive Owner' });
      const editor = await t.user({ name: 'Eddie Editor' });
      const viewer = await t.user({ name: 'Vera Viewer' });
      const stranger = await t.user();
      const net = await create(await t.token(owner.id), { name: 'Team', description: 'first' });
      const oc = await signedIn(owner.email);
      const share = (email: string, permission: string) => oc.request('PUT', `/app/api/networks/${net._id}/shares`, { body: { email, permission } });
      assert.equal((await share(editor.email, 'View')).statusCode, 200);
      const shares = (await share(editor.email, 'Edit')).json().shares;
      // no name: the editor is in no organization of the owner's (see the test on accounts below)
      assert.deepEqual(shares, [{ email: editor.email, name: '', permission: 'Edit' }]);
      assert.equal((await share(viewer.email, 'View')).statusCode, 200);
      assert.equal((await share('not-an-address', 'View')).json().errors[0].path, '/email');
      assert.equal((await share(owner.email, 'Edit')).statusCode, 400);
      assert.equal((await share(viewer.email, 'Admin')).statusCode, 400);

      const page = (await oc.request('GET', `/app/api/networks/${net._id}`)).json();
      assert.equal(page.access, 'owner');
      assert.equal(page.viewCount, 0);
      assert.equal(page.nodeCount, 3);
      assert.deepEqual(page.owner, { _id: owner.id, name: 'Olive Owner' });
      assert.deepEqual(page.shares.map((s: { email: string }) => s.email).sort(), [editor.email, viewer.email].sort());

      const ec = await signedIn(editor.email);
      const vc = await signedIn(viewer.email);
      const sc = await signedIn(stranger.email);
      assert.equal((await vc.request('GET', `/app/api/networks/${net._id}`)).json().access, 'read');
      assert.deepEqual((await vc.request('GET', `/app/api/networks/${net._id}`)).json().shares, []);
      assert.equal((await sc.request('GET', `/app/api/networks/${net._id}`)).statusCode, 404);

      const patched = await ec.request('PATCH', `/app/api/networks/${net._id}`, { body: { name: 'Team 2', description: 'second', status: 'Public', isDirected: false } });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.equal(patched.json().name, 'Team 2');
      assert.equal(patched.json().status, 'Public');
      assert.equal(patched.json().isDirected, false);
      const api = (await t.app.inject({ method: 'GET', url: `/api/v2/networks/${net._id}`, headers: bearer(await t.token(owner.id)) })).json();
      assert.equal(api.description, 'second');
      assert.deepEqual(api.networkJSON, smallNetwork());
      assert.equal((await vc.request('PATCH', `/app/api/networks/${net._id}`, { body: { name: 'x' } })).statusCode, 403);
      const bad = await oc.request('PATCH', `/app/api/networks/${net._id}`, { body: { name: '', status: 'Secret' } });
      assert.equal(bad.statusCode, 400);
      assert.deepEqual(bad.json().errors.map((e: { path: string }) => e.path).sort(), ['/name', '/status']);

      assert.equal((await ec.request('PUT', `/app/api/networks/${net._id}/shares`, { body: { email: stranger.email, permission: 'View' } })).statusCode, 403);
      assert.equal((await ec.request('DELETE', `/app/api/networks/${net._id}`)).statusCode, 403);
      const unshared = await oc.request('DELETE', `/app/api/networks/${net._id}/shares/${encodeURIComponent(viewer.email)}`);
      assert.deepEqual(unshared.json().shares.map((s: { email: string }) => s.email), [editor.email]);
      assert.equal((await vc.request('GET', `/app/api/networks/${net._id}`)).json().access, 'read', 'a Public network stays readable');
      assert.equal((await oc.request('DELETE', `/app/api/networks/${net._id}/shares/${encodeURIComponent(viewer.email)}`)).statusCode, 404);

      const del = await oc.request('DELETE', `/app/api/networks/${net._id}`);
      assert.deepEqual(del.json(), { _id: net._id, deleted: true });
      assert.equal((await oc.request('GET', `/app/api/networks/${net._id}`)).statusCode, 404);
    });

    test('sharing answers the same whether the e-mail has an account or not; a share waits for the account and then works (issue 19, Low)', async () => {
      const owner = await t.user({ name: 'Olive Owner' });
      const org = await t.org(owner.id);
      const colleague = await t.user({ name: 'Col League' });
      await t.member(org.id, colleague.id, 'Standard User');
      const outsider = await t.user({ name: 'Otto Outsider' });
      const nobody = `nobody-${dialect}@example.com`;
      const oc = await signedIn(owner.email);
      const net = await create(await t.token(owner.id), { name: 'Shared later' });
      const net2 = await create(await t.token(owner.id), { name: 'Shared later 2' });
      const share = (id: string, email: string, permission: string) => oc.request('PUT', `/app/api/networks/${id}/shares`, { body: { email, permission } });
      // the two cases side by side, each on its own network: the same status, headers' type and body but for the address
      const [withAccount, without] = await Promise.all([share(net._id, outsider.email, 'View'), share(net2._id, nobody, 'View')]);
      assert.equal(withAccount.statusCode, 200, withAccount.body);
      assert.equal(without.statusCode, withAccount.statusCode);
      assert.equal(without.statusCode, 200, without.body);
      assert.equal(withAccount.headers['content-type'], without.headers['content-type']);
      assert.deepEqual(withAccount.json(), { shares: [{ email: outsider.email, name: '', permission: 'View' }] });
      assert.deepEqual(without.json(), { shares: [{ email: nobody, name: '', permission: 'View' }] });
      // changing the permission, the network page and removing: the same again
      assert.deepEqual((await share(net._id, outsider.email, 'Edit')).json().shares[0], { email: outsider.email, name: '', permission: 'Edit' });
      assert.deepEqual((await share(net2._id, nobody.toUpperCase(), 'Edit')).json().shares[0], { email: nobody, name: '', permission: 'Edit' });
      assert.deepEqual((await oc.request('GET', `/app/api/networks/${net2._id}`)).json().shares, [{ email: nobody, name: '', permission: 'Edit' }]);
      // a member of the owner's own organization is shown by name (the owner sees the members anyway)
      assert.deepEqual((await share(net._id, colleague.email, 'View')).json().shares.find((s: { email: string }) => s.email === colleague.email), { email: colleague.email, name: 'Col League', permission: 'View' });
      const [un1, un2] = await Promise.all([
        oc.request('DELETE', `/app/api/networks/${net._id}/shares/${encodeURIComponent(outsider.email)}`),
        oc.request('DELETE', `/app/api/networks/${net2._id}/shares/${encodeURIComponent(nobody)}`),
      ]);
      assert.equal(un1.statusCode, 200);
      assert.equal(un2.statusCode, 200);
      assert.deepEqual(un2.json(), { shares: [] });
      const [again1, again2] = await Promise.all([
        oc.request('DELETE', `/app/api/networks/${net._id}/shares/${encodeURIComponent(outsider.email)}`),
        oc.request('DELETE', `/app/api/networks/${net2._id}/shares/${encodeURIComponent(nobody)}`),
      ]);
      assert.deepEqual([again1.statusCode, again2.statusCode], [404, 404]);
      assert.equal(again1.json().code, again2.json().code);
      // a waiting share becomes a share when the address gets its account (here through an invitation link)
      assert.equal((await share(net2._id, nobody, 'View')).statusCode, 200);
      const url = (await oc.request('POST', '/app/api/organization/invitations', { body: { email: nobody } })).json().url as string;
      const nc = webClient(t.app);
      const redeemed = await nc.request('POST', `/app/api/links/${url.split('/link/')[1]}`, { body: { name: 'No Body', password: 'a passphrase of mine' } });
      assert.equal(redeemed.statusCode, 200, redeemed.body);
      const mine = (await nc.request('GET', '/app/api/networks')).json().networks as { _id: string; access: string }[];
      assert.deepEqual(mine.filter((n) => n._id === net2._id).map((n) => n.access), ['read']);
      assert.equal((await nc.request('GET', `/app/api/networks/${net2._id}`)).statusCode, 200);
      const page = (await oc.request('GET', `/app/api/networks/${net2._id}`)).json().shares;
      assert.deepEqual(page, [{ email: nobody, name: 'No Body', permission: 'View' }], 'now a member of the organization, so named');
    });

    test('upload: 201 with the network; a bad spreadsheet lists sheet and row of each problem and stores nothing; download with Content-Disposition', async () => {
      const u = await t.user();
      const c = await signedIn(u.email);
      const xlsx = await workbookFromRows({ Nodes: [['Name', 'Age'], ['Ana', 30], ['Ana', 'old'], ['Cy', 41]], Edges: [['Source', 'Target'], ['Ana', 'Bo']] });
      const bad = await multipart({ file: { body: xlsx, name: 'team.xlsx' } });
      const r1 = await c.request('POST', '/app/api/networks/import', { body: bad.body, headers: bad.headers });
      assert.equal(r1.statusCode, 400);
      assert.deepEqual(r1.json().errors.map((e: { path: string }) => e.path).sort(), ['Edges!B2', 'Nodes!A3', 'Nodes!B3']);
      assert.equal((await c.request('GET', '/app/api/networks')).json().networks.length, 0);

      const good = await multipart({ file: { body: 'Source,Target,Weight\nana,bo,2\n', name: 'friends.csv' } }, { status: 'Public', description: 'from csv' });
      const r2 = await c.request('POST', '/app/api/networks/import', { body: good.body, headers: good.headers });
      assert.equal(r2.statusCode, 201, r2.body);
      const net = r2.json();
      assert.equal(net.name, 'friends');
      assert.equal(net.status, 'Public');
      assert.equal(net.owner._id, u.id);
      assert.equal(net.edgeCount, 1);
      const dl = await c.request('GET', `/app/api/networks/${net._id}/export?format=xlsx`);
      assert.equal(dl.statusCode, 200);
      assert.equal(dl.headers['content-disposition'], `attachment; filename="friends.xlsx"; filename*=UTF-8''friends.xlsx`);
      assert.equal(dl.rawPayload.subarray(0, 2).toString(), 'PK');
    });

    test('session rules: signed out 401; no CSRF token or a foreign Origin 403 and nothing changes; a credential is not a session', async () => {
      const u = await t.user();
      const tok = await t.token(u.id);
      const net = await create(tok, { name: 'Keep me' });
      assert.equal((await t.app.inject({ method: 'GET', url: '/app/api/networks' })).statusCode, 401);
      assert.equal((await t.app.inject({ method: 'GET', url: '/app/api/networks', headers: bearer(tok) })).statusCode, 401);
      const c = await signedIn(u.email);
      const noCsrf = await c.request('DELETE', `/app/api/networks/${net._id}`, { csrf: false });
      assert.equal(noCsrf.statusCode, 403);
      assert.equal(noCsrf.json().code, 'CSRF_FAILED');
      const foreign = await c.request('PATCH', `/app/api/networks/${net._id}`, { body: { name: 'pwned' }, origin: 'https://evil.example' });
      assert.equal(foreign.statusCode, 403);
      const up = await multipart({ file: { body: 'Source,Target\na,b\n', name: 'x.csv' } });
      assert.equal((await c.request('POST', '/app/api/networks/import', { body: up.body, headers: up.headers, csrf: false })).statusCode, 403);
      const after = (await c.request('GET', `/app/api/networks/${net._id}`)).json();
      assert.equal(after.name, 'Keep me');
      assert.equal((await c.request('GET', '/app/api/networks')).json().networks.length, 1);
    });
  });
}
