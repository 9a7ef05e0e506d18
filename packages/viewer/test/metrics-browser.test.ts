/**
 * The Metrics panel's jobs end to end in Debian's Chromium (helpers/browser-env.ts; issue 13 item 4): on
 * an undirected 10,000-node network exact betweenness runs as a job of the session for many seconds — the bar's value
 * rises, the time left is shown, Cancel makes the job `cancelled` (read through the viewer API with the
 * session's own access token) and frees the worker (the next run of the same session starts at once and
 * finishes), the panel is ready again with a notice; a quick run finishes and adds its attribute. Axe: no
 * serious or critical violation with the bar showing. Screenshots go to packages/viewer/test-output/.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { axeBuilder, skipBrowser as skip, browserEnvFixture, saveViewerShot } from './helpers/browser-env.ts';

const OUT = new URL('../test-output/', import.meta.url);
let networkId: string;
let smallId: string;

/** Barabási–Albert(n, m) with a fixed seed, laid out on a spiral (stored positions: no automatic layout). */
function barabasiAlbert(n: number, m: number) {
  let a = 42; // mulberry32
  const rand = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const nodes = Array.from({ length: n }, (_, i) => ({ id: `n${i}`, x: Math.sqrt(i) * Math.cos(i * 2.4) * 10, y: Math.sqrt(i) * Math.sin(i * 2.4) * 10, attributes: { name: `Node ${i}` } }));
  const edges: { id: number; source: string; target: string }[] = [];
  const ends: number[] = [];
  for (let v = 0; v <= m; v++) for (let u = 0; u < v; u++) {
    edges.push({ id: edges.length, source: `n${u}`, target: `n${v}` });
    ends.push(u, v);
  }
  for (let v = m + 1; v < n; v++) {
    const picked = new Set<number>();
    while (picked.size < m) picked.add(ends[Math.floor(rand() * ends.length)]);
    for (const u of picked) {
      edges.push({ id: edges.length, source: `n${u}`, target: `n${v}` });
      ends.push(u, v);
    }
  }
  return { nodes, edges };
}

// one metric thread: the job runs long enough to be watched (≈ 10 s at load 10) and leaves a core to the browser
const env = browserEnvFixture({ viewer: { width: 1000, height: 700 }, logHttpErrors: true, env: { NETLOOM_METRIC_WORKERS: '1' }, out: OUT }, async (env) => {
  networkId = String((await env.api('POST', '/api/v2/networks', { name: 'Big BA', isDirected: false, networkJSON: barabasiAlbert(10_000, 3) }))._id);
  smallId = await env.network('Small', { nodes: Array.from({ length: 30 }, (_, i) => ({ id: i, x: i % 6, y: Math.floor(i / 6) })), edges: Array.from({ length: 29 }, (_, i) => ({ id: i, source: i, target: i + 1 })) });
  await env.user('metrics-reader', [networkId, smallId], { permission: 'View' });
  await env.user('metrics-other', networkId, { permission: 'View' });
});

const save = (page: Page, name: string) => saveViewerShot(page, new URL(`metrics-${name}.png`, OUT));

/** Opens the session with its access token captured (the viewer's own, for reading its jobs through the viewer API). */
async function openWithToken(sessionId: string): Promise<{ page: Page; token: () => string }> {
  // a page in its own context (axe-core opens pages in it), else as env.openHost()
  const page = await (await env.browser.newContext({ viewport: { width: 1020, height: 720 } })).newPage();
  page.on('pageerror', (e) => console.error('[host page error]', e.message));
  await page.goto(env.hostOrigin + '/');
  await page.waitForFunction(() => (window as unknown as { hostReady?: boolean }).hostReady === true);
  let token = '';
  page.on('response', (r) => {
    if (/\/access-tokens$/.test(r.url()) && r.status() === 200) void r.json().then((b: { accessToken: string }) => (token = b.accessToken), () => undefined);
  });
  await env.embed(page, sessionId, { timeoutMs: 120_000 });
  return { page, token: () => token };
}

