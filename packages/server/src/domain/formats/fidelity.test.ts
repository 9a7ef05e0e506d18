// Imports that never lose data silently (issue 24, docs/api/import-export.md): each case of the issue
// on a small file — what is kept, what is warned about (with its place), what is refused (400 naming
// it) — and the parsing budgets of docs/security.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import type { NetworkJSON } from '@netloom/engine';
import { DomainError } from '../errors.ts';
import { readNetworkFile, writeNetworkFile, type FormatId } from './index.ts';
import { BUDGETS } from './problems.ts';

const dir = mkdtempSync(join(tmpdir(), 'netloom-fidelity-'));
const limits = { maxNodes: 1e6, maxEdges: 5e6, maxBytes: 1 << 30, maxInflatedBytes: 1 << 30 };
let n = 0;

async function read(format: FormatId, body: string | Uint8Array, name = `f.${format}`) {
  const path = join(dir, `${n++}-${name}`);
  writeFileSync(path, body);
  return readNetworkFile(format, { path, filename: name, bytes: typeof body === 'string' ? Buffer.byteLength(body) : body.length }, undefined, limits);
}

async function refused(format: FormatId, body: string | Uint8Array, pattern: RegExp, code = 'INVALID_ARGS', name?: string): Promise<DomainError> {
  try {
    await read(format, body, name);
  } catch (err) {
    assert.ok(err instanceof DomainError, String(err));
    assert.equal(err.code, code, err.detail);
    assert.match(err.detail, pattern);
    return err;
  }
  assert.fail(`expected a refusal matching ${pattern}`);
}

const warningText = (r: { warnings?: { message: string }[] }) => (r.warnings ?? []).map((w) => w.message).join('\n');
const graphml = (body: string, keys = '', graphAttrs = 'id="G" edgedefault="directed"') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<graphml xmlns="http://graphml.graphdrawing.org/xmlns">\n${keys}\n<graph ${graphAttrs}>\n${body}\n</graph>\n</graphml>\n`;
const gexf = (body: string, graphAttrs = 'defaultedgetype="directed"', meta = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<gexf xmlns="http://gexf.net/1.3" version="1.3">${meta}\n<graph ${graphAttrs}>\n${body}\n</graph>\n</gexf>\n`;

test('GraphML hyperedges and ports are refused with a 400 naming them and their line', async () => {
  const hyper = graphml('<node id="a"/><node id="b"/><node id="c"/>\n<hyperedge><endpoint node="a"/><endpoint node="b"/><endpoint node="c"/></hyperedge>');
  const err = await refused('graphml', hyper, /line 6: hyperedges \(<hyperedge>\) are not supported/);
  assert.equal(err.errors?.[0].path, 'f.graphml line 6');
  await refused('graphml', graphml('<node id="a"><port name="p"/></node>'), /line 5: ports \(<port>\) are not supported/);
  await refused('graphml', graphml('<node id="a"/><node id="b"/>\n<edge source="a" target="b" sourceport="p"/>'), /line 6: edges attached to ports/);
});

test('nested graphs (yEd groups) flatten: every node kept, `parent` names the enclosing node, edges to a group node work; y:NodeLabel is the name', async () => {
  const yed = `<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:y="http://www.yworks.com/xml/graphml">
  <key for="node" id="d6" yfiles.type="nodegraphics"/>
  <graph edgedefault="directed" id="G">
    <node id="n0"><data key="d6"><y:ShapeNode><y:Geometry height="30" width="30" x="10" y="20"/><y:NodeLabel>Alice</y:NodeLabel></y:ShapeNode></data></node>
    <node id="n1" yfiles.foldertype="group">
      <data key="d6"><y:ProxyAutoBoundsNode><y:Realizers active="0"><y:GroupNode><y:Geometry x="0" y="0" height="1" width="1"/><y:NodeLabel>Team A</y:NodeLabel></y:GroupNode><y:GroupNode><y:NodeLabel>Team A (closed)</y:NodeLabel></y:GroupNode></y:Realizers></y:ProxyAutoBoundsNode></data>
      <graph edgedefault="directed" id="n1:">
        <node id="n1::n0"><data key="d6"><y:ShapeNode><y:NodeLabel>Bob</y:NodeLabel></y:ShapeNode></data></node>
        <node id="n1::n1"><data key="d6"><y:ShapeNode><y:NodeLabel hasText="false"/></y:ShapeNode></data></node>
      </graph>
    </node>
    <edge id="e0" source="n0" target="n1"/>
    <edge id="e1" source="n1::n0" target="n0"/>
  </graph>
</graphml>`;
  const r = await read('graphml', yed);
  assert.deepEqual(r.networkJSON.nodes, [
    { id: 'n0', x: 10, y: 20, attributes: { name: 'Alice' } },
    { id: 'n1::n0', attributes: { parent: 'n1', name: 'Bob' } },
    { id: 'n1::n1', attributes: { parent: 'n1' } },
    { id: 'n1', x: 0, y: 0, attributes: { name: 'Team A' } },
  ]);
  assert.equal(r.edgeCount, 2);
  const w = warningText(r);
  assert.match(w, /nodes of nested graphs \(groups\) are kept, each with the attribute "parent".*line 9; f\.graphml line 10/);
  assert.match(w, /yEd node labels \(y:NodeLabel\) are read as the node label/);
});

