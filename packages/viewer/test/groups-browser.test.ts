/**
 * The Groups panel end to end in Debian's Chromium (embedded viewer, the spec's sandbox flags): pick an
 * attribute and a minimum group size, the service's group report appears as a heat-map matrix (values in
 * the cells and on hover, darker = more) and a table; CSV, Excel and PNG downloads really arrive (through
 * the download window that escapes the sandbox) and hold the report. Screenshot and files are kept in
 * packages/viewer/test-output/.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import type { Download, Page } from 'playwright-core';
import ExcelJS from 'exceljs';
import { decodePng } from './png.ts';
import { skipBrowser as skip, browserEnvFixture, viewerDownload } from './helpers/browser-env.ts';

const OUT = new URL('../test-output/', import.meta.url);
let networkId: string;

// Sales (4), Eng (4), Ops (3), Legal (1: below a minimum of 2); ties mostly within teams.
const TEAM = ['Sales', 'Sales', 'Sales', 'Sales', 'Eng', 'Eng', 'Eng', 'Eng', 'Ops', 'Ops', 'Ops', 'Legal'];
function network() {
  const nodes = TEAM.map((team, i) => ({ id: `n${i}`, attributes: { name: `Person ${i}`, team } }));
  const pairs = [[0, 1], [1, 2], [2, 3], [3, 0], [4, 5], [5, 6], [6, 7], [8, 9], [9, 10], [0, 4], [4, 8], [11, 0]];
  return { nodes, edges: pairs.map(([s, t], k) => ({ id: `e${k}`, source: `n${s}`, target: `n${t}` })) };
}

const env = browserEnvFixture({ viewer: { width: 1000, height: 700 }, logHttpErrors: true, out: OUT }, async (env) => {
  networkId = await env.network('Groups network', network());
  await env.user('groups-1', networkId, { permission: 'View' });
});

function download(page: Page, kind: string): Promise<{ d: Download; bytes: Buffer }> {
  return viewerDownload(page, `.nl-panel [data-groups-export="${kind}"]`, { out: OUT, prefix: 'groups-' });
}

test('Groups panel: heat map and table of the group report, values on hover; CSV, Excel and PNG downloads arrive', { skip, timeout: 180_000 }, async () => {
  const page = await env.open(await env.session('groups-1', networkId));
  const f = page.frameLocator('#viewer iframe');
  await f.locator('.nl-menu-item[data-item="groups"]').click();
  await f.locator('.nl-panel[data-item="groups"]').waitFor();
  await f.locator('select[data-option="groups-attribute"]').selectOption('team');
  await f.locator('input[data-option="groups-min-size"]').fill('2');
  await f.locator('input[data-option="groups-min-size"]').dispatchEvent('change');
  await f.locator('[data-action="run-groups"]').click();
  const matrix = f.locator('[data-groups-matrix]');
  await matrix.waitFor({ timeout: 30_000 });
  // groups of at least 2 only: Legal (1 member) is not shown alone, and Other (< 2) (1 member) not at all
  const heads = await matrix.locator('thead th').allTextContents();
  assert.deepEqual(heads.slice(1), ['Eng', 'Ops', 'Sales']);
  // densities in the cells (undirected? the stored network is directed): Sales → Sales = 4 ties / 12 pairs
  const salesSales = matrix.locator('td[data-cell="2,2"]');
  assert.equal(await salesSales.textContent(), '0.33');
  assert.match((await salesSales.getAttribute('title')) ?? '', /^Sales → Sales: 4 ties, density 0\.333$/);
  const bgSales = await salesSales.evaluate((el) => getComputedStyle(el).backgroundColor);
  const bgEmpty = await matrix.locator('td[data-cell="1,2"]').evaluate((el) => getComputedStyle(el).backgroundColor);
  assert.notEqual(bgSales, bgEmpty, 'a denser cell is darker');
  const table = await f.locator('[data-groups-table] tbody tr').allTextContents();
  assert.equal(table.length, 3);
  assert.match(await f.locator('[data-groups-summary]').textContent() ?? '', /1 nodes are in groups below 2 members/);
  // counts instead of densities
  await f.locator('select[data-option="groups-show"]').selectOption('counts');
  assert.equal(await f.locator('[data-groups-matrix] td[data-cell="2,2"]').textContent(), '4');
  const shot = await page.screenshot();
  writeFileSync(new URL('groups-panel.png', OUT), shot);
  assert.ok(decodePng(shot).width > 0);

  const csv = (await download(page, 'csv')).bytes.toString('utf8').split('\r\n');
  assert.equal(csv[0], 'Group,Size,Internal ties,External ties,Density,E-I index');
  assert.ok(csv.some((l) => l.startsWith('Sales,4,4,')), csv.slice(0, 5).join(' | '));

  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await download(page, 'xlsx')).bytes as unknown as ArrayBuffer);
  assert.deepEqual(wb.worksheets.map((w) => w.name), ['Groups', 'Ties', 'Densities', 'Network']);
  const ties: unknown[][] = [];
  wb.getWorksheet('Ties')?.eachRow((r) => ties.push((r.values as unknown[]).slice(1)));
  assert.deepEqual(ties[3], ['Sales', 1, 0, 4]);

  const png = await download(page, 'png');
  assert.match(png.d.suggestedFilename(), /\.png$/);
  const img = decodePng(png.bytes);
  let dark = 0;
  for (let k = 0; k < img.data.length; k += 4) if (img.data[k] < 60 && img.data[k + 2] > 80) dark++;
  assert.ok(img.width > 300 && dark > 100, `a heat map with dark cells (${img.width}×${img.height}, ${dark} dark pixels)`);
});
