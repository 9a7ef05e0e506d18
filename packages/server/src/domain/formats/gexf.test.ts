// GEXF reading on the tokenizer: problems name the line of their element (the line index is built only
// when a problem needs it), malformed XML names line and column, a DOCTYPE is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainError } from '../errors.ts';
import { importGexf } from './gexf.ts';

const limits = { maxNodes: 1e6, maxEdges: 5e6, maxBytes: 1 << 30, maxInflatedBytes: 1 << 30 };

async function read(text: string) {
  const dir = mkdtempSync(join(tmpdir(), 'netloom-gexf-'));
  try {
    const path = join(dir, 'g.gexf');
    writeFileSync(path, text);
    return await importGexf({ path, filename: 'g.gexf', bytes: text.length }, limits);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function problems(text: string) {
  try {
    await read(text);
  } catch (err) {
    assert.ok(err instanceof DomainError);
    return (err.errors ?? []).map((e) => `${e.path}: ${e.message}`);
  }
  assert.fail('read without problems');
}

const head = '<?xml version="1.0" encoding="UTF-8"?>\r\n<gexf xmlns="http://gexf.net/1.3" xmlns:viz="http://gexf.net/1.3/viz" version="1.3">\r\n<graph defaultedgetype="directed">\r\n<attributes class="node"><attribute id="a" title="Age" type="integer"/></attributes>\r\n<nodes>\r\n';

test('problems name the line of their element, across many lines', async () => {
  const nodes = Array.from({ length: 2000 }, (_, i) => `<node id="n${i}" label="N &amp; ${i}"><attvalues><attvalue for="a" value="${i === 1500 ? 'old' : i}"/></attvalues><viz:position x="${i}" y="-${i}"/></node>\r\n`).join('');
  const text = `${head}${nodes}<node id="n7"/>\r\n</nodes>\r\n<edges>\r\n<edge id="e1" source="n1" target="n9999" weight="x"/>\r\n</edges>\r\n</graph>\r\n</gexf>\r\n`;
  assert.deepEqual(await problems(text), [
    'g.gexf line 1506: attribute "Age": "old" is not a number (the attribute is declared numeric)',
    'g.gexf line 2006: duplicate node id "n7" (first at g.gexf line 13)',
    'g.gexf line 2009: weight "x" is not a number',
    'g.gexf line 2009, target: no node with id "n9999"',
  ]);
  const ok = await read(text.replace('value="old"', 'value="1500"').replace('<node id="n7"/>', '').replace(' target="n9999" weight="x"', ' target="n2" weight="2.5"'));
  assert.equal(ok.networkJSON.nodes.length, 2000);
  assert.deepEqual(ok.networkJSON.nodes[3], { id: 'n3', x: 3, y: -3, attributes: { Age: 3, name: 'N & 3' } });
  assert.deepEqual(ok.networkJSON.edges, [{ id: 'e1', source: 'n1', target: 'n2', attributes: { weight: 2.5 } }]);
  assert.equal(ok.isDirected, true);
});

test('malformed XML is one problem with line and column; a DOCTYPE is refused', async () => {
  assert.deepEqual(await problems(`${head}<node id="a">\r\n  <attvalues></node>\r\n</nodes></graph></gexf>`), ['g.gexf line 7, column 14: not well-formed XML: </node> does not close <attvalues>']);
  assert.deepEqual(await problems('<?xml version="1.0"?>\n<!DOCTYPE gexf [<!ENTITY x "y">]>\n<gexf/>'), ['g.gexf line 2: a <!DOCTYPE> is not allowed (DTDs and entity declarations are refused)']);
  assert.deepEqual(await problems('<graphml/>'), ['g.gexf line 1: not a GEXF file: the root element is <graphml>, expected <gexf>']);
});
