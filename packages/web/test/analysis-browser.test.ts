// From survey answers to networks and the compare view, in Chromium (issue 22 acceptance): a 10-person
// survey is answered through the respondent API (each person's own link) and completed; on the survey's
// Networks step the preview shows node and edge counts for every non-respondent choice, Generate makes
// the networks and links them to Explore, where the viewer's Groups panel reports the teams (screenshot);
// a second wave is answered with changed ties, its networks generated, and the compare view shows what
// changed between the waves (summary, movers, group changes) and opens the difference in the viewer
// (ties added green, removed red, kept faded, with the legend; screenshot). axe 0 serious/critical on the new pages; they fit a
// 390-px phone. Screenshots go to NETLOOM_SCREENSHOT_DIR when set.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startWebEnv, signIn, axe, horizontalOverflow, keepShot, skipBrowser, type WebEnv } from './helpers/web-env.ts';

let env: WebEnv;
let admin: Page;
const skip = skipBrowser;

const PEOPLE = Array.from({ length: 10 }, (_, i) => ({ employeeId: `a${i + 1}`, name: `Analyst ${String.fromCharCode(65 + i)}`, email: `a${i + 1}@example.com`, fields: { team: i < 5 ? 'Sales' : 'Research' } }));
const QUESTIONS = [{ id: 'advice', type: 'relationship', text: 'Who do you go to for advice?', noneOption: true }];

/** Who names whom: everyone names the next two people of their team; a1 also names a6 (across teams). a10 never answers. */
function nominations(wave: number): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (let i = 0; i < 9; i++) {
    const team = i < 5 ? [0, 1, 2, 3, 4] : [5, 6, 7, 8, 9];
    const at = team.indexOf(i);
    const named = [team[(at + 1) % 5]!, team[(at + 2) % 5]!].map((j) => `a${j + 1}`);
    if (i === 0) named.push(wave === 1 ? 'a6' : 'a7');
    if (wave === 2 && i === 5) named.push('a2');
    m.set(`a${i + 1}`, named);
  }
  return m;
}

async function api(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const r = await env.api(method, path, body);
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body;
}

/** Launches, answers every respondent but a10 through their own link (the respondent API), completes. */
async function runWave(id: string, wave: number): Promise<void> {
  await api('PUT', `/api/v2/surveys/${id}`, { status: 'collecting' });
  const links = (await api('GET', `/api/v2/surveys/${id}/links?format=json`)).links as { employeeId: string; link: string }[];
  for (const [eid, named] of nominations(wave)) {
    const token = links.find((l) => l.employeeId === eid)!.link.split('/s/')[1]!;
    const put = await fetch(`${env.base}/s/api/${token}/answers/advice`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ value: named.map((e) => ({ employeeId: e })) }) });
    assert.equal(put.status, 200, await put.text());
    const sub = await fetch(`${env.base}/s/api/${token}/submit`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(sub.status, 200, await sub.text());
  }
  await api('PUT', `/api/v2/surveys/${id}`, { status: 'completed' });
}

async function noAxe(page: Page, where: string): Promise<void> {
  assert.deepEqual(await axe(page), [], `${where}: axe serious/critical`);
}

