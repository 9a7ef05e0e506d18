// From responses to networks (docs/spec/decisions.md §10.4; docs/surveys.md "Generate networks"):
// POST /api/v2/surveys/:id/networks through the real HTTP stack on SQLite and PostgreSQL — a
// hand-computed 6-person survey with every non-respondent mode written out, re-runs, preliminary
// networks, pseudonymisation searched in the stored JSON and every export format, access and scopes —
// and a randomised property test of the builder the route runs (network-build.ts).
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { unzipSync, strFromU8 } from 'fflate';
import { orgApp, bearer, DIALECTS } from './helpers/app.ts';
import { fixture } from './helpers/fixture.ts';
import { buildSurveyNetworks, NON_RESPONDENT_MODES, type BuildInput, type NonRespondentMode } from '../src/domain/surveys/network-build.ts';
import type { Question } from '../src/domain/surveys/questions.ts';

const PEOPLE = [
  { employeeId: 'emp-1001', name: 'Alice Archer', email: 'alice.archer@example.org', fields: { team: 'Sales', gender: 'GenderAlpha' } },
  { employeeId: 'emp-1002', name: 'Bruno Baker', email: 'bruno.baker@example.org', fields: { team: 'Sales', gender: 'GenderBeta' } },
  { employeeId: 'emp-1003', name: 'Chiara Cole', email: 'chiara.cole@example.org', fields: { team: 'Sales', gender: 'GenderAlpha' } },
  { employeeId: 'emp-1004', name: 'Dmitri Dunn', email: 'dmitri.dunn@example.org', fields: { team: 'Eng', gender: 'GenderGamma' } },
  { employeeId: 'emp-1005', name: 'Esther Ellis', email: 'esther.ellis@example.org', fields: { team: 'Eng', gender: 'GenderBeta' } },
  { employeeId: 'emp-1006', name: 'Farid Frost', email: 'farid.frost@example.org', fields: { team: 'Eng', gender: 'GenderGamma' } },
];
const [E1, E2, E3, E4, E5, E6] = PEOPLE.map((p) => p.employeeId) as [string, string, string, string, string, string];

const QUESTIONS = [
  { id: 'advice', type: 'relationship', text: 'Who do you go to for advice?', rating: { labels: ["I don't know this person", 'Rarely', 'Sometimes', 'Often'], dontKnow: true }, allowWriteIns: true, noneOption: true },
  { id: 'friends', type: 'relationship', text: 'Who are your friends at work?', directed: false, noneOption: true },
  { id: 'office', type: 'singleChoice', text: 'Which office?', options: ['North', 'South'] },
  { id: 'story', type: 'text', text: 'Anything else?' },
];

/** advice (directed, rated; weight = rating index since labels[0] is "don't know"), friends (undirected). E5 and E6 answer nothing. */
const ANSWERS: Record<string, Record<string, unknown>> = {
  [E1]: { advice: [{ employeeId: E2, rating: 3 }, { employeeId: E3, rating: 1 }, { employeeId: E4, rating: 2 }, { writeIn: 'Outside Olga', rating: 3 }], friends: [{ employeeId: E2 }], office: 'North', story: 'I mostly ask Bruno Baker' },
  [E2]: { advice: [{ employeeId: E1, rating: 2 }, { employeeId: E5, rating: 0 }], friends: [{ employeeId: E1 }, { employeeId: E3 }], office: 'South' },
  [E3]: { advice: [{ employeeId: E1, rating: 3 }, { employeeId: E6, rating: 1 }], friends: [] },
  [E4]: { advice: [], friends: [{ employeeId: E5 }] },
};

