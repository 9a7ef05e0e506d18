/**
 * Layouts end to end in Debian's Chromium (helpers/browser-env.ts; viewer 900 × 600) on Les Misérables
 * (77 nodes, 254 weighted edges, no stored positions): the automatic first ForceAtlas2 run, Circle, Run
 * layout (finite positions, drawing fills the canvas, edges ≥ 30 % shorter than on the circle), Distribute
 * nodes (no two discs overlap), circle by attribute, Plot nodes (order of a numeric attribute), and "Keep
 * these positions" (Edit: stored x/y and a new networkUUID; View: only a hint). Measured on the canvas
 * through `window.netloomInspect` (src/inspect.ts). Screenshots go to packages/viewer/test-output/.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Frame, Page } from 'playwright-core';
import { sdk, skipBrowser as skip, browserEnvFixture, saveViewerShot, viewerDownload, viewerFrame, type Win } from './helpers/browser-env.ts';
import { decodePng } from './png.ts';
import type { Inspect } from '../src/inspect.ts';

const OUT = new URL('../test-output/', import.meta.url);
let networkId: string;

function lesMis() {
  const net = JSON.parse(readFileSync(new URL('./fixtures/les-miserables.json', import.meta.url), 'utf8')) as { nodes: { id: string; attributes: Record<string, unknown> }[]; edges: { source: string; target: string }[] };
  const degree = new Map<string, number>();
  for (const e of net.edges) for (const v of [e.source, e.target]) degree.set(v, (degree.get(v) ?? 0) + 1);
  for (const n of net.nodes) Object.assign(n.attributes, { degree: degree.get(n.id) ?? 0, initial: n.id[0] });
  return net;
}

const env = browserEnvFixture({ viewer: { width: 900, height: 600 }, logHttpErrors: true, out: OUT }, async (env) => {
  networkId = await env.network('Les Misérables', lesMis());
  await env.user('layout-editor', networkId, { permission: 'Edit' });
  await env.user('layout-reader', networkId, { permission: 'View' });
});

interface Measure { nodes: number; finite: boolean; bboxShare: number; meanEdge: number; overlaps: number; order: string[]; state: ReturnType<Inspect['layout']> }

/** Positions on the canvas: finite, share of the canvas the drawing's bounding box covers, mean edge length (px), overlapping disc pairs, node ids by x. */
function measure(f: Frame): Promise<Measure> {
  return f.evaluate(() => {
    const i = (window as unknown as { netloomInspect: Inspect }).netloomInspect;
    const nodes = i.nodes();
    const at = new Map(nodes.map((n) => [n.id, n]));
    const c = i.canvas();
    const xs = nodes.map((n) => n.x);
    const ys = nodes.map((n) => n.y);
    const bboxShare = ((Math.max(...xs) - Math.min(...xs)) * (Math.max(...ys) - Math.min(...ys))) / (c.width * c.height);
    const lengths = i.edges().map(([s, t]) => Math.hypot((at.get(s)?.x ?? 0) - (at.get(t)?.x ?? 0), (at.get(s)?.y ?? 0) - (at.get(t)?.y ?? 0)));
    let overlaps = 0;
    for (let a = 0; a < nodes.length; a++) for (let b = a + 1; b < nodes.length; b++) {
      if (Math.hypot(nodes[a].x - nodes[b].x, nodes[a].y - nodes[b].y) < nodes[a].r + nodes[b].r - 0.5) overlaps++;
    }
    return {
      nodes: nodes.length,
      finite: nodes.every((n) => Number.isFinite(n.x) && Number.isFinite(n.y)),
      bboxShare,
      meanEdge: lengths.reduce((a, b) => a + b, 0) / lengths.length,
      overlaps,
      order: [...nodes].sort((a, b) => a.x - b.x).map((n) => n.id),
      state: i.layout(),
    };
  });
}

async function openLayout(page: Page) {
  const f = page.frameLocator('#viewer iframe');
  const panel = f.locator('.nl-panel[data-item="layout"]:not([hidden])');
  if ((await panel.count()) === 0) await f.locator('.nl-menu-item[data-item="layout"]').click();
  await panel.waitFor();
  return panel;
}

