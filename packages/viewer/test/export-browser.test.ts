/**
 * Exports end to end in Debian's Chromium, in the embedded viewer with the spec's sandbox flags
 * (`allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox`, checked on the iframe):
 * clicking each Export item produces a real download (Playwright's `download` event, in the download
 * window that escapes the sandbox) whose file parses — PNG decodes (2× the canvas), SVG is well-formed
 * with finite coordinates, CSV has the visible rows, GEXF (graphology-gexf) and Excel (exceljs) hold
 * exactly the visible network and re-import into the service (`POST /api/v2/networks/import`) equal to it
 * (node ids, attributes, positions, edges with weights). Files are kept in packages/viewer/test-output/.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import type { Download, Page } from 'playwright-core';
import { MultiDirectedGraph } from 'graphology';
import { parse as parseGexf } from 'graphology-gexf';
import ExcelJS from 'exceljs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countColor, decodePng, type Image } from './png.ts';
import { sdk, skipBrowser as skip, browserEnvFixture, viewerDownload, viewerFrame } from './helpers/browser-env.ts';
import type { Inspect } from '../src/inspect.ts';

const OUT = new URL('../test-output/', import.meta.url);
let networkId: string;

const TEAMS = ['Sales', 'Eng', 'Ops', 'Design'];
function network() {
  const nodes = Array.from({ length: 40 }, (_, i) => ({ id: `n${i}`, attributes: { name: `Person ${i}`, team: TEAMS[i % 4], score: i, code: `00${i}` } }));
  const edges = Array.from({ length: 70 }, (_, k) => ({ id: `e${k}`, source: `n${k % 40}`, target: `n${(k * 7 + 3) % 40}`, attributes: { weight: (k % 5) + 1 } }));
  return { nodes, edges };
}

const env = browserEnvFixture({ viewer: { width: 900, height: 600 }, logHttpErrors: true, out: OUT }, async (env) => {
  networkId = await env.network('Export network', network());
  await env.user('export-1', networkId, { permission: 'View' });
});

function crop(im: Image, x0: number, y0: number, w: number, h: number): Image {
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) data.set(im.data.subarray(((y0 + y) * im.width + x0) * 4, ((y0 + y) * im.width + x0 + w) * 4), y * w * 4);
  return { width: w, height: h, data };
}

/** Clicks an Export item; returns the download (from the download window the click opened) and its bytes. */
function download(page: Page, kind: string): Promise<{ d: Download; bytes: Buffer }> {
  return viewerDownload(page, `.nl-panel [data-export="${kind}"]`, { out: OUT, prefix: 'export-' });
}

