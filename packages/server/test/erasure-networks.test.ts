// Erasure of a person reaches the networks generated from the directory's surveys (docs/spec/decisions.md
// §10.1 "Erasure"; domain/surveys/erase-networks.ts), through the real HTTP stack on SQLite and PostgreSQL:
// DELETE /employees/:id regenerates every generated network that held the person and was not changed since
// (same _id, new networkUUID, what a re-run now gives), trims the person's node and ties from one edited by
// hand (the edit stays), follows pseudonyms, and leaves networks without the person alone.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, bearer, DIALECTS, type TestApp } from './helpers/app.ts';

const PEOPLE = ['e-1', 'e-2', 'e-3', 'e-4', 'e-5'].map((employeeId, i) => ({ employeeId, name: `Person ${'ABCDE'[i]} Quill`, email: `${employeeId}@example.org`, fields: { team: i < 3 ? 'Sales' : 'Eng' } }));
const GONE = 'e-2';
const GONE_NAME = 'Person B Quill';

const QUESTIONS = [
  { id: 'advice', type: 'relationship', text: 'Who do you go to for advice?' },
  { id: 'friends', type: 'relationship', text: 'Who are your friends at work?', directed: false },
];
const ANSWERS: Record<string, Record<string, unknown>> = {
  'e-1': { advice: [{ employeeId: 'e-2' }, { employeeId: 'e-3' }], friends: [{ employeeId: 'e-2' }] },
  'e-2': { advice: [{ employeeId: 'e-1' }, { employeeId: 'e-4' }], friends: [{ employeeId: 'e-5' }] },
  'e-3': { advice: [{ employeeId: 'e-1' }], friends: [] },
  'e-4': { advice: [{ employeeId: 'e-2' }], friends: [{ employeeId: 'e-3' }] },
};

interface Net {
  _id: string;
  networkUUID: string;
  description: string;
  networkJSON: { nodes: { id: string; attributes?: Record<string, unknown> }[]; edges: { source: string; target: string }[] };
}

