// The web application in Chromium, started like a newcomer starts it: sign in with the first-run
// password, every page passes axe-core (no serious/critical violation) and fits a 390-px phone, an API
// token with custom scopes works with exactly those scopes and stops working when revoked, two-factor
// authentication is enrolled through the page and used at the next sign-in, Discover works signed out.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as OTPAuth from 'otpauth';
import type { Page } from 'playwright-core';
import { startWebEnv, signIn, axe, horizontalOverflow, keepShot, skipBrowser, type WebEnv } from './helpers/web-env.ts';

let env: WebEnv;
before(async () => {
  if (!skipBrowser) env = await startWebEnv();
});
after(async () => {
  await env?.close();
});

async function checkPage(page: Page, name: string): Promise<void> {
  await page.locator('.loading').first().waitFor({ state: 'detached', timeout: 15_000 }).catch(() => undefined);
  const size = page.viewportSize();
  // axe at desktop width (the DOM is the same at 390 px; the phone check is about layout)
  if (!size || size.width > 400) assert.deepEqual(await axe(page), [], `${name}: axe serious/critical violations`);
  if (size && size.width <= 400) {
    const o = await horizontalOverflow(page);
    assert.equal(o.scrollWidth, o.viewport, `${name} at ${size.width} px: page scrolls sideways; offenders ${o.offenders.join(', ')}`);
    assert.deepEqual(o.offenders, [], `${name} at ${size.width} px: elements stick out`);
  }
  keepShot(`${name}-${size?.width}`, await page.screenshot({ fullPage: true }));
}

test('signed out: sign-in, Discover, an expired link, docs and unknown pages pass axe at 1280 and 390 px', { skip: skipBrowser }, async () => {
  for (const width of [1280, 390]) {
    const page = await env.newPage({ width, height: 800 });
    await page.goto(`${env.base}/`);
    await page.waitForURL(/\/sign-in$/);
    await page.getByRole('heading', { name: 'Sign in to Netloom' }).waitFor();
    await checkPage(page, 'sign-in');
    await page.goto(`${env.base}/discover`);
    await page.getByRole('heading', { level: 1, name: 'Discover' }).waitFor();
    await checkPage(page, 'discover-signed-out');
    await page.goto(`${env.base}/link/not-a-real-token`);
    await page.getByRole('heading', { name: 'This link no longer works' }).waitFor();
    await checkPage(page, 'link-expired');
    await page.goto(`${env.base}/networks`);
    await page.waitForURL(/\/sign-in\?next=%2Fnetworks$/);
    await page.goto(`${env.base}/docs/`);
    await page.getByRole('heading', { level: 1, name: 'Netloom documentation' }).waitFor();
    await checkPage(page, 'docs-index');
    await page.goto(`${env.base}/docs/embedding`);
    await checkPage(page, 'docs-embedding');
    assert.ok((await page.locator('pre code.hljs .hljs-keyword').count()) > 0, 'code blocks are highlighted');
    await page.close();
  }
});

test('a wrong password is refused with a message; the first-run password signs in', { skip: skipBrowser }, async () => {
  const page = await env.newPage();
  await page.goto(`${env.base}/sign-in`);
  await page.getByLabel('E-mail').fill(env.owner.email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).last().click();
  await page.getByRole('alert').filter({ hasText: /./ }).first().waitFor();
  assert.match(await page.locator('.notice-error').innerText(), /password|credentials/i);
  await signIn(page, env.base, env.owner.email, env.owner.password);
  assert.match(await page.locator('.nav-email').innerText(), new RegExp(env.owner.email.replace('.', '\\.')));
  const cookies = await page.context().cookies();
  const session = cookies.find((c) => c.name === 'nl_session');
  assert.ok(session && session.httpOnly && session.sameSite === 'Lax', 'session cookie is HttpOnly and SameSite=Lax');
  await page.close();
});

test('signed in: every page passes axe and fits a 390-px phone', { skip: skipBrowser }, async () => {
  for (const width of [1280, 390]) {
    const page = await env.newPage({ width, height: 800 });
    await signIn(page, env.base, env.owner.email, env.owner.password);
    await checkPage(page, 'networks');
    await page.getByRole('button', { name: 'Upload network' }).first().click();
    await page.getByRole('dialog', { name: 'Upload a network' }).waitFor();
    await checkPage(page, 'upload-dialog');
    await page.keyboard.press('Escape');
    await page.goto(`${env.base}/credentials`);
    await page.getByRole('heading', { level: 1, name: 'API credentials' }).waitFor();
    await checkPage(page, 'credentials');
    await page.getByRole('button', { name: 'Create token' }).first().click();
    await page.getByRole('dialog', { name: 'Create an API token' }).waitFor();
    await page.getByLabel('Custom scopes').check();
    await page.getByTestId('scope-grid').waitFor();
    await checkPage(page, 'credentials-create');
    await page.keyboard.press('Escape');
    await page.goto(`${env.base}/account`);
    await page.getByRole('heading', { name: 'Active sessions' }).waitFor();
    await checkPage(page, 'account');
    await page.goto(`${env.base}/discover`);
    await checkPage(page, 'discover');
    await page.goto(`${env.base}/no-such-page-here`).catch(() => undefined);
    await page.close();
  }
});

