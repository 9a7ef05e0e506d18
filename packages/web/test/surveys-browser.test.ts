// The Surveys pages in Chromium, end to end (issue 21 acceptance; docs/spec/decisions.md §10): an admin
// imports 40 people with 3 custom fields (one sensitive) from an Excel file built here, builds a survey in
// the builder — two relationship questions (the second carried forward from the first, rated on 5 points
// with "I don't know this person") and two attribute questions — while the live preview shows what a
// respondent gets, launches it through the check list (e-mail is off: no SMTP), downloads the links as CSV
// and Excel and reads both files; three respondents answer on their links (one on a 390-px phone, one
// stops half-way and resumes in a new browser context, one stops after the first question), and the
// tracking page shows 2 submitted, 1 in progress, 37 not started. A sensitive value never reaches a
// respondent (their pages' traffic is searched). axe on the list, the builder and the tracking page.
// Screenshots go to NETLOOM_SCREENSHOT_DIR when set.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { startWebEnv, signIn, axe, horizontalOverflow, keepShot, skipBrowser, type WebEnv } from './helpers/web-env.ts';

let env: WebEnv;
let admin: Page;
let surveyId = '';
const links = new Map<string, string>();

const TEAMS = ['Sales', 'Finance', 'Ops', 'Research'];
const SITES = ['Lisbon', 'Porto'];
const FIRST = ['Ana', 'Ben', 'Chloé', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana', 'Ivo', 'Jun'];
const LAST = ['Alvarez', 'Brook', 'Chen', 'Desai'];
// 40 people: e01 … e40, distinct names; team and site are shown to respondents, the age band never is.
const PEOPLE = Array.from({ length: 40 }, (_, i) => ({
  employeeId: `e${String(i + 1).padStart(2, '0')}`,
  name: `${FIRST[i % 10]} ${LAST[Math.floor(i / 10)]}`,
  email: `person${i + 1}@example.com`,
  team: TEAMS[i % 4] as string,
  site: SITES[i % 2] as string,
  ageBand: `SECRETAGE${i + 1}X`,
}));
const nameOf = (id: string) => PEOPLE.find((p) => p.employeeId === id)?.name ?? id;

before(async () => {
  if (skipBrowser) return;
  env = await startWebEnv();
  admin = await env.newPage();
  await signIn(admin, env.base, env.owner.email, env.owner.password);
});
after(async () => {
  await env?.close();
});

async function noAxe(page: Page, where: string): Promise<void> {
  const v = await axe(page);
  assert.deepEqual(v, [], `${where}: axe serious/critical ${JSON.stringify(v, null, 1)}`);
}

/** Records the text of every response the page receives. */
function recordTraffic(page: Page): string[] {
  const bodies: string[] = [];
  page.on('response', (r) => {
    void r.text().then((t) => bodies.push(`${r.url()}\n${t}`), () => undefined);
  });
  return bodies;
}

/** A CSV parser for the links file (quoted cells, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const s = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    }
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && s[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows.filter((r) => r.some((x) => x !== ''));
}

test('an admin imports 40 people with 3 custom fields from an Excel file on the People page', { skip: skipBrowser }, async () => {
  const page = admin;
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'People' }).click();
  await page.getByRole('heading', { level: 2, name: 'No people yet' }).waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Set up custom fields' }).click();
  const fieldsDialog = page.getByRole('dialog', { name: 'Custom fields' });
  const add = fieldsDialog.getByTestId('new-field');
  for (const [label, type, options, sensitive] of [
    ['Team', 'category', TEAMS.join('\n'), false],
    ['Site', 'text', '', false],
    ['Age band', 'text', '', true],
  ] as const) {
    await add.getByLabel('Label').fill(label);
    await add.getByLabel('Type').selectOption(type);
    if (options) await add.getByLabel('Values').fill(options);
    if (sensitive) await add.getByLabel('Sensitive').check();
    await add.getByRole('button', { name: 'Add field' }).click();
    await fieldsDialog.getByTestId('field-list').getByRole('form', { name: `Field ${label}` }).waitFor();
  }
  await fieldsDialog.getByRole('button', { name: 'Done' }).click();
  const fields = (await env.api('GET', '/api/v2/customFields')).body.customFields as { label: string; sensitive: boolean }[];
  assert.deepEqual(fields.map((f) => [f.label, f.sensitive]), [['Team', false], ['Site', false], ['Age band', true]]);

  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('People');
  ws.addRow(['EmployeeId', 'Name', 'Email', 'Manager', 'Team', 'Site', 'Age band']);
  for (const p of PEOPLE) ws.addRow([p.employeeId, p.name, p.email, p.employeeId === 'e01' ? '' : 'e01', p.team, p.site, p.ageBand]);
  const xlsx = Buffer.from(await wb.xlsx.writeBuffer());
  await page.getByRole('button', { name: 'Import from Excel or CSV' }).first().click();
  const importDialog = page.getByRole('dialog', { name: 'Import people' });
  await importDialog.getByTestId('people-import-file').setInputFiles({ name: 'people.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: xlsx });
  await importDialog.getByRole('button', { name: 'Import', exact: true }).click();
  await importDialog.waitFor({ state: 'hidden', timeout: 60_000 });
  await page.getByTestId('people-count').filter({ hasText: '40 people' }).waitFor({ timeout: 60_000 });
  const stored = await env.api('GET', '/api/v2/employees?limit=500');
  assert.equal(stored.body.total, 40);
});

test('the Surveys list explains what a survey is; the builder makes a survey with a live respondent preview', { skip: skipBrowser }, async () => {
  const page = admin;
  await page.getByRole('link', { name: 'Surveys' }).first().click();
  await page.getByRole('heading', { level: 1, name: 'Surveys' }).waitFor();
  await page.getByRole('heading', { name: 'No surveys yet' }).waitFor();
  assert.match(await page.locator('main').innerText(), /relationship survey asks people who they work with/);
  await noAxe(page, 'surveys list (empty)');

  await page.getByRole('button', { name: 'New survey' }).first().click();
  await page.getByLabel('Name').fill('Advice network 2026');
  await page.getByRole('button', { name: 'Create and build' }).click();
  await page.getByRole('heading', { level: 1, name: 'Advice network 2026' }).waitFor();
  surveyId = new URL(page.url()).pathname.split('/')[2] as string;
  assert.ok(surveyId, page.url());

  await page.getByLabel('Introduction (Markdown)').fill('Thank you for taking part. It takes **five minutes**.');
  // Question 1: a relationship question (the default type of a new question).
  await page.getByRole('button', { name: 'Add question' }).click();
  const q1 = page.locator('[data-question="q1"]');
  await q1.getByLabel('Question 1 text').fill('Who do you go to for advice?');
  await q1.getByLabel('At most (people)').fill('5');
  // Question 2: carried forward from question 1, rated on 5 points with "I don't know this person" first.
  await page.getByRole('button', { name: 'Add question' }).click();
  const q2 = page.locator('[data-question="q2"]');
  await q2.getByLabel('Question 2 text').fill('How much do you trust each of them?');
  await q2.getByLabel('Offer', { exact: true }).selectOption('q1');
  await q2.getByLabel(/Rate each person named/).check();
  await q2.getByLabel(/No one/).uncheck();
  const points = await q2.locator('.qe-rating ol input').evaluateAll((els) => (els as HTMLInputElement[]).map((e) => e.value));
  assert.deepEqual(points, ['Very little', 'Little', 'Some', 'Much', 'Very much']);
  // Questions 3 and 4: a single choice stored nowhere, a scale.
  await page.getByLabel('Type of the new question').selectOption('singleChoice');
  await page.getByRole('button', { name: 'Add question' }).click();
  const q3 = page.locator('[data-question="q3"]');
  await q3.getByLabel('Question 3 text').fill('Where do you work most days?');
  await q3.getByRole('textbox', { name: 'Option 1', exact: true }).fill('Office');
  await q3.getByRole('textbox', { name: 'Option 2', exact: true }).fill('Home');
  await q3.getByRole('button', { name: 'Add option' }).click();
  await q3.getByRole('textbox', { name: 'Option 3', exact: true }).fill('Both');
  await q3.getByLabel('Needs an answer').check();
  await page.getByLabel('Type of the new question').selectOption('scale');
  await page.getByRole('button', { name: 'Add question' }).click();
  const q4 = page.locator('[data-question="q4"]');
  await q4.getByLabel('Question 4 text').fill('How connected do you feel to the rest of the organization?');
  assert.equal(await q4.getByLabel('From', { exact: true }).inputValue(), '1');
  assert.equal(await q4.getByLabel('To', { exact: true }).inputValue(), '5');

  // The live preview: question 1 offers the roster as cards with the non-sensitive fields; try it.
  await q1.getByRole('button', { name: 'Preview question 1' }).click();
  const preview = page.getByTestId('respondent-preview');
  await preview.getByRole('heading', { name: 'Who do you go to for advice?' }).waitFor();
  await preview.getByRole('checkbox', { name: /Ben Alvarez/ }).waitFor();
  assert.equal(await preview.locator('.r-person').count(), 40, 'the preview offers the whole roster (nobody is the respondent)');
  await preview.getByLabel('Find a person').fill('finance');
  await preview.getByText('10 matches').waitFor();
  await preview.getByRole('checkbox', { name: /Ben Alvarez/ }).check();
  await preview.getByLabel('Find a person').fill('');
  await preview.getByRole('checkbox', { name: /Chloé Alvarez/ }).check();
  const previewText = await preview.innerText();
  assert.match(previewText, /Finance · Porto|Finance/);
  for (const p of PEOPLE) assert.ok(!previewText.includes(p.ageBand), 'a sensitive value is never in the preview');
  keepShot('surveys-builder-preview-q1', await page.screenshot({ fullPage: false }));
  // Question 2 in the preview: only the two people chosen above, each with the rating incl. "don't know".
  await q2.getByRole('button', { name: 'Preview question 2' }).click();
  await preview.getByRole('heading', { name: 'How much do you trust each of them?' }).waitFor();
  assert.equal(await preview.locator('.r-person').count(), 2);
  await preview.getByRole('checkbox', { name: /Ben Alvarez/ }).check();
  await preview.getByRole('group', { name: 'Rating for Ben Alvarez' }).getByRole('radio', { name: "I don't know this person" }).waitFor();
  assert.equal(await preview.getByRole('group', { name: 'Rating for Ben Alvarez' }).getByRole('radio').count(), 6);
  keepShot('surveys-builder-preview-q2', await page.screenshot({ fullPage: false }));
  await noAxe(page, 'builder');

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await Promise.race([
    page.getByRole('status').filter({ hasText: 'All changes saved.' }).waitFor(),
    page.getByRole('alert').filter({ hasText: 'Not saved' }).waitFor().then(async () => assert.fail(await page.getByRole('alert').filter({ hasText: 'Not saved' }).innerText())),
  ]);
  const saved = await env.api('GET', `/api/v2/surveys/${surveyId}`);
  assert.equal(saved.status, 200);
  const qs = saved.body.questions as { id: string; type: string; carryForwardFrom?: string; rating?: { labels: string[]; dontKnow: boolean }; maxSelections?: number; options?: string[] }[];
  assert.deepEqual(qs.map((q) => [q.id, q.type]), [['q1', 'relationship'], ['q2', 'relationship'], ['q3', 'singleChoice'], ['q4', 'scale']]);
  assert.equal(qs[0]?.maxSelections, 5);
  assert.equal(qs[1]?.carryForwardFrom, 'q1');
  assert.deepEqual(qs[1]?.rating, { labels: ["I don't know this person", 'Very little', 'Little', 'Some', 'Much', 'Very much'], dontKnow: true });
  assert.deepEqual(qs[2]?.options, ['Office', 'Home', 'Both']);
  assert.equal(saved.body.intro, 'Thank you for taking part. It takes **five minutes**.');
});

test('the launch check list says e-mail is off; the survey launches; the links download as CSV and Excel', { skip: skipBrowser }, async () => {
  const page = admin;
  await page.getByRole('link', { name: 'Respondents' }).click();
  await page.getByTestId('respondent-count').filter({ hasText: '40' }).waitFor();
  assert.equal((await page.getByTestId('roster-count').innerText()).trim(), '40');
  await noAxe(page, 'respondents step');
  await page.getByRole('link', { name: 'Launch and links' }).click();
  const list = page.getByTestId('launch-checklist');
  await list.waitFor();
  await noAxe(page, 'launch step (draft)');
  const text = await list.innerText();
  assert.match(text, /Questions.*4 question/s);
  assert.match(text, /40 people are asked/);
  assert.match(text, /e-mail is off/i);
  assert.equal(await list.locator('[data-ok="false"]').count(), 0, text);
  await page.getByRole('button', { name: 'Launch survey' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Launch' }).click();
  await page.getByRole('heading', { name: 'Status: Collecting' }).waitFor();
  await page.getByTestId('links-table').waitFor();
  await noAxe(page, 'launch step (collecting, links)');

  const [csvDl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('links-csv').click()]);
  const rows = parseCsv(readFileSync(await csvDl.path(), 'utf8'));
  const header = rows[0] as string[];
  for (const col of ['name', 'email', 'employeeId', 'link']) assert.ok(header.includes(col), `CSV header ${header.join(',')} has ${col}`);
  const at = (c: string) => header.indexOf(c);
  assert.equal(rows.length - 1, 40);
  for (const r of rows.slice(1)) {
    assert.equal(r[at('name')], nameOf(r[at('employeeId')] as string));
    links.set(r[at('employeeId')] as string, new URL(r[at('link')] as string).pathname);
  }
  assert.equal(links.size, 40);
  assert.match(csvDl.suggestedFilename(), /\.csv$/);

  const [xDl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('links-xlsx').click()]);
  assert.match(xDl.suggestedFilename(), /\.xlsx$/);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(readFileSync(await xDl.path()) as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  const xh = (ws.getRow(1).values as unknown[]).slice(1).map(String);
  assert.deepEqual(['name', 'email', 'employeeId', 'link'].every((c) => xh.includes(c)), true, xh.join(','));
  let n = 0;
  ws.eachRow((row, i) => {
    if (i === 1) return;
    const v = (row.values as unknown[]).slice(1);
    const id = String(v[xh.indexOf('employeeId')]);
    const link = v[xh.indexOf('link')];
    const href = typeof link === 'object' && link !== null ? String((link as { text?: string; hyperlink?: string }).hyperlink ?? (link as { text?: string }).text) : String(link);
    assert.equal(new URL(href).pathname, links.get(id), `Excel and CSV give ${id} the same link`);
    n++;
  });
  assert.equal(n, 40);
});

/** Answers question 1 on a respondent page: the people named, then Next. */
async function answerAdvice(page: Page, names: string[]): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'Who do you go to for advice?' }).waitFor();
  for (const n of names) {
    await page.getByLabel('Find a person').fill(n);
    await page.getByRole('checkbox', { name: new RegExp(n) }).check();
  }
  await page.getByLabel('Find a person').fill('');
  await page.getByText('All answers saved').waitFor();
}