async function viewerJob(token: string, jobId: string): Promise<{ status: string; progress: number; etaSeconds: number | null }> {
  const r = await fetch(`${env.service}/api/v2/embed/viewer/jobs/${jobId}`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(r.status, 200, await r.clone().text());
  return r.json() as Promise<{ status: string; progress: number; etaSeconds: number | null }>;
}

test('exact betweenness on 10,000 nodes: the bar rises with the time left; Cancel → cancelled, the worker is free, the panel ready with a notice', { skip, timeout: 240_000 }, async () => {
  const { page, token } = await openWithToken(await env.session('metrics-reader', networkId));
  const f = page.frameLocator('#viewer iframe');
  await f.locator('.nl-menu-item[data-item="metrics"]').click();
  const panel = f.locator('.nl-panel[data-item="metrics"]:not([hidden])');
  await panel.waitFor();
  await panel.locator('select[aria-label="Metric"]').selectOption('betweennessCentrality');
  await panel.locator('[data-action="run-metric"]').click();

  const box = panel.locator('[data-metric-job]');
  await box.waitFor({ timeout: 10_000 });
  const jobId = String(await box.getAttribute('data-metric-job'));
  assert.equal(await panel.locator('[data-action="run-metric"]').isDisabled(), true, 'Run is disabled while a job runs');
  const bar = panel.locator('progress[data-metric-progress]');
  const status = panel.locator('[data-metric-status]');

  // the bar's value rises, the status shows the percentage and the time left
  const seen: number[] = [];
  let etaText = '';
  const until = Date.now() + 150_000;
  while (Date.now() < until) {
    const value = await bar.evaluate((e) => (e as HTMLProgressElement).value);
    if (seen.length === 0 || value !== seen[seen.length - 1]) seen.push(value);
    const text = (await status.textContent()) ?? '';
    if (/about \d+ (s|min|h)|a few seconds left/.test(text) && value >= 2) etaText = text;
    if (seen.length >= 3 && seen[seen.length - 1] >= 2 && etaText) break;
    await page.waitForTimeout(250);
  }
  assert.ok(seen.length >= 3, `the bar moved (values seen: ${seen.join(', ')})`);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i] >= seen[i - 1], `never goes back: ${seen.join(', ')}`);
  assert.ok(seen[seen.length - 1] < 100, `still running when cancelled (${seen.join(', ')})`);
  assert.match(etaText, /^Betweenness centrality: \d+\u00a0% — (about \d+ (s|min|h)( \d+ min)?|a few seconds) left$/);
  const running = await viewerJob(token(), jobId);
  assert.equal(running.status, 'running');
  assert.ok(running.progress > 0 && running.etaSeconds !== null, JSON.stringify(running));
  await save(page, 'running');

  // the viewer's page (the test's host page is a bare fixture without title or lang)
  const axe = await (await axeBuilder(page)).include('#viewer iframe').analyze();
  assert.ok(axe.passes.some((r) => r.nodes.some((n) => JSON.stringify(n.target).includes('nl-progress'))), 'axe looked inside the viewer, at the bar');
  const findings = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(findings.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), [], 'axe: no serious or critical violations');

  // Cancel from the keyboard
  await panel.locator('[data-action="cancel-metric"]').focus();
  await page.keyboard.press('Enter');
  await box.waitFor({ state: 'detached', timeout: 10_000 });
  assert.equal((await viewerJob(token(), jobId)).status, 'cancelled');
  assert.match((await f.locator('.nl-panel[data-item="metrics"] > .nl-note').textContent()) ?? '', /Betweenness centrality was cancelled; nothing was added\./);
  assert.equal(await panel.locator('[data-action="run-metric"]').isDisabled(), false, 'ready again');
  await save(page, 'cancelled');

  // the worker is free: the next run of the same session starts at once and finishes (NETLOOM_WORKERS=1)
  await panel.locator('select[aria-label="Metric"]').selectOption('totalDegree');
  const started = Date.now();
  await panel.locator('[data-action="run-metric"]').click();
  await f.locator('.nl-panel[data-item="metrics"] > .nl-note', { hasText: /^Added / }).waitFor({ timeout: 30_000 });
  const note = (await f.locator('.nl-panel[data-item="metrics"] > .nl-note').textContent()) ?? '';
  assert.match(note, /^Added .*Degree.*\. Use it in Color, Size or Filter\.$/);
  assert.ok(Date.now() - started < 30_000);
  await save(page, 'degree-added');
  // the attribute is there for Color/Size/Filter
  await f.locator('.nl-menu-item[data-item="size"]').click();
  assert.ok(await f.locator('.nl-panel[data-item="size"] select option', { hasText: /Degree/ }).count() > 0, 'the new attribute is offered in Size');
  await page.context().close();
});

