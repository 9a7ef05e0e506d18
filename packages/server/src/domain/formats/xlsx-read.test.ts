// The workbook reader on files shaped as Excel and LibreOffice write them (shared strings with rich
// text and phonetic runs, inline strings, formulas with cached values, booleans, dates by built-in and
// custom number formats, the 1904 date system, errors, cells and rows skipped, a namespace prefix,
// relationships with `..` and absolute targets), files written by LibreOffice Calc 7.4 (fixtures/: the
// Excel template re-saved, and a CSV converted with `soffice --headless --convert-to xlsx`), and the
// tokenizer's refusals with line and column.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8 } from 'fflate';
import { Problems } from './problems.ts';
import { isDateFormat, readWorkbook } from './xlsx-read.ts';
import { readNetworkFile } from './index.ts';
import { template } from './templates.ts';
import { scanXml, XmlScanError } from './xml-scan.ts';
import { DomainError } from '../errors.ts';

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function pkg(files: Record<string, string>): Map<string, Uint8Array> {
  return new Map(Object.entries(files).map(([k, v]) => [k, strToU8(v)]));
}

const rootRels = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;

function book(sheets: string, extra = ''): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<workbook xmlns="${MAIN}" xmlns:r="${R}">${extra}<sheets>${sheets}</sheets></workbook>`;
}

const bookRels = (rels: string) => `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>`;

test('a LibreOffice-style workbook: shared strings (rich text, phonetic runs left out), numbers, booleans, dates by style, formulas, gaps', () => {
  const files = pkg({
    '_rels/.rels': rootRels,
    'xl/workbook.xml': book(`<sheet name="Info" sheetId="1" r:id="rId3"/><sheet name=" Nodes " sheetId="2" state="visible" r:id="rId4"/><sheet name="nodes" sheetId="3" r:id="rId5"/>`),
    'xl/_rels/workbook.xml.rels': bookRels(
      `<Relationship Id="rId1" Type="${R}/styles" Target="styles.xml"/><Relationship Id="rId2" Type="${R}/sharedStrings" Target="/xl/sharedStrings.xml"/>` +
        `<Relationship Id="rId3" Type="${R}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId4" Type="${R}/worksheet" Target="worksheets/../worksheets/sheet2.xml"/><Relationship Id="rId5" Type="${R}/worksheet" Target="worksheets/sheet3.xml"/>`,
    ),
    'xl/sharedStrings.xml': `<sst xmlns="${MAIN}" count="5" uniqueCount="5"><si><t>Name</t></si><si><t xml:space="preserve">Born</t></si><si><r><rPr><b/></rPr><t>An</t></r><r><t>a &amp; Co</t></r><rPh sb="0" eb="1"><t>PHONETIC</t></rPh></si><si><t>Flag</t></si><si><t>  </t></si><si><t>When</t></si><si><t>Sum</t></si></sst>`,
    'xl/styles.xml': `<styleSheet xmlns="${MAIN}"><numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd"/><numFmt numFmtId="165" formatCode="&quot;Day&quot;\\ 0.00"/></numFmts><cellStyleXfs count="1"><xf numFmtId="14"/></cellStyleXfs><cellXfs count="4"><xf numFmtId="0" fontId="0"/><xf numFmtId="14" applyNumberFormat="1"/><xf numFmtId="164" applyNumberFormat="1"/><xf numFmtId="165" applyNumberFormat="1"/></cellXfs></styleSheet>`,
    'xl/worksheets/sheet1.xml': `<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData></worksheet>`,
    'xl/worksheets/sheet2.xml':
      `<?xml version="1.0" encoding="UTF-8"?>\n<worksheet xmlns="${MAIN}"><sheetPr/><dimension ref="A1:F5"/><sheetData>` +
      `<row r="2" spans="1:6"><c r="A2" s="0" t="s"><v>0</v></c><c r="B2" t="s"><v>1</v></c><c r="C2" t="s"><v>3</v></c><c r="D2" t="s"><v>5</v></c><c r="F2" t="s"><v>6</v></c></row>` +
      `<row r="3"><c r="A3" t="s"><v>2</v></c><c r="B3" s="1"><v>36526</v></c><c r="C3" t="b"><v>1</v></c><c r="D3" s="2"><v>36526.5</v></c><c r="F3"><f>1+2</f><v>3</v></c></row>` +
      `<row r="5"><c r="A5" t="inlineStr"><is><r><t>Be</t></r><r><t>n</t></r></is></c><c r="B5" s="3"><v>1.5</v></c><c r="C5" t="b"><v>0</v></c><c r="D5" t="str"><f>"x"&amp;"y"</f><v>xy</v></c><c t="e"><v>#DIV/0!</v></c></row>` +
      `<row r="6"><c r="A6" t="s"><v>4</v></c><c r="B6"/><c r="C6"><v></v></c></row>` +
      `<row><c t="d"><v>2024-03-05T00:00:00Z</v></c><c t="s"><v>99</v></c></row>` +
      `</sheetData><mergeCells count="0"/></worksheet>`,
    'xl/worksheets/sheet3.xml': `<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>second sheet of that name: not read</t></is></c></row></sheetData></worksheet>`,
  });
  const problems = new Problems();
  const { sheets, names } = readWorkbook(files, 'book.xlsx', problems, ['nodes', 'edges']);
  assert.deepEqual(names, ['Info', ' Nodes ', 'nodes']);
  assert.deepEqual([...sheets.keys()], ['nodes']);
  const t = sheets.get('nodes')!;
  assert.equal(t.name, ' Nodes ');
  assert.equal(t.table.headerRow, 2);
  assert.deepEqual(t.table.header, ['Name', 'Born', 'Flag', 'When', undefined, 'Sum']);
  assert.deepEqual(
    t.table.rows.map((r) => ({ n: r.n, cells: Array.from(r.cells) })),
    [
      { n: 3, cells: ['Ana & Co', '2000-01-01', 'true', '2000-01-01T12:00:00.000Z', undefined, 3] },
      { n: 5, cells: ['Ben', 1.5, 'false', 'xy'] },
      { n: 7, cells: ['2024-03-05'] },
    ],
  );
  assert.deepEqual(problems.items, [
    { path: ' Nodes !E5', message: 'row 5: the cell holds an error or unsupported value (#DIV/0!)' },
    { path: ' Nodes !B7', message: 'row 7: the cell holds an error or unsupported value (shared string "99" does not exist)' },
  ]);
});

