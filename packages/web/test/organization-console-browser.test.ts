/**
 * The organization console as an admin uses it, in Chromium (issue 11): with embedding enabled by the
 * operator and nothing else set up, the admin — only through the web app — allows an origin, makes a
 * network embeddable, provisions a managed user, grants View, opens a session in "Try it" whose live preview
 * draws the network, revokes that session from the console (the preview reports session.expired),
 * deactivates the user (the seat counter goes down), and finds each action in the audit log with themself as
 * actor. axe-core reports no serious or critical violation on any console page. Screenshots are written to
 * NETLOOM_SCREENSHOT_DIR when set.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, skipBrowser, startService, type Service } from '../../viewer/test/helpers/browser-env.ts';
import { PASSWORD } from '../../server/test/helpers/web.ts';
import { nodePixels } from './helpers/web-env.ts';

const shotDir = process.env.NETLOOM_SCREENSHOT_DIR;
async function snap(page: Page, name: string): Promise<void> {
  if (shotDir) writeFileSync(join(shotDir, `console-${name}.png`), await page.screenshot({ fullPage: true }));
}

async function seats(page: Page): Promise<string> {
  return (await page.getByTestId('seats').textContent())?.trim() ?? '';
}

describe('organization console in the browser', { skip: skipBrowser }, () => {
  let svc: Service;
  let browser: Browser;
  let page: Page;
  let admin: { id: string; email: string };
  let networkId: string;

  before(async () => {
    svc = await startService({ env: { NETLOOM_EMBED_STATUS_CHECK_MS: '1000' } });
    const nodes = Array.from({ length: 12 }, (_, i) => ({ id: `n${i}`, attributes: { name: `Person ${i}`, team: i % 3 === 0 ? 'Sales' : i % 3 === 1 ? 'Ops' : 'R&D' } }));
    const edges = nodes.slice(1).map((n, i) => ({ id: `e${i}`, source: nodes[i].id, target: n.id }));
    networkId = await svc.network('Advice network', { nodes, edges });
    await svc.network('Other network', { nodes: [{ id: 1 }, { id: 2 }], edges: [] });
    admin = await svc.t.user({ name: 'Ada Admin' });
    await svc.t.member(svc.orgId, admin.id, 'Admin');
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(`${svc.service}/sign-in`);
    await page.getByLabel('E-mail').fill(admin.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/sign-in'));
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
  });

  test('set up embedding, try a session, revoke it, deactivate the user — all from the console, all audited', async () => {
    await page.getByRole('link', { name: 'Organization' }).first().click();
    await page.getByRole('heading', { level: 1 }).filter({ hasText: /Org/ }).waitFor();
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Embedding' }).click();
    await page.getByRole('heading', { name: 'Allowed host origins' }).waitFor();
    const seatsBefore = await seats(page);

    // An origin with a path is refused as it is added (the service's own rule), with the reason; nothing joins the list.
    await page.getByLabel('Add an origin').fill('https://bad.example.com/path');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const refused = page.locator('.field-error', { hasText: 'paths are not accepted' });
    await refused.waitFor();
    assert.match(await refused.innerText(), /https:\/\/bad\.example\.com\/path paths are not accepted/);
    assert.equal(await page.locator('[data-testid=origins] li').count(), 0, 'the invalid origin is not in the list');
    await snap(page, 'origin-refused');
    await page.getByLabel('Add an origin').fill(svc.service);
    await page.getByRole('button', { name: 'Save origins' }).click();
    await page.getByText('Allowed origins saved').waitFor();
    assert.deepEqual((await svc.api('GET', '/api/v2/embed/settings')).allowedOrigins, [svc.service]);

    // Only the chosen network is embeddable.
    // (Checkboxes show the server's state: a click saves, the box follows the answer.)
    await page.getByLabel('All owned networks', { exact: false }).click();
    await page.getByText('Only the chosen networks are embeddable').waitFor();
    await page.getByLabel('embeddable: Advice network').click();
    await page.getByTestId('embeddable-networks').getByText('Yes', { exact: false }).waitFor();
    await page.getByLabel('I acknowledge this for the organization', { exact: false }).click();
    await page.getByText('acknowledged', { exact: false }).waitFor();
    const settings = await svc.api('GET', '/api/v2/embed/settings');
    assert.deepEqual([settings.allOwnedNetworks, settings.embeddableNetworkIds, settings.dataDisclosureAccepted], [false, [networkId], true]);

    // Provision a managed user and grant View.
    await page.getByRole('button', { name: 'New managed user' }).click();
    // chat defaults to Full, as the API; the dialog's buttons stand apart
    assert.equal(await page.getByRole('dialog').getByLabel('AI chat').inputValue(), 'full');
    const cancelBox = await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).boundingBox();
    const createBox = await page.getByRole('dialog').getByRole('button', { name: 'Create', exact: true }).boundingBox();
    assert.ok(cancelBox && createBox && createBox.x - (cancelBox.x + cancelBox.width) >= 8, `gap between Cancel and Create: ${createBox && cancelBox ? createBox.x - (cancelBox.x + cancelBox.width) : '?'} px`);
    await snap(page, 'new-managed-user');
    await page.getByLabel('External id').fill('cust-42');
    await page.getByLabel('Display name').fill('Casey Customer');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByTestId('managed-cust-42').waitFor();
    await page.waitForFunction((before) => document.querySelector('[data-testid=seats]')?.textContent?.trim() !== before, seatsBefore);
    const seatsWithUser = await seats(page);
    assert.notEqual(seatsWithUser, seatsBefore);
    await page.getByTestId('managed-cust-42').getByRole('button', { name: 'Grant network' }).click();
    await page.getByLabel('Network', { exact: true }).selectOption({ label: 'Advice network' });
    await page.getByLabel('Permission').selectOption('View');
    await page.getByRole('button', { name: 'Grant', exact: true }).click();
    await page.getByTestId('managed-cust-42').getByText('Advice network').waitFor();
    await snap(page, 'embedding');

    // Try it: a session for our own origin, drawn in the live preview.
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Try it' }).click();
    await page.getByRole('button', { name: 'Create session' }).click();
    await page.getByTestId('snippet-backend').waitFor();
    assert.match((await page.getByTestId('snippet-backend').textContent()) ?? '', new RegExp(`networks/${networkId}`));
    await page.getByTestId('preview-events').filter({ hasText: 'drawn' }).waitFor({ timeout: 60_000 });
    await page.waitForTimeout(500);
    const previewPng = await page.getByTestId('preview').locator('iframe').screenshot();
    if (shotDir) writeFileSync(join(shotDir, 'console-preview.png'), previewPng);
    const drawn = nodePixels(previewPng);
    assert.ok(drawn > 300, `the preview draws the network's node discs (${drawn} node pixels)`);
    await snap(page, 'try-it');

    // Revoke from the console (a second tab, as another admin would); the preview reports session.expired.
    const sessionId = (await page.getByTestId('try-session-id').textContent())?.trim() ?? '';
    const console2 = await page.context().newPage();
    await console2.goto(`${svc.service}/organization/embedding`);
    await console2.getByTestId(`session-${sessionId}`).waitFor();
    await console2.getByRole('button', { name: 'Revoke the session of Casey Customer' }).click();
    await console2.getByRole('button', { name: 'Revoke session' }).click();
    await console2.getByText('Session revoked').waitFor();
    await page.getByTestId('preview-events').filter({ hasText: 'session.expired' }).waitFor({ timeout: 20_000 });

    // Deactivate: the seat is freed and the user's sessions end.
    await svc.api('POST', '/api/v2/embed/sessions', { externalId: 'cust-42', networkIds: [networkId], origin: svc.service });
    await console2.reload();
    await console2.getByTestId('live-sessions').waitFor();
    await console2.getByRole('button', { name: 'Deactivate Casey Customer' }).click();
    await console2.getByRole('button', { name: 'Deactivate', exact: true }).click();
    await console2.waitForFunction((w) => document.querySelector('[data-testid=seats]')?.textContent?.trim() !== w, seatsWithUser);
    assert.equal(await seats(console2), seatsBefore);
    await console2.getByText('No session is open right now.').waitFor();

    // The audit log names the admin as the actor of each console action.
    await console2.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Audit log' }).click();
    await console2.getByLabel('Actor id').fill(admin.id);
    await console2.getByRole('button', { name: 'Filter' }).click();
    const table = console2.getByTestId('audit-table');
    await table.waitFor();
    for (const action of ['settings.update', 'user.create', 'session.create', 'session.revoke', 'user.deactivate']) {
      await table.getByText(action, { exact: true }).first().waitFor();
    }
    await snap(console2, 'audit');
    await console2.close();
  });

  test('pending invitations: invite, listed as pending, Revoke; the audit log names who acted with readable details (issue 23)', async () => {
    await page.goto(`${svc.service}/organization`);
    await page.getByRole('button', { name: 'Invite member' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('E-mail').fill('grace@example.org');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    await dialog.getByRole('button', { name: /Done|Close/ }).first().click();
    const pending = page.getByTestId('pending-invitations');
    const row = pending.locator('tr[data-invitation="grace@example.org"]');
    await row.waitFor();
    assert.match(await row.innerText(), /Standard User[\s\S]*Ada Admin/);
    await snap(page, 'pending-invitations');
    await row.getByRole('button', { name: 'Revoke the invitation of grace@example.org' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke', exact: true }).click();
    await row.waitFor({ state: 'detached' });
    await pending.getByText('No invitation is waiting to be accepted.').waitFor();

    await page.goto(`${svc.service}/organization/audit`);
    await page.getByLabel('Kind of event').selectOption('invitation.');
    await page.getByLabel('Who acted').selectOption('user');
    await page.getByRole('button', { name: 'Filter' }).click();
    const table = page.getByTestId('audit-table');
    for (const action of ['invitation.create', 'invitation.revoke']) {
      const entry = table.locator(`tr[data-action="${action}"]`).first();
      await entry.waitFor();
      const actor = await entry.locator('td[data-label="Actor"]').innerText();
      assert.match(actor, new RegExp(`Ada Admin <${admin.email.replace('.', '\\.')}> \\(person\\)`), actor);
      const details = await entry.locator('td[data-label="Details"]').innerText();
      assert.match(details, /Role\s+Standard User/, details);
      assert.equal(details.includes('{'), false, `details are not raw JSON: ${details}`);
    }
    assert.equal(await table.locator('tr[data-action]:not([data-action^="invitation."])').count(), 0, 'only invitation events');
    await snap(page, 'audit-readable');
  });

  test('axe-core: no serious or critical violation on any console page', async () => {
    for (const path of ['/organization', '/organization/embedding', '/organization/try', '/organization/audit']) {
      await page.goto(svc.service + path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      const r = await new AxeBuilder({ page }).analyze();
      const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(bad.map((v) => `${path}: ${v.id} (${v.nodes.length}) ${v.help}`), []);
    }
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(svc.service + '/organization/embedding');
    await page.getByRole('heading', { name: 'Allowed host origins' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 1, `no horizontal scrolling at 390 px (overflow ${overflow} px)`);
    await snap(page, 'phone');
  });
});