/** Clicks a layout action and waits until the run ended (status line no longer running, outcome set). */
async function runLayout(page: Page, action: string): Promise<Measure> {
  const panel = await openLayout(page);
  await panel.locator(`[data-action="${action}"]`).click();
  const f = viewerFrame(page);
  await f.waitForFunction(() => {
    const s = (window as unknown as { netloomInspect: Inspect }).netloomInspect.layout();
    return !s.running && s.outcome !== null && document.querySelector('[data-layout-status="stopped"]') !== null;
  }, undefined, { timeout: 60_000 });
  await page.waitForTimeout(100); // sigma's next frame
  return measure(f);
}

async function save(page: Page, name: string, opts: { closePanel?: boolean } = {}): Promise<void> {
  if (opts.closePanel) await viewerFrame(page).locator('.nl-panel-close').click();
  await saveViewerShot(page, new URL(`layout-${name}.png`, OUT));
}

test('Les Misérables without positions: laid out by itself before ready; Circle, then Run layout: finite, fills the canvas, edges ≥ 30 % shorter than on the circle', { skip, timeout: 120_000 }, async () => {
  const page = await env.open(await env.session('layout-editor', networkId));
  const f = viewerFrame(page);
  const auto = await measure(f);
  assert.equal(auto.state.kind, 'forceAtlas2', 'the automatic first layout ran');
  assert.equal(auto.state.outcome, 'converged');
  assert.equal(auto.finite, true);
  await save(page, 'auto');

  const ring = await runLayout(page, 'circle');
  assert.equal(ring.state.kind, 'circle');
  assert.equal(ring.finite, true);
  await save(page, 'circle');

  const rev = ((await sdk(page, 'state.get')).value as { revision: number }).revision;
  const fa2 = await runLayout(page, 'start');
  assert.equal(fa2.nodes, 77);
  assert.equal(fa2.finite, true, 'every node has finite x/y');
  assert.equal(fa2.state.outcome, 'converged', 'stopped by itself once converged');
  assert.ok(fa2.bboxShare > 0.5, `the drawing covers most of the canvas (${(fa2.bboxShare * 100).toFixed(0)} %)`);
  assert.ok(fa2.meanEdge <= 0.7 * ring.meanEdge, `mean edge length ${fa2.meanEdge.toFixed(1)} px vs ${ring.meanEdge.toFixed(1)} px on the circle`);
  assert.ok(auto.meanEdge <= 0.7 * ring.meanEdge, 'the automatic layout too');
  assert.ok(((await sdk(page, 'state.get')).value as { revision: number }).revision > rev, 'a layout run bumps the revision');
  await save(page, 'forceatlas2');

  // Distribute nodes: no two discs overlap afterwards.
  const spread = await runLayout(page, 'distribute');
  assert.equal(spread.finite, true);
  assert.equal(spread.overlaps, 0, 'no overlapping node discs');
  await save(page, 'distribute');

  // Circle by attribute: the Valjean group ('V…') and others on arcs — finite, all nodes drawn.
  const panel = await openLayout(page);
  await panel.locator('select[aria-label="Group by"]').selectOption('initial');
  const arcs = await runLayout(page, 'circle-by-attribute');
  assert.equal(arcs.finite, true);
  assert.equal(arcs.state.kind, 'circleByAttribute');
  await save(page, 'circle-by-attribute', { closePanel: true });
  // each group is named beside its arc, with its size
  const groups = await viewerFrame(page).locator('svg[data-guides="groups"] text[data-group]').allTextContents();
  const initials = new Set(lesMis().nodes.map((n) => n.attributes.initial as string));
  assert.equal(groups.length, initials.size, `one name per group: ${groups.join(' | ')}`);
  assert.ok(groups.some((t) => /^M \(\d+\)$/.test(t)), `the M group is named with its size: ${groups.join(' | ')}`);
  await assertInside(page, 'svg[data-guides="groups"] text');
  // another layout clears the names
  await runLayout(page, 'circle');
  assert.equal(await viewerFrame(page).locator('svg.nl-guides text').count(), 0);
  await page.close();
});