test('a workbook with a namespace prefix, inline strings only, and the 1904 date system', () => {
  const files = pkg({
    '_rels/.rels': rootRels,
    'xl/workbook.xml': `<x:workbook xmlns:x="${MAIN}" xmlns:r="${R}"><x:workbookPr date1904="1"/><x:sheets><x:sheet name="Edges" sheetId="1" r:id="rIdA"/></x:sheets></x:workbook>`,
    'xl/_rels/workbook.xml.rels': bookRels(`<Relationship Id="rIdA" Type="${R}/worksheet" Target="worksheets/edges.xml"/><Relationship Id="rIdS" Type="${R}/styles" Target="styles.xml"/>`),
    'xl/styles.xml': `<x:styleSheet xmlns:x="${MAIN}"><x:cellXfs count="2"><x:xf numFmtId="0"/><x:xf numFmtId="22"/></x:cellXfs></x:styleSheet>`,
    'xl/worksheets/edges.xml': `<x:worksheet xmlns:x="${MAIN}"><x:sheetData><x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>Source</x:t></x:is></x:c><x:c r="B1" t="inlineStr"><x:is><x:t>Target</x:t></x:is></x:c><x:c r="C1" t="inlineStr"><x:is><x:t>When</x:t></x:is></x:c></x:row><x:row r="2"><x:c r="A2"><x:v>1</x:v></x:c><x:c r="B2"><x:v>2.5e3</x:v></x:c><x:c r="C2" s="1"><x:v>1.25</x:v></x:c></x:row></x:sheetData></x:worksheet>`,
  });
  const problems = new Problems();
  const { sheets } = readWorkbook(files, 'b.xlsx', problems, ['nodes', 'edges']);
  assert.deepEqual(sheets.get('edges')!.table, { header: ['Source', 'Target', 'When'], headerRow: 1, rows: [{ n: 2, cells: [1, 2500, '1904-01-02T06:00:00.000Z'] }] });
  assert.equal(problems.count, 0);
});

test('a broken part is one problem naming the part, line and column; a missing sheet part is named', () => {
  const base = {
    '_rels/.rels': rootRels,
    'xl/workbook.xml': book(`<sheet name="Nodes" sheetId="1" r:id="rId1"/>`),
    'xl/_rels/workbook.xml.rels': bookRels(`<Relationship Id="rId1" Type="${R}/worksheet" Target="worksheets/sheet1.xml"/>`),
  };
  const fails = (files: Record<string, string>) => {
    try {
      readWorkbook(pkg(files), 'b.xlsx', new Problems(), ['nodes']);
    } catch (err) {
      assert.ok(err instanceof DomainError);
      return err.message;
    }
    assert.fail('no error');
  };
  assert.match(fails({ ...base, 'xl/worksheets/sheet1.xml': `<worksheet>\n<sheetData>\n  <row><c></row></sheetData></worksheet>` }), /xl\/worksheets\/sheet1\.xml line 3, column 11: <\/row> does not close <c>/);
  assert.match(fails(base), /the part of sheet "Nodes" is missing/);
  assert.match(fails({ '_rels/.rels': rootRels }), /it has no xl\/workbook\.xml/);
});

