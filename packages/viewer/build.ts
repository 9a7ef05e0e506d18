/**
 * Builds the viewer to public/assets/viewer.js + viewer.css (served by the server under
 * /embed/assets/). `node build.ts` or buildViewer().
 */
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export async function buildViewer(opts: { minify?: boolean } = {}): Promise<string> {
  const out = join(here, 'public/assets');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  await build({
    entryPoints: [join(here, 'src/main.ts')],
    outfile: join(out, 'viewer.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: opts.minify ?? true,
    sourcemap: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  // The layout worker: a classic worker script of its own, same origin as the page (CSP `default-src 'self'`).
  await build({
    entryPoints: [join(here, 'src/menu/layout-worker.ts')],
    outfile: join(out, 'layout-worker.js'),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2022'],
    minify: opts.minify ?? true,
    sourcemap: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  copyFileSync(join(here, 'src/viewer.css'), join(out, 'viewer.css'));
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(`built ${await buildViewer()}`);
}
