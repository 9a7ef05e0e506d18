// The survey's minimum group size on every path that serves a group report or a compare
// (docs/spec/decisions.md §11: "every report honours the minimum group size of the survey behind the
// network; a sensitive field never defines a group smaller than it"; domain/metrics/survey-groups.ts),
// through the real HTTP stack on SQLite (table queue) and PostgreSQL (BullMQ on Redis): the embedded
// viewer's Groups panel (its metric call, and as a job), the web app's Explore (owner mode) and compare,
// an API job (Prefer: respond-async) and a batch job. The API's synchronous group report and compare, and
// the survey's wave compare, are held in survey-networks.test.ts. Teams of 3 under a floor of 4: every
// path must answer only `Other (< 4)`, while a plain copy of the same network answers Eng and Sales.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { DIALECTS, type Dialect } from './helpers/app.ts';
import { embedFixture, openSession, accessToken, type EmbedFixture } from './helpers/embed.ts';
import { fixture } from './helpers/fixture.ts';
import { deleteRedisKeys, queueEnv } from './helpers/redis.ts';
import { signedInClient } from './helpers/web.ts';

const PEOPLE = ['f-1', 'f-2', 'f-3', 'f-4', 'f-5', 'f-6'].map((employeeId, i) => ({ employeeId, name: `Floor ${i + 1}`, fields: { team: i < 3 ? 'Sales' : 'Eng', gender: i % 2 ? 'G1' : 'G2' } }));
const ANSWERS: Record<string, { employeeId: string }[]> = {
  'f-1': [{ employeeId: 'f-2' }, { employeeId: 'f-4' }],
  'f-2': [{ employeeId: 'f-3' }],
  'f-4': [{ employeeId: 'f-5' }, { employeeId: 'f-1' }],
  'f-5': [{ employeeId: 'f-6' }],
};
const FLOORED = [['Other (< 4)', 6]];
const PLAIN = [['Eng', 3], ['Sales', 3]];

type Rows = [string, number][];
const rows = (report: { groups: { value: string; size: number }[] }): Rows => report.groups.map((g) => [g.value, g.size]);

function viewerCall(app: FastifyInstance, token: string, method: 'GET' | 'POST', path: string, opts: { payload?: unknown; async?: boolean } = {}) {
  return app.inject({ method, url: `/api/v2/embed/viewer/${path}`, headers: { authorization: `Bearer ${token}`, ...(opts.async ? { prefer: 'respond-async' } : {}) }, ...(opts.payload !== undefined ? { payload: opts.payload as object } : {}) });
}

