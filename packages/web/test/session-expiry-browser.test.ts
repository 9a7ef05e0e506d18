// A web session that ends while the app is in use (issue 20; docs/web-app.md "Sessions"): the next call's 401
// is answered in one place (src/api/outcomes.ts) — the person lands on sign-in with a message saying the
// session ended, and signing in returns them to the page they were on (its path and query), not to the
// default start page. The session cookie is dropped from the browser to end it (what its expiry does).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startWebEnv, signIn, skipBrowser, type WebEnv } from './helpers/web-env.ts';

let env: WebEnv;
let networkId: string;

before(async () => {
  if (skipBrowser) return;
  env = await startWebEnv();
  const r = await env.api('POST', '/api/v2/networks', { name: 'Expiry check', networkJSON: { nodes: [{ id: 'a' }, { id: 'b' }, { id: 'c' }], edges: [{ source: 'a', target: 'b' }, { source: 'b', target: 'c' }] } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  networkId = String(r.body._id);
});
after(async () => {
  await env?.close();
});

test('an expired session in the middle of an action lands on sign-in with a message and returns to the same page after signing in', { skip: skipBrowser }, async () => {
  const page = await env.newPage();
  await signIn(page, env.base, env.owner.email, env.owner.password);
  // using the app: a network's page, reached with a query string that must survive the round trip
  await page.goto(`${env.base}/networks/${networkId}?from=expiry-test`);
  await page.getByRole('heading', { level: 1, name: 'Expiry check' }).waitFor();
  const metric = page.getByTestId('metric-jobs').getByLabel('Metric');
  await metric.locator('option').first().waitFor({ state: 'attached' });

  // the session ends (expiry, or signed out elsewhere): the browser no longer holds it
  await page.context().clearCookies();
  await page.getByRole('button', { name: 'Run as a job' }).click();

  await page.waitForURL((u) => u.pathname === '/sign-in');
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('next'), `/networks/${networkId}?from=expiry-test`);
  assert.equal(url.searchParams.get('expired'), '1');
  assert.match(await page.getByTestId('session-ended').innerText(), /Your session has ended\. Sign in again to continue where you were\./);
  assert.equal(await page.locator('.nav-email').count(), 0, 'shown as signed out');

  await page.getByLabel('E-mail').fill(env.owner.email);
  await page.getByLabel('Password').fill(env.owner.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).last().click();
  await page.waitForURL((u) => u.pathname === `/networks/${networkId}`);
  assert.equal(new URL(page.url()).search, '?from=expiry-test');
  await page.getByRole('heading', { level: 1, name: 'Expiry check' }).waitFor();
  assert.equal(await page.getByTestId('session-ended').count(), 0);

  // a sign-in that follows an ordinary sign-out carries no such message
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL((u) => u.pathname === '/sign-in');
  assert.equal(await page.getByTestId('session-ended').count(), 0);
  await page.close();
});
