// A web session that ends while the app is in use (issue 20): the session is ended server-side from
// another browser ("Sign out everywhere" on the Account page there), and the app in the first browser —
// on its next call, whether an action the person takes or a page's own polling — lands on sign-in with a
// message, keeps where the person was, and returns there after signing in. The action that met the
// ended session did not happen. The one place answering this is packages/web/src/api/outcomes.ts.
// Screenshots go to NETLOOM_SCREENSHOT_DIR when set.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startWebEnv, signIn, axe, keepShot, skipBrowser, type WebEnv } from './helpers/web-env.ts';

let env: WebEnv;
before(async () => {
  if (!skipBrowser) env = await startWebEnv();
});
after(async () => {
  await env?.close();
});

/** Ends every session of the owner from a second, separate browser context, through the Account page. */
async function signOutEverywhereElsewhere(): Promise<void> {
  const other = await env.newPage();
  try {
    await signIn(other, env.base, env.owner.email, env.owner.password);
    await other.goto(`${env.base}/account`);
    await other.getByRole('button', { name: 'Sign out everywhere' }).click();
    await other.getByRole('dialog').getByRole('button', { name: 'Sign out everywhere' }).click();
    await other.waitForURL(/\/sign-in/, { timeout: 60_000 });
  } finally {
    await other.close();
  }
}

async function sessionEndedNotice(page: Page, next: string): Promise<void> {
  await page.waitForURL((u) => u.pathname === '/sign-in', { timeout: 60_000 });
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('next'), next, `sign-in keeps where the person was: ${page.url()}`);
  assert.equal(url.searchParams.get('expired'), '1');
  const notice = page.getByTestId('session-ended');
  await notice.waitFor();
  assert.match(await notice.innerText(), /Your session has ended\. Sign in again to continue where you were\./);
}

async function signInAgain(page: Page): Promise<void> {
  await page.getByLabel('E-mail').fill(env.owner.email);
  await page.getByLabel('Password').fill(env.owner.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).last().click();
}

test('an action on an ended session: sign-in says so, and signing in returns to the page; the action did not happen', { skip: skipBrowser }, async () => {
  const page = await env.newPage();
  await signIn(page, env.base, env.owner.email, env.owner.password);
  await page.goto(`${env.base}/credentials`);
  const table = page.getByTestId('credentials-table');
  await table.waitFor();
  const revokeButtons = table.getByRole('button', { name: /^Revoke / });
  const before = await revokeButtons.count();
  assert.ok(before >= 1, 'the first-run token is listed');

  await signOutEverywhereElsewhere();

  // The page still shows what it had; the person acts on it.
  await revokeButtons.first().click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke', exact: true }).click();
  await sessionEndedNotice(page, '/credentials');
  assert.deepEqual(await axe(page), [], 'sign-in with the session-ended message: axe serious/critical violations');
  keepShot('session-ended-1280', await page.screenshot({ fullPage: true }));

  await signInAgain(page);
  await page.waitForURL((u) => u.pathname === '/credentials', { timeout: 60_000 });
  await page.getByRole('heading', { level: 1, name: 'API credentials' }).waitFor();
  await page.getByTestId('credentials-table').waitFor();
  assert.equal(await page.getByTestId('credentials-table').getByRole('button', { name: /^Revoke / }).count(), before, 'nothing was revoked');
  assert.equal((await env.api('GET', '/api/v2/networks')).status, 200, 'the first-run token still works');
  assert.equal(await page.getByTestId('session-ended').count(), 0);
  await page.close();
});

test('a page that reads by itself (Jobs polls) meets the ended session: sign-in with the message, then back to Jobs', { skip: skipBrowser }, async () => {
  const page = await env.newPage({ width: 390, height: 800 });
  await signIn(page, env.base, env.owner.email, env.owner.password);
  await page.goto(`${env.base}/jobs`);
  await page.getByRole('heading', { level: 1, name: 'Jobs' }).waitFor();

  await signOutEverywhereElsewhere();

  // no click here: the page's next poll (every 10 s while nothing runs) meets the ended session
  await sessionEndedNotice(page, '/jobs');
  keepShot('session-ended-390', await page.screenshot({ fullPage: true }));
  await signInAgain(page);
  await page.waitForURL((u) => u.pathname === '/jobs', { timeout: 60_000 });
  await page.getByRole('heading', { level: 1, name: 'Jobs' }).waitFor();

  // A sign-in that is not after an ended session says nothing of one.
  const fresh = await env.newPage();
  await fresh.goto(`${env.base}/credentials`);
  await fresh.waitForURL((u) => u.pathname === '/sign-in');
  assert.equal(new URL(fresh.url()).searchParams.get('next'), '/credentials');
  await fresh.getByRole('heading', { name: 'Sign in to Netloom' }).waitFor();
  assert.equal(await fresh.getByTestId('session-ended').count(), 0, 'a person who was never signed in is not told a session ended');
  await fresh.close();
  await page.close();
});