test('per-edge direction: GEXF undirected/mutual edges and GraphML directed="false" in a directed graph become two arcs, with a warning', async () => {
  const g = await read('gexf', gexf(`<nodes><node id="a"/><node id="b"/><node id="c"/></nodes>
<edges><edge id="1" source="a" target="b"/><edge id="2" source="b" target="c" type="undirected" weight="2"/><edge id="3" source="a" target="c" type="mutual"/></edges>`));
  assert.equal(g.isDirected, true);
  assert.deepEqual(g.networkJSON.edges, [
    { id: 1, source: 'a', target: 'b' },
    { id: 2, source: 'b', target: 'c', attributes: { weight: 2 } },
    { id: 3, source: 'a', target: 'c' },
    { id: '2-r', source: 'c', target: 'b', attributes: { weight: 2 } },
    { id: '3-r', source: 'c', target: 'a' },
  ]);
  assert.match(warningText(g), /mixes directed and undirected edges.*two arcs.*\(at f\.gexf line 5\)/);
  assert.match(warningText(g), /mutual edges go both ways.*\(at f\.gexf line 5\)/);

  const m = await read('graphml', graphml('<node id="a"/><node id="b"/><node id="c"/>\n<edge id="x" source="a" target="b"/>\n<edge id="y" source="b" target="c" directed="false"/>'));
  assert.equal(m.isDirected, true);
  assert.deepEqual(m.networkJSON.edges?.map((e) => [e.id, e.source, e.target]), [['x', 'a', 'b'], ['y', 'b', 'c'], ['y-r', 'c', 'b']]);
  assert.match(warningText(m), /two arcs.*f\.graphml line 7/);

  // every edge undirected against a directed default: an undirected network, said so
  const u = await read('graphml', graphml('<node id="a"/><node id="b"/>\n<edge source="a" target="b" directed="false"/>'));
  assert.equal(u.isDirected, false);
  assert.equal(u.edgeCount, 1);
  assert.match(warningText(u), /every edge .* declares itself undirected/);

  // Gephi's CSV Type column, mixed
  const c = await read('csv', 'Source,Target,Type\na,b,Directed\nb,c,Undirected\n', 'edges.csv');
  assert.equal(c.isDirected, true);
  assert.equal(c.edgeCount, 3);
  assert.match(warningText(c), /two arcs.*edges\.csv line 3/);
});

test('XSD booleans true|false|1|0 (with whitespace) are Booleans; a bad <default> names its key line', async () => {
  const keys = '<key id="b" for="node" attr.name="flag" attr.type="boolean"><default>1</default></key>';
  const r = await read('graphml', graphml('<node id="a"><data key="b">  0 </data></node><node id="c"/><node id="d"><data key="b">TRUE</data></node>', keys));
  assert.deepEqual(r.networkJSON.nodes.map((x) => x.attributes?.flag), ['false', 'true', 'true']);
  const bad = '<key id="b" for="node" attr.name="flag"\n attr.type="boolean">\n<default>yes</default></key>';
  // the <key> element's line (it ends on line 4), not "line 0"
  const err = await refused('graphml', graphml('<node id="a"/>', bad), /line 4: flag: "yes" is not a boolean/);
  assert.equal(err.errors?.[0].path, 'f.graphml line 4');
  const g = await read('gexf', gexf('<attributes class="node"><attribute id="0" title="ok" type="boolean"/></attributes><nodes><node id="a"><attvalues><attvalue for="0" value="1"/></attvalues></node></nodes>'));
  assert.deepEqual(g.networkJSON.nodes[0].attributes, { ok: 'true' });
  const badGexf = gexf('<attributes class="node">\n<attribute id="0" title="ok" type="boolean"><default>maybe</default></attribute></attributes><nodes><node id="a"/></nodes>');
  await refused('gexf', badGexf, /f\.gexf line 5: attribute "ok": "maybe" is not a boolean/);
});

