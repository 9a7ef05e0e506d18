/**
 * The first camera in Debian's Chromium on a 390-px-wide host page (viewer 370 × 700; issue 12): no node
 * disc lies under the Explore menu (real bounding boxes: the menu's box against every disc on the canvas),
 * and the labels of the rightmost nodes — about 75 px long, wider than sigma's own 30-px stage padding —
 * are drawn whole inside the stage (no dark pixel in the strip along its right edge, and the
 * label pixels right of the rightmost disc end before it). Screenshots go to packages/viewer/test-output/.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { skipBrowser as skip, startBrowserEnv, viewerFrame, type BrowserEnv } from './helpers/browser-env.ts';
import { decodePng, type Image } from './png.ts';
import type { Inspect } from '../src/inspect.ts';

const OUT = new URL('../test-output/', import.meta.url);
let env: BrowserEnv;
let networkId: string;

/** 8 × 5 grid with stored positions; the rightmost column has long labels. */
function grid() {
  const nodes: { id: string; x: number; y: number; attributes: { name: string } }[] = [];
  const edges: { id: number; source: string; target: string }[] = [];
  for (let c = 0; c < 8; c++) for (let r = 0; r < 5; r++) {
    nodes.push({ id: `${c}-${r}`, x: c * 10, y: r * 10, attributes: { name: c === 7 ? `Long label ${r}` : `N${c}${r}` } });
    if (c > 0) edges.push({ id: edges.length, source: `${c - 1}-${r}`, target: `${c}-${r}` });
    if (r > 0) edges.push({ id: edges.length, source: `${c}-${r - 1}`, target: `${c}-${r}` });
  }
  return { nodes, edges };
}

before(async () => {
  if (skip) return;
  mkdirSync(OUT, { recursive: true });
  env = await startBrowserEnv({ viewer: { width: 370, height: 700 } });
  networkId = await env.network('Grid with long labels', grid());
  await env.user('fit-reader', networkId, { permission: 'View' });
});

after(async () => {
  await env?.close();
});

interface Boxes { menu: { left: number; right: number }; stage: { left: number; right: number; top: number; bottom: number }; discs: { id: string; left: number; right: number }[]; ask: { top: number } | null }

/** Page-level boxes (CSS px of the viewer frame): the menu, the stage canvas, every node disc, the chat button. */
function boxes(page: Page): Promise<Boxes> {
  return viewerFrame(page).evaluate(() => {
    const i = (window as unknown as { netloomInspect: Inspect }).netloomInspect;
    const menu = document.querySelector('.nl-menu')!.getBoundingClientRect();
    const stage = document.querySelector('.nl-stage')!.getBoundingClientRect();
    const ask = document.querySelector('.nl-chat-button')?.getBoundingClientRect() ?? null;
    return {
      menu: { left: menu.left, right: menu.right },
      stage: { left: stage.left, right: stage.right, top: stage.top, bottom: stage.bottom },
      discs: i.nodes().map((n) => ({ id: n.id, left: stage.left + n.x - n.r, right: stage.left + n.x + n.r })),
      ask: ask ? { top: ask.top } : null,
    };
  });
}

const dark = (img: Image, x: number, y: number) => {
  const k = (y * img.width + x) * 4;
  return 0.299 * img.data[k] + 0.587 * img.data[k + 1] + 0.114 * img.data[k + 2] < 160;
};

/** Every disc right of the menu and inside the stage; nothing cut at the right edge; the long labels drawn whole. */
async function assertFitted(page: Page, shot: string, longLabels: boolean): Promise<void> {
  const b = await boxes(page);
  assert.equal(b.discs.length, 40);
  // on a narrow page (≤ 600 px) the menu is the 44-px icon rail (docs/embedding.md, phone); wider, the full menu
  assert.ok(b.menu.right >= 40, `the menu is there (${b.menu.right} px)`);
  for (const d of b.discs) {
    assert.ok(d.left >= b.menu.right, `${d.id} (${d.left.toFixed(1)} px) is not under the menu (right edge ${b.menu.right} px)`);
    assert.ok(d.right <= b.stage.right, `${d.id} ends inside the stage`);
  }
  const png = await page.locator('#viewer iframe').screenshot();
  writeFileSync(new URL(shot, OUT), png);
  const img = decodePng(png);
  const bottom = Math.min(b.stage.bottom, b.ask?.top ?? b.stage.bottom) - 4;
  // the strip along the stage's right edge: no label or node pixel
  let inStrip = 0;
  for (let x = Math.floor(b.stage.right) - 8; x < Math.floor(b.stage.right); x++) for (let y = Math.ceil(b.stage.top); y < bottom; y++) if (dark(img, x, y)) inStrip++;
  assert.equal(inStrip, 0, 'nothing is cut at the right edge');
  if (!longLabels) return;
  // the labels are drawn: dark text pixels right of the rightmost discs, ending before the edge
  const rightmostDisc = Math.max(...b.discs.map((d) => d.right));
  let textRight = -1;
  for (let y = Math.ceil(b.stage.top); y < bottom; y++) for (let x = Math.ceil(rightmostDisc) + 2; x < Math.floor(b.stage.right); x++) if (dark(img, x, y)) textRight = Math.max(textRight, x);
  assert.ok(textRight > rightmostDisc + 50, `the long labels are drawn right of the rightmost nodes (text ends at ${textRight} px, discs at ${rightmostDisc.toFixed(0)} px)`);
  assert.ok(textRight < b.stage.right - 8, 'and end inside the stage');
}