type Edge = [string, string, number | null];
const ADVICE_KEEP: Edge[] = [[E1, E2, 3], [E1, E3, 1], [E1, E4, 2], [E2, E1, 2], [E3, E1, 3], [E3, E6, 1]];
const EXPECTED: Record<NonRespondentMode, { advice: { nodes: string[]; edges: Edge[] }; friends: { nodes: string[]; edges: Edge[] } }> = {
  keep: {
    advice: { nodes: [E1, E2, E3, E4, E5, E6], edges: ADVICE_KEEP },
    friends: { nodes: [E1, E2, E3, E4, E5, E6], edges: [[E1, E2, null], [E2, E3, null], [E4, E5, null]] },
  },
  drop: {
    advice: { nodes: [E1, E2, E3, E4], edges: [[E1, E2, 3], [E1, E3, 1], [E1, E4, 2], [E2, E1, 2], [E3, E1, 3]] },
    friends: { nodes: [E1, E2, E3, E4], edges: [[E1, E2, null], [E2, E3, null]] },
  },
  reconstruct: {
    advice: { nodes: [E1, E2, E3, E4, E5, E6], edges: [...ADVICE_KEEP, [E6, E3, 1]] },
    friends: { nodes: [E1, E2, E3, E4, E5, E6], edges: [[E1, E2, null], [E2, E3, null], [E4, E5, null]] },
  },
  reciprocated: {
    advice: { nodes: [E1, E2, E3, E4, E5, E6], edges: [[E1, E2, 3], [E1, E3, 1], [E2, E1, 2], [E3, E1, 3]] },
    friends: { nodes: [E1, E2, E3, E4, E5, E6], edges: [[E1, E2, null]] },
  },
};

const sortEdges = (e: Edge[]) => [...e].sort((a, b) => (a[0] + a[1] < b[0] + b[1] ? -1 : 1));

interface NetJSON {
  nodes: { id: string; attributes: Record<string, string | number> }[];
  edges: { id: string; source: string; target: string; attributes?: Record<string, string | number> }[];
}