test('a `label` key is the node label unless the file has `name`; GEXF export keeps the label apart from a `label` attribute', async () => {
  const withLabel = await read('graphml', graphml('<node id="1"><data key="l">Ana</data></node>', '<key id="l" for="node" attr.name="label" attr.type="string"/>'));
  assert.deepEqual(withLabel.networkJSON.nodes, [{ id: 1, attributes: { name: 'Ana' } }]);
  assert.match(warningText(withLabel), /the key "label" is read as the node label/);
  const both = await read('graphml', graphml('<node id="1"><data key="l">A.</data><data key="n">Ana</data></node>', '<key id="l" for="node" attr.name="label" attr.type="string"/><key id="n" for="node" attr.name="name" attr.type="string"/>'));
  assert.deepEqual(both.networkJSON.nodes, [{ id: 1, attributes: { label: 'A.', name: 'Ana' } }]);

  const net: NetworkJSON = { nodes: [{ id: 1, attributes: { name: 'Ana', label: 'team lead' } }, { id: 2, attributes: { label: 'intern' } }], edges: [] };
  const exportable = { name: 'n', description: '', isDirected: true, networkJSON: net, resource: {} };
  const gexfOut = (await writeNetworkFile('gexf', exportable)).body.toString();
  assert.match(gexfOut, /<attribute id="nl:label" title="label \(attribute\)" type="string"\/>/);
  assert.match(gexfOut, /<node id="1" label="Ana"><attvalues><attvalue for="name" value="Ana"\/><attvalue for="nl:label" value="team lead"\/>/);
  for (const format of ['gexf', 'graphml', 'csv', 'xlsx'] as const) {
    const file = await writeNetworkFile(format, exportable);
    const back = await read(format, file.body, `back.${file.extension}`);
    assert.deepEqual(back.networkJSON.nodes, net.nodes, format);
  }
});

test('INF, -INF, NaN and null in numeric columns are absent values with a warning listing where', async () => {
  const g = await read('gexf', gexf('<attributes class="node"><attribute id="0" title="score" type="double"/></attributes>\n<nodes>\n<node id="a"><attvalues><attvalue for="0" value="INF"/></attvalues></node>\n<node id="b"><attvalues><attvalue for="0" value="null"/></attvalues></node>\n<node id="c"><attvalues><attvalue for="0" value="1.5"/></attvalues></node>\n</nodes>'));
  assert.deepEqual(g.networkJSON.nodes.map((x) => x.attributes?.score), [undefined, undefined, 1.5]);
  const w = g.warnings?.find((x) => /score/.test(x.message));
  assert.ok(w);
  assert.equal(w.count, 2);
  assert.equal(w.path, 'f.gexf line 6');
  assert.match(w.message, /\(at f\.gexf line 6; f\.gexf line 7\)/);

  const c = await read('csv', 'Source,Target,Weight\na,b,1\nb,c,-INF\nc,a,NaN\na,c,2.5\n', 'edges.csv');
  assert.deepEqual(c.networkJSON.edges?.map((e) => e.attributes?.Weight), [1, undefined, undefined, 2.5]);
  assert.match(warningText(c), /column "Weight": INF, -INF, NaN and null .* \(at edges\.csv line 3, column 3; edges\.csv line 4, column 3\)/);

  const m = await read('graphml', graphml('<node id="a"><data key="s">-Infinity</data></node>', '<key id="s" for="node" attr.name="s" attr.type="double"/>'));
  assert.equal(m.networkJSON.nodes[0].attributes, undefined);
  assert.match(warningText(m), /key "s": INF.*line 5/);
});

test('integers beyond a double: the column stays numeric only when nothing is lost, else it is text; the answer says which', async () => {
  const big = '123456789012345678901234567890123456789012345678901234';
  const lossy = await read('csv', `Id,Code\n1,7\n2,${big}\n3,12\n`, 'nodes.csv');
  assert.deepEqual(lossy.networkJSON.nodes.map((x) => x.attributes?.Code), ['7', big, '12']);
  assert.match(warningText(lossy), /column "Code" is read as text.*\(at nodes\.csv line 3, column 2\)/);
  const exact = await read('csv', 'Id,Code\n1,7\n2,9007199254740993000\n3,12\n', 'nodes.csv');
  // 9007199254740993000 is not exactly a double: text; 2^63 = 9223372036854775808 is
  const fits = await read('csv', 'Id,Code\n1,7\n2,9223372036854775808\n3,12\n', 'nodes.csv');
  assert.deepEqual(exact.networkJSON.nodes.map((x) => x.attributes?.Code), ['7', '9007199254740993000', '12']);
  assert.deepEqual(fits.networkJSON.nodes.map((x) => x.attributes?.Code), [7, 9223372036854775808, 12]);
  assert.match(warningText(fits), /column "Code" stays numeric: its integers beyond 2\^53 are kept exactly/);
  const xml = await read('graphml', graphml(`<node id="a"><data key="k">5</data></node><node id="b"><data key="k">${big}</data></node>`, '<key id="k" for="node" attr.name="k" attr.type="long"/>'));
  assert.deepEqual(xml.networkJSON.nodes.map((x) => x.attributes?.k), ['5', big]);
  assert.match(warningText(xml), /key "k" is read as text/);
});

