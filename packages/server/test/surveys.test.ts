// Surveys, links, responses and tracking (docs/spec/decisions.md §9) through the real HTTP stack, on SQLite and PostgreSQL.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { orgApp, bearer, DIALECTS } from './helpers/app.ts';
import { fixture } from './helpers/fixture.ts';

const QUESTIONS = [
  { id: 'advice', type: 'relationship', text: 'Who do you go to for advice?', maxSelections: 5, required: true },
  { id: 'trust', type: 'relationship', text: 'How much do you trust them?', carryForwardFrom: 'advice', rating: { labels: ["I don't know this person", 'Low', 'Mid', 'High'], dontKnow: true }, noneOption: true },
  { id: 'tenure', type: 'number', text: 'Years here?', min: 0, max: 60, customField: 'years' },
  { type: 'singleChoice', text: 'Office?', options: ['North', 'South'] },
];

for (const dialect of DIALECTS) {
  describe(`surveys (${dialect})`, () => {
    const t = fixture(() => orgApp(dialect));
    before(async () => {
      await t.api('POST', '/customFields', { key: 'team', label: 'Team', type: 'category', options: ['Sales', 'Eng'] });
      await t.api('POST', '/customFields', { key: 'gender', label: 'Gender', type: 'text', sensitive: true });
      await t.api('POST', '/customFields', { key: 'years', label: 'Years', type: 'number' });
      const people = Array.from({ length: 12 }, (_, i) => ({ employeeId: `E${i + 1}`, name: `Person ${i + 1}`, email: `p${i + 1}@example.com`, fields: { team: i < 6 ? 'Sales' : 'Eng', gender: i % 2 ? 'f' : 'm' } }));
      assert.equal((await t.api('PUT', '/employees', { employees: people })).statusCode, 200);
    });

    test('create: defaults, kept and assigned question ids, every problem with its pointer', async () => {
      const res = await t.api('POST', '/surveys', { name: 'Advice 2026', questions: QUESTIONS });
      assert.equal(res.statusCode, 201, res.body);
      const s = res.json();
      assert.equal(s.status, 'draft');
      assert.equal(s.privacy, 'confidential');
      assert.equal(s.minGroupSize, 5);
      assert.deepEqual(s.roster, { all: true });
      assert.equal(s.respondents, null);
      assert.deepEqual(s.questions.map((q: { id: string }) => q.id), ['advice', 'trust', 'tenure', 'q1']);
      assert.equal(s.email.enabled, false, 'no SMTP_URL: e-mail is off');
      assert.equal(s.wave, 1);
      const bad = await t.api('POST', '/surveys', {
        name: '',
        privacy: 'public',
        minGroupSize: 2,
        questions: [
          { type: 'relationship', text: 'x', carryForwardFrom: 'later' },
          { id: 'later', type: 'relationship', text: 'y', minSelections: 3, maxSelections: 2 },
          { type: 'singleChoice', text: 'z' },
          { type: 'scale', text: 's', min: 1, max: 1 },
          { type: 'text', text: 't', customField: 'years' },
          { type: 'poll', text: 'p' },
        ],
        roster: { field: 'nope', values: ['x'] },
      });
      assert.equal(bad.statusCode, 400);
      const paths = bad.json().errors.map((e: { path: string }) => e.path).sort();
      assert.deepEqual(paths, ['/minGroupSize', '/name', '/privacy', '/questions/0/carryForwardFrom', '/questions/1/maxSelections', '/questions/2/options', '/questions/3/max', '/questions/4/customField', '/questions/5/type', '/roster/field']);
    });

    test('launch: 400 without questions or respondents; links, versioned edits, privacy only stricter, status machine, audit', async () => {
      const empty = (await t.api('POST', '/surveys', { name: 'Empty', questions: [], respondents: { employeeIds: ['nobody'] } })).json();
      const noLaunch = await t.api('PUT', `/surveys/${empty._id}`, { status: 'collecting' });
      assert.equal(noLaunch.statusCode, 400);
      assert.deepEqual(noLaunch.json().errors.map((e: { path: string }) => e.path).sort(), ['/questions', '/respondents']);
      assert.equal((await t.api('GET', `/surveys/${empty._id}`)).json().status, 'draft', 'a refused launch changes nothing');

      const s = (await t.api('POST', '/surveys', { name: 'Launch me', questions: QUESTIONS, respondents: { field: 'team', values: ['Sales'] } })).json();
      assert.equal((await t.api('GET', `/surveys/${s._id}/links`)).statusCode, 409, 'no links before launch');
      const launched = await t.api('PUT', `/surveys/${s._id}`, { status: 'collecting', privacy: 'identified' });
      assert.equal(launched.statusCode, 200, launched.body);
      assert.equal(launched.json().status, 'collecting');
      assert.ok(launched.json().launchedAt);
      const links = (await t.api('GET', `/surveys/${s._id}/links`)).json().links;
      assert.equal(links.length, 6);
      assert.match(links[0].link, /\/s\/[A-Za-z0-9_-]{43}$/);
      const csv = await t.api('GET', `/surveys/${s._id}/links?format=csv`);
      assert.equal(csv.body.split('\r\n')[0], '"name","email","employeeId","link","status"');
      assert.equal(csv.body.trim().split('\r\n').length, 7);
      const xlsx = await t.api('GET', `/surveys/${s._id}/links?format=xlsx`);
      assert.equal(xlsx.rawPayload.subarray(0, 2).toString(), 'PK');

      const looser = await t.api('PUT', `/surveys/${s._id}`, { privacy: 'identified' });
      assert.equal(looser.statusCode, 200, 'the same privacy is fine');
      assert.equal((await t.api('PUT', `/surveys/${s._id}`, { privacy: 'pseudonymised' })).json().privacy, 'pseudonymised');
      const back = await t.api('PUT', `/surveys/${s._id}`, { privacy: 'confidential' });
      assert.equal(back.statusCode, 400);
      assert.match(back.json().detail, /stricter/);

      const edited = await t.api('PUT', `/surveys/${s._id}`, { questions: [...QUESTIONS.slice(0, 3), { id: 'q1', type: 'singleChoice', text: 'Office?', options: ['North', 'South', 'Remote'] }] });
      assert.equal(edited.json().version, 2, 'a question change after launch is a new version');
      assert.equal((await t.api('PUT', `/surveys/${s._id}`, { name: 'Renamed' })).json().version, 2, 'other changes keep the version');

      assert.equal((await t.api('PUT', `/surveys/${s._id}`, { status: 'draft' })).statusCode, 400);
      assert.equal((await t.api('PUT', `/surveys/${s._id}`, { status: 'offline' })).json().status, 'offline');
      assert.equal((await t.api('PUT', `/surveys/${s._id}`, { status: 'collecting' })).json().status, 'collecting');
      const done = await t.api('PUT', `/surveys/${s._id}`, { status: 'completed' });
      assert.equal(done.json().status, 'completed');
      assert.ok(done.json().closedAt);
      assert.equal((await t.api('PUT', `/surveys/${s._id}`, { intro: 'late' })).statusCode, 400, 'a completed survey does not change');

      const audit = await t.app.inject({ method: 'GET', url: '/api/v2/embed/audit?limit=50', headers: bearer(await t.token(t.owner.id, { orgId: t.orgId })) });
      const actions = audit.json().entries.filter((e: { target: string }) => e.target === s._id).map((e: { action: string }) => e.action);
      for (const a of ['survey.launched', 'survey.closed', 'survey.offline', 'survey.collecting', 'survey.questions.versioned']) assert.ok(actions.includes(a), `${a} in ${actions.join(', ')}`);
    });

    test('owner entry, responses, tracking with groups and band; erasure of a person removes answers and nominations', async () => {
      const s = (await t.api('POST', '/surveys', { name: 'Entries', questions: QUESTIONS, minGroupSize: 3 })).json();
      await t.api('PUT', `/surveys/${s._id}`, { status: 'collecting' });
      const bad = await t.api('PUT', `/surveys/${s._id}/responses/E1`, { answers: { advice: [{ employeeId: 'E1' }, { employeeId: 'ghost' }], trust: [{ employeeId: 'E3', rating: 9 }], tenure: 'five', q1: 'East' } });
      assert.equal(bad.statusCode, 400);
      const paths = bad.json().errors.map((e: { path: string }) => e.path).sort();
      assert.deepEqual(paths, ['/answers/advice/0/employeeId', '/answers/advice/1/employeeId', '/answers/q1', '/answers/tenure', '/answers/trust/0/employeeId', '/answers/trust/0/rating']);
      const ok = await t.api('PUT', `/surveys/${s._id}/responses/E1`, { answers: { advice: [{ employeeId: 'E2' }, { employeeId: 'E3' }], trust: [{ employeeId: 'E2', rating: 3 }, { employeeId: 'E3', rating: 0 }], tenure: 4, q1: 'North' }, submit: true });
      assert.equal(ok.statusCode, 200, ok.body);
      assert.equal(ok.json().status, 'submitted');
      assert.match(ok.json().enteredBy, /^credential:/);
      assert.deepEqual(ok.json().versions, { advice: 1, trust: 1, tenure: 1, q1: 1 });
      const e1 = (await t.api('GET', '/employees?q=E1&limit=1')).json().employees.find((e: { employeeId: string }) => e.employeeId === 'E1');
      assert.equal(e1.fields.years, 4, 'an answer with customField is stored into the field');
      const incomplete = await t.api('PUT', `/surveys/${s._id}/responses/E2`, { answers: { q1: 'South' }, submit: true });
      assert.equal(incomplete.statusCode, 400);
      assert.equal(incomplete.json().errors[0].path, '/answers/advice');
      assert.equal((await t.api('PUT', `/surveys/${s._id}/responses/E2`, { answers: { advice: [{ employeeId: 'E1' }] } })).json().status, 'inProgress');
      for (const eid of ['E4', 'E5', 'E6', 'E7', 'E8', 'E9', 'E10']) await t.api('PUT', `/surveys/${s._id}/responses/${eid}`, { answers: { advice: [{ employeeId: 'E3' }] }, submit: true });

      const list = await t.api('GET', `/surveys/${s._id}/responses?limit=2`);
      assert.equal(list.json().total, 9);
      assert.equal(list.json().responses.length, 2);
      assert.deepEqual(list.json().responses[0].answers.advice, [{ employeeId: 'E2' }, { employeeId: 'E3' }]);

      const tr = (await t.api('GET', `/surveys/${s._id}/tracking`)).json();
      assert.equal(tr.respondents, 12);
      assert.equal(tr.submitted, 8);
      assert.equal(tr.inProgress, 1);
      assert.equal(tr.notStarted, 3);
      assert.equal(tr.rate, 8 / 12);
      assert.equal(tr.band, 'directional');
      assert.deepEqual(tr.notStartedPeople.map((p: { employeeId: string }) => p.employeeId).sort(), ['E11', 'E12', 'E3']);
      assert.deepEqual(tr.groups.map((g: { field: string }) => g.field).sort(), ['team', 'years'], 'no group by a sensitive field');
      const team = tr.groups.find((g: { field: string }) => g.field === 'team');
      assert.deepEqual(team.groups.map((g: { value: string; submitted: number }) => [g.value, g.submitted]).sort(), [['Eng', 4], ['Sales', 4]]);
      const years = tr.groups.find((g: { field: string }) => g.field === 'years');
      assert.equal(years.suppressed + years.groups.reduce((n: number, g: { respondents: number }) => n + g.respondents, 0), 12);
      assert.ok(years.groups.every((g: { respondents: number }) => g.respondents >= 3), 'no group below the minimum size');

      await t.api('PUT', `/surveys/${s._id}`, { privacy: 'pseudonymised' });
      const pseudo = (await t.api('GET', `/surveys/${s._id}/tracking`)).json();
      assert.equal(pseudo.notStartedPeople, null, 'never named in pseudonymised surveys');
      const presp = (await t.api('GET', `/surveys/${s._id}/responses`)).json().responses;
      assert.ok(presp.every((r: { employeeId: string }) => /^P-[0-9A-F]{10}$/.test(r.employeeId)));
      assert.ok(!JSON.stringify(presp).includes('"E3"'), 'nominations are pseudonymised too');

      const del = await t.api('DELETE', `/surveys/${s._id}/responses/E2`);
      assert.deepEqual(del.json(), { employeeId: 'E2', deleted: true, answersRemoved: 1 });

      const e3 = (await t.api('GET', '/employees?q=Person 3')).json().employees.find((e: { employeeId: string }) => e.employeeId === 'E3');
      const erased = await t.api('DELETE', `/employees/${e3._id}`);
      assert.equal(erased.statusCode, 200);
      assert.equal(erased.json().nominationsRemoved >= 9, true, JSON.stringify(erased.json()));
      await t.api('PUT', `/surveys/${s._id}`, { privacy: 'pseudonymised' });
      const after = (await t.api('GET', `/surveys/${s._id}/tracking`)).json();
      assert.equal(after.respondents, 11, 'the erased person is no longer a respondent');

      const closed = (await t.api('PUT', `/surveys/${s._id}`, { status: 'completed' })).json();
      assert.equal(closed.status, 'completed');
      const late = await t.api('PUT', `/surveys/${s._id}/responses/E4`, { answers: { q1: 'North' } });
      assert.equal(late.statusCode, 410);
      assert.equal(late.json().code, 'SURVEY_CLOSED');
    });

    test('copy and copy as a new wave; shares View/Edit; delete', async () => {
      const s = (await t.api('POST', '/surveys', { name: 'Pulse', questions: QUESTIONS, schedule: { closesAt: '2030-01-01T00:00:00Z', reminders: { everyDays: 2, max: 3 } } })).json();
      const copy = await t.api('POST', `/surveys/${s._id}/copy`, {});
      assert.equal(copy.statusCode, 201);
      assert.equal(copy.json().name, 'Pulse (copy)');
      const wave = (await t.api('POST', `/surveys/${s._id}/copy`, { wave: true })).json();
      assert.equal(wave.wave, 2);
      assert.equal(wave.previousWaveId, s._id);
      assert.equal(wave.name, 'Pulse (wave 2)');
      assert.deepEqual(wave.questions, s.questions);
      assert.deepEqual(wave.schedule, { reminders: { everyDays: 2, max: 3 } }, 'dates are not copied');
      const w3 = (await t.api('POST', `/surveys/${wave._id}/copy`, { wave: true })).json();
      assert.equal(w3.name, 'Pulse (wave 3)');

      const colleague = await t.user();
      await t.member(t.orgId, colleague.id, 'Standard User');
      const ct = await t.token(colleague.id);
      assert.equal((await t.api('GET', `/surveys/${s._id}`, undefined, ct)).statusCode, 404, 'not shared: not found');
      const shared = await t.api('PUT', `/surveys/${s._id}/shares`, { email: colleague.email, permission: 'View' });
      assert.equal(shared.statusCode, 200, shared.body);
      assert.equal((await t.api('GET', `/surveys/${s._id}`, undefined, ct)).json().access, 'view');
      assert.ok((await t.api('GET', '/surveys', undefined, ct)).json().surveys.some((x: { _id: string }) => x._id === s._id));
      assert.equal((await t.api('PUT', `/surveys/${s._id}`, { name: 'x' }, ct)).statusCode, 403);
      await t.api('PUT', `/surveys/${s._id}/shares`, { email: colleague.email, permission: 'Edit' });
      assert.equal((await t.api('PUT', `/surveys/${s._id}`, { name: 'Edited by colleague' }, ct)).statusCode, 200);
      assert.equal((await t.api('DELETE', `/surveys/${s._id}`, undefined, ct)).statusCode, 403, 'only the owner deletes');
      const outsider = await t.user();
      assert.equal((await t.api('PUT', `/surveys/${s._id}/shares`, { email: outsider.email, permission: 'View' })).statusCode, 400);
      assert.equal((await t.api('DELETE', `/surveys/${s._id}/shares/${colleague.id}`)).json().shares.length, 0);
      assert.deepEqual((await t.api('DELETE', `/surveys/${s._id}`)).json(), { _id: s._id, deleted: true });
      assert.equal((await t.api('GET', `/surveys/${s._id}`)).statusCode, 404);
    });

    test('security: another organization gets 404 on every new route; scopes 403; Access-only 403', async () => {
      const s = (await t.api('POST', '/surveys', { name: 'Secret', questions: QUESTIONS })).json();
      await t.api('PUT', `/surveys/${s._id}`, { status: 'collecting' });
      const field = (await t.api('GET', '/customFields')).json().customFields[0];
      const person = (await t.api('GET', '/employees?limit=1')).json().employees[0];
      const other = await t.user();
      await t.org(other.id);
      const otherAdmin = await t.token(other.id);
      const routes: [string, string, unknown?][] = [
        ['GET', `/customFields/${field._id}`],
        ['PUT', `/customFields/${field._id}`, { label: 'x' }],
        ['DELETE', `/customFields/${field._id}`],
        ['GET', `/employees/${person._id}`],
        ['PUT', `/employees/${person._id}`, { employeeId: 'E1', name: 'x' }],
        ['DELETE', `/employees/${person._id}`],
        ['GET', `/surveys/${s._id}`],
        ['PUT', `/surveys/${s._id}`, { name: 'x' }],
        ['DELETE', `/surveys/${s._id}`],
        ['POST', `/surveys/${s._id}/copy`, {}],
        ['GET', `/surveys/${s._id}/shares`],
        ['PUT', `/surveys/${s._id}/shares`, { email: 'a@example.com', permission: 'View' }],
        ['DELETE', `/surveys/${s._id}/shares/${t.owner.id}`],
        ['GET', `/surveys/${s._id}/links`],
        ['POST', `/surveys/${s._id}/links/E1/reissue`],
        ['POST', `/surveys/${s._id}/links/E1/revoke`],
        ['GET', `/surveys/${s._id}/tracking`],
        ['GET', `/surveys/${s._id}/deliveries`],
        ['GET', `/surveys/${s._id}/responses`],
        ['PUT', `/surveys/${s._id}/responses/E1`, { answers: {} }],
        ['DELETE', `/surveys/${s._id}/responses/E1`],
        ['POST', `/surveys/${s._id}/networks`, {}],
        ['POST', `/surveys/${s._id}/compare`, {}],
      ];
      // every operation of the OpenAPI document under the new paths that takes an id is walked
      const doc = (await t.app.inject({ method: 'GET', url: '/api/v2/openapi.json' })).json();
      const withId = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
        .filter(([p]) => /^\/api\/v2\/(surveys|employees|customFields)\/\{id\}/.test(p))
        .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
      const walked = new Set(routes.map(([m, u]) => `${m} /api/v2${u.replace(s._id, '{id}').replace(field._id, '{id}').replace(person._id, '{id}').replace('/E1', '/{employeeId}').replace(t.owner.id, '{userId}')}`));
      assert.deepEqual(withId.filter((op) => !walked.has(op)), [], 'a new route is missing from this walk');
      for (const [m, u, body] of routes) {
        const r = await t.api(m as 'GET', u, body, otherAdmin);
        assert.equal(r.statusCode, 404, `${m} ${u}: ${r.body}`);
      }
      assert.equal((await t.api('GET', '/surveys', undefined, otherAdmin)).json().surveys.length, 0);

      const noSurveys = await t.token(t.owner.id, { scopes: ['employees:read', 'responses:read'] });
      const r = await t.api('GET', `/surveys/${s._id}`, undefined, noSurveys);
      assert.equal(r.statusCode, 403);
      assert.equal(r.json().code, 'INSUFFICIENT_SCOPE');
      assert.equal((await t.api('GET', '/surveys/nonexistent', undefined, noSurveys)).statusCode, 403, 'the scope check comes first');
      const noResponses = await t.token(t.owner.id, { scopes: ['surveys:read'] });
      assert.equal((await t.api('GET', `/surveys/${s._id}/responses`, undefined, noResponses)).statusCode, 403);
      const accessOnly = await t.user();
      await t.member(t.orgId, accessOnly.id, 'Access-only');
      assert.equal((await t.api('GET', '/surveys', undefined, await t.token(accessOnly.id))).statusCode, 403);
    });
  });
}
