/**
 * Labels in Debian's Chromium (viewer 900 × 600), issue 23: the default mode ("auto") labels the hubs
 * first — Les Misérables labels Valjean (degree 36) —, "Always" draws a label for every node of the
 * karate club (34), and the label size setting changes the drawing. Screenshots:
 * NETLOOM_SCREENSHOT_DIR=/tmp/x keeps them (labels-*.png).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { sdk, shot, skipBrowser as skip, startBrowserEnv, viewerFrame, type BrowserEnv } from './helpers/browser-env.ts';
import { countDifferent } from './png.ts';

let env: BrowserEnv;
let lesMis: string;
let karate: string;
const fixture = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')) as unknown;

before(async () => {
  if (skip) return;
  env = await startBrowserEnv({ viewer: { width: 900, height: 600 } });
  lesMis = await env.network('Les Misérables', fixture('les-miserables'));
  karate = await env.network('Karate club', fixture('karate'));
  await env.user('labels-1', [lesMis, karate], { permission: 'Edit' });
});

after(async () => {
  await env?.close();
});

type Inspect = { labels(): string[]; nodes(): { id: string }[]; layout(): { running: boolean } };
const drawnLabels = (page: Page) => viewerFrame(page).evaluate(() => (window as unknown as { netloomInspect: Inspect }).netloomInspect.labels());
const visibleNodes = (page: Page) => viewerFrame(page).evaluate(() => (window as unknown as { netloomInspect: Inspect }).netloomInspect.nodes().length);

async function settled(page: Page): Promise<void> {
  await viewerFrame(page).waitForFunction(() => !(window as unknown as { netloomInspect: Inspect }).netloomInspect.layout().running, undefined, { timeout: 60_000 });
  await page.waitForTimeout(700); // the camera fit after the layout
}

test('Les Misérables with default settings labels Valjean (the hub) and the other best-connected characters', { skip, timeout: 120_000 }, async () => {
  const page = await env.open(await env.session('labels-1', lesMis));
  await settled(page);
  const state = (await sdk(page, 'state.get')).value as { layers: unknown[] };
  assert.deepEqual(state.layers, []);
  await shot(page, 'labels-lesmis-auto');
  const labels = await drawnLabels(page);
  assert.ok(labels.includes('Valjean'), `Valjean labelled; drawn: ${labels.join(', ')}`);
  assert.ok(labels.length < 77, `auto mode thins the labels out (${labels.length} of 77)`);
  await page.close();
});

test('"Always" draws a label for every node of the karate club; the label size setting changes the drawing', { skip, timeout: 120_000 }, async () => {
  const page = await env.open(await env.session('labels-1', karate));
  await settled(page);
  const f = page.frameLocator('#viewer iframe');
  const auto = await shot(page, 'labels-karate-auto');
  const autoCount = (await drawnLabels(page)).length;
  await f.locator('.nl-menu-item[data-item="labels"]').click();
  await f.locator('.nl-panel[data-item="labels"] input[value="always"]').check();
  await page.waitForTimeout(300);
  assert.equal(await visibleNodes(page), 34);
  const labels = await drawnLabels(page);
  assert.equal(labels.length, 34, `every node labelled (auto drew ${autoCount}); drawn: ${labels.join(', ')}`);
  const always = await shot(page, 'labels-karate-always');
  assert.ok(autoCount < 34, `auto leaves some out at this zoom (${autoCount})`);
  assert.ok(countDifferent(auto, always) > 200, 'Always is not the same picture as Auto');
  assert.equal(((await sdk(page, 'state.get')).value as { dirty: boolean }).dirty, true);

  // Label size: 13 → 22 px redraws the labels bigger.
  const size = f.locator('.nl-panel[data-item="labels"] input[data-label-size]');
  await size.fill('22');
  await size.dispatchEvent('change');
  await page.waitForTimeout(300);
  const big = await shot(page, 'labels-karate-size22');
  assert.ok(countDifferent(always, big) > 500, 'bigger labels change the drawing');
  assert.equal((await drawnLabels(page)).length, 34);
  await page.close();
});
