/**
 * The one esbuild setting of every browser bundle of ours (the SDK, the viewer, its layout worker and
 * download page): one file, ES2022 for browsers, minified unless told otherwise, no legal comments.
 */
import { build } from 'esbuild';

export async function browserBundle(entry: string, outfile: string, opts: { format?: 'esm' | 'iife'; minify?: boolean; sourcemap?: boolean } = {}): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: opts.format ?? 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: opts.minify ?? true,
    sourcemap: opts.sourcemap ?? true,
    legalComments: 'none',
    logLevel: 'warning',
  });
}