async function fits390(page: Page, where: string): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  const o = await horizontalOverflow(page);
  assert.ok(o.scrollWidth <= o.viewport + 1, `${where} at 390 px: ${JSON.stringify(o)}`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

before(async () => {
  if (skip) return;
  env = await startWebEnv();
  admin = await env.newPage();
  await signIn(admin, env.base, env.owner.email, env.owner.password);
  await api('POST', '/api/v2/customFields', { key: 'team', label: 'Team', type: 'category', options: ['Sales', 'Research'] });
  await api('PUT', '/api/v2/employees', { mode: 'merge', employees: PEOPLE });
});
after(async () => {
  await env?.close();
});

test('survey → generate networks (preview, Explore, Groups panel) → second wave → compare view', { skip, timeout: 600_000 }, async () => {
  const s1 = await api('POST', '/api/v2/surveys', { name: 'Advice 2026', questions: QUESTIONS, minGroupSize: 3 });
  const w1 = String(s1._id);
  await runWave(w1, 1);

  // The Networks step: live preview of every non-respondent choice, then Generate.
  const page = admin;
  await page.goto(`${env.base}/surveys/${w1}/networks`);
  const preview = page.getByTestId('generate-preview');
  await preview.waitFor({ timeout: 90_000 });
  const row = preview.locator('tr[data-question="advice"]');
  // 9 of 10 answered: 19 ties; drop removes a10 and the 2 ties to them (a8→a10, a9→a10); reconstruct gives those 2 back from a10.
  await row.locator('td[data-mode="keep"]').filter({ hasText: '10 nodes · 19 edges' }).waitFor({ timeout: 60_000 });
  assert.equal(await row.locator('td[data-mode="drop"]').innerText(), '9 nodes · 17 edges');
  assert.equal(await row.locator('td[data-mode="reconstruct"]').innerText(), '10 nodes · 21 edges');
  await noAxe(page, 'networks step');
  keepShot('analysis-generate-1280', await page.screenshot({ fullPage: true }));
  await fits390(page, 'networks step');
  await page.getByRole('button', { name: 'Generate networks' }).click();
  const generated = page.getByTestId('generated-networks');
  await generated.getByRole('link', { name: 'Open in Explore' }).waitFor({ timeout: 60_000 });
  const stored = (await api('GET', `/api/v2/surveys/${w1}`)).networks as { _id: string; question: string }[];
  assert.deepEqual(stored.map((n) => n.question), ['advice']);
  const net1 = stored[0]!._id;

  // Explore: the viewer's Groups panel on the generated network, by Team.
  await generated.getByRole('link', { name: 'Open in Explore' }).click();
  await page.waitForURL(`**/networks/${net1}/explore`);
  await page.getByTestId('viewer-status').filter({ hasText: /10 nodes/ }).waitFor({ timeout: 90_000 });
  const viewer = page.frameLocator('[data-testid="viewer-frame"] iframe');
  await viewer.locator('.nl-menu-item[data-item="groups"]').click({ timeout: 90_000 });
  const panel = viewer.locator('.nl-panel[data-item="groups"]');
  await panel.locator('select[data-option="groups-attribute"]').selectOption('Team');
  await panel.locator('[data-action="run-groups"]').click();
  const matrix = viewer.locator('[data-groups-matrix]');
  await matrix.waitFor({ timeout: 60_000 });
  assert.deepEqual((await matrix.locator('thead th').allTextContents()).slice(1), ['Research', 'Sales']);
  // Sales → Sales: 5 people naming 2 each = 10 ties; Sales → Research: a1 → a6 = 1.
  await viewer.locator('select[data-option="groups-show"]').selectOption('counts');
  assert.equal(await matrix.locator('td[data-cell="1,1"]').textContent(), '10');
  assert.equal(await matrix.locator('td[data-cell="1,0"]').textContent(), '1');
  keepShot('analysis-groups-panel-1280', await page.screenshot());

  // Second wave, changed answers; its networks generated through the API.
  const w2 = String((await api('POST', `/api/v2/surveys/${w1}/copy`, { wave: true }))._id);
  await runWave(w2, 2);
  const g2 = await api('POST', `/api/v2/surveys/${w2}/networks`, {});
  assert.match(String((g2.networks as { name: string }[])[0]!.name), /\(wave 2\)/);

  // One click from the survey: its Networks step compares the latest two waves at once.
  await page.goto(`${env.base}/surveys/${w2}/networks`);
  await page.getByRole('link', { name: 'Compare with the previous wave' }).click({ timeout: 90_000 });
  await page.getByTestId('compare-summary').waitFor({ timeout: 90_000 });
  assert.match(await page.getByTestId('compare-summary').innerText(), /Ties added\s+2/);

  // The compare view with a group attribute.
  await page.goto(`${env.base}/analysis/compare?survey=${w2}`);
  await page.getByLabel('Survey (a second or later wave)').selectOption(w2);
  await page.getByLabel('Group by node attribute (optional)').fill('Team');
  await page.getByRole('button', { name: 'Compare' }).click();
  const summary = page.getByTestId('compare-summary');
  await summary.waitFor({ timeout: 90_000 });
  const text = await summary.innerText();
  assert.match(text, /Ties added\s+2/);
  assert.match(text, /Ties removed\s+1/);
  assert.match(text, /People in both\s+10/);
  const groups = await page.getByTestId('compare-groups').innerText();
  assert.match(groups, /Research/);
  assert.match(groups, /Sales/);
  const movers = await page.getByTestId('compare-movers').innerText();
  assert.match(movers, /a6|a7|a2/);
  await noAxe(page, 'compare view');
  keepShot('analysis-compare-1280', await page.screenshot({ fullPage: true }));
  await fits390(page, 'compare view');

  // The difference in the viewer: ties coloured by Change (added green, removed red, kept faded) with a legend.
  await page.getByRole('button', { name: 'Open the difference in Explore' }).click();
  await page.waitForURL(/\/networks\/[^/]+\/explore\?difference=1$/, { timeout: 60_000 });
  await page.getByTestId('viewer-status').filter({ hasText: /10 nodes · 21 edges/ }).waitFor({ timeout: 90_000 });
  const frame = page.frameLocator('[data-testid="viewer-frame"] iframe');
  const legend = frame.locator('.nl-legend-section[data-legend="edge"]');
  await legend.waitFor({ timeout: 60_000 });
  assert.equal(await legend.locator('.nl-legend-title').textContent(), 'Ties: Change');
  const entries = await legend.locator('.nl-legend-row').evaluateAll((rows) => rows.map((r) => [r.textContent, getComputedStyle(r.querySelector('.nl-swatch') as Element).backgroundColor]));
  assert.deepEqual(entries, [['added', 'rgb(26, 152, 80)'], ['removed', 'rgb(215, 48, 39)'], ['kept', 'rgb(217, 217, 217)']]);
  const diffId = /\/networks\/([^/]+)\/explore/.exec(page.url())![1]!;
  const diffNet = (await api('GET', `/api/v2/networks/${diffId}`)).networkJSON as { edges: { source: string; target: string; attributes: { Change: string } }[] };
  const by = (c: string) => diffNet.edges.filter((e) => e.attributes.Change === c).map((e) => `${e.source}>${e.target}`).sort();
  assert.deepEqual(by('added'), ['a1>a7', 'a6>a2']);
  assert.deepEqual(by('removed'), ['a1>a6']);
  assert.equal(by('kept').length, 18);
  await page.waitForTimeout(1500);
  const shot = await page.screenshot();
  keepShot('analysis-difference-1280', shot);
});
