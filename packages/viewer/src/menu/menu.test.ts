import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildModel } from '../model.ts';
import { MENU_ITEMS, visibleMenuItems } from './items.ts';
import { degrees, setNodeAttribute, valueCounts } from './attrs.ts';
import { assignShapes } from './shapes.ts';
import { computeRollup, groupKey } from './rollup.ts';
import { edgeTable, nodeTable, sortTable, toCsv } from './table.ts';
import { escapeXml, toSvg } from '../export/svg.ts';
import { toGexf } from '../export/gexf.ts';
import { etaText, jobText, setOfferedMetrics } from './metrics-panel.ts';
import { DEGREE_ATTRIBUTE, firstCategorical, hubThreshold, templates } from './templates.ts';

function model() {
  const teams = ['Sales', 'Eng', 'Eng', 'Ops', 'Sales', 'Eng'];
  return buildModel({
    networkId: 'net1',
    name: 'Team <net>',
    json: {
      nodes: teams.map((team, i) => ({ id: `n${i}`, x: i, y: i % 2, attributes: { name: `P${i}`, team, score: 10 - i, _secret: 'x' } })),
      edges: [
        { id: 'e0', source: 'n0', target: 'n1' },
        { id: 'e1', source: 'n1', target: 'n2', attributes: { weight: 3 } },
        { id: 'e2', source: 'n2', target: 'n3' },
        { id: 'e3', source: 'n3', target: 'n4' },
        { id: 'e4', source: 'n4', target: 'n0' },
        { id: 'e5', source: 'n5', target: 'n1' },
      ],
    },
  });
}

test('ui.menu: only listed items, always in the viewer order; [] none; omitted all', () => {
  assert.deepEqual(visibleMenuItems(undefined), [...MENU_ITEMS]);
  assert.deepEqual(visibleMenuItems([]), []);
  assert.deepEqual(visibleMenuItems(['settings', 'color', 'layout', 'color', 'bogus']), ['layout', 'color', 'settings']);
  assert.equal(MENU_ITEMS.length, 16);
});

test('metric results become typed node attributes; mixed values become categorical', () => {
  const m = model();
  assert.equal(setNodeAttribute(m, 'PageRank', { n0: 0.5, n1: 0.25 }), 'number');
  assert.equal(m.attributes[0].PageRank, 0.5);
  assert.equal(m.attributes[2].PageRank, undefined);
  assert.equal(m.nodeAttributeTypes.get('PageRank'), 'number');
  assert.deepEqual([...m.nodeAttributeTypes.keys()], [...m.nodeAttributeTypes.keys()].sort());
  assert.equal(setNodeAttribute(m, 'Mixed', { n0: 1, n1: 'a' }), 'string');
  assert.equal(m.attributes[0].Mixed, '1');
  assert.equal(setNodeAttribute(m, 'Mixed', {}), null);
  assert.equal(m.nodeAttributeTypes.has('Mixed'), false);
  assert.deepEqual(degrees(m).get('n1'), 3);
  assert.deepEqual(valueCounts(m, 'team')[0], { value: 'Eng', count: 3 });
});

test('shapes: most frequent values get circle, square, triangle, diamond', () => {
  const s = assignShapes(model(), 'team');
  assert.deepEqual(s.legend, [{ value: 'Eng', shape: 'circle' }, { value: 'Sales', shape: 'square' }, { value: 'Ops', shape: 'triangle' }]);
  assert.deepEqual(s.shapes, ['square', 'circle', 'circle', 'triangle', 'square', 'circle']);
});

