// The respondent API behind /s/<token> (docs/spec/decisions.md §9, "Respondent links") through the real HTTP
// stack, on SQLite and PostgreSQL: own answers only, revoked/guessed links, closed surveys, sensitive fields,
// throttling, and tokens never in the logs.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { testApp, bearer, DIALECTS, type TestApp } from './helpers/app.ts';
import { buildApp, loggerOptions } from '../src/app.ts';
import { writeAnswer } from '../src/store/answer-batch.ts';

const QUESTIONS = [
  { id: 'advice', type: 'relationship', text: 'Who do you go to for advice?', maxSelections: 3, minSelections: 1, noneOption: true },
  { id: 'trust', type: 'relationship', text: 'How much do you trust them?', carryForwardFrom: 'advice', rating: { labels: ["I don't know this person", 'Low', 'High'], dontKnow: true } },
  { id: 'office', type: 'singleChoice', text: 'Office?', options: ['North', 'South'], required: true },
];

for (const dialect of DIALECTS) {
  describe(`respondent API (${dialect})`, () => {
    let t: TestApp;
    let admin: string;
    let surveyId: string;
    const links = new Map<string, string>();
    const token = (eid: string) => links.get(eid)!.split('/s/')[1];
    const s = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', path: string, payload?: unknown, ip = '10.0.0.1') =>
      t.app.inject({ method, url: `/s/api/${path}`, remoteAddress: ip, ...(payload !== undefined ? { payload: payload as object } : {}) });
    const openApi = (tk: string, payload: unknown) => t.app.inject({ method: 'POST', url: `/s/open-api/${tk}`, remoteAddress: '10.0.0.1', payload: payload as object });
    const api = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
      t.app.inject({ method, url: `/api/v2${url}`, headers: bearer(admin), ...(payload !== undefined ? { payload: payload as object } : {}) });

    before(async () => {
      t = await testApp(dialect, { NETLOOM_AUTH_FAILURES_PER_IP_PER_HOUR: '20' });
      const owner = await t.user();
      await t.org(owner.id);
      admin = await t.token(owner.id);
      await api('POST', '/customFields', { key: 'team', label: 'Team', type: 'text' });
      await api('POST', '/customFields', { key: 'salary_band', label: 'Salary band', type: 'text', sensitive: true });
      const people = Array.from({ length: 8 }, (_, i) => ({ employeeId: `E${i + 1}`, name: `Person ${i + 1}`, email: `p${i + 1}@example.com`, photoUrl: `https://example.com/${i + 1}.png`, fields: { team: i < 4 ? 'Sales' : 'Eng', salary_band: `SECRET-${i + 1}` } }));
      await api('PUT', '/employees', { employees: people });
      const survey = (await api('POST', '/surveys', { name: 'Confidential reorg survey', questions: QUESTIONS, openLink: true, consent: { text: 'I agree', required: true } })).json();
      surveyId = survey._id;
      assert.equal((await api('PUT', `/surveys/${surveyId}`, { status: 'collecting' })).statusCode, 200);
      for (const l of (await api('GET', `/surveys/${surveyId}/links`)).json().links) links.set(l.employeeId, l.link);
    });
    after(async () => t.close());

    test('a link opens its own view; nothing sensitive, no survey name, no other answers', async () => {
      await s('PUT', `${token('E2')}/answers/office`, { value: 'South' });
      const view = await s('GET', token('E1'));
      assert.equal(view.statusCode, 200, view.body);
      assert.equal(view.headers['cache-control'], 'no-store');
      const v = view.json();
      assert.equal(v.respondent.employeeId, 'E1');
      assert.equal(v.respondent.name, 'Person 1');
      assert.deepEqual(v.answers, {}, 'E2’s answer is not E1’s');
      assert.equal(v.survey.rosterSize, 7);
      assert.equal(v.survey.questions.length, 3);
      const roster = await s('GET', `${token('E1')}/roster`);
      assert.equal(roster.json().total, 7, 'the respondent is not on their own roster');
      assert.deepEqual(roster.json().fields, [{ key: 'team', label: 'Team' }]);
      assert.deepEqual(roster.json().people[0], { employeeId: 'E2', name: 'Person 2', photoUrl: 'https://example.com/2.png', fields: { team: 'Sales' } });
      const search = await s('GET', `${token('E1')}/roster?q=eng`);
      assert.equal(search.json().total, 4, 'search covers non-sensitive fields');
      assert.equal((await s('GET', `${token('E1')}/roster?q=SECRET`)).json().total, 0, 'never searchable by a sensitive field');
      for (const body of [view.body, roster.body]) {
        assert.ok(!body.includes('SECRET'), 'a sensitive value reached a respondent');
        assert.ok(!body.includes('salary_band') && !body.includes('Salary band'), 'a sensitive field reached a respondent');
        assert.ok(!body.includes('Confidential reorg survey'), 'the survey name reached a respondent');
        assert.ok(!body.includes('p2@example.com'), 'an e-mail reached a respondent');
      }
    });

    test('saving: as given, idempotent, carry forward, validation names the question, submit and edit until close', async () => {
      const tk = token('E3');
      const bad = await s('PUT', `${tk}/answers/advice`, { value: [{ employeeId: 'E3' }, { employeeId: 'E99' }, { employeeId: 'E1' }, { employeeId: 'E2' }] });
      assert.equal(bad.statusCode, 400);
      assert.deepEqual(bad.json().errors.map((e: { path: string }) => e.path).sort(), ['/value', '/value/0/employeeId', '/value/1/employeeId']);
      assert.match(bad.json().detail, /advice/);
      for (let i = 0; i < 2; i++) {
        const put = await s('PUT', `${tk}/answers/advice`, { value: [{ employeeId: 'E1' }, { employeeId: 'E5' }] });
        assert.equal(put.statusCode, 200, put.body);
        assert.equal(put.json().version, 1);
      }
      const view = (await s('GET', tk)).json();
      assert.deepEqual(view.answers.advice, [{ employeeId: 'E1' }, { employeeId: 'E5' }]);
      assert.deepEqual(view.carryForward, { trust: ['E1', 'E5'] });
      assert.equal(view.respondent.status, 'inProgress');
      const notOffered = await s('PUT', `${tk}/answers/trust`, { value: [{ employeeId: 'E2', rating: 1 }] });
      assert.equal(notOffered.statusCode, 400, 'only people named in the earlier question are offered');
      assert.equal((await s('PUT', `${tk}/answers/trust`, { value: [{ employeeId: 'E1', rating: 2 }, { employeeId: 'E5', rating: 0 }] })).statusCode, 200);
      assert.equal((await s('PUT', `${tk}/answers/nope`, { value: 1 })).statusCode, 404);
      const incomplete = await s('POST', `${tk}/submit`, { consent: true });
      assert.equal(incomplete.statusCode, 400);
      assert.equal(incomplete.json().errors[0].path, '/answers/office');
      await s('PUT', `${tk}/answers/office`, { value: 'North' });
      assert.equal((await s('POST', `${tk}/submit`, {})).json().errors[0].path, '/consent');
      const sub = await s('POST', `${tk}/submit`, { consent: true });
      assert.equal(sub.statusCode, 200, sub.body);
      assert.equal(sub.json().status, 'submitted');
      assert.equal((await s('PUT', `${tk}/answers/office`, { value: 'South' })).statusCode, 200, 'editable until close');
      assert.equal((await s('DELETE', `${tk}/answers/trust`)).json().deleted, true);
      const mine = (await api('GET', `/surveys/${surveyId}/responses`)).json().responses.find((r: { employeeId: string }) => r.employeeId === 'E3');
      assert.deepEqual(mine.answers, { advice: [{ employeeId: 'E1' }, { employeeId: 'E5' }], office: 'South' });
      assert.equal(mine.status, 'submitted');
      assert.equal(mine.enteredBy, null);
      const none = await s('PUT', `${token('E4')}/answers/advice`, { value: [] });
      assert.equal(none.statusCode, 200, '[] is "no one"');
    });

    test('revoked and re-issued links answer LINK_REVOKED; a guessed link NOT_FOUND; neither carries data; guessing is throttled per address', async () => {
      const old = token('E6');
      const re = await api('POST', `/surveys/${surveyId}/links/E6/reissue`);
      assert.equal(re.statusCode, 200);
      const fresh = re.json().link.split('/s/')[1];
      assert.notEqual(fresh, old);
      const revoked = await s('GET', old);
      assert.equal(revoked.statusCode, 410);
      assert.equal(revoked.json().code, 'LINK_REVOKED');
      assert.ok(!revoked.body.includes('Person'), 'no data with a revoked link');
      assert.equal((await s('GET', fresh)).statusCode, 200);
      assert.equal((await api('POST', `/surveys/${surveyId}/links/E6/revoke`)).json().link, null);
      assert.equal((await s('PUT', `${fresh}/answers/office`, { value: 'North' })).json().code, 'LINK_REVOKED');

      const guess = 'A'.repeat(43);
      const g = await s('GET', guess, undefined, '10.9.9.9');
      assert.equal(g.statusCode, 404);
      assert.equal(Object.keys(g.json()).includes('survey'), false);
      let limited = false;
      for (let i = 0; i < 25 && !limited; i++) limited = (await s('GET', `${'B'.repeat(42)}${i % 10}`, undefined, '10.9.9.9')).statusCode === 429;
      assert.ok(limited, 'guessing was never throttled');
      const blocked = await s('GET', token('E1'), undefined, '10.9.9.9');
      assert.equal(blocked.statusCode, 429, 'an address over the limit is refused before any lookup, even with a real link');
      assert.ok(blocked.headers['retry-after']);
      assert.equal((await s('GET', token('E1'), undefined, '10.0.0.2')).statusCode, 200, 'other addresses are unaffected');
    });

    test('saves of one turn are committed together: the later save of a question wins, a failing save fails alone', async () => {
      const db = t.app.database.db;
      const at = new Date().toISOString();
      const row = (question_id: string, value: unknown) => ({ survey_id: surveyId, employee_id: 'E8', question_id, value: JSON.stringify(value), version: 1, saved_at: at });
      // one turn: the four saves form one batch (store/answer-batch.ts)
      const results = await Promise.allSettled([
        writeAnswer(db, { row: row('office', 'North'), markStarted: true }),
        writeAnswer(db, { row: { ...row('broken', 'x'), value: null as unknown as string }, markStarted: true }),
        writeAnswer(db, { row: row('office', 'South'), markStarted: true }),
        writeAnswer(db, { row: row('advice', []), markStarted: true }),
      ]);
      assert.deepEqual(
        results.map((r) => r.status),
        ['fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
      );
      const mine = (await api('GET', `/surveys/${surveyId}/responses`)).json().responses.find((r: { employeeId: string }) => r.employeeId === 'E8');
      assert.deepEqual(mine.answers, { office: 'South', advice: [] }, 'the later save of office won; the failed one left nothing');
      assert.equal(mine.status, 'inProgress');

      // through HTTP: many respondents at once (their links read together on PostgreSQL), a guessed link
      // among them: every save answered 200 and stored as its own respondent's, the guess 404
      const [guess, ...many] = await Promise.all([
        s('PUT', `${'D'.repeat(43)}/answers/office`, { value: 'North' }, '10.7.7.7'),
        ...['E1', 'E2', 'E4', 'E5', 'E7', 'E8'].map((eid, i) => s('PUT', `${token(eid)}/answers/office`, { value: i % 2 ? 'North' : 'South' })),
      ]);
      assert.equal(guess.statusCode, 404);
      assert.deepEqual(
        many.map((r) => r.statusCode),
        [200, 200, 200, 200, 200, 200],
      );
      const stored = new Map<string, unknown>((await api('GET', `/surveys/${surveyId}/responses`)).json().responses.map((r: { employeeId: string; answers: { office?: string } }) => [r.employeeId, r.answers.office]));
      assert.deepEqual(
        ['E1', 'E2', 'E4', 'E5', 'E7', 'E8'].map((eid) => stored.get(eid)),
        ['South', 'North', 'South', 'North', 'South', 'North'],
      );
    });

    test('nothing of a link or survey is served stale: a revoke, a question edit and a pause apply to the very next save', async () => {
      const tk = token('E5');
      assert.equal((await s('PUT', `${tk}/answers/office`, { value: 'North' })).statusCode, 200, 'warm');
      // a question added after launch (a new version) can be answered at once; a removed one is gone at once
      const survey = (await api('GET', `/surveys/${surveyId}`)).json();
      const edited = [...survey.questions.filter((q: { id: string }) => q.id !== 'office'), { id: 'floor', type: 'number', text: 'Floor?', min: 0, max: 40 }];
      assert.equal((await api('PUT', `/surveys/${surveyId}`, { questions: edited })).statusCode, 200);
      const floor = await s('PUT', `${tk}/answers/floor`, { value: 3 });
      assert.equal(floor.statusCode, 200, floor.body);
      assert.equal(floor.json().version, survey.version + 1);
      assert.equal((await s('PUT', `${tk}/answers/office`, { value: 'South' })).statusCode, 404, 'the removed question');
      assert.equal((await api('PUT', `/surveys/${surveyId}`, { questions: survey.questions })).statusCode, 200);
      // paused, then collecting again
      await api('PUT', `/surveys/${surveyId}`, { status: 'offline' });
      assert.equal((await s('PUT', `${tk}/answers/office`, { value: 'South' })).json().code, 'SURVEY_NOT_OPEN');
      await api('PUT', `/surveys/${surveyId}`, { status: 'collecting' });
      assert.equal((await s('PUT', `${tk}/answers/office`, { value: 'South' })).statusCode, 200);
      // revoked: the next save is refused
      assert.equal((await api('POST', `/surveys/${surveyId}/links/E5/revoke`)).json().link, null);
      const after = await s('PUT', `${tk}/answers/office`, { value: 'North' });
      assert.equal(after.statusCode, 410);
      assert.equal(after.json().code, 'LINK_REVOKED');
      const mine = (await api('GET', `/surveys/${surveyId}/responses`)).json().responses.find((r: { employeeId: string }) => r.employeeId === 'E5');
      assert.equal(mine.answers.office, 'South', 'the refused save changed nothing');
    });

    test('the open link gives a respondent their own link by employeeId', async () => {
      const survey = (await api('GET', `/surveys/${surveyId}`)).json();
      const openToken = survey.openLink.url.split('/s/open/')[1];
      const r = await openApi(openToken, { employeeId: 'E7' });
      assert.equal(r.statusCode, 200, r.body);
      assert.equal(r.json().url, links.get('E7'));
      assert.equal((await openApi(openToken, { employeeId: 'nobody' })).statusCode, 404);
      assert.equal((await openApi('C'.repeat(43), { employeeId: 'E7' })).statusCode, 404);
    });

    test('offline: SURVEY_NOT_OPEN; completed: SURVEY_CLOSED and answers refused; no data in either', async () => {
      await api('PUT', `/surveys/${surveyId}`, { status: 'offline' });
      const off = await s('GET', token('E1'));
      assert.equal(off.statusCode, 409);
      assert.equal(off.json().code, 'SURVEY_NOT_OPEN');
      await api('PUT', `/surveys/${surveyId}`, { status: 'completed' });
      const closed = await s('PUT', `${token('E1')}/answers/office`, { value: 'North' });
      assert.equal(closed.statusCode, 410);
      assert.equal(closed.json().code, 'SURVEY_CLOSED');
      const view = await s('GET', token('E1'));
      assert.equal(view.json().code, 'SURVEY_CLOSED');
      assert.ok(!view.body.includes('Person'));
    });
  });
}

test('tokens never reach the logs: /s/ paths are logged with [token]', async () => {
  const lines: string[] = [];
  const t = await testApp('sqlite');
  const sink = new Writable({
    write(chunk, _e, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  const config = { ...t.config, logLevel: 'info' };
  const app = await buildApp(config, { database: t.database, logger: { ...loggerOptions(config), stream: sink } });
  await app.ready();
  try {
    const owner = await t.user();
    const admin = await t.token(owner.id);
    const call = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown) => app.inject({ method, url, headers: bearer(admin), ...(payload ? { payload: payload as object } : {}) });
    await call('PUT', '/api/v2/employees', { employees: [{ employeeId: 'A', name: 'Ann' }, { employeeId: 'B', name: 'Bo' }] });
    const sv = (await call('POST', '/api/v2/surveys', { name: 'x', questions: [{ id: 'q', type: 'relationship', text: 'Who?' }] })).json();
    assert.equal((await call('PUT', `/api/v2/surveys/${sv._id}`, { status: 'collecting' })).statusCode, 200, 'a personal directory launches too');
    const link = (await call('GET', `/api/v2/surveys/${sv._id}/links`)).json().links[0].link as string;
    const tk = link.split('/s/')[1];
    await app.inject({ method: 'GET', url: `/s/api/${tk}` });
    await app.inject({ method: 'PUT', url: `/s/api/${tk}/answers/q`, payload: { value: [{ employeeId: 'B' }] } });
    await app.inject({ method: 'GET', url: `/s/api/${tk}/nope/route` });
    await app.inject({ method: 'GET', url: `/s/${tk}?x=1` });
    const all = lines.join('');
    assert.ok(all.includes('/s/api/[token]'), 'respondent requests are logged, with the token replaced');
    assert.ok(!all.includes(tk), 'a link token reached the log');
  } finally {
    await app.close();
    await t.close();
  }
});