async function answerRest(page: Page, ratings: [string, string][]): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'How much do you trust each of them?' }).waitFor();
  for (const [n, r] of ratings) {
    await page.getByRole('checkbox', { name: new RegExp(n) }).check();
    await page.getByRole('group', { name: `Rating for ${n}` }).getByRole('radio', { name: r, exact: true }).check();
  }
  await page.getByText('All answers saved').waitFor();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('heading', { level: 1, name: 'Where do you work most days?' }).waitFor();
  await page.getByRole('radio', { name: 'Home' }).check();
  await page.getByText('All answers saved').waitFor();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('heading', { level: 1, name: /How connected do you feel/ }).waitFor();
  await page.getByRole('radio', { name: '4' }).check();
  await page.getByText('All answers saved').waitFor();
  await page.getByRole('button', { name: 'Review' }).click();
  await page.getByRole('heading', { level: 1, name: 'Review your answers' }).waitFor();
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.getByRole('heading', { level: 1, name: 'Thank you' }).waitFor();
}

test('three respondents answer on their links: a phone, a resume in a new context, one half-way', { skip: skipBrowser }, async () => {
  const outside: string[] = [];
  const traffic: string[] = [];
  const watch = (p: Page) => {
    const t = recordTraffic(p);
    p.on('close', () => traffic.push(...t));
    p.on('request', (r) => {
      if (!r.url().startsWith(env.base) && !r.url().startsWith('data:')) outside.push(r.url());
    });
    return t;
  };
  /** A fresh page (a browser context of its own: another device) on the respondent's link, its traffic watched. */
  const openLink = async (employeeId: string, viewport?: { width: number; height: number }) => {
    const page = await env.newPage(viewport);
    const recorded = watch(page);
    await page.goto(env.base + links.get(employeeId));
    return { page, recorded };
  };
  /** The respondent starts on a fresh page, answers question 1 only and leaves. */
  const answerAdviceOnly = async (employeeId: string, names: string[]) => {
    const { page } = await openLink(employeeId);
    await page.getByRole('button', { name: 'Start' }).click();
    await answerAdvice(page, names);
    await page.close();
  };

  // e02 on a 390-px phone: everything, then submit.
  const { page: phone, recorded: phoneTraffic } = await openLink('e02', { width: 390, height: 800 });
  await phone.getByRole('heading', { level: 1, name: `Hello, ${nameOf('e02')}` }).waitFor();
  await phone.getByRole('button', { name: 'Start' }).click();
  await answerAdvice(phone, [nameOf('e03'), nameOf('e05')]);
  const o = await horizontalOverflow(phone);
  assert.deepEqual(o.offenders, [], 'the roster question fits a 390-px phone');
  keepShot('surveys-respondent-roster-390', await phone.screenshot({ fullPage: true }));
  await phone.getByRole('button', { name: 'Next' }).click();
  await answerRest(phone, [
    [nameOf('e03'), 'Very much'],
    [nameOf('e05'), "I don't know this person"],
  ]);
  await phone.waitForTimeout(200);
  const phoneText = phoneTraffic.join('\n');
  assert.ok(phoneText.includes(nameOf('e03')), 'the traffic was recorded');
  await phone.close();

  // e04 stops after question 1 and resumes in a new browser context (another device).
  await answerAdviceOnly('e04', [nameOf('e06')]);
  const { page: second } = await openLink('e04');
  await second.getByText(`Welcome back, ${nameOf('e04')}`).waitFor();
  await answerRest(second, [[nameOf('e06'), 'Much']]);
  await second.close();

  // e07 answers question 1 only.
  await answerAdviceOnly('e07', [nameOf('e01')]);

  const all = traffic.join('\n');
  for (const p of PEOPLE) assert.ok(!all.includes(p.ageBand), `a sensitive value reached a respondent: ${p.ageBand}`);
  assert.ok(!/age_?band|Age band/i.test(all), 'the sensitive field is not even named');
  assert.deepEqual(outside, [], 'no request leaves the service');
});