/** Every element matching `selector` in the viewer lies inside the graph's stage (not cut off, not under the menu). */
async function assertInside(page: Page, selector: string): Promise<void> {
  const f = viewerFrame(page);
  const stage = await f.locator('.nl-stage').boundingBox();
  assert.ok(stage);
  const boxes = await f.locator(selector).evaluateAll((els) => els.map((e) => { const r = e.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height, t: e.textContent }; }));
  assert.ok(boxes.length > 0, `some ${selector}`);
  // the frame's own coordinates: the stage box from playwright is in page coordinates
  const frameBox = await page.locator('#viewer iframe').boundingBox();
  assert.ok(frameBox);
  const sx = stage.x - frameBox.x, sy = stage.y - frameBox.y;
  for (const b of boxes) {
    assert.ok(b.x >= sx - 1 && b.y >= sy - 1 && b.x + b.w <= sx + stage.width + 1 && b.y + b.h <= sy + stage.height + 1, `"${b.t}" at ${JSON.stringify(b)} inside the stage ${JSON.stringify({ sx, sy, w: stage.width, h: stage.height })}`);
  }
}

test('Plot nodes orders nodes by the chosen numeric attribute; Stop ends a run', { skip, timeout: 90_000 }, async () => {
  const page = await env.open(await env.session('layout-editor', networkId));
  const panel = await openLayout(page);
  await panel.locator('select[data-plot="x"]').selectOption('degree');
  await panel.locator('select[data-plot="y"]').selectOption('initial');
  const m = await runLayout(page, 'plot');
  assert.equal(m.finite, true);
  const net = lesMis();
  const degree = new Map(net.nodes.map((n) => [n.id, n.attributes.degree as number]));
  const degrees = m.order.map((id) => degree.get(id) as number);
  for (let k = 1; k < degrees.length; k++) assert.ok(degrees[k - 1] <= degrees[k], `left to right by degree: ${degrees.join(',')}`);
  await save(page, 'plot', { closePanel: true });
  // the axes: titles, number ticks along x, category headers along y (most frequent first, bottom up)
  const f = viewerFrame(page);
  assert.equal(await f.locator('svg[data-guides="plot"] [data-axis-title="x"]').textContent(), 'degree');
  assert.equal(await f.locator('svg[data-guides="plot"] [data-axis-title="y"]').textContent(), 'initial');
  const xTicks = await f.locator('svg[data-guides="plot"] text[data-tick="x"]').allTextContents();
  assert.deepEqual(xTicks, ['10', '20', '30'], `x ticks ${xTicks.join(' ')}`);
  const yTicks = await f.locator('svg[data-guides="plot"] text[data-tick="y"]').allTextContents();
  const initials = new Set(net.nodes.map((n) => n.attributes.initial as string));
  assert.deepEqual(new Set(yTicks), initials, 'one header per category');
  // a category header sits level with its nodes
  const rows = await f.evaluate(() => {
    const i = (window as unknown as { netloomInspect: Inspect }).netloomInspect;
    const ticks = [...document.querySelectorAll('svg[data-guides="plot"] text[data-tick="y"]')].map((t) => ({ text: t.textContent, y: t.getBoundingClientRect().y + t.getBoundingClientRect().height / 2 - document.querySelector('.nl-stage')!.getBoundingClientRect().y }));
    return { ticks, nodes: i.nodes().map((n) => ({ id: n.id, y: n.y })) };
  });
  const valjean = rows.nodes.find((n) => n.id === 'Valjean');
  const v = rows.ticks.find((t) => t.text === 'V');
  assert.ok(valjean && v && Math.abs(valjean.y - v.y) < 25, `V header (${v?.y}) level with Valjean (${valjean?.y})`);
  await assertInside(page, 'svg[data-guides="plot"] text');

  // The exports keep the axes: the SVG holds the titles and the ticks; the PNG (1×) has the x axis title's
  // ink where the screen shows it (below the nodes, where nothing else is drawn)
  const fl = page.frameLocator('#viewer iframe');
  await fl.locator('.nl-menu-item[data-item="export"]').click();
  await fl.locator('.nl-panel[data-item="export"]').waitFor();
  const svg = (await viewerDownload(page, '.nl-panel [data-export="svg"]', { out: OUT, prefix: 'layout-plot-' })).bytes.toString('utf8');
  assert.match(svg, /<text[^>]*data-axis-title="x"[^>]*>degree<\/text>/, 'the SVG has the x axis title');
  assert.match(svg, /<text[^>]*data-axis-title="y"[^>]*>initial<\/text>/, 'the SVG has the y axis title');
  assert.equal((svg.match(/data-tick="x"/g) ?? []).length, 3, 'the SVG has the x ticks');
  const title = await f.evaluate(() => {
    const t = document.querySelector('svg[data-guides="plot"] [data-axis-title="x"]')!.getBoundingClientRect();
    const stage = document.querySelector('.nl-stage')!.getBoundingClientRect();
    return { x: t.x - stage.x, y: t.y - stage.y, width: t.width, height: t.height, stage: stage.width };
  });
  await fl.locator('select[data-option="png-scale"]').selectOption('1');
  const png = decodePng((await viewerDownload(page, '.nl-panel [data-export="png"]', { out: OUT, prefix: 'layout-plot-' })).bytes);
  const k = png.width / title.stage;
  let ink = 0;
  for (let y = Math.floor(title.y * k); y < Math.ceil((title.y + title.height) * k); y++) {
    for (let x = Math.floor(title.x * k); x < Math.ceil((title.x + title.width) * k); x++) {
      const o = (y * png.width + x) * 4;
      if (png.data[o] < 110 && png.data[o + 1] < 110 && png.data[o + 2] < 110) ink++;
    }
  }
  assert.ok(ink > 15, `the PNG shows the x axis title where the screen does (${ink} dark pixels in its box)`);

  // A weighted run, stopped by the user.
  const p2 = await openLayout(page);
  await p2.locator('[data-option="weighted"]').check();
  await p2.locator('[data-action="start"]').click();
  await p2.locator('[data-action="stop"]').click({ timeout: 5000 }).catch(() => undefined); // may have converged already
  await viewerFrame(page).waitForFunction(() => !(window as unknown as { netloomInspect: Inspect }).netloomInspect.layout().running);
  const s = (await measure(viewerFrame(page))).state;
  assert.ok(s.outcome === 'stopped' || s.outcome === 'converged', `outcome ${s.outcome}`);
  await page.close();
});

