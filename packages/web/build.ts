/**
 * Builds the web application to dist/: content-hashed, code-split ES modules and CSS under dist/assets/
 * (served with a one-year immutable cache), dist/index.html (no-cache; it names the hashed entry files)
 * and dist/manifest.json (entry file names, for the server's /docs/ pages, which share the app's CSS).
 * esbuild, like the SDK and viewer builds: one bundler in the repository, a build of ~0.2 s on prestart.
 * `node build.ts` or buildWeb().
 */
import { build, type Metafile } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const WEB_DIST = join(here, 'dist');

export interface WebManifest {
  /** Entry script and stylesheet, as URL paths (`/assets/main-HASH.js`). */
  js: string;
  css: string;
  /** Chunks the entry imports statically (preloaded by index.html). */
  preload: string[];
}

function entryFiles(meta: Metafile, outdir: string, entry = 'src/main.tsx'): WebManifest {
  const toUrl = (p: string) => '/assets/' + relative(outdir, p).split('\\').join('/');
  const [jsOut, info] = Object.entries(meta.outputs).find(([, o]) => o.entryPoint?.endsWith(entry)) ?? [];
  if (!jsOut || !info) throw new Error('web build: no entry output');
  if (!info.cssBundle) throw new Error('web build: no CSS bundle');
  const preload = info.imports.filter((i) => i.kind === 'import-statement' && i.path.endsWith('.js')).map((i) => toUrl(i.path));
  return { js: toUrl(jsOut), css: toUrl(info.cssBundle), preload };
}

/**
 * The one HTML page each entry is served as: the entry's stylesheet, its preloaded chunks and its module
 * script, a root element, and what a browser without JavaScript is told. `extraHead`: further head elements.
 */
function shellHtml(m: WebManifest, page: { title: string; extraHead: string[]; noscript: string }): string {
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light">',
    ...page.extraHead,
    `<title>${page.title}</title>`,
    `<link rel="icon" href="data:image/svg+xml,${encodeURIComponent(FAVICON)}">`,
    `<link rel="stylesheet" href="${m.css}">`,
    ...m.preload.map((p) => `<link rel="modulepreload" href="${p}">`),
    `<script type="module" src="${m.js}"></script>`,
  ];
  return ['<!doctype html>', '<html lang="en">', '<head>', ...head, '</head>', '<body>', '<div id="root"></div>', `<noscript>${page.noscript}</noscript>`, '</body>', '</html>', ''].join('\n');
}

function indexHtml(m: WebManifest): string {
  return shellHtml(m, { title: 'Netloom', extraHead: [], noscript: "Netloom's web application needs JavaScript. The API and its documentation work without: <a href=\"/docs/\">/docs/</a>." });
}

/** The respondent page: no app shell, never indexed, and the link token never sent on as a referrer. */
function respondentHtml(m: WebManifest): string {
  return shellHtml(m, { title: 'Survey', extraHead: ['<meta name="robots" content="noindex, nofollow">', '<meta name="referrer" content="no-referrer">'], noscript: 'This survey needs JavaScript.' });
}

export async function buildWeb(opts: { minify?: boolean } = {}): Promise<string> {
  const outdir = join(WEB_DIST, 'assets');
  rmSync(WEB_DIST, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    // The app, and the respondent pages (/s/<token>): a small bundle of their own without the app's session code.
    entryPoints: { main: join(here, 'src/main.tsx'), respondent: join(here, 'src/respondent/main.tsx') },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    jsx: 'automatic',
    minify: opts.minify ?? true,
    sourcemap: 'linked',
    legalComments: 'none',
    entryNames: '[name]-[hash]',
    chunkNames: 'chunks/[name]-[hash]',
    assetNames: '[name]-[hash]',
    metafile: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  const manifest = entryFiles(result.metafile, outdir);
  writeFileSync(join(WEB_DIST, 'index.html'), indexHtml(manifest));
  writeFileSync(join(WEB_DIST, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  writeFileSync(join(WEB_DIST, 'respondent.html'), respondentHtml(entryFiles(result.metafile, outdir, 'src/respondent/main.tsx')));
  return `${basename(WEB_DIST)} (${manifest.js})`;
}

const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1f4fd1"/><g stroke="#fff" stroke-width="2"><path d="M9 22 16 9l7 13z" fill="none"/></g><g fill="#fff"><circle cx="9" cy="22" r="3.5"/><circle cx="16" cy="9" r="3.5"/><circle cx="23" cy="22" r="3.5"/></g></svg>
`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(`built ${await buildWeb()}`);
}
