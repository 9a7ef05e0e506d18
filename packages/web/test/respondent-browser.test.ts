// The respondent pages at /s/<token> in Chromium (docs/spec/decisions.md §10.3; issue 21 item 3): a
// survey over a small directory with a sensitive field, two relationship questions (the second carried
// forward from the first, rated on a 5-point scale with "I don't know this person") and a choice question.
// One respondent answers on a 390-px phone and submits; another stops after one question and resumes in a
// new browser context, landing on the question they had not answered; a re-issued link and an unknown
// link get clear pages with no survey data. Every response the pages receive is recorded and searched for
// the sensitive field's values. axe on each screen. Screenshots go to NETLOOM_SCREENSHOT_DIR when set.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startWebEnv, axe, horizontalOverflow, keepShot, skipBrowser, type WebEnv } from './helpers/web-env.ts';

let env: WebEnv;
let surveyId: string;
const links = new Map<string, string>();

const PEOPLE = [
  ['e1', 'Ana Alvarez', 'Sales'],
  ['e2', 'Ben Brook', 'Sales'],
  ['e3', 'Chloé Chen', 'Finance'],
  ['e4', 'Dev Desai', 'Finance'],
  ['e5', 'Eli Eriksen', 'Ops'],
  ['e6', 'Fay Fontaine', 'Ops'],
  ['e7', 'Gus Gallo', 'Ops'],
] as const;
// Sensitive values that must never reach a respondent (distinctive strings, searched in every response).
const SECRET = (i: number) => `SECRETBAND${i}`;

before(async () => {
  if (skipBrowser) return;
  env = await startWebEnv();
  const f1 = await env.api('POST', '/api/v2/customFields', { key: 'team', label: 'Team', type: 'category', options: ['Sales', 'Finance', 'Ops'] });
  assert.equal(f1.status, 201, JSON.stringify(f1.body));
  const f2 = await env.api('POST', '/api/v2/customFields', { key: 'ageBand', label: 'Age band', type: 'text', sensitive: true });
  assert.equal(f2.status, 201, JSON.stringify(f2.body));
  const up = await env.api('PUT', '/api/v2/employees', { mode: 'merge', employees: PEOPLE.map(([employeeId, name, team], i) => ({ employeeId, name, email: `${employeeId}@example.com`, fields: { team, ageBand: SECRET(i) } })) });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  const s = await env.api('POST', '/api/v2/surveys', {
    name: 'Advice survey 2026 (internal name)',
    intro: 'Thank you for taking part.\n\nThis takes **five minutes**.',
    questions: [
      { id: 'advice', type: 'relationship', text: 'Who do you go to for advice?', maxSelections: 3, required: true },
      { id: 'trust', type: 'relationship', text: 'How much do you trust each of them?', carryForwardFrom: 'advice', rating: { labels: ["I don't know this person", 'Very little', 'Little', 'Some', 'Much', 'Very much'], dontKnow: true } },
      { id: 'office', type: 'singleChoice', text: 'Where do you work most days?', options: ['Office', 'Home', 'Both'], required: true },
    ],
  });
  assert.equal(s.status, 201, JSON.stringify(s.body));
  surveyId = String(s.body._id);
  const launch = await env.api('PUT', `/api/v2/surveys/${surveyId}`, { status: 'collecting' });
  assert.equal(launch.status, 200, JSON.stringify(launch.body));
  const l = await env.api('GET', `/api/v2/surveys/${surveyId}/links?format=json`);
  assert.equal(l.status, 200, JSON.stringify(l.body));
  for (const x of l.body.links as { employeeId: string; link: string }[]) links.set(x.employeeId, new URL(x.link).pathname);
  assert.equal(links.size, PEOPLE.length);
});
after(async () => {
  await env?.close();
});

/** Records the text of every response the page receives. */
function recordTraffic(page: Page): string[] {
  const bodies: string[] = [];
  page.on('response', (r) => {
    void r.text().then((t) => bodies.push(`${r.url()}\n${t}`), () => undefined);
  });
  return bodies;
}