test('roll-up: groups at the centroid, edges between groups summed (weights), inner edges dropped, hidden nodes left out', () => {
  const m = model();
  const r = computeRollup(m, 'team', new Uint8Array(6));
  assert.deepEqual(r.groups.map((g) => [g.value, g.members]), [['Eng', [1, 2, 5]], ['Sales', [0, 4]], ['Ops', [3]]]);
  const eng = r.groups[0];
  assert.equal(eng.x, (1 + 2 + 5) / 3);
  const byPair = Object.fromEntries(r.edges.map((e) => [[e.source, e.target].sort().join('|'), e.weight]));
  // e0 Sales–Eng (1), e2 Eng–Ops (1), e3 Ops–Sales (1); e1 and e5 are inside Eng; e4 inside Sales.
  assert.deepEqual(byPair, { [[groupKey('Sales'), groupKey('Eng')].sort().join('|')]: 1, [[groupKey('Eng'), groupKey('Ops')].sort().join('|')]: 1, [[groupKey('Ops'), groupKey('Sales')].sort().join('|')]: 1 });
  const hidden = new Uint8Array(6);
  hidden[3] = 1;
  const r2 = computeRollup(m, 'team', hidden);
  assert.equal(r2.groups.some((g) => g.value === 'Ops'), false);
  assert.equal(r2.edges.length, 1);
  // Nodes without the attribute stay themselves; their edges go to the group.
  setNodeAttribute(m, 'dept', { n1: 'A', n2: 'A' });
  const r3 = computeRollup(m, 'dept', new Uint8Array(6));
  assert.deepEqual(r3.groups.map((g) => g.members), [[1, 2]]);
  const w = Object.fromEntries(r3.edges.map((e) => [`${e.source}|${e.target}`, e.weight]));
  assert.equal(w[`n0|${groupKey('A')}`] ?? w[`${groupKey('A')}|n0`], 1);
  assert.equal(w[`n3|${groupKey('A')}`] ?? w[`${groupKey('A')}|n3`], 1);
});

test('tables: visible rows, `_` columns left out, numeric and text sorting, empty cells last', () => {
  const m = model();
  setNodeAttribute(m, 'rank', { n0: 3, n1: 1, n3: 2 });
  const hidden = new Uint8Array(6);
  hidden[5] = 1;
  const t = nodeTable(m, hidden);
  assert.deepEqual(t.columns, ['label', 'id', 'rank', 'score', 'team']);
  assert.equal(t.rows.length, 5);
  const byScore = sortTable(t, 3, 'asc');
  assert.deepEqual(byScore.rows.map((r) => r[3]), [6, 7, 8, 9, 10]);
  assert.deepEqual(byScore.keys, [4, 3, 2, 1, 0]);
  const byRankDesc = sortTable(t, 2, 'desc');
  assert.deepEqual(byRankDesc.rows.map((r) => r[2]), [3, 2, 1, undefined, undefined]);
  assert.deepEqual(sortTable(t, 4, 'asc').rows.map((r) => r[4]), ['Eng', 'Eng', 'Ops', 'Sales', 'Sales']);
  // Numbers inside text compare as numbers.
  const names = { columns: ['name'], rows: [['Person 10'], ['Person 2'], ['person 1'], ['Person 1']], keys: [0, 1, 2, 3] };
  assert.deepEqual(sortTable(names, 0, 'asc').rows.map((r) => r[0]), ['person 1', 'Person 1', 'Person 2', 'Person 10']);
  const e = edgeTable(m, hidden);
  assert.equal(e.rows.length, 5); // e5 touches the hidden n5
  assert.deepEqual(e.columns, ['source', 'target', 'id', 'weight']);
});

test('CSV: quoting, formula guard, CRLF', () => {
  const csv = toCsv({ columns: ['a', 'b'], rows: [['x,y', 'say "hi"'], ['=1+1', -3], [undefined, ' pad']], keys: [0, 1, 2] });
  assert.equal(csv, 'a,b\r\n"x,y","say ""hi"""\r\n\'=1+1,-3\r\n," pad"\r\n');
});

test('SVG: escaped labels, shapes, hidden edges option, y up', () => {
  const svg = toSvg({ nodes: [{ x: 0, y: 0, size: 5, color: '#f00', label: '<b>&' }, { x: 10, y: 10, size: 5, color: '#0f0', label: 'B', shape: 'square' }, { x: 5, y: 0, size: 5, color: '#00f', label: 'T', shape: 'triangle' }], edges: [{ source: 0, target: 1 }] });
  assert.match(svg, /^<\?xml/);
  assert.match(svg, /&lt;b&gt;&amp;/);
  assert.doesNotMatch(svg, /<b>/);
  assert.match(svg, /<rect x="[\d.]+" y="[\d.]+" width/);
  assert.match(svg, /<polygon/);
  assert.match(svg, /<line /);
  // Node 1 (y = 10) is above node 0 (y = 0) in the picture.
  const cy = [...svg.matchAll(/<circle cx="[\d.]+" cy="([\d.]+)"/g)].map((m) => Number(m[1]));
  assert.ok(cy[0] > 400);
  assert.doesNotMatch(toSvg({ nodes: [{ x: 0, y: 0, size: 1, color: '#000', label: '' }, { x: 1, y: 1, size: 1, color: '#000', label: '' }], edges: [{ source: 0, target: 1 }], showEdges: false }), /<line /);
  assert.equal(escapeXml('a\u0001"\''), 'a&quot;&apos;');
});

