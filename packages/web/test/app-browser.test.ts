// The web application in Chromium, started like a newcomer starts it: sign in with the first-run
// password; every template format (Excel, GEXF, GraphML, CSV, JSON) is downloaded from the upload dialog,
// uploaded through the page, listed, drawn in Explore (node pixels counted on the viewer) and downloaded in
// every export format, each download uploaded again through the page and compared with the original; a
// spreadsheet with problems is refused with a list naming sheet and row of each, storing nothing; a
// cross-site page's form posts change nothing and a token cannot mint a credential; every
// page passes axe-core (no serious/critical violation) and fits a 390-px phone; an API token with custom
// scopes works with exactly those scopes and stops working when revoked; two-factor authentication is
// enrolled through the page and used at the next sign-in; Discover works signed out.
// Screenshots of every page are written to NETLOOM_SCREENSHOT_DIR when it is set.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as OTPAuth from 'otpauth';
import type { Page } from 'playwright-core';
import { startWebEnv, signIn, axe, horizontalOverflow, keepShot, nodePixels, skipBrowser, type WebEnv } from './helpers/web-env.ts';
import { workbookFromRows } from '../../server/src/domain/formats/xlsx.ts';

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
  const metric = await env.api('POST', '/api/v2/metrics/nodes/totalDegree', { networkJSON: { nodes: [{ id: 1 }, { id: 2 }], edges: [{ id: 'a', source: 1, target: 2 }] } }, token);
  assert.equal(metric.status, 200, `metrics:write granted: ${JSON.stringify(metric.body)}`);
  const onStored = await env.api('POST', '/api/v2/metrics/nodes/totalDegree', { networkId: '000000000000000000000000' }, token);
  assert.equal(onStored.status, 403, 'a metric on a stored network also needs networks:write');
  assert.match(String(onStored.body.detail), /networks:write/);

  await row.getByRole('button', { name: /Revoke/ }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke this credential?' });
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await page.getByTestId('toast').filter({ hasText: 'Revoked' }).waitFor();
  await row.waitFor({ state: 'detached' });
  assert.equal((await env.api('GET', '/api/v2/networks', undefined, token)).status, 401, 'revoked token is refused');
  await page.close();
});

/** Formats of the upload dialog's templates and of the network page's downloads (ids as in the API). */
const FORMATS = ['xlsx', 'gexf', 'graphml', 'csv', 'json'] as const;
type Format = (typeof FORMATS)[number];
const FILE_EXT: Record<Format, string> = { xlsx: 'xlsx', gexf: 'gexf', graphml: 'graphml', csv: 'csv.zip', json: 'json' };

interface StoredNetwork { _id: string; name: string; isDirected: boolean; networkJSON: unknown; nodeCount?: number }

async function networkByName(name: string): Promise<StoredNetwork> {
  const list = await env.api('GET', '/api/v2/networks');
  const found = (list.body as unknown as StoredNetwork[]).filter((n) => n.name === name);
  assert.equal(found.length, 1, `exactly one network named ${name}`);
  const one = await env.api('GET', `/api/v2/networks/${found[0]._id}`);
  assert.equal(one.status, 200);
  return one.body as unknown as StoredNetwork;
}

