// Metric jobs in the web application, in Chromium (docs/web-app.md "Metric jobs"; issue 13 item 4): from a
// network's page exact betweenness on an undirected BA(25000, 3) runs as a job (one metric thread, so it
// runs for a minute or more; with 10,000 nodes a quiet machine finished it before the page saw the bar move); the Jobs page shows it with its network, a progress bar whose value rises and
// the time left, passes axe and fits a 390-px phone; Cancel (keyboard) makes the job `cancelled` through
// the public API; a quick PageRank then finishes while the page watches (status Done, a toast); in
// Explore (owner mode) the viewer's Metrics panel runs Degree as a job, written to the network and shown.
// Screenshots are written to NETLOOM_SCREENSHOT_DIR when it is set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { webEnvFixture, openMetricCard, axe, horizontalOverflow, keepShot, skipBrowser } from './helpers/web-env.ts';

let networkId: string;
let exploreId: string;

/** Barabási–Albert(n, m), seeded (mulberry32). */
function barabasiAlbert(n: number, m: number) {
  let a = 7;
  const rand = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const nodes = Array.from({ length: n }, (_, i) => ({ id: i }));
  const edges: { id: number; source: number; target: number }[] = [];
  const ends: number[] = [];
  for (let v = 0; v <= m; v++) for (let u = 0; u < v; u++) {
    edges.push({ id: edges.length, source: u, target: v });
    ends.push(u, v);
  }
  for (let v = m + 1; v < n; v++) {
    const picked = new Set<number>();
    while (picked.size < m) picked.add(ends[Math.floor(rand() * ends.length)]);
    for (const u of picked) {
      edges.push({ id: edges.length, source: u, target: v });
      ends.push(u, v);
    }
  }
  return { nodes, edges };
}

const env = webEnvFixture({ env: { NETLOOM_METRIC_WORKERS: '1' } }, async (env) => {
  networkId = await env.network('Org chart BA', barabasiAlbert(25_000, 3), { isDirected: false });
  // Explore's part needs no long job: a smaller network keeps the viewer's first drawing quick
  exploreId = await env.network('Org chart BA small', barabasiAlbert(10_000, 3), { isDirected: false });
});

