// Smaller fixes of issue 23, in Chromium: an unknown address shows the web app's "Page not found" page
// (status 404 from the server, not problem JSON) while unknown API paths stay problem JSON; the display
// name is changed on the Account page (and shows in the header's subtitle after a reload); the sign-in's
// code step has room between "Verify" and "Back". Axe on the pages. Screenshots go to
// NETLOOM_SCREENSHOT_DIR when it is set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import { webEnvFixture, signIn, axe, keepShot, skipBrowser } from './helpers/web-env.ts';

const env = webEnvFixture();

test('an unknown address: the "Page not found" page with status 404; an unknown API path stays problem JSON', { skip: skipBrowser, timeout: 120_000 }, async () => {
  const page = await env.newPage({ width: 1280, height: 800 });
  const res = await page.goto(`${env.base}/no-such-page/here`);
  assert.equal(res?.status(), 404);
  assert.match(res?.headers()['content-type'] ?? '', /text\/html/);
  await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
  assert.equal(await page.locator('body').innerText().then((t) => t.includes('"code"')), false, 'no problem JSON on the page');
  keepShot('not-found-1280', await page.screenshot({ fullPage: true }));
  assert.deepEqual(await axe(page), [], 'not-found page: axe serious/critical violations');
  const api = await fetch(`${env.base}/api/v2/no-such-thing`, { headers: { accept: 'text/html' } });
  assert.equal(api.status, 404);
  assert.match(api.headers.get('content-type') ?? '', /application\/problem\+json/);
  const embed = await fetch(`${env.base}/embed/assets/nothing.js`, { headers: { accept: 'text/html' } });
  assert.equal(embed.status, 404);
  assert.doesNotMatch(embed.headers.get('content-type') ?? '', /text\/html/);
  await page.context().close();
});

test('the display name is changed on the Account page', { skip: skipBrowser, timeout: 120_000 }, async () => {
  const page = await env.newPage({ width: 1280, height: 800 });
  await signIn(page, env.base, env.owner.email, env.owner.password);
  await page.goto(`${env.base}/account`);
  const field = page.getByRole('textbox', { name: 'Display name' });
  await field.fill('Grace Hopper');
  await page.getByRole('button', { name: 'Save name' }).click();
  await page.getByText('Your name is now Grace Hopper.').waitFor();
  await page.reload();
  await page.getByText(`Grace Hopper · ${env.owner.email}`).waitFor();
  assert.equal(await page.getByRole('textbox', { name: 'Display name' }).inputValue(), 'Grace Hopper');
  keepShot('account-name-1280', await page.screenshot({ fullPage: true }));
  assert.deepEqual(await axe(page), [], 'account page: axe serious/critical violations');
  // an empty name is refused by the service with the field named
  const empty = await page.evaluate(async (base) => {
    const s = await (await fetch(`${base}/app/api/session`)).json() as { csrfToken: string };
    const r = await fetch(`${base}/app/api/account`, { method: 'PATCH', headers: { 'content-type': 'application/json', 'x-csrf-token': s.csrfToken }, body: JSON.stringify({ name: '   ' }) });
    return { status: r.status, body: await r.json() as { errors?: { path: string }[] } };
  }, env.base);
  assert.equal(empty.status, 400);
  assert.equal(empty.body.errors?.[0]?.path, '/name');
  await page.context().close();
});

test('the sign-in code step: "Verify" and "Back" stand apart', { skip: skipBrowser, timeout: 120_000 }, async () => {
  const page = await env.newPage({ width: 1280, height: 800 });
  await signIn(page, env.base, env.owner.email, env.owner.password);
  const secret = await page.evaluate(async (base) => {
    const s = await (await fetch(`${base}/app/api/session`)).json() as { csrfToken: string };
    const r = await fetch(`${base}/app/api/account/mfa/setup`, { method: 'POST', headers: { 'x-csrf-token': s.csrfToken } });
    return ((await r.json()) as { secret: string }).secret;
  }, env.base);
  const code = TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  const enabled = await page.evaluate(async ([base, c, password]) => {
    const s = await (await fetch(`${base}/app/api/session`)).json() as { csrfToken: string };
    const r = await fetch(`${base}/app/api/account/mfa/enable`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': s.csrfToken }, body: JSON.stringify({ code: c, password }) });
    return r.status;
  }, [env.base, code, env.owner.password] as const);
  assert.equal(enabled, 200);
  await page.context().clearCookies();
  await page.goto(`${env.base}/sign-in`);
  await page.getByLabel('E-mail').fill(env.owner.email);
  await page.getByLabel('Password').fill(env.owner.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).last().click();
  await page.getByLabel('Authentication code').waitFor();
  const verify = await page.getByRole('button', { name: 'Verify' }).boundingBox();
  const back = await page.getByRole('button', { name: 'Back' }).boundingBox();
  assert.ok(verify && back);
  const gap = Math.max(back.x - (verify.x + verify.width), back.y - (verify.y + verify.height));
  assert.ok(gap >= 8, `room between Verify and Back: ${gap} px`);
  keepShot('sign-in-code-1280', await page.screenshot({ fullPage: true }));
  await page.context().close();
});
