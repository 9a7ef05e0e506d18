/**
 * Explore on a 390-px phone (issue 23 acceptance), in Debian's Chromium: a 390 × 720 host page framing the
 * viewer at 370 × 700, Les Misérables. With the menu (the icon rail) and each panel open (a bottom sheet),
 * the graph keeps at least 60 % of the width and of the height — measured from the elements' boxes — and
 * axe-core finds no serious or critical violation with a panel open. Screenshots go to
 * packages/viewer/test-output/.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { axeBuilder, skipBrowser as skip, startBrowserEnv, viewerFrame, type BrowserEnv } from './helpers/browser-env.ts';

const OUT = new URL('../test-output/', import.meta.url);
let env: BrowserEnv;
let networkId: string;

before(async () => {
  if (skip) return;
  mkdirSync(OUT, { recursive: true });
  env = await startBrowserEnv({ viewer: { width: 370, height: 700 } });
  const net = JSON.parse(readFileSync(new URL('./fixtures/les-miserables.json', import.meta.url), 'utf8')) as { nodes: { id: string; attributes: Record<string, unknown> }[] };
  for (const n of net.nodes) n.attributes.initial = n.id[0];
  networkId = await env.network('Les Misérables', net);
  await env.user('phone-reader', networkId, { permission: 'View' });
});

after(async () => {
  await env?.close();
});

test('390-px phone: menu and an open panel leave ≥ 60 % of the width and height to the graph; axe 0 serious/critical with panels open', { skip, timeout: 180_000 }, async () => {
  // a page in its own context (axe-core opens pages in it), else as env.open()
  const page = await (await env.browser.newContext({ viewport: { width: 390, height: 720 } })).newPage();
  page.on('pageerror', (e) => console.error('[host page error]', e.message));
  await page.goto(env.hostOrigin + '/');
  await page.waitForFunction(() => (window as unknown as { hostReady?: boolean }).hostReady === true);
  await env.embed(page, await env.session('phone-reader', networkId), { timeoutMs: 120_000 });
  const f = viewerFrame(page);
  const frame = page.frameLocator('#viewer iframe');
  for (const item of ['layout', 'color', 'filter', 'labels', 'tables', 'export']) {
    const button = frame.locator(`.nl-menu-item[data-item="${item}"]`);
    if ((await button.count()) === 0) continue;
    await button.click();
    await frame.locator(`.nl-panel[data-item="${item}"]:not([hidden])`).waitFor();
    await page.waitForTimeout(200);
    const m = await f.evaluate(() => {
      const box = (sel: string) => document.querySelector(sel)?.getBoundingClientRect() ?? null;
      const menu = box('.nl-menu');
      const panel = box('.nl-panel:not([hidden])');
      return { w: window.innerWidth, h: window.innerHeight, menuRight: menu?.right ?? 0, panelTop: panel?.top ?? window.innerHeight, panelLeft: panel?.left ?? 0, panelRight: panel?.right ?? 0 };
    });
    // the graph's free area: right of the menu rail, above the sheet (the sheet spans the width right of the rail)
    const width = (m.w - m.menuRight) / m.w;
    const height = m.panelTop / m.h;
    assert.ok(m.panelRight - m.panelLeft >= 0.9 * (m.w - m.menuRight), `${item}: the panel is a bottom sheet across the width (${m.panelLeft}–${m.panelRight})`);
    assert.ok(width >= 0.6, `${item}: the graph keeps ${(width * 100).toFixed(0)} % of the width`);
    assert.ok(height >= 0.6, `${item}: the graph keeps ${(height * 100).toFixed(0)} % of the height (sheet from ${m.panelTop} of ${m.h} px)`);
    if (item === 'color') {
      await frame.locator('.nl-panel[data-item="color"] select').first().selectOption({ index: 1 }).catch(() => undefined);
    }
    writeFileSync(new URL(`phone-${item}.png`, OUT), await page.screenshot());
    if (item === 'layout' || item === 'filter') {
      // the viewer's frame (the test's bare host page is not Explore); axe must really have looked inside it
      const r = await (await axeBuilder(page)).include('#viewer iframe').analyze();
      assert.ok(r.passes.some((rule) => rule.nodes.some((n) => JSON.stringify(n.target).includes('nl-panel') || JSON.stringify(n.target).includes('nl-menu'))), `${item}: axe looked inside the viewer`);
      const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(bad.map((v) => `${item}: ${v.id} (${v.nodes.length}) ${v.help}`), []);
    }
    await button.click(); // closes it again
  }
  await page.context().close();
});