test('the tracking page shows 2 submitted, 1 in progress, 37 not started', { skip: skipBrowser }, async () => {
  const page = admin;
  await page.getByRole('link', { name: 'Tracking' }).click();
  await page.getByTestId('tracking-counts').waitFor();
  await page.reload();
  await page.getByTestId('tracking-counts').waitFor();
  const count = async (id: string) => (await page.getByTestId(id).locator('.stat-value').innerText()).trim();
  assert.equal(await count('count-submitted'), '2');
  assert.equal(await count('count-inProgress'), '1');
  assert.equal(await count('count-notStarted'), '37');
  assert.equal(await count('count-respondents'), '40');
  assert.equal((await page.getByTestId('tracking-rate').innerText()).trim(), '5 %');
  assert.match(await page.getByTestId('tracking-counts').innerText(), /Low confidence/);
  assert.equal(await page.getByTestId('not-started').locator('li').count(), 37);
  const notStarted = await page.getByTestId('not-started').innerText();
  for (const id of ['e02', 'e04', 'e07']) assert.ok(!notStarted.includes(nameOf(id)), `${nameOf(id)} has started`);
  const responses = page.getByTestId('responses-table');
  assert.equal(await responses.locator('tbody tr[data-status="submitted"]').count(), 2);
  assert.equal(await responses.locator('tbody tr[data-status="inProgress"]').count(), 1);
  // Groups of the non-sensitive fields only; never the age band.
  const groups = await page.getByRole('region', { name: 'By group' }).innerText();
  assert.match(groups, /Team/);
  assert.doesNotMatch(groups, /Age band|age_?band|SECRETAGE/i);
  await noAxe(page, 'tracking');
  keepShot('surveys-tracking', await page.screenshot({ fullPage: true }));

  await page.getByRole('link', { name: 'Surveys' }).first().click();
  const row = page.locator(`[data-survey="${surveyId}"]`);
  await row.waitFor();
  assert.match(await row.innerText(), /Collecting/);
  assert.match(await row.getByTestId('survey-responses').innerText(), /2 of 40 \(5 %\)/);
  await noAxe(page, 'surveys list');
});

