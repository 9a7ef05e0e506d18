// The Groups panel's pure parts: the heat-map colour scale (sequential, readable text on every cell) and
// the CSV / workbook of a group report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { heatColor, reportCsv, reportSheets, type GroupReport } from './groups-panel.ts';

const report: GroupReport = {
  attribute: 'team',
  groups: [{ value: 'Eng, core', size: 2, internal: 1, external: 2, density: 0.5, ei: 1 / 3 }, { value: 'Sales', size: 3, internal: 3, external: 1, density: 0.5, ei: -0.5 }],
  matrix: { values: ['Eng, core', 'Sales'], counts: [[1, 1], [1, 3]], densities: [[0.5, 1 / 6], [1 / 6, 0.5]] },
  ei: -1 / 7,
  suppressed: 2,
  directed: true,
  ties: 7,
};

test('heat colours run from white to dark blue, darker with the value, and the text stays readable', () => {
  assert.equal(heatColor(0).background, 'rgb(247, 251, 255)');
  assert.equal(heatColor(1).background, 'rgb(8, 48, 107)');
  assert.equal(heatColor(0).text, '#111111');
  assert.equal(heatColor(1).text, '#ffffff');
  const sum = (c: string) => c.match(/\d+/g)!.map(Number).reduce((a, b) => a + b, 0);
  for (let k = 0; k < 10; k++) assert.ok(sum(heatColor((k + 1) / 10).background) < sum(heatColor(k / 10).background), `monotone at ${k / 10}`);
  assert.equal(heatColor(Number.NaN).background, heatColor(0).background);
  assert.equal(heatColor(7).background, heatColor(1).background);
});

test('CSV: group table, both matrices, quoted values, the whole-network figures', () => {
  const lines = reportCsv(report).split('\r\n');
  assert.equal(lines[0], 'Group,Size,Internal ties,External ties,Density,E-I index');
  assert.equal(lines[1], `"Eng, core",2,1,2,0.5,${1 / 3}`);
  assert.equal(lines[4], 'Ties from \\ to (team),"Eng, core",Sales');
  assert.equal(lines[6], 'Sales,1,3');
  assert.ok(lines.includes(`Whole-network E-I index,${-1 / 7}`));
  assert.ok(lines.includes('Nodes in groups below the minimum size,2'));
  const sheets = reportSheets(report);
  assert.deepEqual(Object.keys(sheets), ['Groups', 'Ties', 'Densities', 'Network']);
  assert.deepEqual(sheets.Ties[2], ['Sales', 1, 3]);
});
