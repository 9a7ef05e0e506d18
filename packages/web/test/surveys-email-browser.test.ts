// The Surveys pages with e-mail on (docs/spec/decisions.md §10.3 "Distribution"; issue 21 item 4), in
// Chromium against a service whose SMTP_URL points at a real SMTP server in this process: the builder offers
// the launch and reminder messages with {{name}} and {{link}}, the launch check list says e-mail is ready,
// the launch sends each respondent one message with the edited subject and their own link, and the
// tracking page shows the messages sent and each message's state. axe on the e-mail parts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { smtpCapture, type SmtpCapture } from '../../server/test/helpers/smtp.ts';
import type { Page } from 'playwright-core';
import { startWebEnv, signIn, axe, keepShot, skipBrowser, type WebEnv } from './helpers/web-env.ts';

let env: WebEnv;
let smtp: SmtpCapture;
let page: Page;
let surveyId = '';
const PEOPLE = [
  ['m1', 'Mia Moreau'],
  ['m2', 'Noah Novak'],
  ['m3', 'Olga Ortiz'],
  ['m4', 'Pia Park'],
  ['m5', 'Quinn Quist'],
] as const;

before(async () => {
  if (skipBrowser) return;
  smtp = await smtpCapture();
  env = await startWebEnv({ env: { SMTP_URL: smtp.url, NETLOOM_SURVEY_SCHEDULER_MS: '200' } });
  const up = await env.api('PUT', '/api/v2/employees', { mode: 'merge', employees: PEOPLE.map(([employeeId, name]) => ({ employeeId, name, email: `${employeeId}@example.com` })) });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  const s = await env.api('POST', '/api/v2/surveys', { name: 'Team ties', questions: [{ id: 'help', type: 'relationship', text: 'Who helps you most?', required: true }] });
  assert.equal(s.status, 201, JSON.stringify(s.body));
  surveyId = String(s.body._id);
  page = await env.newPage();
  await signIn(page, env.base, env.owner.email, env.owner.password);
});
after(async () => {
  await env?.close();
  await smtp?.close();
});

async function noAxe(where: string): Promise<void> {
  const v = await axe(page);
  assert.deepEqual(v, [], `${where}: axe serious/critical ${JSON.stringify(v, null, 1)}`);
}

test('with e-mail on, the builder edits the messages and the launch e-mails each respondent their own link', { skip: skipBrowser }, async () => {
  await page.goto(`${env.base}/surveys/${surveyId}`);
  await page.getByRole('heading', { level: 1, name: 'Team ties' }).waitFor({ timeout: 60_000 });
  assert.equal(await page.getByText('E-mail is off on this service').count(), 0);
  await page.getByLabel('Launch message subject').fill('A question for you, {{name}}');
  const body = page.getByLabel('Launch message', { exact: true });
  assert.match(await body.inputValue(), /\{\{link\}\}/, 'the default message carries the link');
  await body.fill('Hello {{name}},\n\nyour personal link: {{link}}\n\nThank you.');
  await page.getByLabel('Reminder subject').fill('Reminder: a question for you, {{name}}');
  await noAxe('builder with e-mail on');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'All changes saved.' }).waitFor();
  const saved = await env.api('GET', `/api/v2/surveys/${surveyId}`);
  assert.deepEqual((saved.body.email as { launch: unknown }).launch, { subject: 'A question for you, {{name}}', body: 'Hello {{name}},\n\nyour personal link: {{link}}\n\nThank you.' });

  await page.getByRole('link', { name: 'Launch and links' }).click();
  const list = page.getByTestId('launch-checklist');
  await list.waitFor();
  assert.match(await list.innerText(), /E-mail ready.*goes to 5 of them/s);
  await page.getByRole('button', { name: 'Launch survey' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Launch' }).click();
  await page.getByRole('heading', { name: 'Status: Collecting' }).waitFor();

  // One message per respondent, with their name and their own link (the one the links table holds).
  const end = Date.now() + 60_000;
  while (smtp.received.length < PEOPLE.length && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
  assert.equal(smtp.received.length, PEOPLE.length, JSON.stringify(smtp.received.map((m) => m.to)));
  const links = await env.api('GET', `/api/v2/surveys/${surveyId}/links?format=json`);
  for (const l of links.body.links as { employeeId: string; name: string; email: string; link: string }[]) {
    const mine = smtp.received.filter((m) => m.to === l.email);
    assert.equal(mine.length, 1, `${l.email} got one message`);
    assert.equal(mine[0]?.subject, `A question for you, ${l.name}`);
    assert.ok(mine[0]?.body.includes(l.link), `${l.email}'s message carries their own link`);
  }

  await page.getByRole('link', { name: 'Tracking' }).click();
  const launch = page.getByTestId('mail-launch');
  await launch.waitFor();
  for (let i = 0; i < 60 && !/^5 sent/.test((await launch.innerText()).trim()); i++) {
    await page.waitForTimeout(1000);
    await page.reload();
    await launch.waitFor();
  }
  assert.match((await launch.innerText()).trim(), /^5 sent/);
  await page.getByRole('button', { name: 'Show each message' }).click();
  const rows = page.locator('table').filter({ hasText: 'Message' }).locator('tbody tr');
  await rows.first().waitFor();
  assert.equal(await rows.count(), 5);
  assert.equal(await rows.filter({ hasText: 'Sent' }).count(), 5);
  for (const [, name] of PEOPLE) assert.equal(await rows.filter({ hasText: name }).count(), 1, `${name}'s message is listed by name`);
  await noAxe('tracking with e-mail');
  keepShot('surveys-tracking-email', await page.screenshot({ fullPage: true }));
});