/** A 59-person organization: reporting lines (report → manager, relation "reports to") plus advice ties between peers. */
function orgNetwork() {
  const parent: number[] = [-1];
  for (let h = 0; h < 4; h++) parent.push(0);
  for (let h = 1; h <= 4; h++) for (let l = 0; l < 3; l++) parent.push(h);
  for (let lead = 5; lead < 17; lead++) for (let r = 0; r < (lead % 2 ? 3 : 4); r++) parent.push(lead);
  const id = (i: number) => `p${String(i).padStart(2, '0')}`;
  const nodes = parent.map((_, i) => ({ id: id(i), attributes: { level: i === 0 ? 'CEO' : i < 5 ? 'Head' : i < 17 ? 'Lead' : 'Staff' } }));
  const edges: { id: string; source: string; target: string; attributes: Record<string, string> }[] = [];
  parent.forEach((p, c) => { if (p >= 0) edges.push({ id: `r${c}`, source: id(c), target: id(p), attributes: { relation: 'reports to' } }); });
  for (let i = 17; i + 7 < parent.length; i += 3) edges.push({ id: `a${i}`, source: id(i), target: id(i + 7), attributes: { relation: 'advice' } });
  return { directed: true, nodes, edges, parent };
}

test('Hierarchy on reporting lines ("reports to" edges among advice ties): each manager above their reports, no overlapping nodes, finite', { skip, timeout: 120_000 }, async () => {
  const org = orgNetwork();
  const orgId = await env.network('Org chart', { directed: org.directed, nodes: org.nodes, edges: org.edges });
  await env.user('org-reader', orgId, { permission: 'View' });
  const page = await env.open(await env.session('org-reader', orgId));
  const panel = await openLayout(page);
  // the "reports to" direction is recognised: everybody has one manager when edges point to the manager
  await panel.locator('select[data-option="lines"]').selectOption({ label: 'relation = reports to' });
  assert.equal(await panel.locator('select[data-option="manager-end"]').inputValue(), 'target');
  const m = await runLayout(page, 'hierarchy');
  assert.equal(m.state.kind, 'hierarchy');
  assert.equal(m.state.outcome, 'converged');
  assert.equal(m.finite, true);
  assert.equal(m.nodes, 59);
  assert.equal(m.overlaps, 0, 'no two node discs overlap');
  const at = await viewerFrame(page).evaluate(() => Object.fromEntries((window as unknown as { netloomInspect: Inspect }).netloomInspect.nodes().map((n) => [n.id, n.y])));
  const id = (i: number) => `p${String(i).padStart(2, '0')}`;
  org.parent.forEach((p, c) => {
    if (p >= 0) assert.ok(at[id(p)] < at[id(c)] - 10, `${id(p)} (y ${at[id(p)]}) above ${id(c)} (y ${at[id(c)]})`);
  });
  // four layers, readable spread: the drawing uses most of the stage's width and a good part of its height
  const ys = [...new Set(Object.values(at).map((y) => Math.round(y)))];
  assert.equal(ys.length, 4, `four layers: ${ys.join(', ')}`);
  assert.ok(m.bboxShare > 0.3, `spread over ${(m.bboxShare * 100).toFixed(0)} % of the canvas`);
  await save(page, 'hierarchy', { closePanel: true });
  await page.close();
});

