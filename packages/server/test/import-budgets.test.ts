// Parsing budgets of the import readers (issue 19 finding 5, docs/security.md): small compressed uploads
// that unpack to hundreds of MiB are refused before they are parsed, with the process's RSS growth
// measured during the request; and the import answer's warnings through the real HTTP stack (API and
// web app), on SQLite and PostgreSQL.
import { describe, test, before, after } from 'node:test';
import { rmSync } from 'node:fs';
import assert from 'node:assert/strict';
import { createDeflateRaw, crc32 } from 'node:zlib';
import { mkdtempSync, openAsBlob, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { userApp, bearer, DIALECTS } from './helpers/app.ts';
import { fixture } from './helpers/fixture.ts';
import { compressWhileWriting, rssGrowth } from './helpers/load.ts';
import { webClient } from './helpers/web.ts';
import { zipArchive as zip } from './helpers/zip.ts';

const dir = mkdtempSync(join(tmpdir(), 'netloom-budgets-'));

/** Deflates `size` bytes made by repeating `unit` (after `head`), without holding them: the zip entry's data, CRC and sizes. */
async function deflated(head: string, unit: string, size: number): Promise<{ data: Buffer; crc: number; size: number }> {
  const { data, bytes, crc } = await compressWhileWriting(createDeflateRaw({ level: 9 }), async (write) => {
    const first = Buffer.from(head);
    await write(first);
    const block = Buffer.from(unit.repeat(Math.ceil((1 << 20) / unit.length)));
    for (let written = first.length; written + block.length <= size; written += block.length) await write(block);
  });
  return { data, crc, size: bytes };
}

const stored = (name: string, text: string) => {
  const data = Buffer.from(text);
  return { name, data, crc: crc32(data) >>> 0, size: data.length, method: 0 };
};

after(() => rmSync(dir, { recursive: true, force: true }));

let csvZip = '';
let bigXlsx = '';

before(async () => {
  // a CSV whose header is one line of 250 MiB ("a,a,a,…"), zipped
  const header = await deflated('', 'a,', 250 * 2 ** 20);
  csvZip = join(dir, 'header.zip');
  writeFileSync(csvZip, zip([{ name: 'edges.csv', ...header, method: 8 }]));
  // a workbook whose Nodes sheet unpacks to 200 MiB of rows
  const rows = await deflated('<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c></row>', '<row><c t="inlineStr"><is><t>n</t></is></c><c><v>1</v></c></row>', 200 * 2 ** 20);
  bigXlsx = join(dir, 'big.xlsx');
  writeFileSync(
    bigXlsx,
    zip([
      stored('[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'),
      stored('_rels/.rels', '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>'),
      stored('xl/workbook.xml', '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Nodes" sheetId="1" r:id="rId1"/></sheets></workbook>'),
      stored('xl/_rels/workbook.xml.rels', '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'),
      { name: 'xl/worksheets/sheet1.xml', ...rows, method: 8 },
    ]),
  );
});

for (const dialect of DIALECTS) {
  describe(`import budgets and warnings (${dialect})`, () => {
    const t = fixture(() => userApp(dialect));
    let base: string;
    before(async () => {
      base = await t.listen();
    });

    const upload = async (path: string, name: string) => {
      const form = new FormData();
      form.append('file', await openAsBlob(path), name);
      return fetch(`${base}/api/v2/networks/import`, { method: 'POST', body: form, headers: bearer(t.ownerToken) });
    };

    /** Uploads and answers the status, the problem and the largest RSS growth seen while the request ran. */
    const measured = async (path: string, name: string) => {
      const { result, growthMiB } = await rssGrowth(async () => {
        const res = await upload(path, name);
        return { status: res.status, body: (await res.json()) as { code: string; message: string } };
      }, 10);
      return { ...result, growthMiB };
    };

    test('a 255 KB-class zipped CSV with one 250 MiB header line: 413 before it is unpacked, RSS growth ≤ 512 MiB', async () => {
      const bytes = statSync(csvZip).size;
      assert.ok(bytes < 400 * 1024, `${bytes} bytes`);
      const r = await measured(csvZip, 'header.zip');
      assert.equal(r.status, 413, JSON.stringify(r.body));
      assert.equal(r.body.code, 'PAYLOAD_TOO_LARGE');
      assert.match(r.body.message, /entry edges\.csv unpacks to \d+ times its packed size/);
      console.log(`zipped CSV (${(bytes / 1024).toFixed(0)} KB, 250 MiB header line): ${r.status}, RSS growth ${r.growthMiB.toFixed(1)} MiB`);
      assert.ok(r.growthMiB <= 512, `${r.growthMiB} MiB`);
    });

    test('a ~600 KB-class xlsx whose sheet unpacks to 200 MiB: 413, RSS growth ≤ 512 MiB; nothing stored', async () => {
      const bytes = statSync(bigXlsx).size;
      assert.ok(bytes < 1024 * 1024, `${bytes} bytes`);
      const r = await measured(bigXlsx, 'big.xlsx');
      assert.equal(r.status, 413, JSON.stringify(r.body));
      assert.match(r.body.message, /sheet1\.xml unpacks to \d+ times its packed size/);
      console.log(`xlsx (${(bytes / 1024).toFixed(0)} KB, sheet 200 MiB): ${r.status}, RSS growth ${r.growthMiB.toFixed(1)} MiB`);
      assert.ok(r.growthMiB <= 512, `${r.growthMiB} MiB`);
      const list = (await (await fetch(`${base}/api/v2/networks`, { headers: bearer(t.ownerToken) })).json()) as unknown[];
      assert.equal(list.length, 0);
    });

    test('a CSV with a 2 MiB line (not compressed): 400 naming the line, before parsing', async () => {
      const path = join(dir, `long-${dialect}.csv`);
      writeFileSync(path, `Source,Target\na,b\nb,${'c'.repeat(2 << 20)}\n`);
      const res = await upload(path, 'long.csv');
      assert.equal(res.status, 400);
      const p = (await res.json()) as { errors: { path: string; message: string }[] };
      assert.deepEqual(p.errors, [{ path: 'long.csv line 3', message: 'the line is longer than 1048576 bytes (the longest a CSV line may be)' }]);
    });

    test('the import answer lists warnings, in the API and in the web app', async () => {
      const path = join(dir, `warn-${dialect}.gexf`);
      writeFileSync(path, '<?xml version="1.0"?>\n<gexf xmlns="http://gexf.net/1.3" version="1.3"><meta><title>Mixed</title></meta>\n<graph defaultedgetype="directed">\n<attributes class="node"><attribute id="s" title="score" type="double"/></attributes>\n<nodes><node id="a"><attvalues><attvalue for="s" value="INF"/></attvalues></node><node id="b"/></nodes>\n<edges><edge source="a" target="b" type="undirected"/></edges>\n</graph></gexf>\n');
      const res = await upload(path, 'warn.gexf');
      assert.equal(res.status, 200);
      const net = (await res.json()) as { name: string; edgeCount: number; isDirected: boolean; warnings: { path: string; message: string; count: number }[] };
      assert.equal(net.name, 'Mixed');
      assert.equal(net.isDirected, false);
      assert.equal(net.edgeCount, 1);
      assert.deepEqual(net.warnings.map((w) => [w.path, w.count]), [['warn.gexf line 5', 1], ['', 1]]);
      assert.match(net.warnings[0].message, /attribute "score": INF, -INF, NaN and null are not numbers; read as absent values \(at warn\.gexf line 5\)/);
      assert.match(net.warnings[1].message, /every edge of the GEXF file declares itself undirected/);
      // the web app's upload answers the same warnings (201)
      const c = webClient(t.app);
      assert.equal((await c.signIn(t.owner.email)).statusCode, 200);
      const form = new FormData();
      form.append('file', await openAsBlob(path), 'warn.gexf');
      const r = new Response(form);
      const web = await c.request('POST', '/app/api/networks/import', { body: Buffer.from(await r.arrayBuffer()), headers: { 'content-type': String(r.headers.get('content-type')) } });
      assert.equal(web.statusCode, 201, web.body);
      assert.deepEqual((web.json() as typeof net).warnings, net.warnings);
    });
  });
}

test('a reader thread that needs more heap than NETLOOM_IMPORT_HEAP_MB ends as a 413, not a server out of memory', { timeout: 300_000 }, async () => {
  const t = await userApp('sqlite', { NETLOOM_IMPORT_HEAP_MB: '32' });
  try {
    const rows = ['Source,Target,Weight'];
    for (let i = 0; i < 600_000; i++) rows.push(`n${i},n${(i * 7919) % 600_000},${i % 13}`);
    const path = join(dir, 'heap.csv');
    writeFileSync(path, rows.join('\n'));
    const form = new FormData();
    form.append('file', await openAsBlob(path), 'heap.csv');
    const r = new Response(form);
    const res = await t.app.inject({ method: 'POST', url: '/api/v2/networks/import', headers: { ...bearer(t.ownerToken), 'content-type': String(r.headers.get('content-type')) }, payload: Buffer.from(await r.arrayBuffer()) });
    assert.equal(res.statusCode, 413, res.body);
    assert.match(res.json().message, /needs more memory than an import may use \(32 MiB, NETLOOM_IMPORT_HEAP_MB\)/);
    // the server goes on: a small import is read by a fresh worker
    const small = new FormData();
    small.append('file', new Blob(['Source,Target\na,b\n']), 'small.csv');
    const s = new Response(small);
    const ok = await t.app.inject({ method: 'POST', url: '/api/v2/networks/import', headers: { ...bearer(t.ownerToken), 'content-type': String(s.headers.get('content-type')) }, payload: Buffer.from(await s.arrayBuffer()) });
    assert.equal(ok.statusCode, 200, ok.body);
  } finally {
    await t.close();
  }
});
