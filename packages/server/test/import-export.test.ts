// Import, export, templates and Discover through the real HTTP stack (a listening server, fetch with
// multipart bodies), on SQLite and PostgreSQL.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { zipSync, strToU8, unzipSync } from 'fflate';
import { testApp, bearer, smallNetwork, DIALECTS, type TestApp } from './helpers/app.ts';
import { zipArchive } from './helpers/zip.ts';
import { templateNetwork } from '../src/domain/formats/templates.ts';
import { workbookFromRows } from '../src/domain/formats/xlsx.ts';
import { setHandpicked } from '../src/store/networks.ts';

const FORMATS = ['json', 'xlsx', 'gexf', 'graphml', 'csv'] as const;
const EXT = { json: 'json', xlsx: 'xlsx', gexf: 'gexf', graphml: 'graphml', csv: 'csv.zip' } as const;

for (const dialect of DIALECTS) {
  describe(`import / export / templates / discover (${dialect})`, () => {
    let t: TestApp;
    let base: string;
    let owner: { id: string; email: string; name: string };
    let token: string;
    before(async () => {
      t = await testApp(dialect);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const addr = t.app.server.address() as { port: number };
      base = `http://127.0.0.1:${addr.port}`;
      owner = await t.user({ plan: 'enterprise' });
      token = await t.token(owner.id);
    });
    after(async () => t.close());

    const upload = async (files: Record<string, { body: Uint8Array | string; name: string }>, fields: Record<string, string> = {}, tok: string | null = token) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      for (const [k, f] of Object.entries(files)) form.append(k, new Blob([typeof f.body === 'string' ? f.body : Buffer.from(f.body)]), f.name);
      return fetch(`${base}/api/v2/networks/import`, { method: 'POST', body: form, headers: tok ? bearer(tok) : {} });
    };
    const getJSON = async (id: string) => (await (await fetch(`${base}/api/v2/networks/${id}`, { headers: bearer(token) })).json()) as { networkJSON: unknown; isDirected: boolean; name: string };
    const countNetworks = async () => ((await (await fetch(`${base}/api/v2/networks`, { headers: bearer(token) })).json()) as unknown[]).length;

    test('every template downloads without a credential, with Content-Disposition, and imports as it is', async () => {
      for (const format of FORMATS) {
        const res = await fetch(`${base}/api/v2/templates/${format}`);
        assert.equal(res.status, 200, format);
        assert.match(String(res.headers.get('content-disposition')), new RegExp(`^attachment; filename="Advice-network-template\\.${EXT[format].replace('.', '\\.')}"`));
        const body = new Uint8Array(await res.arrayBuffer());
        const imp = await upload({ file: { body, name: `template.${EXT[format]}` } });
        assert.equal(imp.status, 200, `${format}: ${await imp.clone().text()}`);
        const net = (await imp.json()) as { _id: string; nodeCount: number; edgeCount: number; originalFileType: string; fileType: string; name: string };
        assert.equal(net.nodeCount, 12);
        assert.equal(net.edgeCount, 20);
        assert.equal(net.fileType, 'JSON');
        assert.equal(net.originalFileType, format === 'xlsx' ? 'Excel' : format === 'gexf' ? 'GEXF' : 'JSON');
        assert.equal(net.name, format === 'gexf' ? 'template' : 'Advice network (template)');
        assert.deepEqual((await getJSON(net._id)).networkJSON, templateNetwork(format === 'gexf'), format);
      }
      const bad = await fetch(`${base}/api/v2/templates/docx`);
      assert.equal(bad.status, 400);
      assert.match(String(bad.headers.get('content-type')), /application\/problem\+json/);
    });

    test('a network exported in each format and imported again comes back equal (ids, attribute types, x/y, directedness)', async () => {
      const networkJSON = {
        nodes: [
          { id: 'a', x: 1.5, y: -2.25, attributes: { name: 'Ana', team: 'Sales', age: 31, _color: '#ff0000', _size: 3 } },
          { id: 'b', image: { url: 'https://example.com/b.png' }, attributes: { name: 'Ben', team: 'Eng', Name: 'clash', zip: '02134', code: '42', note: 'two\nlines & <b>"x"</b>' } },
          { id: 3, x: 0, y: 1e-7, attributes: { name: 'Cho', age: 28.5 } },
        ],
        edges: [
          { id: 1, source: 'a', target: 'b', attributes: { weight: 2, kind: 'advice' } },
          { id: 'e2', source: 'b', target: 3 },
          { id: 7, source: 3, target: 3, attributes: { Source: 'self' } },
        ],
      };
      for (const isDirected of [true, false]) {
        const created = await fetch(`${base}/api/v2/networks`, { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Round trip ✓', description: 'd', isDirected, networkJSON }) });
        assert.equal(created.status, 200);
        const { _id } = (await created.json()) as { _id: string };
        for (const format of FORMATS) {
          const res = await fetch(`${base}/api/v2/networks/${_id}/export?format=${format}`, { headers: bearer(token) });
          assert.equal(res.status, 200, format);
          assert.match(String(res.headers.get('content-disposition')), new RegExp(`filename="Round-trip\\.${EXT[format].replace('.', '\\.')}"; filename\\*=UTF-8''Round%20trip%20%E2%9C%93`));
          const body = new Uint8Array(await res.arrayBuffer());
          const imp = await upload({ file: { body, name: `export.${EXT[format]}` } });
          assert.equal(imp.status, 200, `${format}: ${await imp.clone().text()}`);
          const back = await getJSON(((await imp.json()) as { _id: string })._id);
          assert.deepEqual(back.networkJSON, networkJSON, `${format} directed=${isDirected}`);
          assert.equal(back.isDirected, isDirected, format);
          assert.equal(back.name, format === 'gexf' ? 'export' : 'Round trip ✓');
        }
      }
    });

    test('a spreadsheet with a duplicate Name, an edge to a missing node and a text in a numeric column: one 400 listing each with sheet and row; nothing stored', async () => {
      const before = await countNetworks();
      const xlsx = await workbookFromRows({
        Nodes: [['Name', 'Department', 'Tenure'], ['Ana', 'Sales', 3], ['Ben', 'Eng', 5], ['Ana', 'Eng', 2], ['Cho', 'Ops', 'three'], ['Dan', 'Ops', 7]],
        Edges: [['Source', 'Target', 'Weight'], ['Ana', 'Ben', 1], ['Ben', 'Zoe', 2]],
      });
      const res = await upload({ file: { body: xlsx, name: 'people.xlsx' } });
      assert.equal(res.status, 400);
      assert.match(String(res.headers.get('content-type')), /application\/problem\+json/);
      const p = (await res.json()) as { code: string; detail: string; message: string; errors: { path: string; message: string }[] };
      assert.equal(p.code, 'INVALID_ARGS');
      assert.deepEqual(p.errors.map((e) => e.path).sort(), ['Edges!B3', 'Nodes!A4', 'Nodes!C5']);
      const byPath = Object.fromEntries(p.errors.map((e) => [e.path, e.message]));
      assert.match(byPath['Nodes!A4'], /duplicate node id "Ana" \(first at Nodes!A2\)/);
      assert.match(byPath['Nodes!C5'], /row 5, column "Tenure": "three" is not a number/);
      assert.match(byPath['Edges!B3'], /no node with id "Zoe"/);
      assert.ok(!/at .*\.ts:\d+/.test(JSON.stringify(p)), 'no stack trace');
      assert.equal(await countNetworks(), before);
    });

    test('CSV edge list with a nodes CSV: problems name file, line and column; Gephi Type column sets directedness', async () => {
      const edges = 'Source;Target;Type;Weight\nana;ben;Undirected;2\nben;cho;Undirected;x\ncho;ana;Undirected;4\n';
      const nodes = 'Id,Label,Age\nana,Ana,30\nben,Ben,41\ncho,Cho,\n';
      const bad = await upload({ file: { body: edges, name: 'edges.csv' }, nodesFile: { body: nodes, name: 'nodes.csv' } });
      assert.equal(bad.status, 400);
      const p = (await bad.json()) as { errors: { path: string; message: string }[] };
      assert.deepEqual(p.errors.map((e) => e.path), ['edges.csv line 3, column 4']);
      const ok = await upload({ file: { body: edges.replace(';x', ';3'), name: 'edges.csv' }, nodesFile: { body: nodes, name: 'nodes.csv' } }, { name: 'Friends' });
      assert.equal(ok.status, 200, await ok.clone().text());
      const net = (await ok.json()) as { _id: string; isDirected: boolean; name: string; warnings: { path: string; message: string; count: number }[] };
      assert.equal(net.isDirected, false);
      assert.equal(net.name, 'Friends');
      // Gephi's Label column is the node label (issue 24), and the answer says so
      assert.deepEqual(net.warnings, [{ path: 'nodes.csv line 1, column 2', message: 'the column "Label" is read as the node label (the attribute name) (at nodes.csv line 1, column 2)', count: 1 }]);
      assert.deepEqual((await getJSON(net._id)).networkJSON, {
        nodes: [{ id: 'ana', attributes: { name: 'Ana', Age: 30 } }, { id: 'ben', attributes: { name: 'Ben', Age: 41 } }, { id: 'cho', attributes: { name: 'Cho' } }],
        edges: [{ id: 1, source: 'ana', target: 'ben', attributes: { Weight: 2 } }, { id: 2, source: 'ben', target: 'cho', attributes: { Weight: 3 } }, { id: 3, source: 'cho', target: 'ana', attributes: { Weight: 4 } }],
      });
      // an edge list alone: nodes are the endpoints
      const alone = await upload({ file: { body: 'Source,Target\n1,2\n2,3\n', name: 'e.csv' } });
      assert.equal(alone.status, 200);
      assert.deepEqual((await getJSON(((await alone.json()) as { _id: string })._id)).networkJSON, { nodes: [{ id: 1 }, { id: 2 }, { id: 3 }], edges: [{ id: 1, source: 1, target: 2 }, { id: 2, source: 2, target: 3 }] });
    });

    test('GEXF 1.2 from Gephi: viz position, size and colour, typed attributes, labels; bad values listed by line', async () => {
      const gexf = `<?xml version="1.0" encoding="UTF-8"?>
<gexf xmlns="http://www.gexf.net/1.2draft" xmlns:viz="http://www.gexf.net/1.2draft/viz" version="1.2">
  <graph mode="static" defaultedgetype="undirected">
    <attributes class="node"><attribute id="0" title="Age" type="integer"/><attribute id="1" title="Member" type="boolean"><default>false</default></attribute></attributes>
    <nodes>
      <node id="n1" label="Ana"><attvalues><attvalue for="0" value="31"/><attvalue for="1" value="true"/></attvalues><viz:size value="10.5"/><viz:position x="-3.5" y="4" z="0"/><viz:color r="255" g="0" b="16"/></node>
      <node id="n2" label="n2"/>
    </nodes>
    <edges><edge id="0" source="n1" target="n2" weight="2.0"/></edges>
  </graph>
</gexf>`;
      const res = await upload({ file: { body: gexf, name: 'gephi.gexf' } });
      assert.equal(res.status, 200, await res.clone().text());
      const net = (await res.json()) as { _id: string; isDirected: boolean; originalFileType: string };
      assert.equal(net.isDirected, false);
      assert.equal(net.originalFileType, 'GEXF');
      assert.deepEqual((await getJSON(net._id)).networkJSON, {
        nodes: [{ id: 'n1', x: -3.5, y: 4, attributes: { Age: 31, Member: 'true', _size: 10.5, _color: '#ff0010', name: 'Ana' } }, { id: 'n2', attributes: { Member: 'false' } }],
        edges: [{ id: 0, source: 'n1', target: 'n2', attributes: { weight: 2 } }],
      });
      const bad = gexf.replace('value="31"', 'value="old"').replace('target="n2"', 'target="n9"');
      const r2 = await upload({ file: { body: bad, name: 'gephi.gexf' } });
      assert.equal(r2.status, 400);
      const p = (await r2.json()) as { errors: { path: string; message: string }[] };
      assert.deepEqual(p.errors.map((e) => e.path), ['gephi.gexf line 6', 'gephi.gexf line 9, target']);
    });

    test('hostile input: entity expansion, zip bombs, hidden zip entries, non-multipart, oversized upload; nothing stored', async () => {
      const before = await countNetworks();
      const lol = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><gexf><graph><nodes><node id="&lol2;"/></nodes></graph></gexf>`;
      const r1 = await upload({ file: { body: lol, name: 'lol.gexf' } });
      assert.equal(r1.status, 400);
      assert.match(((await r1.json()) as { detail: string }).detail, /DOCTYPE/);
      const external = `<?xml version="1.0"?><graphml><graph><node id="a"><data key="d">&xxe;</data></node></graph></graphml>`;
      const r2 = await upload({ file: { body: external, name: 'x.graphml' } });
      assert.equal(r2.status, 400);
      const r5 = await fetch(`${base}/api/v2/networks/import`, { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: '{}' });
      assert.equal(r5.status, 415);
      const r6 = await upload({}, { name: 'x' });
      assert.equal(r6.status, 400);
      assert.deepEqual(((await r6.json()) as { errors: { path: string }[] }).errors.map((e) => e.path), ['/file']);
      const r7 = await upload({ file: { body: 'not json', name: 'x.json' } });
      assert.equal(r7.status, 400);
      assert.equal(await countNetworks(), before);
      // small limits: an upload over the body limit, an xlsx that unpacks past the inflated limit, a
      // zip whose headers lie about the unpacked size: refused before exceljs reads anything
      const small = await testApp(dialect, { NETLOOM_MAX_BODY_BYTES: '100000', NETLOOM_MAX_INFLATED_BYTES: '1000000' });
      try {
        await small.app.listen({ port: 0, host: '127.0.0.1' });
        const u = await small.user();
        const tok = await small.token(u.id);
        const send = (body: Uint8Array | string, name: string) => {
          const form = new FormData();
          form.append('file', new Blob([typeof body === 'string' ? body : Buffer.from(body)]), name);
          return fetch(`http://127.0.0.1:${(small.app.server.address() as { port: number }).port}/api/v2/networks/import`, { method: 'POST', body: form, headers: bearer(tok) });
        };
        assert.equal((await send('Source,Target\n' + 'a,b\n'.repeat(30000), 'big.csv')).status, 413);
        const bomb = zipSync({ '[Content_Types].xml': strToU8('<Types/>'), 'xl/worksheets/sheet1.xml': new Uint8Array(5 * 1024 * 1024) }, { level: 9 });
        assert.ok(bomb.length < 100000);
        assert.equal((await send(bomb, 'bomb.xlsx')).status, 413);
        const liar = await send(lyingZip('xl/worksheets/sheet1.xml', new Uint8Array(5 * 1024 * 1024), 10), 'liar.xlsx');
        assert.equal(liar.status, 400);
        assert.match(((await liar.json()) as { detail: string }).detail, /zip/);
        const csvBomb = await send(zipSync({ 'edges.csv': new Uint8Array(5 * 1024 * 1024) }, { level: 9 }), 'e.zip');
        assert.equal(csvBomb.status, 413);
      } finally {
        await small.close();
      }
    });

    test('credentials, scopes, organization owner and plan maxima are those of POST /networks', async () => {
      const file = { file: { body: JSON.stringify({ nodes: [{ id: 1 }] }), name: 'n.json' } };
      assert.equal((await upload(file, {}, null)).status, 401);
      const readOnly = await t.token(owner.id, { scopes: ['networks:read'] });
      assert.equal((await upload(file, {}, readOnly)).status, 403);
      const admin = await t.user();
      const member = await t.user({ name: 'Member M' });
      const org = await t.org(admin.id);
      await t.member(org.id, member.id, 'Standard User');
      const orgTok = await t.token(admin.id, { orgId: org.id });
      const r = await upload(file, { owner: member.email }, orgTok);
      assert.equal(r.status, 200, await r.clone().text());
      assert.deepEqual(((await r.json()) as { owner: unknown }).owner, { _id: member.id, name: 'Member M' });
      const stranger = await t.user();
      const r2 = await upload(file, { owner: stranger.email }, orgTok);
      assert.equal(r2.status, 400);
      assert.equal(((await r2.json()) as { code: string }).code, 'INVALID_OWNER');
      const free = await t.user({ plan: 'free' });
      const freeTok = await t.token(free.id);
      for (let i = 0; i < 3; i++) assert.equal((await upload(file, { status: 'Public' }, freeTok)).status, 200);
      const r3 = await upload(file, { status: 'Public' }, freeTok);
      assert.equal(r3.status, 403);
      assert.equal(((await r3.json()) as { code: string }).code, 'NETWORK_LIMIT_REACHED');
      const r4 = await upload(file, { status: 'Secret', isDirected: 'maybe' });
      assert.equal(r4.status, 400);
      assert.deepEqual(((await r4.json()) as { errors: { path: string }[] }).errors.map((e) => e.path), ['/status', '/isDirected']);
    });

    test('export follows GET visibility: Private is 404 to others, Public downloads without a credential; bad format 400', async () => {
      const mk = async (status: string) =>
        ((await (await fetch(`${base}/api/v2/networks`, { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ name: `E ${status}`, status, networkJSON: smallNetwork() }) })).json()) as { _id: string })._id;
      const priv = await mk('Private');
      const pub = await mk('Public');
      assert.equal((await fetch(`${base}/api/v2/networks/${priv}/export?format=json`)).status, 404);
      const other = await t.token((await t.user()).id);
      assert.equal((await fetch(`${base}/api/v2/networks/${priv}/export?format=json`, { headers: bearer(other) })).status, 404);
      const anon = await fetch(`${base}/api/v2/networks/${pub}/export?format=csv`);
      assert.equal(anon.status, 200);
      assert.equal(anon.headers.get('content-type'), 'application/zip');
      const files = unzipSync(new Uint8Array(await anon.arrayBuffer()));
      assert.deepEqual(Object.keys(files).sort(), ['edges.csv', 'network.csv', 'nodes.csv']);
      assert.equal(Buffer.from(files['edges.csv']).toString(), 'Source,Target,Id,weight\r\na,b,1,2\r\nb,3,e2,\r\n');
      const bad = await fetch(`${base}/api/v2/networks/${pub}/export?format=pdf`);
      assert.equal(bad.status, 400);
      assert.equal(((await bad.json()) as { errors: { path: string }[] }).errors[0].path, '/query/format');
    });

    test('CSV export neutralises formula cells: texts starting with = + - @ get a leading \', numbers stay numbers', async () => {
      const networkJSON = {
        nodes: [
          { id: '=cmd|calc', attributes: { note: '=HYPERLINK("http://evil.example","x")', score: -3 } },
          { id: 'b', attributes: { note: '+1+1', score: 2 } },
          { id: 'c', attributes: { note: '-2+3', score: -0.5 } },
          { id: 'd', attributes: { note: '@SUM(A1)', score: 1 } },
          { id: 'f', attributes: { note: 'plain = text', score: 1 } },
        ],
        edges: [{ id: '@e1', source: '=cmd|calc', target: 'b', attributes: { '=w': '-x' } }],
      };
      const res = await fetch(`${base}/api/v2/networks`, { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ name: '=evil()', status: 'Public', networkJSON }) });
      assert.equal(res.status, 200, await res.clone().text());
      const { _id } = (await res.json()) as { _id: string };
      const out = await fetch(`${base}/api/v2/networks/${_id}/export?format=csv`);
      assert.equal(out.status, 200);
      const files = unzipSync(new Uint8Array(await out.arrayBuffer()));
      const nodes = Buffer.from(files['nodes.csv']).toString();
      assert.equal(
        nodes,
        'Id,note,score\r\n' +
          '\'=cmd|calc,"\'=HYPERLINK(""http://evil.example"",""x"")",-3\r\n' +
          "b,'+1+1,2\r\n" +
          "c,'-2+3,-0.5\r\n" +
          "d,'@SUM(A1),1\r\n" +
          'f,plain = text,1\r\n',
      );
      assert.equal(Buffer.from(files['edges.csv']).toString(), "Source,Target,Id,'=w\r\n'=cmd|calc,b,'@e1,'-x\r\n", 'headers and ids too');
      assert.match(Buffer.from(files['network.csv']).toString(), /^Property,Value\r\nName,'=evil\(\)\r\n/);
      // … and the zip imports back to the same values
      const form = new FormData();
      form.append('file', new Blob([await (await fetch(`${base}/api/v2/networks/${_id}/export?format=csv`)).arrayBuffer()]), 'net.zip');
      const back = await fetch(`${base}/api/v2/networks/import`, { method: 'POST', headers: bearer(token), body: form });
      assert.equal(back.status, 200, await back.clone().text());
      const got = (await (await fetch(`${base}/api/v2/networks/${((await back.json()) as { _id: string })._id}`, { headers: bearer(token) })).json()) as { networkJSON: { nodes: { id: unknown; attributes: Record<string, unknown> }[] } };
      const notes = Object.fromEntries(got.networkJSON.nodes.map((n) => [String(n.id), n.attributes.note]));
      assert.equal(notes['=cmd|calc'], '=HYPERLINK("http://evil.example","x")');
      assert.equal(notes['b'], '+1+1');
    });

    test('Discover lists Public networks of everyone, handpicked first, searchable by name, paged, without a credential', async () => {
      const other = await t.user({ name: 'Other' });
      const otherTok = await t.token(other.id);
      const mk = async (tok: string, name: string, status: string) =>
        ((await (await fetch(`${base}/api/v2/networks`, { method: 'POST', headers: { ...bearer(tok), 'content-type': 'application/json' }, body: JSON.stringify({ name, status, networkJSON: smallNetwork() }) })).json()) as { _id: string })._id;
      await mk(token, 'Zebra_% study', 'Public');
      const picked = await mk(otherTok, 'zebra picked', 'Public');
      await mk(otherTok, 'Zebra hidden', 'Private');
      await setHandpicked(t.database.db, picked, true);
      const res = await fetch(`${base}/api/v2/networks/public?q=ZEBRA`);
      assert.equal(res.status, 200);
      const page = (await res.json()) as { networks: { name: string; handpicked: boolean }[]; total: number };
      assert.equal(page.total, 2);
      assert.deepEqual(page.networks.map((n) => n.name), ['zebra picked', 'Zebra_% study']);
      const lit = (await (await fetch(`${base}/api/v2/networks/public?q=${encodeURIComponent('_%')}`)).json()) as { total: number };
      assert.equal(lit.total, 1);
      const p2 = (await (await fetch(`${base}/api/v2/networks/public?q=zebra&limit=1&offset=1`)).json()) as { networks: { name: string }[]; total: number };
      assert.deepEqual(p2.networks.map((n) => n.name), ['Zebra_% study']);
      assert.equal(p2.total, 2);
      assert.equal((await fetch(`${base}/api/v2/networks/public?limit=0`)).status, 400);
      assert.equal((await fetch(`${base}/api/v2/networks/public?limit=abc`)).status, 400);
    });
  });
}

/** A zip whose one deflated entry declares `declared` bytes in both headers but inflates to `data.length`. */
function lyingZip(name: string, data: Uint8Array, declared: number): Uint8Array {
  return zipArchive([{ name, data: deflateRawSync(data), crc: 0, size: declared, method: 8 }]);
}