test('Keep these positions: Edit writes x/y to the stored network (new networkUUID); View only gets a hint', { skip, timeout: 90_000 }, async () => {
  const before = await env.api('GET', `/api/v2/networks/${networkId}`);
  const reader = await env.open(await env.session('layout-reader', networkId));
  const rp = await openLayout(reader);
  assert.equal(await rp.locator('[data-action="keep-positions"]').count(), 0);
  assert.match(await rp.innerText(), /needs Edit/);
  await reader.close();

  const page = await env.open(await env.session('layout-editor', networkId));
  const panel = await openLayout(page);
  await panel.locator('[data-action="keep-positions"]').click();
  await panel.locator('.nl-note', { hasText: 'Positions kept' }).waitFor();
  const onCanvas = await viewerFrame(page).evaluate(() => (window as unknown as { netloomInspect: Inspect }).netloomInspect.nodes().length);
  assert.equal(onCanvas, 77);
  const after = await env.api('GET', `/api/v2/networks/${networkId}`);
  assert.notEqual(after.networkUUID, before.networkUUID, 'a new networkUUID');
  const nodes = (after.networkJSON as { nodes: { x?: number; y?: number; attributes: Record<string, unknown> }[] }).nodes;
  assert.ok(nodes.every((n) => Number.isFinite(n.x) && Number.isFinite(n.y)), 'every node has stored x/y');
  assert.ok(nodes.every((n) => typeof n.attributes.degree === 'number'), 'attributes kept');
  await page.close();

  // Opened again: positions are stored, so no automatic layout runs.
  const again = await env.open(await env.session('layout-editor', networkId));
  const state = await viewerFrame(again).evaluate(() => (window as unknown as { netloomInspect: Inspect }).netloomInspect.layout());
  assert.equal(state.kind, null);
  // A second save from a viewer that loaded the old version is refused (409 → a message, nothing lost).
  assert.equal((await sdk(again, 'state.get')).ok, true);
  void (null as unknown as Win);
  await again.close();
});