/** Uploads a file through the networks page's dialog under the given name; resolves on the success toast. */
async function uploadThroughPage(page: Page, file: { name: string; buffer: Buffer }, name: string): Promise<void> {
  await page.goto(`${env.base}/networks`);
  await page.getByRole('heading', { level: 1, name: 'Networks' }).waitFor();
  await page.getByRole('button', { name: 'Upload network' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Upload a network' });
  await dialog.getByTestId('upload-file').setInputFiles({ name: file.name, mimeType: 'application/octet-stream', buffer: file.buffer });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await page.getByTestId('toast').filter({ hasText: `Imported “${name}”` }).waitFor({ timeout: 30_000 });
  await dialog.waitFor({ state: 'hidden' });
}

test('every template format: downloaded from the upload dialog, uploaded through the page, listed, drawn in Explore, downloaded in every export format and uploaded again equal', { skip: skipBrowser }, async () => {
  const page = await env.newPage();
  await signIn(page, env.base, env.owner.email, env.owner.password);
  const names = new Map<Format, string>();
  for (const format of FORMATS) {
    // the template, from the dialog's link (a real download)
    await page.getByRole('button', { name: 'Upload network' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Upload a network' });
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByTestId(`template-${format}`).click()]);
    assert.equal(download.suggestedFilename(), `Advice-network-template.${FILE_EXT[format]}`);
    const buffer = readFileSync(await download.path());
    await page.keyboard.press('Escape');
    const name = `Template from ${format}`;
    await uploadThroughPage(page, { name: download.suggestedFilename(), buffer }, name);
    names.set(format, name);
  }
  // each is listed with its counts
  await page.goto(`${env.base}/networks`);
  const table = page.getByTestId('networks-table');
  for (const name of names.values()) {
    const row = table.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
    assert.match(await row.innerText(), /12\s+20/, `${name} listed with 12 nodes and 20 edges`);
  }

  for (const [format, name] of names) {
    const original = await networkByName(name);
    await page.goto(`${env.base}/networks`);
    await table.getByRole('link', { name, exact: true }).click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
    assert.equal(await page.getByTestId('node-count').innerText(), '12');
    assert.equal(await page.getByTestId('edge-count').innerText(), '20');
    const networkUrl = page.url();

    // Explore: the viewer draws the network and reports its size
    await page.getByRole('link', { name: 'Explore', exact: true }).click();
    await page.getByTestId('viewer-status').filter({ hasText: '12 nodes · 20 edges' }).waitFor({ timeout: 60_000 });
    await page.getByRole('heading', { level: 1, name: `Explore: ${name}` }).waitFor();
    const frame = page.getByTestId('viewer-frame');
    let pixels = 0;
    for (let i = 0; i < 20 && pixels < 400; i++) {
      pixels = nodePixels(await frame.screenshot());
      if (pixels < 400) await page.waitForTimeout(250);
    }
    keepShot(`explore-${format}-1280`, await page.screenshot());
    assert.ok(pixels >= 400, `${format}: the viewer drew the nodes (${pixels} node-coloured pixels)`);

    // every export format, downloaded from the network page and uploaded again through the page
    await page.goto(networkUrl);
    await page.getByRole('heading', { level: 1, name }).waitFor();
    const downloads: { as: Format; file: string; buffer: Buffer }[] = [];
    for (const as of FORMATS) {
      const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId(`export-${as}`).click()]);
      assert.equal(dl.suggestedFilename(), `${name}.${FILE_EXT[as]}`, `${format} → ${as}: file name`);
      downloads.push({ as, file: dl.suggestedFilename(), buffer: readFileSync(await dl.path()) });
    }
    for (const d of downloads) {
      const again = `${name} again from ${d.as}`;
      await uploadThroughPage(page, { name: d.file, buffer: d.buffer }, again);
      const back = await networkByName(again);
      assert.deepEqual(back.networkJSON, original.networkJSON, `${format} → ${d.as} → imported: the same network`);
      assert.equal(back.isDirected, original.isDirected, `${format} → ${d.as}: directedness`);
    }
  }
  await page.close();
});