for (const dialect of DIALECTS) {
  describe(`erasure reaches generated networks (${dialect})`, () => {
    let t: TestApp;
    let admin: string;
    before(async () => {
      t = await testApp(dialect);
      const owner = await t.user();
      await t.org(owner.id);
      admin = await t.token(owner.id);
      assert.equal((await call('POST', '/customFields', { key: 'team', label: 'Team', type: 'category', options: ['Sales', 'Eng'] })).statusCode, 201);
      assert.equal((await call('PUT', '/employees', { employees: PEOPLE, mode: 'merge' })).statusCode, 200);
    });
    after(async () => t.close());

    function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
      return t.app.inject({ method, url: `/api/v2${url}`, headers: bearer(admin), ...(payload !== undefined ? { payload: payload as object } : {}) });
    }

    async function generated(name: string, survey: Record<string, unknown>, generate: Record<string, unknown>, answersOf = ANSWERS): Promise<Record<string, string>> {
      const s = await call('POST', '/surveys', { name, questions: QUESTIONS, ...survey });
      assert.equal(s.statusCode, 201, s.body);
      const id = s.json()._id as string;
      assert.equal((await call('PUT', `/surveys/${id}`, { status: 'collecting' })).statusCode, 200);
      for (const [eid, answers] of Object.entries(answersOf)) {
        const r = await call('PUT', `/surveys/${id}/responses/${eid}`, { answers });
        assert.equal(r.statusCode, 200, r.body);
      }
      const g = await call('POST', `/surveys/${id}/networks`, generate);
      assert.equal(g.statusCode, 201, g.body);
      return Object.fromEntries((g.json().networks as { question: string; _id: string }[]).map((n) => [n.question, n._id]));
    }

    async function get(id: string): Promise<Net & { text: string }> {
      const r = await call('GET', `/networks/${id}`);
      assert.equal(r.statusCode, 200, r.body);
      return { ...(r.json() as Net), text: r.body };
    }

    const ids = (n: Net) => n.networkJSON.nodes.map((x) => String(x.id)).sort();
    const ties = (n: Net) => n.networkJSON.edges.map((e) => `${e.source}>${e.target}`).sort();

    test('DELETE /employees/:id regenerates unchanged generated networks, trims an edited one, follows pseudonyms, leaves others alone', async () => {
      // survey 1: advice, friends and combined, everyone on the roster
      const s1 = await generated('Wave A', {}, { combined: true, nonRespondents: 'keep' });
      // survey 2: pseudonymised, the person has a code there
      const s2 = await generated('Wave P', { privacy: 'pseudonymised' }, { questions: ['advice'], nonRespondents: 'keep' });
      // survey 3: the person is not on its roster
      const without = Object.fromEntries(
        Object.entries(ANSWERS)
          .filter(([eid]) => eid !== GONE)
          .map(([eid, a]) => [eid, Object.fromEntries(Object.entries(a).map(([q, v]) => [q, (v as { employeeId: string }[]).filter((x) => x.employeeId !== GONE)]))]),
      );
      const s3 = await generated('Wave C', { roster: { employeeIds: ['e-1', 'e-3', 'e-4', 'e-5'] } }, { questions: ['advice'] }, without);
      // the friends network of survey 1 is edited by hand after its generation: a node and a tie of the person's are added
      const friends = await get(s1.friends);
      const edited = { ...friends.networkJSON, nodes: [...friends.networkJSON.nodes, { id: 'visitor', attributes: { name: 'Visitor' } }], edges: [...friends.networkJSON.edges, { id: 'x1', source: 'visitor', target: 'e-1' }, { id: 'x2', source: GONE, target: 'visitor' }] };
      assert.equal((await call('PUT', `/networks/${s1.friends}`, { name: 'Friends (edited)', networkJSON: edited })).statusCode, 200);

      const before = Object.fromEntries(await Promise.all([...Object.entries(s1).map(([q, id]) => [`s1:${q}`, id]), ['s2:advice', s2.advice], ['s3:advice', s3.advice]].map(async ([k, id]) => [k, await get(id)] as const)));
      assert.ok(ids(before['s1:advice']).includes(GONE) && before['s1:advice'].text.includes(GONE_NAME), 'the person is in the generated network before');
      const pseudonymsBefore = ids(before['s2:advice']);
      assert.equal(pseudonymsBefore.length, 5);
      assert.ok(pseudonymsBefore.every((x) => x.startsWith('P-')));

      const person = (await call('GET', `/employees?q=${GONE}`)).json().employees[0];
      const erased = await call('DELETE', `/employees/${person._id}`);
      assert.equal(erased.statusCode, 200, erased.body);
      assert.equal(erased.json().networksRegenerated, 3, erased.body); // s1 advice + combined, s2 advice
      assert.equal(erased.json().networksTrimmed, 1, erased.body); // s1 friends (edited)

      const after = Object.fromEntries(await Promise.all(Object.entries(before).map(async ([k, n]) => [k, await get(n._id)] as const)));
      for (const k of ['s1:advice', 's1:combined', 's1:friends', 's2:advice']) {
        const n = after[k];
        assert.equal(n._id, before[k]._id, `${k}: same _id`);
        assert.notEqual(n.networkUUID, before[k].networkUUID, `${k}: new networkUUID`);
        assert.ok(!n.text.includes(GONE_NAME) && !ids(n).includes(GONE), `${k}: the person is gone`);
        assert.ok(n.networkJSON.edges.every((e) => e.source !== GONE && e.target !== GONE), `${k}: no tie of the person`);
      }
      // regenerated: what the survey now gives (no answers or nominations of the person are left)
      assert.deepEqual(ids(after['s1:advice']), ['e-1', 'e-3', 'e-4', 'e-5']);
      assert.deepEqual(ties(after['s1:advice']), ['e-1>e-3', 'e-3>e-1']);
      assert.match(after['s1:advice'].description, /Generated from the survey "Wave A"/);
      // trimmed: the hand edit stays, only the person's node and ties went
      assert.deepEqual(ids(after['s1:friends']), ['e-1', 'e-3', 'e-4', 'e-5', 'visitor']);
      assert.deepEqual(ties(after['s1:friends']), [...ties(before['s1:friends']).filter((x) => !x.split('>').includes(GONE))].sort());
      assert.ok(ties(after['s1:friends']).includes('visitor>e-1'));
      // pseudonymised: exactly one code went, the others stay the same
      const left = ids(after['s2:advice']);
      assert.equal(left.length, 4);
      assert.ok(left.every((x) => pseudonymsBefore.includes(x)));
      // a network without the person is not touched
      assert.equal(after['s3:advice'].networkUUID, before['s3:advice'].networkUUID);
      // regenerated again later, by a re-run: the provenance still names the same networks
      const prov = (await call('GET', `/surveys/${(await call('GET', '/surveys')).json().surveys.find((s: { name: string }) => s.name === 'Wave A')._id}`)).json();
      assert.deepEqual((prov.networks as { _id: string }[]).map((n) => n._id).sort(), Object.values(s1).sort());
    });
  });
}