async function noAxe(page: Page, where: string): Promise<void> {
  const v = await axe(page);
  assert.deepEqual(v, [], `${where}: axe serious/critical ${JSON.stringify(v, null, 1)}`);
}

test('a respondent on a 390-px phone answers every question and submits; nothing sensitive arrives', { skip: skipBrowser }, async () => {
  const page = await env.newPage({ width: 390, height: 800 });
  const traffic = recordTraffic(page);
  const outside: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(env.base) && !r.url().startsWith('data:')) outside.push(r.url());
  });
  await page.goto(env.base + links.get('e1'));
  await page.getByRole('heading', { level: 1, name: 'Hello, Ana Alvarez' }).waitFor();
  assert.match(await page.locator('main').innerText(), /five minutes/);
  assert.doesNotMatch(await page.locator('body').innerText(), /internal name/, 'the survey name is never shown to respondents');
  await noAxe(page, 'intro');
  await page.getByRole('button', { name: 'Start' }).click();

  await page.getByRole('heading', { level: 1, name: 'Who do you go to for advice?' }).waitFor();
  assert.equal(await page.getByRole('progressbar').getAttribute('aria-valuetext'), 'Question 1 of 3');
  // Next without an answer: the question says why and stays.
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('alert').filter({ hasText: 'needs an answer' }).waitFor();
  // Ana is not offered herself; the team (a non-sensitive field) is searchable.
  assert.equal(await page.getByRole('checkbox', { name: /Ana Alvarez/ }).count(), 0);
  await page.getByLabel('Find a person').fill('finance');
  await page.getByText('2 matches').waitFor();
  await page.getByRole('checkbox', { name: /Chloé Chen/ }).check();
  await page.getByLabel('Find a person').fill('ben');
  await page.getByRole('checkbox', { name: /Ben Brook/ }).check();
  await page.getByText('All answers saved').waitFor();
  await noAxe(page, 'roster question');
  const o = await horizontalOverflow(page);
  assert.deepEqual(o.offenders, [], 'roster question at 390 px: nothing sticks out');
  keepShot('respondent-roster-390', await page.screenshot({ fullPage: true }));
  await page.getByRole('button', { name: 'Next' }).click();

  // Carried forward: only the two people named before are offered, each rated.
  await page.getByRole('heading', { level: 1, name: 'How much do you trust each of them?' }).waitFor();
  assert.equal(await page.getByRole('checkbox').count(), 2);
  await page.getByRole('checkbox', { name: /Chloé Chen/ }).check();
  await page.getByRole('checkbox', { name: /Ben Brook/ }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('alert').filter({ hasText: 'Rate each person' }).waitFor();
  await page.getByRole('group', { name: 'Rating for Chloé Chen' }).getByRole('radio', { name: 'Very much' }).check();
  await page.getByRole('group', { name: 'Rating for Ben Brook' }).getByRole('radio', { name: "I don't know this person" }).check();
  await page.getByText('All answers saved').waitFor();
  await noAxe(page, 'rating question');
  keepShot('respondent-rating-390', await page.screenshot({ fullPage: true }));
  await page.getByRole('button', { name: 'Next' }).click();

  await page.getByRole('heading', { level: 1, name: 'Where do you work most days?' }).waitFor();
  await page.getByRole('radio', { name: 'Home' }).check();
  await page.getByText('All answers saved').waitFor();
  await page.getByRole('button', { name: 'Review' }).click();
  await page.getByRole('heading', { level: 1, name: 'Review your answers' }).waitFor();
  const review = await page.locator('main').innerText();
  assert.match(review, /Chloé Chen \(Very much\)/);
  assert.match(review, /Ben Brook \(I don't know this person\)/);
  await noAxe(page, 'review');
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.getByRole('heading', { level: 1, name: 'Thank you' }).waitFor();

  // What the service stored is what was given.
  const r = await env.api('GET', `/api/v2/surveys/${surveyId}/responses`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const mine = (r.body.responses as { employeeId: string; status: string; answers: Record<string, unknown> }[]).find((x) => x.employeeId === 'e1');
  assert.equal(mine?.status, 'submitted');
  assert.deepEqual(mine?.answers.advice, [{ employeeId: 'e3' }, { employeeId: 'e2' }]);
  assert.deepEqual(mine?.answers.trust, [{ employeeId: 'e3', rating: 5 }, { employeeId: 'e2', rating: 0 }]);
  assert.equal(mine?.answers.office, 'Home');

  await page.waitForTimeout(200);
  const all = traffic.join('\n');
  assert.ok(all.includes('Chloé Chen'), 'the traffic was recorded');
  for (let i = 0; i < PEOPLE.length; i++) assert.ok(!all.includes(SECRET(i)), `a sensitive value reached the respondent: ${SECRET(i)}`);
  assert.ok(!/ageBand|Age band/.test(all), 'the sensitive field is not even named');
  assert.deepEqual(outside, [], 'no request leaves the service');
  await page.close();
});

test('a respondent who stops half-way resumes on another device where they left off', { skip: skipBrowser }, async () => {
  const first = await env.newPage();
  await first.goto(env.base + links.get('e4'));
  await first.getByRole('button', { name: 'Start' }).click();
  await first.getByRole('checkbox', { name: /Eli Eriksen/ }).check();
  await first.getByText('All answers saved').waitFor();
  await first.close(); // the browser context goes with it: nothing kept on this "device"

  const second = await env.newPage(); // a new context: no storage shared with the first
  await second.goto(env.base + links.get('e4'));
  await second.getByText('Welcome back, Dev Desai').waitFor();
  // The first unanswered question, with the earlier answer carried forward into it.
  await second.getByRole('heading', { level: 1, name: 'How much do you trust each of them?' }).waitFor();
  assert.equal(await second.getByRole('checkbox').count(), 1, await second.locator('main').innerText());
  await second.getByRole('button', { name: 'Back' }).click();
  await second.getByRole('heading', { level: 1, name: 'Who do you go to for advice?' }).waitFor();
  assert.equal(await second.getByRole('checkbox', { name: /Eli Eriksen/ }).isChecked(), true);
  await second.close();

  const t = await env.api('GET', `/api/v2/surveys/${surveyId}/tracking`);
  assert.equal(t.status, 200, JSON.stringify(t.body));
  assert.equal(t.body.submitted, 1);
  assert.equal(t.body.inProgress, 1);
  assert.equal(t.body.notStarted, PEOPLE.length - 2);
});

test('a re-issued, an unknown and a closed link get a clear page and no survey data', { skip: skipBrowser }, async () => {
  const old = links.get('e5') as string;
  const re = await env.api('POST', `/api/v2/surveys/${surveyId}/links/e5/reissue`);
  assert.equal(re.status < 300, true, JSON.stringify(re.body));
  const page = await env.newPage();
  const traffic = recordTraffic(page);
  await page.goto(env.base + old);
  await page.getByRole('heading', { level: 1, name: 'This link no longer works' }).waitFor();
  await noAxe(page, 'revoked link');
  await page.goto(env.base + '/s/' + 'x'.repeat(43));
  await page.getByRole('heading', { level: 1, name: 'This link does not work' }).waitFor();
  const close = await env.api('PUT', `/api/v2/surveys/${surveyId}`, { status: 'completed' });
  assert.equal(close.status, 200, JSON.stringify(close.body));
  await page.goto(env.base + links.get('e6'));
  await page.getByRole('heading', { level: 1, name: 'This survey is closed' }).waitFor();
  keepShot('respondent-closed', await page.screenshot());
  await page.waitForTimeout(200);
  const all = traffic.join('\n');
  for (const [, name] of PEOPLE) assert.ok(!all.includes(name), `no roster data on a page that does not work (${name})`);
  await page.close();
});

test('the respondent page is served with a strict policy: no store, no referrer, no framing', { skip: skipBrowser }, async () => {
  const res = await fetch(env.base + (links.get('e7') as string));
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('cache-control'), 'no-store');
  assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
  assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'.*connect-src 'self'.*frame-ancestors 'none'/);
  assert.equal(res.headers.get('x-frame-options'), 'DENY');
});