test('structural nonsense is a 400 naming the problem, never an empty network', async () => {
  await refused('gexf', '<?xml version="1.0"?><gexf xmlns="http://gexf.net/1.3"><meta><creator>x</creator></meta></gexf>', /no <graph> element/);
  await refused('graphml', '<?xml version="1.0"?><graphml xmlns="http://graphml.graphdrawing.org/xmlns"><key id="a" for="node"/></graphml>', /no <graph> element/);
  await refused('graphml', '<?xml version="1.0"?><html><body/></html>', /not a GraphML file: the root element is <html>/);
  await refused('gexf', '<?xml version="1.0"?><graphml/>', /not a GEXF file: the root element is <graphml>/);
  await refused('graphml', 'id,name\n1,2\n', /not well-formed XML/);
  await refused('graphml', graphml('<node id="a"/>').replace('</graphml>', '<graph edgedefault="directed"/></graphml>'), /a second top-level <graph>/);
  await refused('graphml', '<graphml><key id="one" for="edge" attr.type="double"/><key id="one" for="edge"/><graph/></graphml>', /a second <key> with the id "one"/);
});

test("the graph's name: GraphML name data or graph id, GEXF meta title", async () => {
  assert.equal((await read('graphml', graphml('<node id="a"/>', '', 'id="Karate club" edgedefault="undirected"'))).name, 'Karate club');
  assert.equal((await read('graphml', graphml('<node id="a"/>'))).name, undefined); // "G" is every writer's default id
  const named = graphml('<data key="gn">Florentine families</data><node id="a"/>', '<key id="gn" for="graph" attr.name="name" attr.type="string"/>');
  assert.equal((await read('graphml', named)).name, 'Florentine families');
  assert.equal((await read('gexf', gexf('<nodes><node id="a"/></nodes>', 'defaultedgetype="directed"', '<meta><title>Les Misérables</title></meta>'))).name, 'Les Misérables');
});

test("CSV: a leading ' before = + - @ (formula neutralisation of exports) is removed on import, with a warning", async () => {
  const r = await read('csv', "Source,Target,Note,Delta\na,b,'=SUM(A1),'-5\nb,c,'@home,'+3\nc,a,'plain,7\n", 'edges.csv');
  assert.deepEqual(r.networkJSON.edges?.map((e) => e.attributes), [{ Note: '=SUM(A1)', Delta: -5 }, { Note: '@home', Delta: 3 }, { Note: "'plain", Delta: 7 }]);
  const w = r.warnings?.find((x) => /formulas are neutralised/.test(x.message));
  assert.equal(w?.count, 4);
  // a value that really starts with ' and = is exported with one more ' and reads back as written
  const net = { name: 'n', description: '', isDirected: true, networkJSON: { nodes: [{ id: 'a', attributes: { f: "'=1+1" } }, { id: 'b', attributes: { f: "''-x" } }], edges: [] }, resource: {} };
  const back = await read('csv', (await writeNetworkFile('csv', net)).body, 'back.csv.zip');
  assert.deepEqual(back.networkJSON.nodes, net.networkJSON.nodes);
});

test('problems stop at 100: reading stops there and the answer says so', async () => {
  const rows = Array.from({ length: 5000 }, (_, i) => `n${i},x,seven`).join('\n');
  const err = await refused('csv', `Id,Score,Other\n${Array.from({ length: 5000 }, (_, i) => `n${i},${i},1`).join('\n')}\n${rows}\n`, /reading stopped after 100 problems/, 'INVALID_ARGS', 'nodes.csv');
  assert.equal(err.errors?.length, 100);
});

test('parsing budgets: a CSV line longer than the budget, too many columns, a zip entry packed like a bomb', async () => {
  const longLine = `Source,Target,${'x'.repeat(BUDGETS.maxLineChars)}\na,b,c\n`;
  await refused('csv', longLine, /edges\.csv line 1: the line is longer than 1048576 bytes/, 'INVALID_ARGS', 'edges.csv');
  const wide = `Source,Target,${Array.from({ length: BUDGETS.maxColumns }, (_, i) => `c${i}`).join(',')}\na,b\n`;
  await refused('csv', wide, /more than 16384 columns/, 'INVALID_ARGS', 'edges.csv');
  const bomb = zipSync({ 'edges.csv': strToU8(`Source,Target\n${'a,b\n'.repeat(5 << 20)}`) }, { level: 9 });
  await refused('csv', bomb, /entry edges\.csv unpacks to \d+ times its packed size/, 'PAYLOAD_TOO_LARGE', 'bomb.zip');
});
