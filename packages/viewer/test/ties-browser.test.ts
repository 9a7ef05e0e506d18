/**
 * Ties in Debian's Chromium (Les Misérables, edges weighted 1–31; viewer 900 × 600), issue 23: the
 * Filter panel on "Ties (edges)" keeps `weight ≥ 3` (107 of 254 edges drawn; `state.get()` and the
 * legend say so), the Color and Size panels style ties by weight (legend rows), and a saved view with
 * the edge layers reopens the same. NETLOOM_SCREENSHOT_DIR=/tmp/x keeps the screenshots (ties-*.png).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { sdk, shot, skipBrowser as skip, startBrowserEnv, viewerFrame, type BrowserEnv } from './helpers/browser-env.ts';
import { countDifferent } from './png.ts';

let env: BrowserEnv;
let lesMis: string;

before(async () => {
  if (skip) return;
  env = await startBrowserEnv({ viewer: { width: 900, height: 600 } });
  lesMis = await env.network('Les Misérables', JSON.parse(readFileSync(new URL('./fixtures/les-miserables.json', import.meta.url), 'utf8')));
  await env.user('ties-1', lesMis, { permission: 'Edit' });
});

after(async () => {
  await env?.close();
});

type State = { visibleNodeCount: number; visibleEdgeCount: number; layers: { appliedTo?: string; operation: string; attribute: string; min?: number; max?: number }[]; viewId: string | null };
const state = async (page: Page) => (await sdk(page, 'state.get')).value as State;
const drawnEdges = (page: Page) => viewerFrame(page).evaluate(() => (window as unknown as { netloomInspect: { edges(): unknown[] } }).netloomInspect.edges().length);

test('ties: filter weight ≥ 3 hides the weaker ties; colour and thickness by weight; legend; a saved view reopens the same', { skip, timeout: 180_000 }, async () => {
  const page = await env.open(await env.session('ties-1', lesMis));
  const f = page.frameLocator('#viewer iframe');
  await viewerFrame(page).waitForFunction(() => !(window as unknown as { netloomInspect: { layout(): { running: boolean } } }).netloomInspect.layout().running, undefined, { timeout: 60_000 });
  assert.equal((await state(page)).visibleEdgeCount, 254);
  const before = await shot(page, 'ties-before');

  // Filter panel → Apply to: Ties → weight, from 3.
  await f.locator('.nl-menu-item[data-item="filter"]').click();
  const panel = f.locator('.nl-panel[data-item="filter"]');
  await panel.locator('select[aria-label="Apply to"]').selectOption('edges');
  assert.equal(await panel.locator('select[aria-label="Attribute"]').inputValue(), 'weight');
  await panel.locator('input[aria-label="Minimum"]').fill('3');
  await panel.locator('input[aria-label="Minimum"]').dispatchEvent('change');
  assert.match(await panel.locator('[data-filter-count]').innerText(), /^107 of 254 edges/);
  await panel.locator('[data-action="apply-filter"]').click();
  await page.waitForTimeout(400);
  let st = await state(page);
  assert.deepEqual(st.layers.map((l) => [l.operation, l.appliedTo, l.attribute, l.min, l.max]), [['Filter', 'edges', 'weight', 3, 31]]);
  assert.equal(st.visibleEdgeCount, 107);
  assert.equal(st.visibleNodeCount, 77, 'an edge filter hides no node');
  assert.equal(await drawnEdges(page), 107);
  const legend = f.locator('.nl-legend:not([hidden])');
  assert.match(await legend.innerText(), /ties by weight 3 – 31/);
  assert.match(await legend.innerText(), /77 of 77 nodes, 107 of 254 edges shown/);
  const filtered = await shot(page, 'ties-filtered');
  assert.ok(countDifferent(before, filtered) > 300, 'fewer edges drawn');

  // Colour and thickness by weight (the SDK, as a host would).
  assert.equal((await sdk(page, 'layers.color', { attribute: 'weight', appliedTo: 'edges' })).ok, true);
  assert.equal((await sdk(page, 'layers.size', { attribute: 'weight', appliedTo: 'edges' })).ok, true);
  const bad = await sdk(page, 'layers.color', { attribute: 'weight', appliedTo: 'links' });
  assert.equal(bad.code, 'INVALID_ARGS');
  await f.locator('.nl-panel-close').click();
  await page.waitForTimeout(300);
  assert.match(await legend.locator('[data-legend="edge"]').innerText(), /Ties: weight\s+3\s+31/i);
  assert.match(await legend.locator('[data-legend="edge-size"]').innerText(), /thin 1 → thick 31/i);
  const styled = await shot(page, 'ties-styled');
  assert.ok(countDifferent(filtered, styled) > 300, 'ties coloured and thicker');

  // Saved view with the edge layers; clear; reopen: the same layers, counts and drawing.
  const saved = await sdk(page, 'views.save', { name: 'Strong ties' });
  assert.equal(saved.ok, true, JSON.stringify(saved));
  const viewId = (saved.value as { id: string }).id;
  const layersSaved = (await state(page)).layers;
  await sdk(page, 'layers.clear');
  assert.equal((await state(page)).visibleEdgeCount, 254);
  const opened = await sdk(page, 'views.open', viewId);
  assert.equal(opened.ok, true, JSON.stringify(opened));
  st = await state(page);
  assert.deepEqual(st.layers, layersSaved);
  assert.equal(st.visibleEdgeCount, 107);
  assert.equal(await drawnEdges(page), 107);
  const reopened = await shot(page, 'ties-reopened');
  assert.ok(countDifferent(styled, reopened) < 200, `the same drawing (${countDifferent(styled, reopened)} pixels differ)`);
  await page.close();
});