test("an owner enters someone's answers with the respondent components, erases another's, and re-issues a link", { skip: skipBrowser }, async () => {
  const page = admin;
  await page.getByRole('link', { name: 'Advice network 2026' }).click();
  await page.getByRole('link', { name: 'Tracking' }).click();
  const notStarted = page.getByTestId('not-started');
  await notStarted.waitFor();
  assert.equal(await notStarted.getByRole('button', { name: /^Enter answers for / }).count(), 37);
  await notStarted.getByRole('button', { name: `Enter answers for ${nameOf('e01')}` }).click();
  const dialog = page.getByRole('dialog', { name: `Answers of ${nameOf('e01')}` });
  await dialog.waitFor();
  const q1 = dialog.getByRole('region', { name: /Who do you go to for advice/ });
  await q1.getByRole('checkbox', { name: new RegExp(nameOf('e02')) }).check();
  assert.equal(await q1.getByRole('checkbox', { name: new RegExp(nameOf('e01')) }).count(), 0, 'the person is not offered themself');
  const q2 = dialog.getByRole('region', { name: /How much do you trust/ });
  assert.equal(await q2.locator('.r-person').count(), 1, 'carried forward: only the person named in question 1');
  await q2.getByRole('checkbox', { name: new RegExp(nameOf('e02')) }).check();
  await q2.getByRole('group', { name: `Rating for ${nameOf('e02')}` }).getByRole('radio', { name: 'Some', exact: true }).check();
  await dialog.getByRole('region', { name: /Where do you work/ }).getByRole('radio', { name: 'Office' }).check();
  await dialog.getByRole('region', { name: /How connected/ }).getByRole('radio', { name: '3' }).check();
  await noAxe(page, 'owner entry');
  await dialog.getByRole('button', { name: 'Save and submit' }).click();
  await dialog.waitFor({ state: 'detached' });
  const count = async (id: string) => (await page.getByTestId(id).locator('.stat-value').innerText()).trim();
  await page.getByTestId('count-submitted').locator('.stat-value').filter({ hasText: '3' }).waitFor();
  assert.equal(await count('count-notStarted'), '36');
  const r = await env.api('GET', `/api/v2/surveys/${surveyId}/responses`);
  const e01 = (r.body.responses as { employeeId: string; status: string; enteredBy: string | null; answers: Record<string, unknown> }[]).find((x) => x.employeeId === 'e01');
  assert.equal(e01?.status, 'submitted');
  assert.match(String(e01?.enteredBy), /^user:/);
  assert.deepEqual(e01?.answers, { q1: [{ employeeId: 'e02' }], q2: [{ employeeId: 'e02', rating: 3 }], q3: 'Office', q4: 3 });

  // Erasure of the half-way respondent's answers: they are "not started" again.
  await page.getByRole('button', { name: `Erase the answers of ${nameOf('e07')}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Erase answers' }).click();
  await page.getByTestId('count-inProgress').locator('.stat-value').filter({ hasText: '0' }).waitFor();
  assert.equal(await count('count-notStarted'), '37');

  // A re-issued link: the old one gets the "no longer works" page, the new one opens the survey.
  const old = links.get('e05') as string;
  await page.getByRole('link', { name: 'Launch and links' }).click();
  await page.getByLabel('Find a respondent').fill(nameOf('e05'));
  await page.getByRole('button', { name: `New link for ${nameOf('e05')}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Give a new link' }).click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  const l = await env.api('GET', `/api/v2/surveys/${surveyId}/links?format=json`);
  const fresh = new URL(String((l.body.links as { employeeId: string; link: string }[]).find((x) => x.employeeId === 'e05')?.link)).pathname;
  assert.notEqual(fresh, old);
  const resp = await env.newPage();
  await resp.goto(env.base + old);
  await resp.getByRole('heading', { level: 1, name: 'This link no longer works' }).waitFor();
  await resp.goto(env.base + fresh);
  await resp.getByRole('heading', { level: 1, name: `Hello, ${nameOf('e05')}` }).waitFor();
  await resp.close();
});

test('an edit after launch creates a new version; privacy only becomes stricter, and pseudonymised tracking names nobody', { skip: skipBrowser }, async () => {
  const page = admin;
  await page.getByRole('link', { name: 'Questions' }).click();
  await page.getByText('Saving a change to the questions creates version 2').waitFor();
  assert.equal(await page.getByLabel('Privacy').locator('option[value="identified"]').isDisabled(), true, 'privacy never becomes looser after launch');
  await page.locator('[data-question="q4"]').getByLabel('Question 4 text').fill('How connected do you feel to the organization?');
  await page.getByRole('status').filter({ hasText: 'saving creates version 2' }).waitFor();
  await page.getByLabel('Privacy').selectOption('pseudonymised');
  await page.getByRole('button', { name: 'Save as a new version' }).click();
  await page.getByText('Saved as question version 2.').waitFor();
  const s = await env.api('GET', `/api/v2/surveys/${surveyId}`);
  assert.equal(s.body.version, 2);
  assert.equal(s.body.privacy, 'pseudonymised');
  const r = await env.api('GET', `/api/v2/surveys/${surveyId}/responses`);
  const versions = (r.body.responses as { versions: Record<string, number> }[]).map((x) => x.versions.q4);
  assert.ok(versions.every((v) => v === 1), 'answers keep the version they answered');

  await page.getByRole('link', { name: 'Tracking' }).click();
  await page.getByText('This survey is pseudonymised: who has not started is never shown.').waitFor();
  assert.equal(await page.getByTestId('not-started').count(), 0);
  const table = await page.getByTestId('responses-table').innerText();
  assert.match(table, /P-[A-Z0-9]+/);
  for (const p of PEOPLE) assert.ok(!table.includes(p.name), `a pseudonymised survey's responses never name ${p.name}`);
  await noAxe(page, 'tracking (pseudonymised)');

  // Sharing (owner): the dialog lists the shares and says why the service refused one.
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const share = page.getByRole('dialog', { name: 'Share this survey' });
  await share.getByText('Not shared with anyone.').waitFor();
  await share.getByLabel('E-mail of a member').fill('nobody@example.com');
  await share.getByRole('button', { name: 'Share', exact: true }).click();
  await share.getByRole('alert').waitFor();
  await noAxe(page, 'share dialog');
  await share.getByRole('button', { name: 'Close' }).click();
});

test('pause, resume, a new wave, copy, delete, and close', { skip: skipBrowser }, async () => {
  const page = admin;
  await page.goto(`${env.base}/surveys/${surveyId}/launch`);
  await page.getByRole('button', { name: 'Pause (take offline)' }).click();
  await page.getByRole('heading', { name: 'Status: Offline' }).waitFor();
  assert.equal((await env.api('GET', `/api/v2/surveys/${surveyId}`)).body.status, 'offline');
  await page.getByRole('button', { name: 'Resume collecting' }).click();
  await page.getByRole('heading', { name: 'Status: Collecting' }).waitFor();

  await page.getByRole('button', { name: 'New wave' }).click();
  await page.getByRole('heading', { level: 1, name: 'Advice network 2026 (wave 2)' }).waitFor();
  const waveId = new URL(page.url()).pathname.split('/')[2] as string;
  const wave = await env.api('GET', `/api/v2/surveys/${waveId}`);
  assert.equal(wave.body.status, 'draft');
  assert.equal(wave.body.wave, 2);
  assert.equal(wave.body.previousWaveId, surveyId);
  assert.deepEqual((wave.body.questions as { id: string }[]).map((q) => q.id), ['q1', 'q2', 'q3', 'q4'], 'the same question ids');

  // Who is asked, by a field filter: the Finance team answers about everyone.
  await page.getByRole('link', { name: 'Respondents' }).click();
  await page.getByTestId('respondent-count').filter({ hasText: '40' }).waitFor();
  await page.getByLabel('Ask everyone who can be named').uncheck();
  await page.getByRole('radiogroup', { name: 'Respondents: how people are chosen' }).getByLabel('By a field').check();
  await page.getByLabel('Field', { exact: true }).selectOption('team');
  await page.getByRole('region', { name: 'Who is asked' }).getByLabel('Finance').check();
  await page.getByTestId('respondent-count').filter({ hasText: /^10$/ }).waitFor();
  assert.equal((await page.getByTestId('roster-count').innerText()).trim(), '40');
  await noAxe(page, 'respondents by a field');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'All changes saved.' }).waitFor();
  const asked = await env.api('GET', `/api/v2/surveys/${waveId}`);
  assert.deepEqual(asked.body.respondents, { field: 'team', values: ['Finance'] });
  assert.deepEqual(asked.body.roster, { all: true });

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Surveys' }).click();
  const table = page.getByTestId('surveys-table');
  await table.waitFor();
  assert.equal(await table.locator('tbody tr').count(), 2);
  await page.getByRole('button', { name: 'Copy Advice network 2026 (wave 2)' }).click();
  const copyRow = table.locator('tbody tr', { hasText: 'Advice network 2026 (wave 2) (copy)' });
  await copyRow.waitFor();
  assert.match(await copyRow.innerText(), /Draft/);
  await page.getByRole('button', { name: 'Delete Advice network 2026 (wave 2) (copy)' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete survey' }).click();
  await copyRow.waitFor({ state: 'detached' });
  assert.equal(await table.locator('tbody tr').count(), 2);

  await page.goto(`${env.base}/surveys/${surveyId}/launch`);
  await page.getByRole('button', { name: 'Close survey' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Close survey' }).click();
  await page.getByRole('heading', { name: 'Status: Completed' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Resume collecting' }).count(), 0, 'a completed survey does not reopen');
  await page.getByRole('link', { name: 'Questions' }).click();
  await page.getByText('This survey is completed: only its name can change.').waitFor();
  const old = await env.newPage();
  await old.goto(env.base + links.get('e02'));
  await old.getByRole('heading', { level: 1, name: 'This survey is closed' }).waitFor();
  await old.close();
});

test('the Surveys pages fit a 390-px phone', { skip: skipBrowser }, async () => {
  const page = await env.newPage({ width: 390, height: 800 });
  await signIn(page, env.base, env.owner.email, env.owner.password);
  for (const [path, ready] of [
    ['/surveys', 'surveys-table'],
    [`/surveys/${surveyId}`, 'respondent-preview'],
    [`/surveys/${surveyId}/respondents`, 'roster-counts'],
    [`/surveys/${surveyId}/launch`, 'links-table'],
    [`/surveys/${surveyId}/tracking`, 'tracking-counts'],
  ] as const) {
    await page.goto(env.base + path);
    await page.getByTestId(ready).waitFor({ timeout: 60_000 });
    const o = await horizontalOverflow(page);
    assert.deepEqual(o.offenders, [], `${path} at 390 px: nothing sticks out`);
    if (path.endsWith(surveyId)) keepShot('surveys-builder-390', await page.screenshot({ fullPage: true }));
    if (path.endsWith('tracking')) keepShot('surveys-tracking-390', await page.screenshot({ fullPage: true }));
  }
  await page.close();
});