test('the tokenizer: references, CDATA, comments, attribute normalisation; refusals with line and column', () => {
  const seen: string[] = [];
  scanXml(`\ufeff<?xml version="1.0"?>\n<!-- c --><a k='1 &lt; 2' t="x\ty&#10;z"><b/>x &amp; &#x4e2d;&#20013;<![CDATA[<raw> & ]]>\r\n</a >\n`, {
    open: (n, a) => seen.push(`<${n} ${a.join('|')}>`),
    close: (n) => seen.push(`</${n}>`),
    text: (t) => seen.push(JSON.stringify(t)),
  });
  assert.deepEqual(seen, ['<a k|1 < 2|t|x y\nz>', '<b >', '</b>', '"x & 中中"', '"<raw> & "', '"\\n"', '</a>']);
  const refusal = (xml: string) => {
    try {
      scanXml(xml, { open() {}, close() {}, text() {} });
    } catch (err) {
      assert.ok(err instanceof XmlScanError);
      return `${err.line}:${err.column} ${err.message}`;
    }
    assert.fail(`accepted ${xml}`);
  };
  assert.equal(refusal('<!DOCTYPE a [<!ENTITY x "y">]><a/>'), '1:1 a <!DOCTYPE> is not allowed (DTDs and entity declarations are refused)');
  assert.equal(refusal('<a>\n  &bogus;</a>'), '2:3 unknown or invalid reference &bogus;');
  assert.equal(refusal('<a>&#0;</a>'), '1:4 unknown or invalid reference &#0;');
  assert.equal(refusal('<a x="1" x="2"/>'), '1:10 attribute x appears twice');
  assert.equal(refusal('<a x=1/>'), '1:6 the value of attribute x is not quoted');
  assert.equal(refusal('<a x="<"/>'), "1:7 '<' in the value of attribute x");
  assert.equal(refusal('<a x="1"y="2"/>'), '1:9 attributes must be separated by whitespace');
  assert.equal(refusal('<a><b></a>'), '1:7 </a> does not close <b>');
  assert.equal(refusal('<a></a><b/>'), '1:8 a second root element');
  assert.equal(refusal('<a>'), '1:4 <a> is not closed');
  assert.equal(refusal('text'), '1:1 text before the root element');
  assert.equal(refusal('<a>1 < 2</a>'), "1:6 a '<' that starts no tag (write &lt;)");
  assert.equal(refusal('<a>AT&T</a>'), "1:6 an '&' that starts no reference (write &amp;)");
  assert.equal(refusal(''), '1:1 no root element');
});

const limits = { maxNodes: 1e6, maxEdges: 5e6, maxBytes: 1 << 30, maxInflatedBytes: 1 << 30 };
const fixture = (name: string) => {
  const path = join(import.meta.dirname, 'fixtures', name);
  return { path, filename: name, bytes: statSync(path).size };
};

test('files written by LibreOffice Calc: the template re-saved reads as the template; a converted CSV keeps its dates, numbers and texts', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'netloom-xlsx-'));
  try {
    const body = (await template('xlsx')).body;
    const path = join(dir, 'template.xlsx');
    writeFileSync(path, body);
    const ours = await readNetworkFile('xlsx', { path, filename: 'template.xlsx', bytes: body.length }, undefined, limits);
    const libre = await readNetworkFile('xlsx', fixture('template-libreoffice.xlsx'), undefined, limits);
    assert.ok(ours.nodeCount > 10 && ours.edgeCount > 10);
    assert.deepEqual(libre, ours);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // Edges.csv: "Source,Target,When,Flag,Score,Note" with a date LibreOffice recognised (a number styled
  // yyyy-mm-dd), one it did not (text), TRUE/FALSE as text, an ampersand and a line break
  const edges = await readNetworkFile('xlsx', fixture('edges-libreoffice.xlsx'), undefined, limits);
  assert.deepEqual(edges.networkJSON, {
    nodes: [{ id: 'ana' }, { id: 'ben' }, { id: 'cho' }],
    edges: [
      { id: 1, source: 'ana', target: 'ben', attributes: { When: '2024-03-05', Flag: 'TRUE', Score: 1.5, Note: 'x & y' } },
      { id: 2, source: 'ben', target: 'cho', attributes: { When: '2023-12-31 13:30', Flag: 'FALSE', Score: 2, Note: 'multi\nline' } },
      { id: 3, source: 'cho', target: 'ana', attributes: { Flag: 'TRUE' } },
    ],
  });
});

test('date formats: built-in keywords and literals do not make a date', () => {
  for (const code of ['yyyy\\-mm\\-dd', 'd/m/yy h:mm', '[h]:mm:ss', 'mmm-yy', '[$-F800]dddd\\,\\ mmmm\\ dd\\,\\ yyyy']) assert.equal(isDateFormat(code), true, code);
  for (const code of ['General', '0.00', '#,##0 "days"', '[Red]0.0', '0.00E+00', '@', '_-* #,##0_-;\\-* #,##0_-', '[$€-407] #,##0.00']) assert.equal(isDateFormat(code), false, code);
});
