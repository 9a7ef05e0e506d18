/**
 * Builds the viewer to public/assets/viewer.js + viewer.css (served by the server under
 * /embed/assets/). `node build.ts` or buildViewer().
 */
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserBundle } from '../../scripts/browser-bundle.ts';

const here = dirname(fileURLToPath(import.meta.url));

/** The download page (no inline script or style: it is served under `default-src 'self'`). */
const DOWNLOAD_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<title>Download</title>
<link rel="stylesheet" href="viewer.css">
<script src="download.js" defer></script>
</head>
<body class="nl-download-page">
<p id="status" class="nl-download-status">Preparing your file…</p>
</body>
</html>
`;

/** The bundles' entry points: the viewer, its layout worker, the download page (test/bundle.test.ts checks what they pull in). */
export const VIEWER_ENTRY_POINTS = { viewer: join(here, 'src/main.ts'), layoutWorker: join(here, 'src/layout/worker.ts'), downloadPage: join(here, 'src/export/download-page.ts') };

export async function buildViewer(opts: { minify?: boolean } = {}): Promise<string> {
  const out = join(here, 'public/assets');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const minify = opts.minify ?? true;
  await browserBundle(VIEWER_ENTRY_POINTS.viewer, join(out, 'viewer.js'), { minify });
  // The layout worker: a classic worker script of its own, same origin as the page (CSP `default-src 'self'`).
  await browserBundle(VIEWER_ENTRY_POINTS.layoutWorker, join(out, 'layout-worker.js'), { format: 'iife', minify });
  // The download page (export/deliver.ts): a popup that escapes the iframe's sandbox and saves exports.
  await browserBundle(VIEWER_ENTRY_POINTS.downloadPage, join(out, 'download.js'), { format: 'iife', minify, sourcemap: false });
  writeFileSync(join(out, 'download.html'), DOWNLOAD_PAGE);
  copyFileSync(join(here, 'src/viewer.css'), join(out, 'viewer.css'));
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(`built ${await buildViewer()}`);
}
