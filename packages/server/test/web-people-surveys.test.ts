// People and surveys in the web app (issue 21; docs/spec/decisions.md §10.1): the /api/v2 route plugins
// registered on the web surface under /app/api (http/route-surface.ts), through the real HTTP stack on
// SQLite and PostgreSQL — a signed-in member works in the organization's directory with the session
// cookie; every change needs the CSRF token; signed out is 401 and an API credential does not count;
// another organization's admin gets 404 on every id; Access-only members get 403.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, orgApp, bearer } from './helpers/app.ts';
import { fixture } from './helpers/fixture.ts';
import { webClient, type WebClient, signedInClient } from './helpers/web.ts';

const QUESTIONS = [
  { id: 'advice', type: 'relationship', text: 'Who do you go to for advice?', maxSelections: 5 },
  { id: 'office', type: 'singleChoice', text: 'Office?', options: ['North', 'South'] },
];

for (const dialect of DIALECTS) {
  describe(`web people and surveys (${dialect})`, () => {
    const t = fixture(() => orgApp(dialect));
    let member: WebClient;
    let memberId: string;
    before(async () => {
      const std = await t.user({ name: 'Sam Standard' });
      memberId = std.id;
      await t.member(t.orgId, std.id, 'Standard User');
      member = await signedIn(std.email);
    });

    const signedIn = (email: string) => signedInClient(t.app, email);

    test("a Standard User manages the organization's people, fields and surveys with the session; the API sees the same directory", async () => {
      const field = await member.request('POST', '/app/api/customFields', { body: { key: 'team', label: 'Team', type: 'category', options: ['Sales', 'Eng'] } });
      assert.equal(field.statusCode, 201, field.body);
      assert.equal((await member.request('POST', '/app/api/customFields', { body: { key: 'gender', label: 'Gender', type: 'text', sensitive: true } })).statusCode, 201);
      const ana = await member.request('POST', '/app/api/employees', { body: { employeeId: 'E1', name: 'Ana Lima', email: 'ana@example.com', fields: { team: 'Sales' } } });
      assert.equal(ana.statusCode, 201, ana.body);
      const bulk = await member.request('PUT', '/app/api/employees', { body: { employees: Array.from({ length: 11 }, (_, i) => ({ employeeId: `E${i + 2}`, name: `Person ${i + 2}`, email: `p${i + 2}@example.com`, fields: { team: i % 2 ? 'Sales' : 'Eng' } })) } });
      assert.equal(bulk.statusCode, 200, bulk.body);
      // the import takes the file itself as the body, as on /api/v2
      const imported = await member.request('POST', '/app/api/employees/import?mode=merge', { body: 'EmployeeId,Name,Email,Team\r\nE13,Cleo Park,cleo@example.com,Eng\r\n', headers: { 'content-type': 'text/csv' } });
      assert.equal(imported.statusCode, 200, imported.body);
      assert.equal(imported.json().dryRun, false);
      const bad = await member.request('POST', '/app/api/employees/import', { body: 'EmployeeId,Name,Team\r\n,Nine,Marketing\r\n', headers: { 'content-type': 'text/csv' } });
      assert.equal(bad.statusCode, 400);
      assert.deepEqual(bad.json().errors.map((e: { path: string }) => e.path).sort(), ['/rows/2/EmployeeId', '/rows/2/Team'], bad.body);
      const template = await member.request('GET', '/app/api/employees/template?format=csv');
      assert.equal(template.statusCode, 200);
      assert.match(template.body, /EmployeeId/);
      assert.match(template.body, /team|Team/);

      const list = await member.request('GET', '/app/api/employees?q=ana&limit=10');
      assert.equal(list.statusCode, 200, list.body);
      assert.deepEqual(list.json().employees.map((e: { employeeId: string }) => e.employeeId), ['E1']);
      const all = (await member.request('GET', '/app/api/employees?limit=100')).json();
      assert.equal(all.total, 13);
      // the organization's credential reads the very same directory
      assert.equal((await t.api('GET', '/employees?limit=100')).json().total, 13);
      const id = ana.json()._id as string;
      const replaced = await member.request('PUT', `/app/api/employees/${id}`, { body: { employeeId: 'E1', name: 'Ana Lima-Souza', email: 'ana@example.com', fields: { team: 'Eng' } } });
      assert.equal(replaced.statusCode, 200, replaced.body);
      assert.equal((await member.request('GET', `/app/api/employees/${id}`)).json().name, 'Ana Lima-Souza');

      const created = await member.request('POST', '/app/api/surveys', { body: { name: 'Advice 2026', questions: QUESTIONS, respondents: { field: 'team', values: ['Eng'] } } });
      assert.equal(created.statusCode, 201, created.body);
      const sid = created.json()._id as string;
      assert.deepEqual((await member.request('GET', '/app/api/surveys')).json().surveys.map((s: { name: string }) => s.name), ['Advice 2026']);
      const launched = await member.request('PUT', `/app/api/surveys/${sid}`, { body: { status: 'collecting' } });
      assert.equal(launched.statusCode, 200, launched.body);
      assert.equal(launched.json().status, 'collecting');
      const links = await member.request('GET', `/app/api/surveys/${sid}/links`);
      assert.equal(links.statusCode, 200, links.body);
      const eng = links.json().links as { employeeId: string; link: string }[];
      assert.equal(eng.length, 8, 'the Eng team: E1 (moved), E2, E4, E6, E8, E10, E12, E13');
      const csv = await member.request('GET', `/app/api/surveys/${sid}/links?format=csv`);
      assert.equal(csv.statusCode, 200);
      assert.match(String(csv.headers['content-disposition']), /attachment/);
      const entry = await member.request('PUT', `/app/api/surveys/${sid}/responses/E1`, { body: { answers: { office: 'South' } } });
      assert.equal(entry.statusCode, 200, entry.body);
      const responses = (await member.request('GET', `/app/api/surveys/${sid}/responses`)).json();
      assert.equal(responses.responses.length, 1);
      const tracking = (await member.request('GET', `/app/api/surveys/${sid}/tracking`)).json();
      assert.equal(tracking.respondents, 8);
      // the launch and the owner entry are the signed-in member's, in the organization's audit log
      const audit = await t.database.db.selectFrom('embed_audit').select(['actor_kind', 'actor_id', 'action']).where('org_id', '=', t.orgId).execute();
      for (const action of ['survey.launched', 'response.entered']) assert.ok(audit.some((a) => a.actor_kind === 'user' && a.actor_id === memberId && a.action === action), `${action}: ${JSON.stringify(audit)}`);
      // the organization's credential sees the survey the web app made (a survey is its owner's and its shares' otherwise)
      const orgToken = await t.token(t.owner.id, { orgId: t.orgId });
      const seen = await t.app.inject({ method: 'GET', url: `/api/v2/surveys/${sid}`, headers: bearer(orgToken) });
      assert.equal(seen.statusCode, 200, seen.body);
      assert.equal(seen.json().name, 'Advice 2026');
    });

    test('every change needs the CSRF token and our own origin; nothing is stored without them', async () => {
      const noToken = await member.request('POST', '/app/api/employees', { body: { employeeId: 'X1', name: 'Xavier' }, csrf: false });
      assert.equal(noToken.statusCode, 403);
      assert.equal(noToken.json().code, 'CSRF_FAILED');
      const foreign = await member.request('POST', '/app/api/surveys', { body: { name: 'Foreign', questions: QUESTIONS }, origin: 'https://evil.example' });
      assert.equal(foreign.statusCode, 403);
      assert.equal(foreign.json().code, 'CSRF_FAILED');
      const importNoToken = await member.request('POST', '/app/api/employees/import', { body: 'EmployeeId,Name\r\nX2,Xena\r\n', headers: { 'content-type': 'text/csv' }, csrf: false });
      assert.equal(importNoToken.statusCode, 403);
      assert.equal((await member.request('GET', '/app/api/employees?q=X')).json().employees.filter((e: { employeeId: string }) => e.employeeId.startsWith('X')).length, 0);
      assert.ok(!(await member.request('GET', '/app/api/surveys')).json().surveys.some((s: { name: string }) => s.name === 'Foreign'));
    });

    test('signed out → 401; an API credential does not open the web routes', async () => {
      const anon = webClient(t.app);
      for (const url of ['/app/api/employees', '/app/api/customFields', '/app/api/surveys']) {
        const res = await anon.request('GET', url);
        assert.equal(res.statusCode, 401, url);
        assert.equal(res.json().code, 'UNAUTHENTICATED');
        const withToken = await t.app.inject({ method: 'GET', url, headers: bearer(t.ownerToken) });
        assert.equal(withToken.statusCode, 401, `${url} with a bearer token`);
      }
      const created = await anon.request('POST', '/app/api/employees', { body: { employeeId: 'Z', name: 'Zed' } });
      assert.equal(created.statusCode, 401);
    });

    test("another organization's admin gets 404 on every id; an Access-only member gets 403", async () => {
      const person = (await member.request('GET', '/app/api/employees?q=Cleo')).json().employees[0] as { _id: string };
      const field = (await member.request('GET', '/app/api/customFields')).json().customFields[0] as { _id: string };
      const survey = (await member.request('GET', '/app/api/surveys')).json().surveys[0] as { _id: string };
      const otherOwner = await t.user();
      await t.org(otherOwner.id);
      const other = await signedIn(otherOwner.email);
      const calls: [string, string, unknown?][] = [
        ['GET', `/app/api/employees/${person._id}`],
        ['PUT', `/app/api/employees/${person._id}`, { employeeId: 'E13', name: 'Taken over' }],
        ['DELETE', `/app/api/employees/${person._id}`],
        ['GET', `/app/api/customFields/${field._id}`],
        ['PUT', `/app/api/customFields/${field._id}`, { label: 'Mine' }],
        ['DELETE', `/app/api/customFields/${field._id}`],
        ['GET', `/app/api/surveys/${survey._id}`],
        ['PUT', `/app/api/surveys/${survey._id}`, { status: 'completed' }],
        ['DELETE', `/app/api/surveys/${survey._id}`],
        ['POST', `/app/api/surveys/${survey._id}/copy`, {}],
        ['GET', `/app/api/surveys/${survey._id}/shares`],
        ['PUT', `/app/api/surveys/${survey._id}/shares`, { email: otherOwner.email, permission: 'Edit' }],
        ['DELETE', `/app/api/surveys/${survey._id}/shares/${memberId}`],
        ['GET', `/app/api/surveys/${survey._id}/links`],
        ['POST', `/app/api/surveys/${survey._id}/links/E2/reissue`],
        ['POST', `/app/api/surveys/${survey._id}/links/E2/revoke`],
        ['GET', `/app/api/surveys/${survey._id}/tracking`],
        ['GET', `/app/api/surveys/${survey._id}/deliveries`],
        ['GET', `/app/api/surveys/${survey._id}/responses`],
        ['PUT', `/app/api/surveys/${survey._id}/responses/E1`, { answers: { office: 'North' } }],
        ['DELETE', `/app/api/surveys/${survey._id}/responses/E1`],
      ];
      const answers = await Promise.all(calls.map(([m, url, body]) => other.request(m, url, body === undefined ? {} : { body })));
      assert.deepEqual(
        answers.map((r, i) => `${calls[i][0]} ${calls[i][1]} ${r.statusCode}`),
        calls.map(([m, url]) => `${m} ${url} 404`),
      );
      // nothing of theirs changed
      assert.equal((await member.request('GET', `/app/api/employees/${person._id}`)).json().name, 'Cleo Park');
      assert.equal((await member.request('GET', `/app/api/surveys/${survey._id}`)).json().status, 'collecting');
      assert.equal((await member.request('GET', `/app/api/surveys/${survey._id}/responses`)).json().responses.length, 1);
      // their own directory is empty
      assert.equal((await other.request('GET', '/app/api/employees')).json().total, 0);

      const reader = await t.user();
      await t.member(t.orgId, reader.id, 'Access-only');
      const ro = await signedIn(reader.email);
      for (const url of ['/app/api/employees', '/app/api/customFields', '/app/api/surveys']) {
        const res = await ro.request('GET', url);
        assert.equal(res.statusCode, 403, url);
        assert.equal(res.json().code, 'FORBIDDEN');
      }
      assert.equal((await ro.request('POST', '/app/api/employees', { body: { employeeId: 'R1', name: 'Reader' } })).statusCode, 403);
    });
  });
}