test('a custom-scope token works with exactly its scopes and is 401 after it is revoked', { skip: skipBrowser }, async () => {
  const page = await env.newPage();
  await signIn(page, env.base, env.owner.email, env.owner.password);
  await page.goto(`${env.base}/credentials`);
  await page.getByRole('button', { name: 'Create token' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create an API token' });
  await dialog.getByLabel('Name').fill('read-only script');
  await dialog.getByLabel('Custom scopes').check();
  await dialog.getByLabel('networks:read').check();
  await dialog.getByLabel('metrics:write').check();
  await dialog.getByLabel('Your password').fill(env.owner.password);
  await dialog.getByRole('button', { name: 'Create token' }).click();
  const token = (await page.getByTestId('token-value').innerText()).trim();
  assert.match(token, /^nl_/);
  assert.match(await page.getByTestId('new-token').innerText(), /only time the token is shown/);
  // listed with its prefix and scopes
  const row = page.getByTestId('credentials-table').getByRole('row').filter({ hasText: 'read-only script' });
  assert.match(await row.innerText(), /networks:read[\s\S]*metrics:write|metrics:write[\s\S]*networks:read/);
  assert.ok((await row.innerText()).includes(token.slice(0, 8)), 'prefix shown');

  assert.equal((await env.api('GET', '/api/v2/networks', undefined, token)).status, 200, 'networks:read granted');
  const write = await env.api('POST', '/api/v2/networks', { name: 'x', networkJSON: { nodes: [], edges: [] } }, token);
  assert.equal(write.status, 403, 'networks:write not granted');
  assert.equal(write.body.code, 'INSUFFICIENT_SCOPE');
  assert.equal((await env.api('GET', '/api/v2/embed/settings', undefined, token)).status, 403, 'embed:manage not granted');

  await row.getByRole('button', { name: /Revoke/ }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke this credential?' });
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await page.getByTestId('toast').filter({ hasText: 'Revoked' }).waitFor();
  await row.waitFor({ state: 'detached' });
  assert.equal((await env.api('GET', '/api/v2/networks', undefined, token)).status, 401, 'revoked token is refused');
  await page.close();
});

test('two-factor authentication: enrolled through the page (QR and secret), then a recovery code signs in', { skip: skipBrowser }, async () => {
  const page = await env.newPage();
  await signIn(page, env.base, env.owner.email, env.owner.password);
  await page.goto(`${env.base}/account`);
  await page.getByRole('link', { name: 'Set up' }).click();
  await page.waitForURL(/\/account\/mfa$/);
  await page.getByTestId('mfa-qr').waitFor();
  await checkPage(page, 'mfa-enrol');
  const secret = (await page.getByTestId('mfa-secret').innerText()).replace(/\s/g, '');
  const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate();
  await page.getByLabel('Code from the app').fill(code);
  await page.getByRole('button', { name: 'Turn on' }).click();
  const codes = (await page.getByTestId('recovery-codes').innerText()).split('\n').map((s) => s.trim()).filter(Boolean);
  assert.equal(codes.length, 10);
  await checkPage(page, 'mfa-recovery-codes');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(/\/account$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in to Netloom' }).waitFor();
  assert.match(page.url(), /\/sign-in/);

  await page.getByLabel('E-mail').fill(env.owner.email);
  await page.getByLabel('Password').fill(env.owner.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).last().click();
  await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
  await checkPage(page, 'sign-in-mfa');
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(codes[0]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('heading', { level: 1, name: /Networks|Account/ }).waitFor();
  assert.match(page.url(), /\/(networks|account)$/);
  // a recovery code works once
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in to Netloom' }).waitFor();
  await page.getByLabel('E-mail').fill(env.owner.email);
  await page.getByLabel('Password').fill(env.owner.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).last().click();
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(codes[0]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.locator('.notice-error').waitFor();
  assert.match(page.url(), /\/sign-in/);
  await page.close();
});