test('GEXF: visible nodes with attributes, viz color/size/position, edges between them', () => {
  const m = model();
  const hidden = new Uint8Array(6);
  hidden[5] = 1;
  const gexf = toGexf(m, { hidden, color: Array(6).fill('#e6194b'), size: new Float32Array(6).fill(7) });
  assert.match(gexf, /<gexf[^>]*version="1.3"/);
  assert.equal((gexf.match(/<node /g) ?? []).length, 5);
  assert.equal((gexf.match(/<edge /g) ?? []).length, 5);
  assert.match(gexf, /<viz:color r="230" g="25" b="75" a="1"/);
  assert.match(gexf, /<viz:size value="7"/);
  assert.match(gexf, /<viz:position x="1" y="1"/);
  assert.match(gexf, /label="P0"/);
  assert.doesNotMatch(gexf, /n5/);
});

test('templates: color by the first useful categorical attribute, size by degree, hubs', () => {
  const m = model();
  assert.equal(firstCategorical(m), 'team');
  const list = templates(m);
  assert.deepEqual(list.map((t) => t.id), ['color-by-category', 'size-by-degree', 'color-by-number', 'overview', 'hubs']);
  assert.equal(list[0].title, 'Color by team');
  assert.deepEqual(list[1].steps, [{ compute: 'degree', attribute: DEGREE_ATTRIBUTE }, { command: 'layers.size', args: { attribute: DEGREE_ATTRIBUTE } }]);
  assert.equal(hubThreshold(m), 3);
  const bare = buildModel({ networkId: 'x', name: 'x', json: { nodes: [{ id: 1 }, { id: 2 }] } });
  assert.deepEqual(templates(bare).map((t) => t.id), ['size-by-degree', 'hubs']);
});

test('Filter starts on the first text attribute with few values, never on labels; histograms count numeric values per bin', async () => {
  const { defaultFilterAttribute, histogram, isLabelAttribute } = await import('./attrs.ts');
  const m = model();
  assert.equal(defaultFilterAttribute(m), 'team');
  assert.equal(isLabelAttribute(m, 'name'), true);
  const many = buildModel({ networkId: 'x', name: 'x', json: { nodes: Array.from({ length: 50 }, (_, i) => ({ id: i, attributes: { label2: `L${i}`, city: `C${i % 5}`, score: i } })) } });
  assert.equal(isLabelAttribute(many, 'label2'), true, 'unique values on every node name the nodes');
  assert.equal(defaultFilterAttribute(many), 'city');
  const onlyLabels = buildModel({ networkId: 'x', name: 'x', json: { nodes: Array.from({ length: 30 }, (_, i) => ({ id: i, attributes: { name: `N${i}`, score: i } })) } });
  assert.equal(defaultFilterAttribute(onlyLabels), 'score');
  assert.deepEqual(histogram(many, 'score', 5).counts, [10, 10, 10, 10, 10]);
  assert.deepEqual(histogram(many, 'score', 2, [0, 9]).counts, [5, 5]);
});

test('the Metrics panel\'s job line: percentage without a break, the time left in words', () => {
  // titles come from the service's list (GET /api/v2/embed/viewer/metrics); an id not in it stands as it is
  setOfferedMetrics([{ id: 'betweennessCentrality', title: 'Betweenness centrality' }, { id: 'pageRank', title: 'PageRank' }] as never);
  assert.equal(etaText(null), 'estimating time left…');
  assert.equal(etaText(3), 'a few seconds left');
  assert.equal(etaText(23), 'about 25 s left');
  assert.equal(etaText(125), 'about 2 min left');
  assert.equal(etaText(3600 * 2 + 60 * 10), 'about 2 h 10 min left');
  assert.equal(etaText(3600), 'about 1 h left');
  assert.equal(jobText({ status: 'running', progress: 0.423, etaSeconds: 130, metric: 'betweennessCentrality' }), 'Betweenness centrality: 42\u00a0% — about 2 min left');
  assert.equal(jobText({ status: 'queued', progress: 0, etaSeconds: null, metric: 'pageRank' }), 'PageRank: waiting for a worker…');
  assert.equal(jobText({ status: 'running', progress: 0, etaSeconds: null, metric: 'someOtherMetric' }), 'someOtherMetric: 0\u00a0% — estimating time left…');
});
