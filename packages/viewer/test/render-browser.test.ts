/**
 * How the viewer draws, in Debian's Chromium (software WebGL: SwiftShader), end to end through the real
 * service (helpers/browser-env.ts): which programs and move-time shortcuts it chooses by network size
 * (render-profile.ts), that the point/line programs draw the network and a color layer changes the
 * drawing, and that camera moves, selections and other changes that draw nothing new cost no full sigma
 * refresh (each one re-processes every node and edge: seconds at 100k nodes / 500k edges) — nor does the
 * end of a drag pan, where sigma itself would — while layers do.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Frame, Page } from 'playwright-core';
import { sdk, shot, skipBrowser as skip, startBrowserEnv, viewerFrame, type BrowserEnv, type Win } from './helpers/browser-env.ts';
import { countDifferent, countNonBackground } from './png.ts';

/** n nodes in 4 teams around 4 centres, m edges mostly inside a team; directed. */
function network(n: number, m: number) {
  const teams = ['Sales', 'Eng', 'Ops', 'Design'];
  const centres = [[0, 0], [100, 0], [0, 100], [100, 100]];
  const nodes = Array.from({ length: n }, (_, i) => {
    const [cx, cy] = centres[i % 4];
    const a = (i * 2.399963) % (2 * Math.PI);
    const r = 30 * Math.sqrt(((i * 7919) % n) / n);
    return { id: `n${i}`, x: cx + r * Math.cos(a), y: cy + r * Math.sin(a), attributes: { name: `Person ${i}`, team: teams[i % 4] } };
  });
  const edges = Array.from({ length: m }, (_, k) => ({ id: k, source: `n${k % n}`, target: `n${(k % n + 4 * (1 + (k % 13))) % n}` }));
  return { nodes, edges };
}

let env: BrowserEnv;
const networkIds: string[] = [];

before(async () => {
  if (skip) return;
  env = await startBrowserEnv();
  networkIds.push(await env.network('Small', network(40, 60)), await env.network('Mid-size', network(3_000, 22_000)));
  await env.user('viewer-1', networkIds, { permission: 'Edit' });
});

after(async () => {
  await env?.close();
});

async function embedded(networkIndex: number): Promise<{ page: Page; frame: Frame }> {
  const page = await env.open(await env.session('viewer-1', networkIds[networkIndex]));
  return { page, frame: viewerFrame(page) };
}

const renderProfile = (frame: Frame) => frame.evaluate(() => (performance.getEntriesByName('netloom:render-profile')[0] as PerformanceMark).detail);
const fullRefreshes = (frame: Frame) => frame.evaluate(() => performance.getEntriesByName('netloom:full-refresh').length);

test('a small network keeps the antialiased programs; camera moves and selections cost no full refresh, layers do', { skip, timeout: 60_000 }, async () => {
  const { page, frame } = await embedded(0);
  assert.deepEqual(await renderProfile(frame), { software: true, fastPrograms: false, hideEdgesOnMove: false, hideLabelsOnMove: false });
  assert.equal(await fullRefreshes(frame), 0, 'the load draws once, in sigma\'s constructor');
  const before = await shot(page, 'render-small');
  assert.ok(countNonBackground(before) > 500, 'the network is drawn');

  const r0 = (await sdk(page, 'state.get')).value as { revision: number };
  for (const [cmd, args] of [['nodes.focus', { id: 'n3' }], ['camera.fit', undefined], ['nodes.select', [{ id: 'n5' }, { id: 'n6' }]], ['nodes.clearSelection', undefined], ['nodes.focus', { label: 'Person 7' }]] as const) {
    const out = await sdk(page, cmd, args);
    assert.ok(out.ok, `${cmd}: ${JSON.stringify(out)}`);
  }
  // The user's own zoom (sigma's camera; the viewer's camera handler records it as a visible change).
  const box = (await page.locator('#viewer iframe').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -240);
  await page.waitForFunction(() => (window as unknown as Win).events.some((e) => e.reason === 'viewer.camera'), undefined, { timeout: 5_000 });
  assert.equal(await fullRefreshes(frame), 0, 'camera moves and selection changes re-process no node or edge');
  const r1 = (await sdk(page, 'state.get')).value as { revision: number; selectedNodeIds: string[] };
  assert.ok(r1.revision > r0.revision, 'they still bump the revision');
  assert.deepEqual(r1.selectedNodeIds, ['n7']);
  // The selection is drawn (details panel, highlighted node) without a full refresh.
  assert.equal(await frame.locator('.nl-details h2').textContent(), 'Person 7');

  assert.ok((await sdk(page, 'layers.color', { attribute: 'team' })).ok);
  assert.equal(await fullRefreshes(frame), 1, 'a layer re-processes the drawing once');
  await page.close();
});

test('software WebGL, 25k nodes + edges: points and lines, edges hidden while moving; the drawing and a color layer show', { skip, timeout: 90_000 }, async () => {
  const { page, frame } = await embedded(1);
  assert.deepEqual(await renderProfile(frame), { software: true, fastPrograms: true, hideEdgesOnMove: true, hideLabelsOnMove: false });
  const plain = await shot(page, 'render-mid');
  assert.ok(countNonBackground(plain) > 5_000, 'nodes and edges are drawn with the point and line programs');
  assert.ok((await sdk(page, 'camera.fit')).ok);
  assert.ok((await sdk(page, 'nodes.focus', { id: 'n10' }, { zoom: 0.3 })).ok);
  assert.equal(await fullRefreshes(frame), 0);
  // A drag pan (mouse events on sigma's mouse layer): sigma re-draws the edges when it ends — a render,
  // not its full refresh (display.ts).
  const camBefore = await frame.evaluate(() => performance.getEntriesByName('netloom:drag-end-render').length);
  await frame.evaluate(async () => {
    const c = document.querySelector('.sigma-mouse') as HTMLElement;
    const r = c.getBoundingClientRect();
    const at = (type: string, x: number) => c.dispatchEvent(new MouseEvent(type, { clientX: r.left + x, clientY: r.top + 300, bubbles: true, button: 0, buttons: 1 }));
    at('mousedown', 300);
    for (let i = 1; i <= 8; i++) {
      at('mousemove', 300 + 15 * i);
      await new Promise((res) => requestAnimationFrame(res));
    }
    at('mouseup', 420);
  });
  await frame.waitForFunction((n) => performance.getEntriesByName('netloom:drag-end-render').length > n, camBefore, { timeout: 5_000 });
  await page.waitForFunction(() => (window as unknown as Win).events.some((e) => e.reason === 'viewer.camera'), undefined, { timeout: 5_000 });
  assert.equal(await fullRefreshes(frame), 0, 'the end of a drag re-processes nothing');
  assert.ok((await sdk(page, 'camera.fit')).ok);
  const fitted = await shot(page, 'render-mid');
  assert.ok((await sdk(page, 'layers.color', { attribute: 'team' })).ok);
  const colored = await shot(page, 'render-mid');
  assert.ok(countDifferent(fitted, colored) > 2_000, 'the color layer changes the drawing');
  await page.close();
});