test('each Export item downloads a file that parses and holds the visible network (sandbox flags as the spec)', { skip, timeout: 180_000 }, async () => {
  const page = await env.open(await env.session('export-1', networkId));
  assert.equal(await page.locator('#viewer iframe').getAttribute('sandbox'), 'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox');
  assert.equal((await sdk(page, 'layers.filter', { attribute: 'team', values: ['Eng', 'Ops'] })).ok, true);
  // A colour layer: teams in the palette's order of frequency, then name (10 each): Eng #3cb44b, Ops #4363d8.
  assert.equal((await sdk(page, 'layers.color', { attribute: 'team' })).ok, true);
  const visible = network().nodes.filter((n) => n.attributes.team === 'Eng' || n.attributes.team === 'Ops');
  const ids = new Set(visible.map((n) => n.id));
  const visibleEdges = network().edges.filter((e) => ids.has(e.source) && ids.has(e.target));
  const f = page.frameLocator('#viewer iframe');
  await f.locator('.nl-menu-item[data-item="export"]').click();
  await f.locator('.nl-panel[data-item="export"]').waitFor();

  // PNG at 2×: decodes, twice the canvas.
  await f.locator('select[data-option="png-scale"]').selectOption('2');
  const canvas = await viewerFrame(page).evaluate(() => (window as unknown as { netloomInspect: Inspect }).netloomInspect.canvas());
  const png = await download(page, 'png');
  assert.match(png.d.suggestedFilename(), /\.2x\.png$/);
  const img = decodePng(png.bytes);
  assert.equal(img.width, canvas.width * 2);
  assert.equal(img.height, canvas.height * 2);
  let painted = 0;
  for (let k = 0; k < img.data.length; k += 4) if (img.data[k] < 200) painted++;
  assert.ok(painted > 500, 'nodes and edges are drawn');
  // The legend (on by default) in the bottom-left corner: its box and the Eng/Ops swatches are there;
  // with "Include the legend" off that corner is the drawing only.
  const corner = (im: Image) => crop(im, 0, im.height - 220, 260, 220);
  const withLegend = corner(img);
  await f.locator('input[data-option="legend"]').uncheck();
  const without = corner(decodePng((await download(page, 'png')).bytes));
  await f.locator('input[data-option="legend"]').check();
  const swatches = (im: Image) => countColor(im, '#3cb44b', 30) + countColor(im, '#4363d8', 30);
  const frame = (im: Image) => countColor(im, '#e4e7ec', 6);
  assert.ok(frame(withLegend) > 200, `the legend's border (${frame(withLegend)} px)`);
  assert.ok(swatches(withLegend) > swatches(without) + 100, `legend swatches: ${swatches(withLegend)} vs ${swatches(without)} without the legend`);
  assert.ok(frame(without) < frame(withLegend) / 4, 'no legend box when switched off');

  // SVG: well-formed (the browser's XML parser), one circle per visible node, finite coordinates.
  const svg = (await download(page, 'svg')).bytes.toString('utf8');
  const check = await viewerFrame(page).evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const circles = [...doc.querySelectorAll('circle')];
    return { error: doc.querySelector('parsererror')?.textContent ?? null, circles: circles.length, finite: circles.every((c) => ['cx', 'cy', 'r'].every((a) => Number.isFinite(Number(c.getAttribute(a))))) };
  }, svg);
  assert.equal(check.error, null);
  // One circle per visible node, plus the legend's two swatches.
  assert.equal(check.circles, visible.length + 2);
  assert.equal(check.finite, true);
  // Directed network: every edge ends in an arrowhead marker; the legend is drawn.
  assert.match(svg, /<marker id="nl-arrow-0"[^>]*orient="auto"/);
  assert.equal((svg.match(/<line [^>]*marker-end="url\(#nl-arrow-\d+\)"/g) ?? []).length, visibleEdges.length);
  assert.match(svg, /<g class="legend"[\s\S]*>TEAM<\/text>[\s\S]*>Eng<\/text>/);

  // CSV: the visible node table.
  const csv = (await download(page, 'csv')).bytes.toString('utf8').trim().split('\r\n');
  assert.equal(csv.length, 1 + visible.length);
  assert.ok(csv.slice(1).every((l) => /,(Eng|Ops)$/.test(l)), csv.slice(0, 3).join(' | '));

  // GEXF: exactly the visible nodes and the edges between them, attributes kept.
  const gexfBytes = (await download(page, 'gexf')).bytes;
  const gexf = parseGexf(MultiDirectedGraph, gexfBytes.toString('utf8'));
  assert.deepEqual(gexf.nodes().sort(), [...ids].sort());
  assert.equal(gexf.size, visibleEdges.length);
  assert.equal(gexf.getNodeAttribute('n1', 'team'), 'Eng');
  assert.equal(gexf.getNodeAttribute('n1', 'score'), 1);
  assert.ok(gexf.nodes().every((n) => Number.isFinite(gexf.getNodeAttribute(n, 'x'))));
  // Colours as r g b a (NetworkX 3.6 cannot read `hex`): NetworkX reads the file with every colour.
  const gexfText = gexfBytes.toString('utf8');
  assert.match(gexfText, /<viz:color r="60" g="180" b="75" a="1"\/>/);
  assert.doesNotMatch(gexfText, /hex=/);
  const file = join(tmpdir(), `netloom-explore-${process.pid}.gexf`);
  writeFileSync(file, gexfBytes);
  const read = JSON.parse(execFileSync('python3', ['-c', `import json, sys, networkx as nx
g = nx.read_gexf(sys.argv[1])
print(json.dumps({"version": nx.__version__, "nodes": g.number_of_nodes(), "edges": g.number_of_edges(), "colors": {n: d["viz"]["color"] for n, d in g.nodes(data=True)}}))`, file], { encoding: 'utf8' })) as { version: string; nodes: number; edges: number; colors: Record<string, { r: number; g: number; b: number; a: number }> };
  assert.equal(read.nodes, visible.length, `NetworkX ${read.version}`);
  assert.equal(read.edges, visibleEdges.length);
  assert.deepEqual(read.colors.n1, { r: 60, g: 180, b: 75, a: 1 }, 'Eng');
  assert.deepEqual(read.colors.n2, { r: 67, g: 99, b: 216, a: 1 }, 'Ops');

  // Excel: Nodes (Name = id, X, Y, attributes; `name` as `name [text]`, numeric-looking texts as text), Edges, Network.
  const wb = new ExcelJS.Workbook();
  const xlsxBytes = (await download(page, 'xlsx')).bytes;
  await wb.xlsx.load(xlsxBytes as unknown as ArrayBuffer);
  const rows = (name: string) => {
    const out: unknown[][] = [];
    wb.getWorksheet(name)?.eachRow((r) => out.push((r.values as unknown[]).slice(1)));
    return out;
  };
  const nodes = rows('Nodes');
  assert.deepEqual(nodes[0], ['Name', 'X', 'Y', 'code [text]', 'name [text]', 'score', 'team']);
  assert.equal(nodes.length, 1 + visible.length);
  const n1 = nodes.find((r) => r[0] === 'n1') as unknown[];
  assert.deepEqual(n1.slice(3), ['001', 'Person 1', 1, 'Eng']);
  assert.ok(Number.isFinite(n1[1]) && Number.isFinite(n1[2]));
  const edges = rows('Edges');
  assert.deepEqual(edges[0], ['Source', 'Target', 'Id', 'weight']);
  assert.equal(edges.length, 1 + visibleEdges.length);
  assert.deepEqual(rows('Network')[0], ['Name', 'Export network']);

  // Both re-import into the service (POST /api/v2/networks/import) as exactly the visible network.
  for (const [file, bytes] of [['visible.gexf', gexfBytes], ['visible.xlsx', xlsxBytes]] as const) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), file);
    const res = await fetch(`${env.service}/api/v2/networks/import`, { method: 'POST', headers: { authorization: `Bearer ${env.orgToken}` }, body: form });
    const body = await res.json() as { _id: string };
    assert.ok(res.ok, `${file}: ${res.status} ${JSON.stringify(body)}`);
    const back = (await env.api('GET', `/api/v2/networks/${body._id}`)).networkJSON as { nodes: { id: string; x?: number; attributes: Record<string, unknown> }[]; edges: { source: string; target: string; attributes?: Record<string, unknown> }[] };
    assert.deepEqual(back.nodes.map((n) => n.id).sort(), [...ids].sort(), `${file}: node ids`);
    for (const n of back.nodes) {
      // GEXF carries the drawing's color and size (viz), which the service keeps as `_color` / `_size`.
      const { _color, _size, ...attributes } = n.attributes;
      if (file.endsWith('.gexf')) assert.ok(typeof _color === 'string' && typeof _size === 'number', `${file}: drawn color and size of ${n.id}`);
      assert.deepEqual(attributes, visible.find((v) => v.id === n.id)?.attributes, `${file}: attributes of ${n.id}`);
      assert.ok(Number.isFinite(n.x), `${file}: position of ${n.id}`);
    }
    const key = (e: { source: string; target: string; attributes?: Record<string, unknown> }) => `${e.source}>${e.target}:${e.attributes?.weight}`;
    assert.deepEqual(back.edges.map(key).sort(), visibleEdges.map(key).sort(), `${file}: edges and their weights`);
  }
  await page.close();
});