test('a spreadsheet with a duplicate Name, an edge to a missing node and text in a numeric column: the page lists each with sheet and row; nothing is stored', { skip: skipBrowser }, async () => {
  const page = await env.newPage();
  await signIn(page, env.base, env.owner.email, env.owner.password);
  const before = ((await env.api('GET', '/api/v2/networks')).body as unknown as unknown[]).length;
  const xlsx = await workbookFromRows({
    Nodes: [['Name', 'Department', 'Tenure'], ['Ana', 'Sales', 3], ['Ben', 'Eng', 5], ['Ana', 'Eng', 2], ['Cho', 'Ops', 'three'], ['Dan', 'Ops', 7]],
    Edges: [['Source', 'Target', 'Weight'], ['Ana', 'Ben', 1], ['Ben', 'Zoe', 2]],
  });
  await page.getByRole('button', { name: 'Upload network' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Upload a network' });
  await dialog.getByTestId('upload-file').setInputFiles({ name: 'people.xlsx', mimeType: 'application/octet-stream', buffer: Buffer.from(xlsx) });
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  const list = dialog.getByTestId('problem-list');
  await list.waitFor();
  const items = (await list.getByRole('listitem').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()).sort();
  assert.equal(items.length, 3, items.join('\n'));
  assert.match(items[0], /^Edges!B3 .*no node with id "Zoe"/);
  assert.match(items[1], /^Nodes!A4 .*duplicate node id "Ana" \(first at Nodes!A2\)/);
  assert.match(items[2], /^Nodes!C5 .*row 5, column "Tenure": "three" is not a number/);
  assert.match(await dialog.getByRole('alert').innerText(), /The file was not imported\s+3 problems:/);
  await checkPage(page, 'upload-problems');
  await page.keyboard.press('Escape');
  assert.equal(((await env.api('GET', '/api/v2/networks')).body as unknown as unknown[]).length, before, 'nothing stored');
  await page.close();
});

test('network page, Explore, Discover Explore and an invitation link pass axe and fit a 390-px phone', { skip: skipBrowser }, async () => {
  // a Public network, so that Discover has something to open
  const created = await env.api('POST', '/api/v2/networks', {
    name: 'Public advice', status: 'Public', isDirected: false,
    networkJSON: { nodes: [{ id: 'a', attributes: { name: 'Ana' } }, { id: 'b', attributes: { name: 'Ben' } }, { id: 'c', attributes: { name: 'Cho' } }], edges: [{ id: 1, source: 'a', target: 'b' }, { id: 2, source: 'b', target: 'c' }] },
  });
  assert.equal(created.status, 200);
  const id = String(created.body._id);
  for (const width of [1280, 390]) {
    const page = await env.newPage({ width, height: 800 });
    await signIn(page, env.base, env.owner.email, env.owner.password);
    await page.goto(`${env.base}/networks/${id}`);
    await page.getByRole('heading', { level: 1, name: 'Public advice' }).waitFor();
    await checkPage(page, 'network');
    await page.getByRole('button', { name: 'Edit details' }).click();
    await page.getByRole('dialog', { name: 'Edit details' }).waitFor();
    await checkPage(page, 'network-edit');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete this network?' }).waitFor();
    await checkPage(page, 'network-delete-confirm');
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: 'Explore', exact: true }).click();
    await page.getByTestId('viewer-status').filter({ hasText: '3 nodes · 2 edges' }).waitFor({ timeout: 60_000 });
    await checkPage(page, 'explore');
    await page.close();

    // signed out: Discover lists it and opens it read-only
    const guest = await env.newPage({ width, height: 800 });
    await guest.goto(`${env.base}/discover`);
    await guest.getByRole('link', { name: 'Explore Public advice' }).click();
    await guest.getByTestId('viewer-status').filter({ hasText: '3 nodes · 2 edges' }).waitFor({ timeout: 60_000 });
    assert.match(await guest.locator('.explore-bar').innerText(), /Read-only/);
    await checkPage(guest, 'discover-explore');
    await guest.close();
  }

  // an invitation link, as an admin creates it, opened signed out
  const admin = await env.newPage();
  await signIn(admin, env.base, env.owner.email, env.owner.password);
  const url = await admin.evaluate(async () => {
    const s = (await (await fetch('/app/api/session')).json()) as { csrfToken: string };
    const r = await fetch('/app/api/organization/invitations', { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': s.csrfToken }, body: JSON.stringify({ email: 'newcomer@example.com' }) });
    return ((await r.json()) as { url: string }).url;
  });
  await admin.close();
  for (const width of [1280, 390]) {
    const guest = await env.newPage({ width, height: 800 });
    await guest.goto(url);
    await guest.getByLabel('Your name').waitFor();
    await checkPage(guest, 'link-invite');
    await guest.close();
  }
});

test('a cross-site page cannot act for a signed-in person: its form post changes nothing; an API token cannot mint a credential', { skip: skipBrowser }, async () => {
  const page = await env.newPage();
  await signIn(page, env.base, env.owner.email, env.owner.password);
  const before = await page.evaluate(async () => ((await (await fetch('/app/api/credentials')).json()) as { credentials: unknown[] }).credentials.length);
  // another site's page (served by the test at a foreign origin: 127.0.0.1 is not the app's localhost)
  // auto-submits a form to the app, as a top-level navigation
  const evil = env.base.replace('localhost', '127.0.0.1');
  const forms = {
    password: `<form method="POST" action="${env.base}/app/api/account/password">
      <input name="currentPassword" value="${env.owner.password}"><input name="newPassword" value="hijacked-password-1"></form>`,
    credential: `<form method="POST" action="${env.base}/app/api/credentials" enctype="text/plain">
      <input name='{"name":"stolen","password":"${env.owner.password}","scopes":"full","x":"' value='"}'></form>`,
  };
  for (const [what, form] of Object.entries(forms)) {
    await page.route(`${evil}/prize-${what}`, (route) =>
      route.fulfill({ contentType: 'text/html', body: `<!doctype html><title>Win a prize</title>${form}<script>document.forms[0].submit()</script>` }),
    );
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().startsWith(`${env.base}/app/api/`) && r.request().method() === 'POST'),
      page.goto(`${evil}/prize-${what}`),
    ]);
    assert.ok(answer.status() === 401 || answer.status() === 403, `${what}: refused (${answer.status()})`);
  }
  // back on the app: still signed in, same credentials, the password unchanged
  await page.goto(`${env.base}/credentials`);
  await page.getByRole('heading', { level: 1, name: 'API credentials' }).waitFor();
  const after = await page.evaluate(async () => ((await (await fetch('/app/api/credentials')).json()) as { credentials: { name: string }[] }).credentials);
  assert.equal(after.length, before);
  assert.ok(!after.some((c) => c.name === 'stolen'));
  const wrong = await fetch(`${env.base}/app/api/session`, { method: 'POST', headers: { 'content-type': 'application/json', origin: env.base }, body: JSON.stringify({ email: env.owner.email, password: 'hijacked-password-1' }) });
  assert.equal(wrong.status, 401, 'the password was not changed');

  // the first-run token (full access) cannot create a credential: /app/api ignores Authorization
  for (const origin of [undefined, env.base]) {
    const res = await fetch(`${env.base}/app/api/credentials`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.owner.token}`, 'content-type': 'application/json', ...(origin ? { origin } : {}) },
      body: JSON.stringify({ name: 'minted', password: env.owner.password, scopes: 'full' }),
    });
    assert.ok(res.status === 401 || res.status === 403, `a token is not a session (${res.status})`);
    assert.equal(res.headers.get('set-cookie'), null);
  }
  const list = await page.evaluate(async () => ((await (await fetch('/app/api/credentials')).json()) as { credentials: { name: string }[] }).credentials);
  assert.ok(!list.some((c) => c.name === 'minted'), 'nothing minted');
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
  await page.getByLabel('Your password').fill(env.owner.password);
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
