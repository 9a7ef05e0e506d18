// The plan's network maximum before an upload is read or parsed (issue 19, Low; docs/security.md
// "Request bodies"): an owner with no room left is refused before the upload is received — the file
// below is not even a network, so an answer that had read it would be a 400 — and a status sent as a
// form field is checked before the file is read; JSON bodies of `POST /networks` likewise before they
// are parsed. Real HTTP on SQLite and PostgreSQL.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, bearer, smallNetwork, DIALECTS, type TestApp } from './helpers/app.ts';
import { webClient } from './helpers/web.ts';

const NOT_A_NETWORK = 'this is { not a network file';

for (const dialect of DIALECTS) {
  describe(`plan maximum before the upload is parsed (${dialect})`, () => {
    let t: TestApp;
    let base: string;
    before(async () => {
      // free plan: 3 public and 3 private networks; enterprise (organization credentials) here 3 private too
      t = await testApp(dialect, { NETLOOM_PLAN_ENTERPRISE_MAX_PRIVATE: '3' });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    });
    after(async () => t.close());

    const form = (body: string, name: string, fields: Record<string, string> = {}) => {
      const f = new FormData();
      for (const [k, v] of Object.entries(fields)) f.append(k, v);
      f.append('file', new Blob([body]), name);
      return f;
    };
    const importFile = async (token: string, body: FormData) => {
      const res = await fetch(`${base}/api/v2/networks/import`, { method: 'POST', headers: bearer(token), body });
      return { status: res.status, body: (await res.json()) as { code: string; detail: string } };
    };
    const create = async (token: string, status: 'Public' | 'Private') => {
      const res = await fetch(`${base}/api/v2/networks`, { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ name: status, status, networkJSON: smallNetwork() }) });
      assert.equal(res.status, 200, await res.text());
    };

    test('with no room for either status: 403 NETWORK_LIMIT_REACHED before the upload is read (API, web app, POST /networks)', async () => {
      const u = await t.user({ plan: 'free' });
      const token = await t.token(u.id);
      // before the maxima, the same file is read and refused for what it is
      const unread = await importFile(token, form(NOT_A_NETWORK, 'x.json'));
      assert.equal(unread.status, 400, JSON.stringify(unread.body));
      for (let i = 0; i < 3; i++) await create(token, 'Public');
      for (let i = 0; i < 3; i++) await create(token, 'Private');
      const refused = await importFile(token, form(NOT_A_NETWORK, 'x.json'));
      assert.equal(refused.status, 403, JSON.stringify(refused.body));
      assert.equal(refused.body.code, 'NETWORK_LIMIT_REACHED');
      assert.match(refused.body.detail, new RegExp(u.email.replace(/[.+]/g, '\\$&')));
      // the web app's upload
      const c = webClient(t.app);
      assert.equal((await c.signIn(u.email)).statusCode, 200);
      const r = new Response(form(NOT_A_NETWORK, 'x.json'));
      const web = await c.request('POST', '/app/api/networks/import', { body: Buffer.from(await r.arrayBuffer()), headers: { 'content-type': String(r.headers.get('content-type')) } });
      assert.equal(web.statusCode, 403, web.body);
      assert.equal(web.json().code, 'NETWORK_LIMIT_REACHED');
      // POST /networks: a body that is not even JSON is refused for the plan, not for its syntax
      const json = await fetch(`${base}/api/v2/networks`, { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: NOT_A_NETWORK });
      assert.equal(json.status, 403, await json.clone().text());
      assert.equal(((await json.json()) as { code: string }).code, 'NETWORK_LIMIT_REACHED');
    });

    test('with room for one status only: a status field for the full one is refused before reading; without it the file decides', async () => {
      const u = await t.user({ plan: 'free' });
      const token = await t.token(u.id);
      for (let i = 0; i < 3; i++) await create(token, 'Private');
      const privateField = await importFile(token, form(NOT_A_NETWORK, 'x.json', { status: 'Private' }));
      assert.equal(privateField.status, 403, JSON.stringify(privateField.body));
      assert.equal(privateField.body.code, 'NETWORK_LIMIT_REACHED');
      // no status field: the file might say Public, so it is read (and here refused for what it is)
      assert.equal((await importFile(token, form(NOT_A_NETWORK, 'x.json'))).status, 400);
      // a file that says Public is stored; one that says nothing is Private and refused after reading
      const pub = JSON.stringify({ name: 'p', status: 'Public', networkJSON: smallNetwork() });
      assert.equal((await importFile(token, form(pub, 'p.json'))).status, 200);
      const priv = await importFile(token, form(JSON.stringify(smallNetwork()), 'q.json'));
      assert.equal(priv.status, 403);
      assert.equal(priv.body.code, 'NETWORK_LIMIT_REACHED');
      // an organization credential names the owner in the fields: checked once they are read, before the file
      const owner = await t.user();
      const org = await t.org(owner.id);
      await t.member(org.id, u.id, 'Standard User');
      const orgToken = await t.token(owner.id, { orgId: org.id });
      const forU = await importFile(orgToken, form(NOT_A_NETWORK, 'x.json', { owner: u.email, status: 'Private' }));
      assert.equal(forU.status, 403, JSON.stringify(forU.body));
      assert.equal(forU.body.code, 'NETWORK_LIMIT_REACHED');
    });
  });
}