/** Polls a job (GET `url`) until it has ended; answers it. */
async function ended(get: () => Promise<{ statusCode: number; body: string; json(): Record<string, unknown> }>): Promise<Record<string, unknown>> {
  for (let i = 0; i < 600; i++) {
    const r = await get();
    assert.equal(r.statusCode, 200, r.body);
    const job = r.json();
    if (!['queued', 'running'].includes(String(job.status))) return job;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('the job did not end');
}

async function queuedEmbedFixture(dialect: Dialect): Promise<EmbedFixture & { survey: string; plain: string; email: string }> {
  const qenv = queueEnv(dialect);
  const f = await embedFixture(dialect, { NETLOOM_JOB_POLL_MS: '50', ...qenv });
  const ok = async (r: Promise<{ statusCode: number; body: string }>, status = 200) => {
    const res = await r;
    assert.equal(res.statusCode, status, res.body);
    return res as { statusCode: number; body: string; json(): Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  await ok(f.host('POST', '/api/v2/customFields', { key: 'team', label: 'Team', type: 'category', options: ['Sales', 'Eng'] }), 201);
  await ok(f.host('POST', '/api/v2/customFields', { key: 'gender', label: 'Gender', type: 'text', sensitive: true }), 201);
  await ok(f.host('PUT', '/api/v2/employees', { employees: PEOPLE, mode: 'merge' }));
  const s = await ok(f.host('POST', '/api/v2/surveys', { name: 'Floors', minGroupSize: 4, questions: [{ id: 'advice', type: 'relationship', text: 'Who do you go to for advice?' }] }), 201);
  const surveyId = s.json()._id as string;
  await ok(f.host('PUT', `/api/v2/surveys/${surveyId}`, { status: 'collecting' }));
  for (const [eid, advice] of Object.entries(ANSWERS)) await ok(f.host('PUT', `/api/v2/surveys/${surveyId}/responses/${eid}`, { answers: { advice } }));
  const g = await ok(f.host('POST', `/api/v2/surveys/${surveyId}/networks`, { fields: ['team', 'gender'] }), 201);
  const survey = g.json().networks[0]._id as string;
  // the same network stored as a plain one: no survey behind it, no floor
  const json = (await ok(f.host('GET', `/api/v2/networks/${survey}`))).json().networkJSON;
  const plain = (await ok(f.host('POST', '/api/v2/networks', { name: 'Plain copy', networkJSON: json }))).json()._id as string;
  const owner = await f.t.app.database.db.selectFrom('users').select('email').where('id', '=', f.ownerId).executeTakeFirstOrThrow();
  return {
    ...f,
    survey,
    plain,
    email: owner.email,
    async close() {
      await f.close();
      if (qenv.NETLOOM_REDIS_PREFIX) await deleteRedisKeys(qenv.NETLOOM_REDIS_PREFIX);
    },
  };
}

for (const dialect of DIALECTS) {
  describe(`the survey's minimum group size on every group path (${dialect})`, () => {
    const f = fixture(() => queuedEmbedFixture(dialect));

    async function viewerToken(networkId: string): Promise<string> {
      const s = await openSession(f, { permission: 'View', networkId });
      return accessToken(f, s.sessionId, s.launchToken);
    }

    test("the embedded viewer's Groups panel: its call and its job", async () => {
      for (const [networkId, expected] of [[f.survey, FLOORED], [f.plain, PLAIN]] as const) {
        const at = await viewerToken(networkId);
        for (const attribute of ['Team', 'Gender']) {
          const r = await viewerCall(f.app, at, 'POST', 'metrics/network/groups', { payload: { attribute, minGroupSize: 1 } });
          assert.equal(r.statusCode, 200, r.body);
          if (networkId === f.survey) assert.deepEqual(rows(r.json()), FLOORED, `${attribute}: the viewer's call keeps the survey's floor`);
          else if (attribute === 'Team') assert.deepEqual(rows(r.json()), PLAIN, 'a plain network has no floor');
        }
        const job = await viewerCall(f.app, at, 'POST', 'metrics/network/groups', { payload: { attribute: 'Team', minGroupSize: 1 }, async: true });
        assert.equal(job.statusCode, 202, job.body);
        const done = await ended(() => viewerCall(f.app, at, 'GET', `jobs/${job.json().jobId}`));
        assert.equal(done.status, 'succeeded', JSON.stringify(done));
        assert.deepEqual(rows(done.result as never), expected, "the viewer's job keeps the floor");
      }
    });

    test('API jobs: a group report run as a job and in a batch', async () => {
      for (const [networkId, expected] of [[f.survey, FLOORED], [f.plain, PLAIN]] as const) {
        const r = await f.app.inject({ method: 'POST', url: '/api/v2/metrics/network/groups', headers: { authorization: `Bearer ${f.orgToken}`, prefer: 'respond-async' }, payload: { networkId, attribute: 'Team', minGroupSize: 1 } });
        assert.equal(r.statusCode, 202, r.body);
        const done = await ended(() => f.host('GET', `/api/v2/jobs/${r.json().jobId}`));
        assert.equal(done.status, 'succeeded', JSON.stringify(done));
        assert.deepEqual(rows(done.result as never), expected, 'a job keeps the floor');
        const b = await f.host('POST', '/api/v2/metrics/batch', { networkId, metrics: [{ metric: 'groups', attribute: 'Team', minGroupSize: 1 }, { metric: 'groups', attribute: 'Gender' }] });
        assert.equal(b.statusCode, 202, b.body);
        const batch = await ended(() => f.host('GET', `/api/v2/jobs/${b.json().jobId}`));
        assert.equal(batch.status, 'succeeded', JSON.stringify(batch));
        const results = (batch.result as { results: { metric: string; value: { groups: { value: string; size: number }[] } }[] }).results;
        assert.deepEqual(rows(results[0].value), expected, 'a batch keeps the floor');
        if (networkId === f.survey) assert.deepEqual(rows(results[1].value), FLOORED, 'a sensitive field never defines a group below the floor');
      }
    });

    test("the web app: Explore's Groups panel (owner mode) and compare", async () => {
      const c = await signedInClient(f.app, f.email);
      for (const [networkId, expected] of [[f.survey, FLOORED], [f.plain, PLAIN]] as const) {
        const s = await c.request('POST', `/app/api/networks/${networkId}/explore`);
        assert.equal(s.statusCode, 201, s.body);
        const at = await accessToken(f, s.json().sessionId, s.json().launchToken);
        const r = await viewerCall(f.app, at, 'POST', 'metrics/network/groups', { payload: { attribute: 'Team', minGroupSize: 1 } });
        assert.equal(r.statusCode, 200, r.body);
        assert.deepEqual(rows(r.json()), expected, 'Explore keeps the floor');
        const cmp = await c.request('POST', '/app/api/networks/compare', { body: { a: f.plain, b: networkId, attribute: 'Team', minGroupSize: 1 } });
        assert.equal(cmp.statusCode, 200, cmp.body);
        // compare holds both networks to the larger of their floors
        const groups = cmp.json().groups as { value: string; a: { size: number } | null; b: { size: number } | null }[];
        assert.deepEqual(groups.map((g) => [g.value, g.a?.size ?? null, g.b?.size ?? null]), expected.map(([v, n]) => [v, n, n]), 'the web compare keeps the floor');
      }
    });
  });
}
