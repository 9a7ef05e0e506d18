// Web application first load (issue 10): how soon the app is interactive and how much JavaScript it
// loads before the viewer is needed, in headless Debian Chromium (playwright-core), against the service
// started like `npm start` (packages/web/test/helpers/web-env.ts: built bundles, first-run owner).
//
//   node bench/web.ts [--runs 5]
//
// Per run a fresh browser context (empty cache): navigation start → the sign-in form is ready (its
// e-mail field rendered and focused: React mounted, the route's chunk loaded, the session asked), and,
// signed in, `/networks` loaded from scratch → its heading and the network list (or empty state) shown.
// JS size: every script the page fetched, counted as gzip -9 of its bytes (what the wire carries at most;
// the server sends br or gzip), plus what the server really sent (transfer size).
import { gzipSync } from 'node:zlib';
import { startWebEnv, signIn } from '../packages/web/test/helpers/web-env.ts';
import type { Page } from 'playwright-core';

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : def;
};
const RUNS = Number(arg('--runs', '5'));

interface Load {
  ms: number;
  jsGzip: number;
  jsRaw: number;
  jsWire: number;
  scripts: number;
}

async function measure(page: Page, url: string, ready: (p: Page) => Promise<void>): Promise<Load> {
  const bodies: Promise<{ raw: number; gz: number; wire: number }>[] = [];
  page.on('response', (r) => {
    if (r.request().resourceType() !== 'script') return;
    bodies.push(
      (async () => {
        const b = await r.body();
        const sizes = await r.request().sizes();
        return { raw: b.length, gz: gzipSync(b, { level: 9 }).length, wire: sizes.responseBodySize };
      })(),
    );
  });
  const t0 = Date.now();
  await page.goto(url, { waitUntil: 'commit' });
  await ready(page);
  const ms = await page.evaluate(() => performance.now());
  void t0;
  const all = await Promise.all(bodies);
  return { ms, jsGzip: all.reduce((s, x) => s + x.gz, 0), jsRaw: all.reduce((s, x) => s + x.raw, 0), jsWire: all.reduce((s, x) => s + x.wire, 0), scripts: all.length };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

const env = await startWebEnv();
try {
  const signInLoads: Load[] = [];
  const networksLoads: Load[] = [];
  for (let i = 0; i < RUNS; i++) {
    const page = await env.newPage();
    signInLoads.push(
      await measure(page, `${env.base}/`, async (p) => {
        await p.getByLabel('E-mail').waitFor();
        await p.waitForFunction(() => document.activeElement?.getAttribute('name') === 'email');
      }),
    );
    await signIn(page, env.base, env.owner.email, env.owner.password);
    // the same signed-in person opening the app in a fresh tab with an empty cache
    const cookies = await page.context().cookies();
    await page.close();
    const fresh = await env.newPage();
    await fresh.context().addCookies(cookies);
    networksLoads.push(
      await measure(fresh, `${env.base}/networks`, async (p) => {
        await p.getByRole('heading', { level: 1, name: 'Networks' }).waitFor();
        await p.locator('[data-testid="networks-table"], .empty, .notice-error').first().waitFor();
      }),
    );
    await fresh.close();
  }
  for (const [name, loads] of [['sign-in page (signed out, /)', signInLoads], ['networks page (signed in)', networksLoads]] as const) {
    console.log(`${name}: interactive median ${Math.round(median(loads.map((l) => l.ms)))} ms (runs: ${loads.map((l) => Math.round(l.ms)).join(', ')}); JS ${loads[0].scripts} files, ${kb(loads[0].jsRaw)} raw, ${kb(loads[0].jsGzip)} gzip -9, ${kb(loads[0].jsWire)} as sent`);
  }
} finally {
  await env.close();
}