for (const dialect of DIALECTS) {
  describe(`survey networks (${dialect})`, () => {
    const t = fixture(() => orgApp(dialect));
    before(async () => {
      assert.equal((await t.api('POST', '/customFields', { key: 'team', label: 'Team', type: 'category', options: ['Sales', 'Eng'] })).statusCode, 201);
      assert.equal((await t.api('POST', '/customFields', { key: 'gender', label: 'Gender', type: 'text', sensitive: true })).statusCode, 201);
      assert.equal((await t.api('PUT', '/employees', { employees: PEOPLE, mode: 'merge' })).statusCode, 200);
    });

    async function launchedSurvey(name: string, extra: Record<string, unknown> = {}): Promise<string> {
      const s = await t.api('POST', '/surveys', { name, questions: QUESTIONS, ...extra });
      assert.equal(s.statusCode, 201, s.body);
      const id = s.json()._id as string;
      assert.equal((await t.api('PUT', `/surveys/${id}`, { status: 'collecting' })).statusCode, 200);
      for (const [eid, answers] of Object.entries(ANSWERS)) {
        const r = await t.api('PUT', `/surveys/${id}/responses/${eid}`, { answers });
        assert.equal(r.statusCode, 200, r.body);
      }
      return id;
    }

    async function networkJSON(id: string): Promise<NetJSON & { networkUUID: string; description: string; name: string; isDirected: boolean }> {
      const r = await t.api('GET', `/networks/${id}`);
      assert.equal(r.statusCode, 200, r.body);
      const n = r.json();
      return { ...n.networkJSON, networkUUID: n.networkUUID, description: n.description, name: n.name, isDirected: n.isDirected };
    }

    test('hand-computed 6-person survey: every non-respondent mode gives exactly the written-out nodes and edges; re-runs keep _id', async () => {
      const id = await launchedSurvey('Advice 2026');
      const preview = await t.api('POST', `/surveys/${id}/networks`, { dryRun: true, nonRespondents: 'drop' });
      assert.equal(preview.statusCode, 200, preview.body);
      const p = preview.json();
      assert.equal(p.preliminary, true);
      assert.equal(p.people, 6);
      for (const q of ['advice', 'friends'] as const) {
        const row = p.networks.find((n: { question: string }) => n.question === q);
        assert.deepEqual(row.modes, Object.fromEntries(NON_RESPONDENT_MODES.map((m) => [m, { nodes: EXPECTED[m][q].nodes.length, edges: EXPECTED[m][q].edges.length }])), `preview of ${q}`);
        assert.equal(row.nodes, EXPECTED.drop[q].nodes.length, 'nodes/edges of the chosen mode');
        assert.equal(row.edges, EXPECTED.drop[q].edges.length);
      }
      assert.equal((await t.api('GET', `/surveys/${id}`)).json().networks.length, 0, 'a dry run stores nothing');

      let ids: Record<string, string> | null = null;
      const uuids = new Set<string>();
      for (const mode of NON_RESPONDENT_MODES) {
        const res = await t.api('POST', `/surveys/${id}/networks`, { questions: 'each', nonRespondents: mode });
        assert.equal(res.statusCode, 201, res.body);
        const body = res.json();
        assert.deepEqual(body.networks.map((n: { question: string }) => n.question), ['advice', 'friends']);
        const now = Object.fromEntries(body.networks.map((n: { question: string; _id: string }) => [n.question, n._id]));
        if (ids) assert.deepEqual(now, ids, 'a re-run updates the same networks (same _id)');
        else ids = now;
        for (const n of body.networks) {
          assert.ok(!uuids.has(n.networkUUID), 'every run gives a new networkUUID');
          uuids.add(n.networkUUID);
          assert.equal(n.created, mode === 'keep');
        }
        for (const q of ['advice', 'friends'] as const) {
          const net = await networkJSON(now[q]!);
          assert.deepEqual(net.nodes.map((n) => n.id), EXPECTED[mode][q].nodes, `${mode} ${q} nodes`);
          const edges: Edge[] = net.edges.map((e) => [e.source, e.target, typeof e.attributes?.Weight === 'number' ? e.attributes.Weight : null]);
          assert.deepEqual(sortEdges(edges), sortEdges(EXPECTED[mode][q].edges), `${mode} ${q} edges`);
          assert.equal(net.isDirected, q === 'advice');
          assert.match(net.description, new RegExp(`nonRespondents=${mode}`));
          assert.match(net.description, /Preliminary/);
          assert.equal(net.name, `Advice 2026 — ${QUESTIONS.find((x) => x.id === q)!.text}`);
          if (mode === 'reconstruct' && q === 'advice') assert.deepEqual(net.edges.filter((e) => e.attributes?.Reconstructed === 'true').map((e) => [e.source, e.target]), [[E6, E3]]);
        }
      }
      // Node attributes: name, non-sensitive fields by label, attribute answers by question text, Responded.
      const adv = await networkJSON(ids!.advice!);
      const alice = adv.nodes.find((n) => n.id === E1)!;
      assert.deepEqual(alice.attributes, { name: 'Alice Archer', Team: 'Sales', 'Which office?': 'North', 'Anything else?': 'I mostly ask Bruno Baker', Responded: 'true' });
      assert.equal(adv.nodes.find((n) => n.id === E5)!.attributes.Responded, 'false');
      assert.ok(!JSON.stringify(adv).includes('Outside Olga'), 'write-ins never become nodes');
      assert.ok(!JSON.stringify(adv).includes('Gender'), 'a sensitive field stays out unless asked for');
      assert.equal(adv.edges.find((e) => e.source === E1 && e.target === E2)!.attributes!.Rating, 'Often');

      // minRating drops weaker ties; a sensitive field goes in when named; combined network with Question.
      const strong = await t.api('POST', `/surveys/${id}/networks`, { questions: ['advice', 'friends'], nonRespondents: 'keep', minRating: 2, fields: ['team', 'gender'], combined: true });
      assert.equal(strong.statusCode, 201, strong.body);
      const nets = Object.fromEntries(strong.json().networks.map((n: { question: string; _id: string }) => [n.question, n._id]));
      assert.equal(nets.advice, ids!.advice);
      const a2 = await networkJSON(nets.advice);
      assert.deepEqual(sortEdges(a2.edges.map((e): Edge => [e.source, e.target, e.attributes!.Weight as number])), sortEdges([[E1, E2, 3], [E1, E4, 2], [E2, E1, 2], [E3, E1, 3]]));
      assert.equal(a2.nodes.find((n) => n.id === E1)!.attributes.Gender, 'GenderAlpha');
      const comb = await networkJSON(nets.combined);
      assert.equal(comb.isDirected, true);
      assert.equal(comb.edges.filter((e) => e.attributes!.Question === 'Who do you go to for advice?').length, 4);
      assert.equal(comb.edges.filter((e) => e.attributes!.Question === 'Who are your friends at work?').length, 6, 'an undirected question’s ties appear both ways in a directed combined network');

      // Provenance in the survey; completed → not preliminary.
      const s1 = (await t.api('GET', `/surveys/${id}`)).json();
      assert.deepEqual(s1.networks.map((n: { question: string }) => n.question).sort(), ['advice', 'combined', 'friends']);
      const advRow = s1.networks.find((n: { question: string }) => n.question === 'advice');
      assert.equal(advRow._id, ids!.advice);
      assert.equal(advRow.preliminary, true);
      assert.deepEqual({ ...advRow.options }, { questions: ['advice', 'friends'], combined: true, nonRespondents: 'keep', minRating: 2, fields: ['team', 'gender'], privacy: 'confidential', wave: 1, status: 'collecting' });
      assert.equal((await t.api('PUT', `/surveys/${id}`, { status: 'completed' })).statusCode, 200);
      const fin = await t.api('POST', `/surveys/${id}/networks`, { nonRespondents: 'keep' });
      assert.equal(fin.json().preliminary, false);
      assert.doesNotMatch((await networkJSON(ids!.advice!)).description, /Preliminary/);

      const audit = await t.app.inject({ method: 'GET', url: '/api/v2/embed/audit?limit=100', headers: bearer(await t.token(t.owner.id, { orgId: t.orgId })) });
      const entries = audit.json().entries.filter((e: { target: string; action: string }) => e.target === id && e.action === 'survey.networks.generated');
      assert.equal(entries.length, NON_RESPONDENT_MODES.length + 2, 'one audit entry per generation (dry runs store and audit nothing)');
    });

    test('bad bodies are 400 naming the field; a draft is 409', async () => {
      const draft = (await t.api('POST', '/surveys', { name: 'Draft', questions: QUESTIONS })).json();
      assert.equal((await t.api('POST', `/surveys/${draft._id}/networks`, {})).statusCode, 409);
      const id = await launchedSurvey('Checks');
      const bad = await t.api('POST', `/surveys/${id}/networks`, { questions: ['office', 'nope'], nonRespondents: 'ignore', minRating: 0, fields: ['nope'], combined: 'yes', colour: 1 });
      assert.equal(bad.statusCode, 400);
      assert.deepEqual(bad.json().errors.map((e: { path: string }) => e.path).sort(), ['/colour', '/combined', '/fields/0', '/minRating', '/nonRespondents', '/questions/0', '/questions/1']);
    });

    test('pseudonymised: no name, e-mail, employeeId or sensitive value in the stored JSON or any export', async () => {
      const id = await launchedSurvey('Pseudo', { privacy: 'pseudonymised' });
      const refused = await t.api('POST', `/surveys/${id}/networks`, { fields: ['team', 'gender'] });
      assert.equal(refused.statusCode, 400);
      assert.equal(refused.json().errors[0].path, '/fields/1');
      const res = await t.api('POST', `/surveys/${id}/networks`, { combined: true, nonRespondents: 'reconstruct' });
      assert.equal(res.statusCode, 201, res.body);
      const secrets = [...PEOPLE.flatMap((p) => [p.name, p.email, p.employeeId, p.fields.gender, p.name.split(' ')[0]!]), 'Bruno Baker', 'Outside Olga'];
      const codes = new Set<string>();
      for (const n of res.json().networks) {
        const net = await networkJSON(n._id);
        for (const node of net.nodes) {
          assert.match(node.id, /^P-[0-9A-F]{10}$/);
          assert.equal(node.attributes.name, node.id);
          codes.add(node.id);
        }
        const texts: [string, string][] = [['stored', JSON.stringify(net)]];
        for (const format of ['json', 'gexf', 'graphml', 'csv', 'xlsx']) {
          const ex = await t.api('GET', `/networks/${n._id}/export?format=${format}`);
          assert.equal(ex.statusCode, 200, `${format}: ${ex.body.slice(0, 200)}`);
          const raw = ex.rawPayload;
          if (format === 'csv' || format === 'xlsx') {
            const files = unzipSync(new Uint8Array(raw));
            assert.ok(Object.keys(files).length >= 2, `${format} holds files`);
            for (const [name, bytes] of Object.entries(files)) texts.push([`${format}:${name}`, strFromU8(bytes)]);
          } else texts.push([format, raw.toString('utf8')]);
        }
        for (const format of ['stored', 'json', 'gexf', 'graphml', 'csv', 'xlsx']) {
          const all = texts.filter(([w]) => w === format || w.startsWith(`${format}:`)).map(([, x]) => x).join('\n');
          assert.ok(all.includes(net.nodes[0]!.id) && all.includes(net.nodes[5]!.id), `${format} carries the pseudonyms (the search reads real content)`);
        }
        for (const [where, text] of texts) {
          for (const s of secrets) assert.ok(!text.includes(s), `${where} of ${n.question} leaks ${JSON.stringify(s)}`);
        }
      }
      assert.equal(codes.size, 6, 'one stable code per person');
      const again = await t.api('POST', `/surveys/${id}/networks`, { combined: true, nonRespondents: 'reconstruct' });
      const net2 = await networkJSON(again.json().networks[0]._id);
      assert.deepEqual(new Set(net2.nodes.map((n) => n.id)), codes, 'codes are stable per survey');
      const other = await launchedSurvey('Pseudo 2', { privacy: 'pseudonymised' });
      const net3 = await networkJSON((await t.api('POST', `/surveys/${other}/networks`, {})).json().networks[0]._id);
      assert.ok(net3.nodes.every((n) => !codes.has(n.id)), 'codes differ between surveys');
    });

    test('another organization gets 404; a credential without the scopes gets 403', async () => {
      const id = await launchedSurvey('Scoped');
      const stranger = await t.user();
      await t.org(stranger.id);
      const theirs = await t.token(stranger.id);
      assert.equal((await t.api('POST', `/surveys/${id}/networks`, {}, theirs)).statusCode, 404);
      assert.equal((await t.api('POST', `/surveys/${id}/networks`, { dryRun: true }, theirs)).statusCode, 404);
      const noNetworks = await t.token(t.owner.id, { scopes: ['surveys:read', 'surveys:write', 'networks:read'] });
      const r1 = await t.api('POST', `/surveys/${id}/networks`, {}, noNetworks);
      assert.equal(r1.statusCode, 403);
      assert.match(r1.json().detail, /networks:write/);
      assert.equal((await t.api('POST', `/surveys/${id}/networks`, { dryRun: true }, noNetworks)).statusCode, 200, 'a dry run stores no network');
      const noSurveys = await t.token(t.owner.id, { scopes: ['networks:read', 'networks:write', 'surveys:read'] });
      assert.equal((await t.api('POST', `/surveys/${id}/networks`, {}, noSurveys)).statusCode, 403);
      assert.equal((await t.api('GET', `/surveys/${id}`)).json().networks.length, 0, 'nothing was generated by the refused calls');
    });

    test('waves: a wave’s networks name it; one call compares the latest two waves; the minimum group size holds in the group report and compare', async () => {
      const w1 = await launchedSurvey('Waves', { minGroupSize: 4 });
      assert.equal((await t.api('POST', `/surveys/${w1}/compare`, {})).statusCode, 409, 'a first wave has nothing to compare with');
      const g1 = await t.api('POST', `/surveys/${w1}/networks`, { questions: ['advice'], fields: ['team', 'gender'] });
      assert.equal(g1.statusCode, 201, g1.body);
      const w2 = (await t.api('POST', `/surveys/${w1}/copy`, { wave: true })).json();
      assert.equal(w2.wave, 2);
      assert.equal((await t.api('PUT', `/surveys/${w2._id}`, { status: 'collecting' })).statusCode, 200);
      for (const [eid, answers] of Object.entries(ANSWERS)) {
        const changed = eid === E1 ? { ...answers, advice: [{ employeeId: E2, rating: 3 }, { employeeId: E5, rating: 2 }] } : answers;
        assert.equal((await t.api('PUT', `/surveys/${w2._id}/responses/${eid}`, { answers: changed })).statusCode, 200);
      }
      const early = await t.api('POST', `/surveys/${w2._id}/compare`, {});
      assert.equal(early.statusCode, 409, 'wave 2 has no network yet');
      assert.match(early.json().detail, /generate/);
      const g2 = await t.api('POST', `/surveys/${w2._id}/networks`, { questions: ['advice'], fields: ['team', 'gender'] });
      assert.equal(g2.statusCode, 201, g2.body);
      assert.match(g2.json().networks[0].name, /\(wave 2\) — Who do you go to for advice\?$/, 'the network names the wave');
      assert.doesNotMatch(g1.json().networks[0].name, /wave/);

      const cmp = await t.api('POST', `/surveys/${w2._id}/compare`, { attribute: 'Team', minGroupSize: 1 });
      assert.equal(cmp.statusCode, 200, cmp.body);
      const c = cmp.json();
      assert.equal(c.question, 'advice');
      assert.deepEqual([c.a.wave, c.a.networkId, c.b.wave, c.b.networkId], [1, g1.json().networks[0]._id, 2, g2.json().networks[0]._id]);
      assert.deepEqual(c.comparison.ties.added, [[E1, E5]]);
      assert.deepEqual(c.comparison.ties.removed, [[E1, E3], [E1, E4]]);
      assert.equal(c.comparison.ties.kept, 4);
      assert.deepEqual(c.comparison.nodes, { joined: [], left: [], kept: 6 });
      assert.equal(c.minGroupSize, 4, 'the survey’s minimum group size, whatever the request asks');
      assert.deepEqual(c.comparison.groups.map((g: { value: string }) => g.value), ['Other (< 4)'], 'teams of 3 are never reported alone');
      // The same network through the plain compare and the group report: the floor holds there too.
      const plain = (await t.api('POST', '/networks/compare', { a: c.a.networkId, b: c.b.networkId, attribute: 'Gender', minGroupSize: 1 })).json();
      assert.deepEqual(plain.groups.map((g: { value: string }) => g.value), ['Other (< 4)'], 'a sensitive field never defines a group below the minimum');
      for (const attribute of ['Team', 'Gender']) {
        const rep = await t.api('POST', '/metrics/network/groups', { networkId: c.b.networkId, attribute, minGroupSize: 2 });
        assert.equal(rep.statusCode, 200, rep.body);
        assert.deepEqual(rep.json().groups.map((g: { value: string; size: number }) => [g.value, g.size]), [['Other (< 4)', 6]], `${attribute}: no group below 4`);
        assert.equal(rep.json().suppressed, 6);
      }
      const unset = (await t.api('POST', '/metrics/network/groups', { networkId: c.b.networkId, attribute: 'Team' })).json();
      assert.deepEqual(unset.groups.map((g: { value: string }) => g.value), ['Other (< 4)'], 'the default for a survey network is the survey’s size');
      const larger = (await t.api('POST', '/metrics/network/groups', { networkId: c.b.networkId, attribute: 'Team', minGroupSize: 7 })).json();
      assert.deepEqual(larger.groups, [], 'a larger request still applies');

      const stranger = await t.user();
      await t.org(stranger.id);
      assert.equal((await t.api('POST', `/surveys/${w2._id}/compare`, {}, await t.token(stranger.id))).statusCode, 404);
      assert.equal((await t.api('POST', `/surveys/${w2._id}/compare`, {}, await t.token(t.owner.id, { scopes: ['surveys:read'] }))).statusCode, 403);
    });

    test('pseudonymised waves give a person the same code in every wave, so they compare by node', async () => {
      const w1 = await launchedSurvey('Pseudo waves', { privacy: 'pseudonymised' });
      const n1 = (await t.api('POST', `/surveys/${w1}/networks`, { questions: ['friends'] })).json().networks[0]._id;
      const w2 = (await t.api('POST', `/surveys/${w1}/copy`, { wave: true })).json()._id;
      await t.api('PUT', `/surveys/${w2}`, { status: 'collecting' });
      for (const [eid, answers] of Object.entries(ANSWERS)) await t.api('PUT', `/surveys/${w2}/responses/${eid}`, { answers });
      const n2 = (await t.api('POST', `/surveys/${w2}/networks`, { questions: ['friends'] })).json().networks[0]._id;
      const ids1 = (await networkJSON(n1)).nodes.map((n) => n.id);
      assert.deepEqual((await networkJSON(n2)).nodes.map((n) => n.id), ids1);
      const c = (await t.api('POST', `/surveys/${w2}/compare`, {})).json();
      assert.deepEqual(c.comparison.nodes, { joined: [], left: [], kept: 6 });
      assert.equal(c.comparison.ties.kept, 3);
    });

    test('requests really sent at once still give one network per question', async () => {
      const id = await launchedSurvey('Parallel');
      const all = await Promise.all([0, 1, 2, 3].map(() => t.api('POST', `/surveys/${id}/networks`, { nonRespondents: 'keep' })));
      for (const r of all) assert.equal(r.statusCode, 201, r.body);
      const idsSeen = new Set(all.flatMap((r) => r.json().networks.map((n: { _id: string }) => n._id)));
      assert.equal(idsSeen.size, 2, 'every run names the same two networks');
      const mine = (await t.api('GET', '/networks')).json();
      const list = (Array.isArray(mine) ? mine : mine.networks) as { name: string }[];
      assert.equal(list.filter((n) => n.name.startsWith('Parallel — ')).length, 2);
    });
  });
}

