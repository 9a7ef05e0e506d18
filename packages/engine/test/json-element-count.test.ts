// The node/edge count on JSON text before parsing (graph/json-limits.ts NetworkElementCounter; issue 19,
// Low): which arrays count, escapes in keys, strings that look like structure, and — the server feeds a
// body as it arrives — the same answer for every way of cutting the bytes into chunks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NetworkElementCounter, networkElementsOver } from '../src/graph/json-limits.ts';

const MAX = { maxNodes: 3, maxEdges: 2 };
const CASES: [string, 'nodes' | 'edges' | null][] = [
  ['{"networkJSON":{"nodes":[{"id":1},{"id":2},{"id":3}],"edges":[{"source":1,"target":2}]}}', null],
  ['{"networkJSON":{"nodes":[{"id":1},{"id":2},{"id":3},{"id":4}]}}', 'nodes'],
  ['{"nodes":[1,2,3,4]}', 'nodes'],
  ['{"nodes":[ ]}', null],
  ['{"nodes":[[],[],[]], "edges":[{},{},{}]}', 'edges'],
  ['{"networkJSON":{"node\\u0073":[{},{},{},{}]}}', 'nodes'],
  ['{"a":{"nodes":[1,2,3,4,5]}}', null],
  ['{"networkJSON":{"nodes":[{"id":"a,b,c,d,e"},{"attributes":{"x":[1,2,3,4,5,6]}}]}}', null],
  ['{"name":"x\\"nodes","networkJSON":{"edges":["a","b","c"]}}', 'edges'],
  ['{"networkJSON":{"x":{"nodes":[1,2,3,4,5]}},"edges":[1,2]}', null],
  ['{"nodes":["\\\\",  "\\"]", "é,ü,ß", "x"]}', 'nodes'],
  ['{"nodes":[1,2],"nodes":[1,2,3,4]}', 'nodes'],
  ['[{"nodes":[1,2,3,4,5]}]', null],
];

test('which arrays count, and where the count stops', () => {
  for (const [text, want] of CASES) assert.equal(networkElementsOver(text, MAX)?.what ?? null, want, text);
  assert.deepEqual(networkElementsOver('{"nodes":[1,2,3,4]}', MAX), { what: 'nodes', limit: 3 });
});

test('any chunking of the bytes gives the same answer', () => {
  fc.assert(
    fc.property(fc.constantFrom(...CASES), fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 40 }), ([text, want], sizes) => {
      const bytes = new TextEncoder().encode(text);
      const c = new NetworkElementCounter(MAX);
      let got: string | null = null;
      for (let at = 0, k = 0; at < bytes.length && got === null; k++) {
        const size = sizes[k % sizes.length];
        got = c.feed(bytes.subarray(at, at + size))?.what ?? null;
        at += size;
      }
      assert.equal(got, want, `${text} in chunks of ${sizes.join(',')}`);
    }),
    { numRuns: 2_000 },
  );
});

test('a valid network JSON never over its limits is never refused (random networks)', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 }), fc.string(), (n, m, label) => {
      const net = { name: label, networkJSON: { nodes: Array.from({ length: n }, (_, i) => ({ id: i, attributes: { name: `${label},[${i}]` } })), edges: Array.from({ length: m }, (_, i) => ({ source: i % Math.max(1, n), target: 0, attributes: { w: [i, i] } })) } };
      const text = JSON.stringify(net);
      assert.equal(networkElementsOver(text, { maxNodes: n, maxEdges: m }), null);
      if (n > 0) assert.equal(networkElementsOver(text, { maxNodes: n - 1, maxEdges: m })?.what, 'nodes');
      if (m > 0) assert.equal(networkElementsOver(text, { maxNodes: n, maxEdges: m - 1 })?.what, 'edges');
    }),
    { numRuns: 500 },
  );
});
