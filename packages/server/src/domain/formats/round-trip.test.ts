// Property: a network written in each format and read back is equal — ids, attributes with their
// types, x/y, images, directedness (docs/api/import-export.md "Round trip"). Random networks over the
// value space the formats promise to keep: ids (Strings that do not look like canonical numbers, or
// Numbers), attribute names including ones that collide with reserved columns, per attribute one type
// (Number, String, or numeric-looking String), text with markup, quotes, tabs and line breaks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { EdgeJSON, NetworkJSON, NodeJSON } from '@netloom/engine';
import { FORMAT_IDS, readNetworkFile, writeNetworkFile } from './index.ts';

const limits = { maxNodes: 1e6, maxEdges: 5e6, maxBytes: 1 << 30, maxInflatedBytes: 1 << 30 };

const text = fc
  .string({ unit: fc.constantFrom(...'abcXYZ019 -_.,;:|"\'<>&/\\[]#\t\néü中'.split('')), minLength: 1, maxLength: 12 })
  .filter((s) => s.trim() !== '');
const stringId = fc.string({ unit: fc.constantFrom(...'abcdefxyz0123456789-_.:'.split('')), minLength: 1, maxLength: 8 }).filter((s) => String(Number(s)) !== s);
const numberId = fc.oneof(fc.integer({ min: -1000, max: 1_000_000 }), fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)));
const id = fc.oneof(stringId, numberId);
const number = fc.oneof(
  fc.integer({ min: -1e9, max: 1e9 }),
  fc.double({ min: -1e12, max: 1e12, noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0.1, 1e-7, 123456789.123, 2 ** 53 - 1),
).map((n) => (Object.is(n, -0) ? 0 : n));
const numericText = fc.oneof(fc.constantFrom('007', '02134', '1e3', '+5', '3.0', '.5'), fc.integer({ min: 0, max: 999 }).map(String));
const hex = fc.integer({ min: 0, max: 0xffffff }).map((n) => `#${n.toString(16).padStart(6, '0')}`);
const ATTRIBUTE_NAMES = ['name', 'Name', 'ID', 'Source', 'Target', 'x', 'Y', 'Image', 'Type', 'weight', 'label', '_color', '_size', 'Team', 'a [text]', 'Score [number]', 'zip', 'note', ' spaced'];
type Kind = 'number' | 'text' | 'numericText' | 'hex';
const kindValue = (k: Kind) => (k === 'number' ? number : k === 'text' ? text : k === 'numericText' ? numericText : hex);

const schema = fc.dictionary(fc.constantFrom(...ATTRIBUTE_NAMES), fc.constantFrom<Kind>('number', 'text', 'numericText', 'hex'), { maxKeys: 5 });
const attributes = (s: Record<string, Kind>) =>
  fc.record(Object.fromEntries(Object.entries(s).map(([k, kind]) => [k, kindValue(kind)])), { requiredKeys: [] }) as fc.Arbitrary<Record<string, string | number>>;
const plain = (o: Record<string, string | number>) => ({ ...o });

const network = fc
  .record({ nodeSchema: schema, edgeSchema: schema, ids: fc.uniqueArray(id, { minLength: 1, maxLength: 12, selector: (v) => String(v) }), isDirected: fc.boolean() })
  .chain(({ nodeSchema, edgeSchema, ids, isDirected }) =>
    fc.record({
      isDirected: fc.constant(isDirected),
      nodes: fc.tuple(
        ...ids.map((nid) =>
          fc.record({ attrs: attributes(nodeSchema), x: fc.option(number, { nil: undefined }), y: fc.option(number, { nil: undefined }), image: fc.boolean() }).map(({ attrs, x, y, image }) => {
            const n: NodeJSON = { id: nid };
            if (x !== undefined) n.x = x;
            if (y !== undefined) n.y = y;
            if (image) n.image = { url: `https://example.com/img/${encodeURIComponent(String(nid))}.png` };
            if (Object.keys(attrs).length > 0) n.attributes = plain(attrs);
            return n;
          }),
        ),
      ),
      edges: fc.uniqueArray(fc.record({ id, s: fc.nat(ids.length - 1), t: fc.nat(ids.length - 1), attrs: attributes(edgeSchema) }), { maxLength: 20, selector: (e) => String(e.id) }).map((es) =>
        es.map(({ id: eid, s, t, attrs }) => {
          const e: EdgeJSON = { id: eid, source: ids[s], target: ids[t] };
          if (Object.keys(attrs).length > 0) e.attributes = plain(attrs);
          return e;
        }),
      ),
    }),
  );

for (const format of FORMAT_IDS) {
  test(`round trip through ${format}: a random network comes back equal`, async () => {
    const dir = mkdtempSync(join(tmpdir(), `netloom-rt-${format}-`));
    try {
      await fc.assert(
        fc.asyncProperty(network, async ({ nodes, edges, isDirected }) => {
          const networkJSON: NetworkJSON = { nodes, edges };
          const out = await writeNetworkFile(format, { name: 'N', description: 'D', isDirected, networkJSON: structuredClone(networkJSON), resource: { name: 'N', isDirected } });
          const path = join(dir, `f.${out.extension}`);
          writeFileSync(path, out.body);
          const back = await readNetworkFile(format, { path, filename: `f.${out.extension}`, bytes: out.body.length }, undefined, limits);
          assert.deepEqual(back.networkJSON, networkJSON);
          assert.equal(back.isDirected, isDirected);
        }),
        { numRuns: 60 },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
