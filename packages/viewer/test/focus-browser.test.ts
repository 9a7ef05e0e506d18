/**
 * Ego focus in Debian's Chromium (karate club, viewer 900 × 600), issue 23: a click on a node keeps it
 * and its neighbours in colour and fades the rest (pixel check of a faded node's colour), the details
 * card shows its degree, metric values to 4 significant digits and its neighbours as a clickable list;
 * a neighbour picked there moves the focus (`selection.changed`, no `node.clicked`); Escape and a click
 * on empty space clear it. `node.clicked` and `selection.changed` are as before.
 * NETLOOM_SCREENSHOT_DIR=/tmp/x keeps the screenshots (focus-*.png).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { events, sdk, shot, skipBrowser as skip, startBrowserEnv, viewerFrame, waitForEvent, type BrowserEnv } from './helpers/browser-env.ts';
import type { Image } from './png.ts';
import { fadeColor } from '../src/focus.ts';
import { DEFAULT_NODE_COLOR } from '../src/layers.ts';

let env: BrowserEnv;
let karate: string;

before(async () => {
  if (skip) return;
  env = await startBrowserEnv({ viewer: { width: 900, height: 600 } });
  const net = JSON.parse(readFileSync(new URL('./fixtures/karate.json', import.meta.url), 'utf8')) as { nodes: { id: string; attributes: Record<string, unknown> }[] };
  // A metric-like value with 17 significant digits on every node.
  for (const n of net.nodes) n.attributes.closeness = 1 / (3 + Number(n.id)) + 1e-12;
  karate = await env.network('Karate club', net);
  await env.user('focus-1', karate, { permission: 'Edit' });
});

after(async () => {
  await env?.close();
});

type Disc = { id: string; x: number; y: number; r: number };
const discs = (page: Page) => viewerFrame(page).evaluate(() => (window as unknown as { netloomInspect: { nodes(): Disc[] } }).netloomInspect.nodes());

function pixel(img: Image, x: number, y: number): [number, number, number] {
  const p = (Math.round(y) * img.width + Math.round(x)) * 4;
  return [img.data[p], img.data[p + 1], img.data[p + 2]];
}
function hex(c: string): [number, number, number] {
  return [1, 3, 5].map((k) => parseInt(c.slice(k, k + 2), 16)) as [number, number, number];
}
const near = (a: number[], b: number[], tol = 30) => a.reduce((s, v, k) => s + Math.abs(v - b[k]), 0) <= tol;

test('a click focuses a node: neighbours in colour, the rest faded; details with degree, rounded values, neighbour list; Escape and empty clicks clear', { skip, timeout: 120_000 }, async () => {
  const page = await env.open(await env.session('focus-1', karate));
  const f = page.frameLocator('#viewer iframe');
  await viewerFrame(page).waitForFunction(() => !(window as unknown as { netloomInspect: { layout(): { running: boolean } } }).netloomInspect.layout().running, undefined, { timeout: 60_000 });
  await page.waitForTimeout(700);
  const frameBox = await page.locator('#viewer iframe').boundingBox();
  const stageBox = await f.locator('.nl-stage').boundingBox();
  assert.ok(frameBox && stageBox);
  // Discs are in stage pixels: to the iframe's (screenshots) and the page's (clicks).
  const all = (await discs(page)).map((d) => ({ ...d, x: d.x + stageBox.x - frameBox.x, y: d.y + stageBox.y - frameBox.y }));
  const hub = all.find((d) => d.id === '0');
  assert.ok(hub);
  // Member 0's neighbours in the karate club (NetworkX): 16 of them.
  const neighbours = new Set(['1', '2', '3', '4', '5', '6', '7', '8', '10', '11', '12', '13', '17', '19', '21', '31']);
  // A non-neighbour whose disc overlaps no other disc: its centre pixel is its own colour.
  const lonely = all.find((d) => d.id !== '0' && !neighbours.has(d.id) && all.every((o) => o === d || Math.hypot(o.x - d.x, o.y - d.y) > o.r + d.r + 4));
  assert.ok(lonely, 'a free-standing non-neighbour');
  const before = await shot(page, 'focus-before');
  assert.ok(near(pixel(before, lonely.x, lonely.y), hex(DEFAULT_NODE_COLOR)), `before: ${pixel(before, lonely.x, lonely.y)}`);

  await page.mouse.click(frameBox.x + hub.x, frameBox.y + hub.y);
  const details = f.locator('.nl-details:not([hidden])');
  await details.waitFor();
  await waitForEvent(page, (e) => e.name === 'node.clicked' && e.nodeId === '0');
  await waitForEvent(page, (e) => e.name === 'selection.changed' && JSON.stringify(e.selectedNodeIds) === '["0"]');
  const focused = await shot(page, 'focus-member0');
  const faded = pixel(focused, lonely.x, lonely.y);
  assert.ok(near(faded, hex(fadeColor(DEFAULT_NODE_COLOR))), `faded node ${lonely.id}: ${faded} vs ${fadeColor(DEFAULT_NODE_COLOR)}`);
  const neighbourDisc = all.find((d) => neighbours.has(d.id) && all.every((o) => o === d || Math.hypot(o.x - d.x, o.y - d.y) > o.r + d.r + 4));
  if (neighbourDisc) assert.ok(near(pixel(focused, neighbourDisc.x, neighbourDisc.y), hex(DEFAULT_NODE_COLOR)), 'a neighbour keeps its colour');
  // The network was uploaded as directed (the service's default): in and out are shown.
  assert.equal(await details.locator('dd[data-degree]').getAttribute('data-degree'), '16');
  assert.equal(await details.locator('dd[data-degree]').innerText(), '16 (in 0, out 16)');
  const text = await details.innerText();
  assert.match(text, /closeness\s+0\.3333\b/, 'rounded to 4 significant digits');
  assert.doesNotMatch(text, /0\.33333/);
  const list = details.locator('.nl-neighbours button');
  assert.equal(await list.count(), 16);
  assert.deepEqual(new Set(await list.evaluateAll((bs) => bs.map((b) => (b as HTMLElement).dataset.nodeId))), neighbours);

  // A neighbour from the list: the focus moves; selection.changed, no node.clicked.
  const clicksBefore = (await events(page)).filter((e) => e.name === 'node.clicked').length;
  await details.locator('.nl-neighbours button[data-node-id="31"]').click();
  await waitForEvent(page, (e) => e.name === 'selection.changed' && JSON.stringify(e.selectedNodeIds) === '["31"]');
  assert.match(await details.locator('h2').innerText(), /Member 31/);
  assert.equal((await events(page)).filter((e) => e.name === 'node.clicked').length, clicksBefore);
  await shot(page, 'focus-member31');

  // Escape clears: the details card closes, colours come back.
  await page.locator('#viewer iframe').focus();
  await viewerFrame(page).locator('body').press('Escape');
  await waitForEvent(page, (e) => e.name === 'selection.changed' && JSON.stringify(e.selectedNodeIds) === '[]');
  await f.locator('.nl-details[hidden]').waitFor({ state: 'attached' });
  const cleared = await shot(page, 'focus-cleared');
  assert.ok(near(pixel(cleared, lonely.x, lonely.y), hex(DEFAULT_NODE_COLOR)), 'colour back after Escape');
  assert.deepEqual(((await sdk(page, 'state.get')).value as { selectedNodeIds: string[] }).selectedNodeIds, []);

  // A click on the node again, then on empty space: cleared too.
  await page.mouse.click(frameBox.x + hub.x, frameBox.y + hub.y);
  await details.waitFor();
  // Empty space: a stage point away from every disc, left of the details card, above the chat button.
  let empty: { x: number; y: number } | null = null;
  for (let y = stageBox.y - frameBox.y + 20; y < frameBox.height - 80 && !empty; y += 20) {
    for (let x = stageBox.x - frameBox.x + 20; x < frameBox.width - 300 && !empty; x += 20) {
      if (all.every((d) => Math.hypot(d.x - x, d.y - y) > d.r + 30)) empty = { x, y };
    }
  }
  assert.ok(empty, 'an empty spot');
  await page.waitForTimeout(500); // not a double click (sigma: two clicks within 300 ms)
  await page.mouse.click(frameBox.x + empty.x, frameBox.y + empty.y);
  await shot(page, 'focus-empty-click');
  await f.locator('.nl-details[hidden]').waitFor({ state: 'attached' });
  assert.deepEqual(((await sdk(page, 'state.get')).value as { selectedNodeIds: string[] }).selectedNodeIds, []);
  await page.close();
});
