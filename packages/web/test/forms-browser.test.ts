/**
 * The forms that carry rules, as people use them in Chromium (issue 20), against one real service:
 * - Upload: the format is named from the file before sending; a CSV edge list (only) offers a nodes file; a
 *   file of no known format and a file over the service's size limit are refused with the service's reason
 *   in the dialog and nothing stored; an accepted file's warnings are listed before the dialog closes.
 * - Token creation: nothing is sent until a name, the password and (for custom access) a scope are given; a
 *   wrong password is that form's error (the person stays signed in); the token is shown once and carries
 *   exactly the ticked scopes; only an organization's Owners and Admins may make it the organization's.
 * - Member roles: an Owner may give any role; an Admin neither changes an Owner's role (nor suspends an Owner)
 *   nor makes or invites anyone Owner; a Standard User changes no role; nobody changes their own.
 * Screenshots go to NETLOOM_SCREENSHOT_DIR when set.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, skipBrowser, startService, type Service } from '../../viewer/test/helpers/browser-env.ts';
import { PASSWORD } from '../../server/test/helpers/web.ts';
import { axe, keepShot } from './helpers/web-env.ts';

const MAX_BODY = 300_000;

interface Person {
  id: string;
  email: string;
  name: string;
}

describe('forms with rules in the browser', { skip: skipBrowser }, () => {
  let svc: Service;
  let browser: Browser;
  let owner: Person, admin: Person, standard: Person, other: Person;

  before(async () => {
    svc = await startService({ env: { NETLOOM_MAX_BODY_BYTES: String(MAX_BODY) } });
    owner = await svc.t.user({ name: 'Olive Owner' });
    admin = await svc.t.user({ name: 'Ada Admin' });
    standard = await svc.t.user({ name: 'Sam Standard' });
    other = await svc.t.user({ name: 'Otto Other' });
    await svc.t.member(svc.orgId, owner.id, 'Owner');
    await svc.t.member(svc.orgId, admin.id, 'Admin');
    await svc.t.member(svc.orgId, standard.id, 'Standard User');
    await svc.t.member(svc.orgId, other.id, 'Access-only');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
  });

  async function signedIn(p: Person, width = 1280): Promise<Page> {
    const page = await (await browser.newContext({ viewport: { width, height: 800 } })).newPage();
    page.on('pageerror', (e) => console.error('[page error]', e.message));
    await page.goto(`${svc.service}/sign-in`);
    await page.getByLabel('E-mail').fill(p.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/networks');
    return page;
  }

  async function networkNames(): Promise<string[]> {
    const r = (await svc.api('GET', '/api/v2/networks?limit=100')) as { networks?: { name: string }[] } | { name: string }[];
    const list = Array.isArray(r) ? r : (r.networks ?? []);
    return list.map((n) => n.name);
  }

  test('upload: format named before sending, nodes file only for CSV, unknown type and oversize refused with the reason, warnings listed', async () => {
    const page = await signedIn(owner);
    await page.getByRole('button', { name: 'Upload network' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Upload a network' });
    await dialog.waitFor();
    const upload = dialog.getByRole('button', { name: 'Upload', exact: true });
    assert.equal(await upload.isDisabled(), true, 'nothing to send before a file is chosen');
    const before = await networkNames();

    // JSON: named as JSON, no nodes file offered.
    await dialog.getByTestId('upload-file').setInputFiles({ name: 'team.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ nodes: [{ id: 1 }], edges: [] })) });
    await dialog.getByText('team.json', { exact: false }).waitFor();
    assert.match(await dialog.locator('.dropzone-file').first().innerText(), /team\.json · JSON ·/);
    assert.equal(await dialog.getByTestId('upload-nodes-file').count(), 0, 'a nodes file is offered only with a CSV edge list');

    // A file of no known format: named "unknown" and refused by the service with its reason; nothing stored.
    await dialog.getByTestId('upload-file').setInputFiles({ name: 'minutes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 not a network') });
    assert.match(await dialog.locator('.dropzone-file').first().innerText(), /minutes\.pdf · unknown ·/);
    await upload.click();
    const refused = dialog.getByRole('alert').filter({ hasText: 'The file was not imported' });
    await refused.waitFor();
    const reason = await refused.innerText();
    assert.ok(reason.replace('The file was not imported', '').trim().length > 10, `the service's reason is shown: ${reason}`);
    keepShot('forms-upload-unknown-1280', await page.screenshot({ fullPage: true }));

    // A CSV edge list: the label says so and a nodes file is offered.
    await dialog.getByTestId('upload-file').setInputFiles({ name: 'edges.csv', mimeType: 'text/csv', buffer: Buffer.from('Source,Target\nA,B\n') });
    assert.equal(await refused.count(), 0, 'choosing another file clears the last refusal');
    await dialog.getByText('Edges file').waitFor();
    await dialog.getByTestId('upload-nodes-file').waitFor({ state: 'attached' });

    // Over the service's size limit: refused with the limit named; nothing stored.
    const rows = ['Source,Target,note'];
    for (let i = 0; rows.join('\n').length < MAX_BODY + 50_000; i++) rows.push(`n${i},n${i + 1},${'x'.repeat(60)}`);
    await dialog.getByTestId('upload-file').setInputFiles({ name: 'huge.csv', mimeType: 'text/csv', buffer: Buffer.from(rows.join('\n')) });
    await upload.click();
    await refused.waitFor();
    assert.match(await refused.innerText(), /limit/i, 'the size limit is named');
    assert.deepEqual(await networkNames(), before, 'nothing was stored by refused uploads');

    // An accepted file with something interpreted: the warnings are listed, then Done closes.
    await dialog.getByTestId('upload-file').setInputFiles({ name: 'formulas.csv', mimeType: 'text/csv', buffer: Buffer.from("Source,Target,note\nA,B,'=1+2\nB,C,plain\n") });
    await dialog.getByLabel('Name').fill('Formula edges');
    await upload.click();
    const warnings = page.getByTestId('upload-warnings');
    await warnings.waitFor({ timeout: 30_000 });
    assert.match(await page.getByRole('dialog').getByRole('heading').first().innerText(), /Imported “Formula edges” with a warning/);
    assert.match(await warnings.innerText(), /formulas are neutralised/);
    assert.deepEqual(await axe(page), [], 'upload warnings: axe serious/critical violations');
    keepShot('forms-upload-warnings-1280', await page.screenshot({ fullPage: true }));
    await warnings.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('link', { name: 'Formula edges' }).waitFor();
    assert.deepEqual((await networkNames()).sort(), [...before, 'Formula edges'].sort());
    await page.context().close();
  });

  test('token creation: required fields and a scope before sending, a wrong password keeps you signed in, the token is shown once with exactly its scopes', async () => {
    const page = await signedIn(admin);
    await page.goto(`${svc.service}/credentials`);
    await page.getByRole('heading', { level: 1, name: 'API credentials' }).waitFor();
    await page.getByRole('button', { name: 'Create token' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create an API token' });
    const create = dialog.getByRole('button', { name: 'Create token' });
    assert.equal(await create.isDisabled(), true, 'no name, no password: nothing to send');
    await dialog.getByLabel('Name').fill('Nightly import');
    assert.equal(await create.isDisabled(), true, 'no password yet');
    await dialog.getByLabel('Your password').fill('not my password');
    assert.equal(await create.isDisabled(), false);
    await dialog.getByLabel('Custom scopes', { exact: false }).check();
    await dialog.getByTestId('scope-grid').waitFor();
    assert.equal(await create.isDisabled(), true, 'custom access with no scope ticked: nothing to send');
    await dialog.getByLabel('networks:read').check();
    await dialog.getByLabel('embed:manage', { exact: false }).check();
    assert.equal(await create.isDisabled(), false);
    // An Admin of the organization may make it the organization's.
    await dialog.getByRole('group', { name: 'Owner' }).waitFor();

    // Wrong password: the dialog says so, and the person is still signed in.
    await create.click();
    await dialog.getByRole('alert').filter({ hasText: /password/i }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/credentials', 'a wrong password is not the end of the session');
    assert.equal(await page.getByRole('button', { name: 'Sign out' }).count(), 1);

    await dialog.getByLabel('Your password').fill(PASSWORD);
    await create.click();
    const shown = page.getByTestId('new-token');
    await shown.waitFor();
    const token = (await page.getByTestId('token-value').innerText()).trim();
    assert.match(token, /^nl_/);
    keepShot('forms-token-shown-1280', await page.screenshot({ fullPage: true }));
    const call = (method: string, path: string, body?: unknown) =>
      fetch(svc.service + path, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined }).then((r) => r.status);
    assert.equal(await call('GET', '/api/v2/networks'), 200, 'networks:read was ticked');
    assert.equal(await call('POST', '/api/v2/networks', { name: 'x', networkJSON: { nodes: [], edges: [] } }), 403, 'networks:write was not');
    const row = page.getByTestId('credentials-table').locator('tr', { hasText: 'Nightly import' });
    assert.deepEqual((await row.locator('.scopes code').allInnerTexts()).sort(), ['embed:manage', 'networks:read']);

    // Shown once: after "I have stored it" and after a reload, the token is nowhere on the page.
    await shown.getByRole('button', { name: 'I have stored it' }).click();
    assert.equal(await page.getByTestId('new-token').count(), 0);
    await page.reload();
    await page.getByTestId('credentials-table').waitFor();
    assert.equal((await page.content()).includes(token), false, 'the token is not shown again');
    await page.context().close();

    // A Standard User's tokens are their own: no Owner choice.
    const std = await signedIn(standard);
    await std.goto(`${svc.service}/credentials`);
    await std.getByRole('button', { name: 'Create token' }).first().click();
    const stdDialog = std.getByRole('dialog', { name: 'Create an API token' });
    await stdDialog.getByLabel('Name').waitFor();
    assert.equal(await stdDialog.getByRole('group', { name: 'Owner' }).count(), 0, 'only Owners and Admins make organization credentials');
    await std.context().close();
  });

  test('member roles: an Owner gives any role, an Admin never Owner nor an Owner’s, a Standard User none, nobody their own', async () => {
    const roleOf = (page: Page, p: Person) => page.getByTestId(`member-${p.email}`).getByLabel(`Role of ${p.name}`);
    const optionsOf = async (page: Page, p: Person) => (await roleOf(page, p).locator('option').allInnerTexts()).sort();
    const all = ['Access-only', 'Admin', 'Owner', 'Simplified Access-only', 'Standard User'];

    // Owner: every role for every other member; not their own.
    const o = await signedIn(owner);
    await o.goto(`${svc.service}/organization`);
    await o.getByTestId('members-table').waitFor();
    assert.equal(await roleOf(o, owner).count(), 0, 'nobody changes their own role');
    assert.deepEqual(await optionsOf(o, admin), all);
    assert.deepEqual(await optionsOf(o, standard), all);
    await roleOf(o, other).selectOption('Standard User');
    await o.getByText(`${other.name} is now Standard User.`).waitFor();
    await o.getByRole('button', { name: 'Invite member' }).click();
    assert.deepEqual((await o.getByRole('dialog').getByLabel('Role').locator('option').allInnerTexts()).sort(), all);
    await o.context().close();

    // Admin: the Owner's role is not theirs to change; no one is made or invited Owner.
    const a = await signedIn(admin);
    await a.goto(`${svc.service}/organization`);
    await a.getByTestId('members-table').waitFor();
    assert.equal(await roleOf(a, owner).count(), 0, "an Admin does not change an Owner's role");
    assert.equal(await a.getByTestId(`member-${owner.email}`).locator('td[data-label="Role"]').innerText(), 'Owner');
    assert.equal(await a.getByTestId(`member-${owner.email}`).getByRole('button', { name: /Suspend/ }).count(), 0, 'only an Owner suspends an Owner');
    await a.getByTestId(`member-${standard.email}`).getByRole('button', { name: `Suspend ${standard.name}` }).waitFor();
    assert.equal(await roleOf(a, admin).count(), 0, 'nobody changes their own role');
    assert.deepEqual(await optionsOf(a, standard), all.filter((r) => r !== 'Owner'));
    assert.deepEqual(await optionsOf(a, other), all.filter((r) => r !== 'Owner'));
    await roleOf(a, other).selectOption('Access-only');
    await a.getByText(`${other.name} is now Access-only.`).waitFor();
    await a.getByRole('button', { name: 'Invite member' }).click();
    const invite = a.getByRole('dialog');
    assert.deepEqual((await invite.getByLabel('Role').locator('option').allInnerTexts()).sort(), all.filter((r) => r !== 'Owner'));
    await invite.getByText('Only an Owner makes someone Owner.').waitFor();
    assert.deepEqual(await axe(a), [], 'invite dialog: axe serious/critical violations');
    keepShot('forms-invite-admin-1280', await a.screenshot({ fullPage: true }));
    await a.context().close();

    // Standard User: the roles are shown, none can be changed, and no one can be invited.
    const s = await signedIn(standard, 390);
    await s.goto(`${svc.service}/organization`);
    await s.getByTestId('members-table').waitFor();
    assert.equal(await s.getByTestId('members-table').locator('select').count(), 0, 'a Standard User changes no role');
    assert.equal(await s.getByRole('button', { name: 'Invite member' }).count(), 0);
    keepShot('forms-members-standard-390', await s.screenshot({ fullPage: true }));
    await s.context().close();
  });
});
