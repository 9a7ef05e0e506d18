// Network-level results shown wherever they are run (issue 23 item 5), in Chromium: on a path of six nodes
// the network page computes Diameter now ("Diameter: 5", default parameters, its time) and as a job — the
// job's line on the network page and its row on the Jobs page read "Diameter: 5"; Average shortest path
// length run as a job reads "2.333" (4 significant digits; the API keeps the full value). Axe on both pages.
// Screenshots are written to NETLOOM_SCREENSHOT_DIR when it is set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { webEnvFixture, openMetricCard, signIn, axe, keepShot, skipBrowser } from './helpers/web-env.ts';

let networkId: string;

const env = webEnvFixture({}, async (env) => {
  networkId = await env.network('Path of six', { nodes: Array.from({ length: 6 }, (_, i) => ({ id: i })), edges: Array.from({ length: 5 }, (_, i) => ({ id: i, source: i, target: i + 1 })) }, { isDirected: false });
});

test('Diameter computed now and as a job: its number on the network page and on the Jobs page', { skip: skipBrowser, timeout: 180_000 }, async () => {
  const { page, card } = await openMetricCard(env, networkId, 'diameter');

  // synchronously
  await card.getByRole('button', { name: 'Compute now' }).click();
  const now = card.locator('[data-testid="metric-value"][data-metric="diameter"]');
  await now.waitFor({ timeout: 60_000 });
  const nowText = (await now.textContent()) ?? '';
  assert.match(nowText, /^Diameter: 5 default parameters · \d+ ms$|^Diameter: 5 default parameters · \d+\.\d s$/, nowText);

  // as a job
  await card.getByRole('button', { name: 'Run as a job' }).click();
  const line = card.locator('li[data-job][data-status="succeeded"] [data-testid="job-value"]');
  await line.first().waitFor({ timeout: 60_000 });
  assert.equal(await line.first().textContent(), 'Diameter: 5');
  const jobId = String(await card.locator('li[data-job][data-status="succeeded"]').first().getAttribute('data-job'));
  keepShot('network-results-1280', await page.screenshot({ fullPage: true }));
  assert.deepEqual(await axe(page), [], 'network page with results: axe serious/critical violations');

  // the API keeps the job's full result; the web list carries its number
  const job = await env.api('GET', `/api/v2/jobs/${jobId}`);
  assert.equal(job.body.result, 5);

  // Average shortest path length: 70 / 30 = 2.333…
  await card.getByLabel('Metric').selectOption('avgShortestPathLength');
  await card.getByRole('button', { name: 'Run as a job' }).click();

  await page.goto(`${env.base}/jobs`);
  const row = page.locator(`tr[data-job="${jobId}"]`);
  await row.waitFor({ timeout: 30_000 });
  assert.equal(await row.getByTestId('job-value').textContent(), 'Diameter: 5');
  const aspl = page.locator('tr[data-job][data-status="succeeded"] [data-testid="job-value"]', { hasText: 'Average' });
  await aspl.waitFor({ timeout: 60_000 });
  assert.match((await aspl.textContent()) ?? '', /: 2\.333$/);
  keepShot('jobs-results-1280', await page.screenshot({ fullPage: true }));
  assert.deepEqual(await axe(page), [], 'Jobs page with results: axe serious/critical violations');
  await page.context().close();
});

test('the web API: a node metric cannot be computed now (400 names it); a network-level one answers its number, parameters and time', { skip: skipBrowser, timeout: 60_000 }, async () => {
  const page = await env.newPage({ width: 800, height: 600 });
  await signIn(page, env.base, env.owner.email, env.owner.password);
  const call = (metric: string) => page.evaluate(async ([base, id, m]) => {
    const session = await (await fetch(`${base}/app/api/session`)).json() as { csrfToken: string };
    const r = await fetch(`${base}/app/api/networks/${id}/metrics/${m}/value`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken }, body: '{}' });
    return { status: r.status, body: await r.json() as Record<string, unknown> };
  }, [env.base, networkId, metric] as const);
  const node = await call('pageRank');
  assert.equal(node.status, 400, JSON.stringify(node.body));
  assert.match(String(node.body.detail), /pageRank is a node metric; run it as a job/);
  const ok = await call('diameter');
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  assert.equal(ok.body.value, 5);
  assert.deepEqual(ok.body.parameters, {});
  assert.equal(ok.body.metric, 'diameter');
  assert.ok(typeof ok.body.ms === 'number' && ok.body.ms >= 0);
  await page.context().close();
});
