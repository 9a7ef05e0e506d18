// The web app types its calls with the contract's TypeBox schemas (@netloom/protocol/http) but ships none of
// them: it imports only types and plain data (paths, formats) from the contract, and the protocol package is
// marked `"sideEffects": false`, so esbuild leaves the schema modules and TypeBox out of every chunk. The
// bundle is built in memory as build.ts builds it (entry, splitting) and its inputs listed by esbuild's metafile.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { build } from 'esbuild';

test('no chunk of the web app contains TypeBox or a wire schema; the contract contributes plain data only (paths, formats, …)', async () => {
  const r = await build({
    entryPoints: [join(import.meta.dirname, '..', 'src/main.tsx')],
    bundle: true,
    splitting: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'browser',
    jsx: 'automatic',
    outdir: '/tmp/nl-web-bundle-check',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  const inputs = new Set(Object.values(r.metafile.outputs).flatMap((o) => Object.keys(o.inputs)));
  assert.deepEqual([...inputs].filter((p) => /(^|\/)node_modules\/typebox\//.test(p)), []);
  // the contract's modules in the app are plain data (paths, formats, origin rule, analysis defaults): none
  // of them imports TypeBox, and the schema modules are not there at all
  const contract = [...inputs].filter((p) => p.includes('protocol/src/http/'));
  const withSchemas = contract.filter((p) => r.metafile.inputs[p].imports.some((i) => /typebox/.test(i.path)));
  assert.deepEqual(withSchemas, [], 'contract modules with schemas in the web app');
  assert.ok(contract.some((p) => p.endsWith('/paths.ts')) && contract.some((p) => p.endsWith('/formats.ts')), `paths and formats come from the contract: ${contract.join(', ')}`);
});