/** An access token of a new session of `externalId` on `networkId`, obtained as the viewer does (launch token → access token). */
async function sessionToken(externalId: string, network: string): Promise<string> {
  const sessionId = await env.session(externalId, network);
  const { launchToken } = await env.api('POST', `/api/v2/embed/sessions/${sessionId}/launch-tokens`);
  const r = await fetch(`${env.service}/api/v2/embed/sessions/${sessionId}/access-tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ launchToken }) });
  assert.equal(r.status, 200);
  return ((await r.json()) as { accessToken: string }).accessToken;
}

test('a run waits for a busy worker ("waiting for a worker…"), and a failed job shows its problem', { skip, timeout: 240_000 }, async () => {
  // another session keeps the one job worker busy with exact betweenness on the big network
  const other = await sessionToken('metrics-other', networkId);
  const busy = await fetch(`${env.service}/api/v2/embed/viewer/metrics/nodes/betweennessCentrality`, { method: 'POST', headers: { authorization: `Bearer ${other}`, prefer: 'respond-async', 'content-type': 'application/json' }, body: '{}' });
  assert.equal(busy.status, 202);
  const busyId = ((await busy.json()) as { jobId: string }).jobId;

  const { page } = await openWithToken(await env.session('metrics-reader', smallId));
  const f = page.frameLocator('#viewer iframe');
  await f.locator('.nl-menu-item[data-item="metrics"]').click();
  const panel = f.locator('.nl-panel[data-item="metrics"]:not([hidden])');
  await panel.locator('select[aria-label="Metric"]').selectOption('pageRank');
  await panel.locator('[data-action="run-metric"]').click();
  await panel.locator('[data-metric-job-status="queued"]').waitFor({ timeout: 10_000 });
  assert.equal(await panel.locator('[data-metric-status]').textContent(), 'PageRank: waiting for a worker…');
  await save(page, 'queued');

  // the network changes while the job waits: it fails with CONFLICT once a worker takes it
  const stored = await env.api('GET', `/api/v2/networks/${smallId}`);
  await env.api('PUT', `/api/v2/networks/${smallId}`, { name: 'Small v2', networkJSON: stored.networkJSON });
  const freed = await fetch(`${env.service}/api/v2/embed/viewer/jobs/${busyId}`, { method: 'DELETE', headers: { authorization: `Bearer ${other}` } });
  assert.equal(((await freed.json()) as { status: string }).status, 'cancelled');
  const note = f.locator('.nl-panel[data-item="metrics"] > .nl-note.nl-error');
  await note.waitFor({ timeout: 30_000 });
  assert.match((await note.textContent()) ?? '', /the network changed after the job was created; nothing was written/);
  assert.equal(await panel.locator('[data-metric-job]').count(), 0, 'the bar is gone');
  assert.equal(await panel.locator('[data-action="run-metric"]').isDisabled(), false, 'ready again');
  await save(page, 'failed');
  await page.context().close();
});

test('a network-level metric in the Metrics panel: "Diameter: 5" with its parameters and time', { skip, timeout: 120_000 }, async () => {
  const pathId = await env.network('Path of six', { nodes: Array.from({ length: 6 }, (_, i) => ({ id: i, x: i, y: 0 })), edges: Array.from({ length: 5 }, (_, i) => ({ id: i, source: i, target: i + 1 })) });
  await env.user('metrics-path', pathId, { permission: 'View' });
  const { page } = await openWithToken(await env.session('metrics-path', pathId));
  const f = page.frameLocator('#viewer iframe');
  await f.locator('.nl-menu-item[data-item="metrics"]').click();
  const panel = f.locator('.nl-panel[data-item="metrics"]:not([hidden])');
  const choice = panel.locator('select[aria-label="Metric"]');
  await choice.waitFor();
  assert.match(await choice.locator('option[value="diameter"]').textContent() ?? '', /Diameter \(one number\)/);
  await choice.selectOption('diameter');
  await panel.locator('[data-action="run-metric"]').click();
  const result = panel.locator('[data-network-result="diameter"]');
  await result.waitFor({ timeout: 60_000 });
  const text = (await result.textContent()) ?? '';
  assert.match(text, /^Diameter: 5 /, text);
  assert.match(text, /default parameters · \d+(\.\d)? m?s$/, text);
  assert.equal(await f.locator('.nl-panel[data-item="metrics"] > .nl-note').textContent(), 'Diameter: 5');
  await save(page, 'network-result');
  await page.context().close();
});