/* ------------------------------------------------------------------ properties of the builder */

describe('survey network builder: randomised properties', () => {
  const relQ = (directed: boolean, rated: boolean): Question => ({ id: 'q', type: 'relationship', text: 'Q', required: false, directed, ...(rated ? { rating: { labels: ['?', 'a', 'b', 'c'], dontKnow: true } } : {}) });
  const arb = fc
    .record({ n: fc.integer({ min: 2, max: 14 }), directed: fc.boolean(), rated: fc.boolean(), seed: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 0, max: 3 })), { maxLength: 60 }), answered: fc.array(fc.boolean(), { minLength: 14, maxLength: 14 }), minRating: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }) })
    .map((r) => {
      const ids = Array.from({ length: r.n }, (_, i) => `p${i}`);
      const answers = new Map<string, Map<string, unknown>>();
      ids.forEach((id, i) => r.answered[i] && answers.set(id, new Map([['q', [] as unknown[]]])));
      for (const [a, b, rating] of r.seed) {
        const u = ids[a % r.n]!;
        const v = ids[b % r.n]!;
        const list = answers.get(u)?.get('q') as { employeeId: string; rating?: number }[] | undefined;
        if (!list || u === v || list.some((x) => x.employeeId === v)) continue;
        list.push({ employeeId: v, ...(r.rated ? { rating } : {}) });
      }
      return { ids, answers, q: relQ(r.directed, r.rated), minRating: r.minRating };
    });
  const build = (c: { ids: string[]; answers: Map<string, Map<string, unknown>>; q: Question; minRating?: number }, mode: NonRespondentMode) => {
    const input: BuildInput = { people: c.ids.map((id) => ({ employeeId: id, name: id, attributes: {} })), questions: [c.q], attributeQuestions: [], answers: c.answers, nonRespondents: mode, minRating: c.minRating, combined: false, identity: (id) => ({ id, name: id }) };
    return buildSurveyNetworks(input)[0]!;
  };
  const pairs = (n: ReturnType<typeof build>) => n.edges.map((e) => `${e.source}>${e.target}`);

  test('reciprocated ⊆ keep; drop has no non-respondent; reconstruct gives each non-respondent exactly the ties reported of them, both ways', () => {
    fc.assert(
      fc.property(arb, (c) => {
        const responded = new Set(c.answers.keys());
        const keep = build(c, 'keep');
        const keepSet = new Set(pairs(keep));
        for (const p of pairs(build(c, 'reciprocated'))) assert.ok(keepSet.has(p), `reciprocated ${p} not in keep`);
        const drop = build(c, 'drop');
        assert.ok(drop.nodes.every((n) => responded.has(n.id)), 'drop keeps respondents only');
        assert.ok(drop.edges.every((e) => responded.has(e.source) && responded.has(e.target)));
        assert.equal(keep.nodes.length, c.ids.length);
        const rec = build(c, 'reconstruct');
        const recPairs = pairs(rec);
        for (const v of c.ids.filter((id) => !responded.has(id))) {
          const directed = c.q.directed !== false;
          const reportedOf = keep.edges.filter((e) => e.target === v || (!directed && e.source === v)).map((e) => (e.target === v ? e.source : e.target)).sort();
          if (directed) {
            const ins = rec.edges.filter((e) => e.target === v).map((e) => e.source).sort();
            const outs = rec.edges.filter((e) => e.source === v).map((e) => e.target).sort();
            assert.deepEqual(ins, reportedOf, `ties to ${v}`);
            assert.deepEqual(outs, reportedOf, `ties from ${v} are the same people`);
          } else {
            const around = rec.edges.filter((e) => e.source === v || e.target === v).map((e) => (e.source === v ? e.target : e.source)).sort();
            assert.deepEqual(around, reportedOf, `ties of ${v}`);
          }
        }
        assert.equal(new Set(recPairs).size, recPairs.length, 'no duplicate edge');
        if (c.q.directed !== false) for (const p of keepSet) assert.ok(recPairs.includes(p), 'reconstruct keeps every reported tie');
      }),
      { numRuns: 300 },
    );
  });
});