test('390-px page: every node disc right of the menu and inside the stage; the long labels at the right edge drawn whole', { skip, timeout: 90_000 }, async () => {
  const page = await env.open(await env.session('fit-reader', networkId));
  await page.waitForTimeout(300); // the fit runs on the frame after ready
  // "Auto" labels the highest-ranked nodes only; "Always" draws the long labels the fit made room for
  const f = page.frameLocator('#viewer iframe');
  await f.locator('.nl-menu-item[data-item="labels"]').click();
  await f.locator('.nl-panel[data-item="labels"] input[value="always"]').check();
  await f.locator('.nl-menu-item[data-item="labels"]').click();
  await page.waitForTimeout(300);
  await assertFitted(page, 'camera-fit-390.png', true);
  await page.close();
});

test('after a layout the drawing is fitted again, labels included, while nobody moved the camera', { skip, timeout: 90_000 }, async () => {
  const page = await env.open(await env.session('fit-reader', networkId));
  await page.waitForTimeout(300);
  const f = viewerFrame(page);
  await f.locator('.nl-menu-item[data-item="layout"]').click();
  await f.locator('.nl-panel[data-item="layout"]:not([hidden]) [data-action="plot"]').waitFor();
  // Plot nodes on the name axis: the grid becomes one long row, its last node's label at the right end
  await f.locator('.nl-panel[data-item="layout"] [data-action="plot"]').click();
  await f.locator('.nl-panel[data-item="layout"] [data-layout-status="stopped"][data-layout-outcome="converged"]').waitFor();
  await f.locator('.nl-menu-item[data-item="layout"]').click(); // closes the panel
  await page.waitForTimeout(300);
  await assertFitted(page, 'camera-fit-390-after-layout.png', false);
  // and it uses the stage: the discs span most of the width right of the menu (not the earlier drawing's zoom)
  const b = await boxes(page);
  const span = Math.max(...b.discs.map((d) => d.right)) - Math.min(...b.discs.map((d) => d.left));
  assert.ok(span >= 0.6 * (b.stage.right - b.menu.right), `the drawing spans ${span.toFixed(0)} of ${(b.stage.right - b.menu.right).toFixed(0)} px`);
  await page.close();
});

test('after a person moved the camera, a layout keeps their camera', { skip, timeout: 90_000 }, async () => {
  const page = await env.open(await env.session('fit-reader', networkId));
  await page.waitForTimeout(300);
  const f = viewerFrame(page);
  const camera = () => f.evaluate(() => (window as unknown as { netloomInspect: Inspect }).netloomInspect.camera());
  const fitted = await camera();
  // a person zooms with the wheel over the stage
  const stage = (await f.locator('.nl-stage').boundingBox())!;
  await page.mouse.move(stage.x + stage.width * 0.7, stage.y + stage.height / 2);
  await page.mouse.wheel(0, -300);
  await page.waitForTimeout(600);
  const moved = await camera();
  assert.notDeepEqual(moved, fitted, 'the wheel moved the camera');
  await f.locator('.nl-menu-item[data-item="layout"]').click();
  await f.locator('.nl-panel[data-item="layout"]:not([hidden]) [data-action="plot"]').click();
  await f.locator('.nl-panel[data-item="layout"] [data-layout-status="stopped"][data-layout-outcome="converged"]').waitFor();
  await page.waitForTimeout(300);
  assert.deepEqual(await camera(), moved, 'the camera is where the person left it');
  await page.close();
});
