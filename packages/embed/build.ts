/**
 * Builds the SDK: dist/embed.js (one ES module, @netloom/protocol inlined, no dependencies) and
 * dist/embed.d.ts (+ dist/protocol/*.d.ts) from a tsc declaration emit. `node build.ts` or buildEmbed().
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { browserBundle } from '../../scripts/browser-bundle.ts';

const here = dirname(fileURLToPath(import.meta.url));

export async function buildEmbed(opts: { minify?: boolean } = {}): Promise<string> {
  const dist = join(here, 'dist');
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });
  await browserBundle(join(here, 'src/index.ts'), join(dist, 'embed.js'), { minify: opts.minify });
  // Declarations: embed + protocol, then point the embed's imports at the copied protocol types.
  const tmp = join(dist, '.types');
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.build.json'), '--outDir', tmp], { stdio: 'inherit' });
  const protocolOut = join(dist, 'protocol');
  mkdirSync(protocolOut, { recursive: true });
  for (const f of readdirSync(join(tmp, 'protocol/src'))) renameSync(join(tmp, 'protocol/src', f), join(protocolOut, f));
  const dts = readFileSync(join(tmp, 'embed/src/index.d.ts'), 'utf8').replaceAll("'@netloom/protocol'", "'./protocol/index.js'");
  writeFileSync(join(dist, 'embed.d.ts'), dts);
  rmSync(tmp, { recursive: true, force: true });
  return join(dist, 'embed.js');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const out = await buildEmbed();
  console.log(`built ${out}`);
}
