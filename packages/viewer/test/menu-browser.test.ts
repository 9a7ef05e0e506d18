/**
 * The Explore left menu end to end in Debian's Chromium (host page on another origin, the real server
 * and embedding API; setup in helpers/browser-env.ts, viewer 900 × 600): `ui.menu` subsets and `[]`, a
 * color through the menu (drawing changes, revision bumps, state.changed),
 * templates, shapes and roll-up (layouts: layout-browser.test.ts; exports: export-browser.test.ts), and save disabled for a View-only user.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { countColor, countDifferent } from './png.ts';
import { PALETTE } from '../src/layers.ts';
import { MENU_TITLES } from '../src/menu/items.ts';
import { sdk, shot, skipBrowser as skip, browserEnvFixture, viewerFrame, type Win } from './helpers/browser-env.ts';

let networkId: string;

function network() {
  const teams = ['Sales', 'Eng', 'Ops', 'Design'];
  const nodes = Array.from({ length: 40 }, (_, i) => ({ id: `n${i}`, attributes: { name: `Person ${i}`, team: teams[i % 4], score: i } }));
  const edges = Array.from({ length: 70 }, (_, k) => ({ id: k, source: `n${k % 40}`, target: `n${(k * 7 + 3) % 40}` }));
  return { nodes, edges };
}

const env = browserEnvFixture({ viewer: { width: 900, height: 600 }, logHttpErrors: true }, async (env) => {
  networkId = await env.network('Menu network', network());
  await env.user('editor-1', networkId, { permission: 'Edit' });
  await env.user('reader-1', networkId, { permission: 'View' });
});

async function menuItems(page: Page): Promise<string[]> {
  return viewerFrame(page).evaluate(() => [...document.querySelectorAll<HTMLElement>('.nl-menu .nl-menu-item')].map((b) => b.dataset.item ?? ''));
}

async function openItem(page: Page, item: keyof typeof MENU_TITLES) {
  const f = page.frameLocator('#viewer iframe');
  await f.locator(`.nl-menu-item[data-item="${item}"]`).click();
  await f.locator(`.nl-panel[data-item="${item}"]`).waitFor();
  return f.locator('.nl-panel');
}

async function revision(page: Page): Promise<number> {
  const r = await sdk(page, 'state.get');
  return (r.value as { revision: number }).revision;
}

test('ui.menu shows only the listed items, in the viewer order; [] removes the menu but keeps network, legend and details', { skip, timeout: 90_000 }, async () => {
  const page = await env.open(await env.session('editor-1', networkId, { ui: { menu: ['settings', 'color', 'layout'] } }));
  assert.deepEqual(await menuItems(page), ['layout', 'color', 'settings']);
  await page.close();

  const full = await env.open(await env.session('editor-1', networkId));
  assert.deepEqual(await menuItems(full), Object.keys(MENU_TITLES));
  await full.close();

  const none = await env.open(await env.session('editor-1', networkId, { ui: { menu: [] } }));
  const f = viewerFrame(none);
  assert.equal(await f.evaluate(() => document.querySelector('.nl-menu') === null && document.querySelector('.nl-panel') === null), true);
  // The network is drawn, and the legend and details still work.
  assert.ok(await f.evaluate(() => document.querySelectorAll('.nl-stage canvas').length > 0));
  assert.equal((await sdk(none, 'layers.color', { attribute: 'team' })).ok, true);
  await none.frameLocator('#viewer iframe').locator('.nl-legend:not([hidden])').waitFor();
  assert.equal((await sdk(none, 'nodes.select', [{ id: 'n3' }])).ok, true);
  await none.frameLocator('#viewer iframe').locator('.nl-details:not([hidden])').waitFor();
  await none.close();
});

test('a color chosen in the menu goes through the command engine: the drawing changes, revision bumps, state.changed fires; the layer list shows it', { skip, timeout: 90_000 }, async () => {
  const page = await env.open(await env.session('editor-1', networkId));
  const before = await shot(page, 'menu');
  const rev0 = await revision(page);
  const panel = await openItem(page, 'color');
  await panel.locator('select').selectOption('team');
  await panel.locator('[data-action="apply-color"]').click();
  await page.waitForFunction((r) => (window as unknown as Win).embed.revision > r, rev0);
  const state = (await sdk(page, 'state.get')).value as { revision: number; layers: { operation: string; attribute: string }[] };
  assert.ok(state.revision > rev0);
  assert.deepEqual(state.layers.map((l) => [l.operation, l.attribute]), [['Color', 'team']]);
  const events = await page.evaluate(() => (window as unknown as Win).events.filter((e) => e.name === 'state.changed').map((e) => e.reason));
  assert.ok(events.includes('layers.color'), `state.changed reasons: ${events.join(', ')}`);
  const after = await shot(page, 'menu');
  assert.ok(countDifferent(before, after) > 200, 'the drawing changed');
  assert.ok(countColor(after, PALETTE[0]) > 20, 'palette color drawn');

  // The layer list: hide, then remove, each a revision bump.
  const layers = await openItem(page, 'layers');
  assert.match(await layers.locator('.nl-layers li').first().innerText(), /Color by team/);
  const r1 = await revision(page);
  await layers.locator('.nl-layers input[type=checkbox]').first().uncheck();
  await page.waitForFunction((r) => (window as unknown as Win).embed.revision > r, r1);
  assert.equal(((await sdk(page, 'state.get')).value as { layers: { hidden: boolean }[] }).layers[0].hidden, true);

  // Labels: a mode change is a visible change (revision), saved in the view's display settings.
  const r2 = await revision(page);
  const labels = await openItem(page, 'labels');
  await labels.locator('input[value="none"]').check();
  await page.waitForFunction((r) => (window as unknown as Win).embed.revision > r, r2);
  // Settings: background color.
  const settings = await openItem(page, 'settings');
  const r3 = await revision(page);
  await settings.locator('input[type=color]').evaluate((e: HTMLInputElement) => {
    e.value = '#102030';
    e.dispatchEvent(new Event('change'));
  });
  await page.waitForFunction((r) => (window as unknown as Win).embed.revision > r, r3);
  const dark = await shot(page, 'menu');
  assert.ok(countColor(dark, '#102030', 8) > 10_000, 'background color applied');
  await page.close();
});

test('templates, shapes and roll-up: read-only layers that change the drawing and can be undone', { skip, timeout: 90_000 }, async () => {
  const page = await env.open(await env.session('editor-1', networkId));
  const t = await openItem(page, 'templates');
  const r0 = await revision(page);
  await t.locator('[data-template="size-by-degree"]').click();
  await page.waitForFunction((r) => (window as unknown as Win).embed.revision > r + 1, r0);
  const info = (await sdk(page, 'network.info')).value as { nodeAttributes: { name: string; type: string }[] };
  assert.ok(info.nodeAttributes.some((a) => a.name === 'Degree' && a.type === 'number'), 'Degree became an attribute');
  const plain = await shot(page, 'menu');

  const s = await openItem(page, 'shapes');
  await s.locator('select').selectOption('team');
  await s.locator('[data-action="apply-shapes"]').click();
  await s.locator('li', { hasText: 'square:' }).waitFor();
  const shaped = await shot(page, 'menu');
  assert.ok(countDifferent(plain, shaped) > 50, 'shapes drawn');
  let layers = ((await sdk(page, 'state.get')).value as { layers: { operation: string; readOnly?: boolean; id: string }[] }).layers;
  const shapeLayer = layers.find((l) => l.operation === 'Shape');
  assert.equal(shapeLayer?.readOnly, true);
  const denied = await sdk(page, 'layers.remove', shapeLayer?.id);
  assert.equal(denied.code, 'NOT_PERMITTED', 'code cannot remove a read-only layer');

  const r = await openItem(page, 'rollup');
  await r.locator('select').selectOption('team');
  await r.locator('[data-action="rollup"]').click();
  await r.locator('[data-action="expand"]').waitFor();
  assert.match(await r.innerText(), /4 groups/);
  const rolled = await shot(page, 'menu');
  assert.ok(countDifferent(shaped, rolled) > 200, 'roll-up redraws');
  await r.locator('[data-action="expand"]').click();
  await r.locator('[data-action="expand"]').waitFor({ state: 'detached' });
  layers = ((await sdk(page, 'state.get')).value as { layers: { operation: string; id: string }[] }).layers;
  assert.equal(layers.some((l) => l.operation === 'Rollup'), false);
  await page.close();
});

test('save: no Save view item for a View-only user (Open view says why); an Edit user saves and the header shows the view name', { skip, timeout: 90_000 }, async () => {
  const reader = await env.open(await env.session('reader-1', networkId));
  const frame = reader.frameLocator('#viewer iframe');
  await frame.locator('.nl-menu-item[data-item="open"]').waitFor();
  assert.equal(await frame.locator('.nl-menu-item[data-item="save"]').count(), 0, 'no Save view item');
  const panel = await openItem(reader, 'open');
  assert.match(await panel.locator('[data-read-only]').innerText(), /Saving views and keeping positions need Edit access/);
  assert.equal((await sdk(reader, 'views.save', { name: 'x' })).code, 'NOT_PERMITTED');
  await reader.close();

  const editor = await env.open(await env.session('editor-1', networkId, { header: 'title' }));
  const save = await openItem(editor, 'save');
  await save.locator('[data-action="save"]:not([disabled])').waitFor();
  await save.locator('input[aria-label="View name"]').fill('Menu view');
  await save.locator('[data-action="save"]').click();
  await save.locator('.nl-note', { hasText: 'Saved' }).waitFor();
  const state = (await sdk(editor, 'state.get')).value as { viewId: string | null };
  assert.ok(state.viewId);
  const header = editor.frameLocator('#viewer iframe').locator('.nl-header');
  await header.filter({ hasText: 'Menu network — Menu view' }).waitFor();
  const open = await openItem(editor, 'open');
  await open.locator(`[data-view-id="${state.viewId}"]`).waitFor();
  await editor.close();
});
