// The embedded viewer's bundles (and the SDK's) stay free of TypeBox and of the HTTP contract: they import
// `@netloom/protocol` only, whose main entry never re-exports `@netloom/protocol/http` (docs/architecture.md
// "The HTTP contract"). The bundles are built in memory with the same entry points as build.ts and their
// inputs listed by esbuild's metafile; a control bundle of the HTTP entry shows the check sees TypeBox.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { build } from 'esbuild';
import { VIEWER_ENTRY_POINTS } from '../build.ts';

const root = join(import.meta.dirname, '..', '..');

/** The files an entry point's bundle is made of (paths relative to the working directory). */
async function bundleInputs(entry: string): Promise<string[]> {
  const r = await build({ entryPoints: [entry], bundle: true, write: false, metafile: true, format: 'esm', platform: 'browser', logLevel: 'silent', outdir: '/tmp/nl-bundle-check' });
  return Object.keys(r.metafile.inputs);
}

const forbidden = (inputs: string[]) => inputs.filter((p) => /(^|\/)node_modules\/typebox\//.test(p) || /protocol\/src\/http\//.test(p));

for (const [name, entry] of [...Object.entries(VIEWER_ENTRY_POINTS), ['sdk', join(root, 'embed/src/index.ts')]] as const) {
  test(`the ${name} bundle contains no TypeBox and no HTTP contract`, async () => {
    const inputs = await bundleInputs(entry);
    assert.ok(inputs.some((p) => p.includes('protocol/src/')) || name !== 'viewer', 'the viewer bundles @netloom/protocol');
    assert.deepEqual(forbidden(inputs), []);
  });
}

test('control: a bundle of @netloom/protocol/http is seen to contain TypeBox', async () => {
  const inputs = await bundleInputs(join(root, 'protocol/src/http/index.ts'));
  assert.ok(forbidden(inputs).some((p) => p.includes('node_modules/typebox/')));
});