async function fits390(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 390, height: 800 });
  const o = await horizontalOverflow(page);
  assert.equal(o.scrollWidth, o.viewport, `${name} at 390 px: page scrolls sideways; offenders ${o.offenders.join(', ')}`);
  assert.deepEqual(o.offenders, [], `${name} at 390 px: elements stick out`);
  keepShot(`${name}-390`, await page.screenshot({ fullPage: true }));
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('run betweenness as a job from the network page; the Jobs page shows it rising with the time left; Cancel → cancelled; PageRank finishes while watched', { skip: skipBrowser, timeout: 240_000 }, async () => {
  const { page, card } = await openMetricCard(env, networkId, 'betweennessCentrality');
  await card.getByRole('button', { name: 'Run as a job' }).click();
  const onCard = card.locator('li[data-job]');
  await onCard.first().waitFor({ timeout: 15_000 });
  const jobId = String(await onCard.first().getAttribute('data-job'));
  await card.locator(`li[data-job="${jobId}"] [data-testid="job-progress"]`).waitFor({ timeout: 30_000 });
  keepShot('network-job-1280', await page.screenshot({ fullPage: true }));
  assert.deepEqual(await axe(page), [], 'network page with a running job: axe serious/critical violations');
  await fits390(page, 'network-job');
  assert.equal(await page.getByRole('link', { name: 'Jobs', exact: true }).count() > 0, true, 'Jobs in the navigation');

  await card.getByRole('link', { name: 'All your jobs' }).click();
  await page.getByRole('heading', { level: 1, name: 'Jobs' }).waitFor();
  const row = page.locator(`tr[data-job="${jobId}"]`);
  assert.equal(await row.locator('td[data-label="Metric"]').innerText(), 'Betweenness centrality');
  assert.equal(await row.locator('td[data-label="Network"]').innerText(), 'Org chart BA');
  const bar = row.getByTestId('job-progress');
  const seen: number[] = [];
  let eta = '';
  const until = Date.now() + 150_000;
  while (Date.now() < until) {
    if ((await row.getAttribute('data-status')) !== 'running') break;
    const value = await bar.evaluate((e) => (e as HTMLProgressElement).value).catch(() => -1);
    if (value >= 0 && (seen.length === 0 || value !== seen[seen.length - 1])) seen.push(value);
    const text = await row.getByTestId('job-progress-text').innerText().catch(() => '');
    if (/^\d+\u00a0% — (about \d+ (s|min|h)|a few seconds) /.test(text) && value >= 2) eta = text;
    if (seen.length >= 3 && eta) break;
    await page.waitForTimeout(300);
  }
  assert.ok(seen.length >= 3, `the bar moved (values seen: ${seen.join(', ')})`);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i] >= seen[i - 1], `never goes back: ${seen.join(', ')}`);
  assert.ok(eta, 'the time left is shown');
  assert.equal(await row.getAttribute('data-status'), 'running', 'still running');
  assert.deepEqual(await axe(page), [], 'Jobs page: axe serious/critical violations');
  keepShot('jobs-running-1280', await page.screenshot({ fullPage: true }));
  await fits390(page, 'jobs-running');

  // Cancel from the keyboard
  await row.getByRole('button', { name: /^Cancel Betweenness centrality/ }).focus();
  await page.keyboard.press('Enter');
  await page.locator(`tr[data-job="${jobId}"][data-status="cancelled"]`).waitFor({ timeout: 10_000 });
  await page.getByText('Cancelled Betweenness centrality; nothing was written.').waitFor();
  const viaApi = await env.api('GET', `/api/v2/jobs/${jobId}`);
  assert.equal(viaApi.status, 200, JSON.stringify(viaApi.body));
  assert.equal(viaApi.body.status, 'cancelled');
  keepShot('jobs-cancelled-1280', await page.screenshot({ fullPage: true }));

  // a quick PageRank, started on the network page, finishes while the page watches (the worker is free again)
  await page.goto(`${env.base}/networks/${networkId}`);
  await card.getByLabel('Metric').selectOption('pageRank');
  await card.getByRole('button', { name: 'Run as a job' }).click();
  await card.locator('li[data-status="succeeded"]', { hasText: 'PageRank' }).waitFor({ timeout: 60_000 });
  await page.getByText('PageRank on “Org chart BA” finished.').waitFor({ timeout: 10_000 });
  keepShot('network-job-done-1280', await page.screenshot({ fullPage: true }));
  await page.getByRole('link', { name: 'All your jobs' }).click();
  const done = page.locator('tr[data-status="succeeded"]', { hasText: 'PageRank' });
  await done.waitFor();
  assert.equal(await done.locator('td[data-label="Status"]').innerText(), 'Done');
  keepShot('jobs-done-1280', await page.screenshot({ fullPage: true }));
  await fits390(page, 'jobs-done');

  // Explore (owner mode, edit access): the viewer's Metrics panel runs Degree as a job of its session; the
  // values are written to the network and shown in the viewer; the job is on this person's Jobs page
  await page.goto(`${env.base}/networks/${exploreId}/explore`);
  await page.getByTestId('viewer-status').filter({ hasText: /10,?000 nodes/ }).waitFor({ timeout: 90_000 });
  const viewer = page.frameLocator('[data-testid="viewer-frame"] iframe');
  keepShot('explore-before-metrics-1280', await page.screenshot());
  await viewer.locator('.nl-menu-item[data-item="metrics"]').click({ timeout: 90_000 }); // a busy machine may still be drawing 10,000 nodes
  const panel = viewer.locator('.nl-panel[data-item="metrics"]');
  await panel.locator('select[aria-label="Metric"]').selectOption('totalDegree');
  await panel.locator('[data-action="run-metric"]').click();
  await panel.locator('.nl-note', { hasText: /^Added / }).waitFor({ timeout: 60_000 });
  assert.match(await panel.locator('.nl-note').innerText(), /^Added Total Degree \(also saved in the network\)\. Use it in Color, Size or Filter\.$/);
  const stored = await env.api('GET', `/api/v2/networks/${exploreId}`);
  const nodes = (stored.body.networkJSON as { nodes: { attributes?: Record<string, unknown> }[] }).nodes;
  assert.ok(nodes.every((n) => typeof n.attributes?.['Total Degree'] === 'number'), 'written to the stored network');
  const jobs = await env.api('GET', '/api/v2/jobs?limit=5');
  assert.ok((jobs.body.jobs as { metric?: string; status: string }[]).some((j) => j.metric === 'totalDegree' && j.status === 'succeeded'), "the viewer's job is the person's");
  keepShot('explore-metric-job-1280', await page.screenshot());
  await page.close();
});
