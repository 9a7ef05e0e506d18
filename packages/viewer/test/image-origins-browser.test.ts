/**
 * Node image URLs cannot make viewers fetch what an uploader chose (issue 19, Low; docs/security.md "The
 * embedded viewer"; docs/embedding.md): the viewer page's CSP allows images from the service, `data:`,
 * `blob:` and the operator's NETLOOM_VIEWER_IMAGE_ORIGINS only, and the viewer never asks for any other.
 * Two image servers record what reaches them: one on the allow-list, one an "attacker's". In Debian's
 * Chromium through the real service (helpers/browser-env.ts).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { sdk, skipBrowser as skip, startBrowserEnv, viewerFrame, type BrowserEnv } from './helpers/browser-env.ts';
import type { Frame } from 'playwright-core';

// a 1×1 PNG
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

interface ImageServer { server: Server; origin: string; hits: string[] }
async function imageServer(): Promise<ImageServer> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*', 'cache-control': 'no-store' });
    res.end(PIXEL);
  });
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
  return { server, origin: `http://127.0.0.1:${port}`, hits };
}

let env: BrowserEnv;
let allowed: ImageServer;
let attacker: ImageServer;
let networkId = '';

before(async () => {
  if (skip) return;
  allowed = await imageServer();
  attacker = await imageServer();
  env = await startBrowserEnv({ env: { NETLOOM_VIEWER_IMAGE_ORIGINS: allowed.origin } });
  const nodes = [
    { id: 'a', x: 0, y: 0, image: { url: `${attacker.origin}/tracker.png?who=viewer` }, attributes: { name: 'A' } },
    { id: 'b', x: 10, y: 0, image: { url: `${allowed.origin}/ok.png` }, attributes: { name: 'B' } },
    { id: 'c', x: 0, y: 10, image: { url: `${attacker.origin.replace('127.0.0.1', 'localhost')}/by-name.png` }, attributes: { name: 'C' } },
    { id: 'd', x: 10, y: 10, attributes: { name: 'D' } },
  ];
  networkId = await env.network('Images', { nodes, edges: [{ id: 0, source: 'a', target: 'b' }, { id: 1, source: 'c', target: 'd' }] });
  await env.user('viewer-img', networkId, { permission: 'View' });
});

after(async () => {
  await env?.close();
  await Promise.all([allowed, attacker].filter(Boolean).map((s) => new Promise((r) => s.server.close(r))));
});

test('the viewer page allows images from the service, data:, blob: and the allow-list only (no img-src *)', { skip, timeout: 60_000 }, async () => {
  const sessionId = await env.session('viewer-img', networkId);
  const res = await fetch(`${env.service}/embed/${sessionId}`);
  const csp = res.headers.get('content-security-policy') ?? '';
  assert.match(csp, new RegExp(`img-src 'self' data: blob: ${allowed.origin.replace(/[.:/]/g, '\\$&')};`));
  assert.doesNotMatch(csp, /img-src[^;]*\*/);
  assert.match(await res.text(), new RegExp(`data-image-origins="${allowed.origin.replace(/[.:/]/g, '\\$&')}"`));
});

/** What becomes of an image the page itself loads from `url` in `frame`: 'loaded', or 'refused' (an error event). */
function imageOutcome(frame: Frame, url: string): Promise<string> {
  return frame.evaluate(async (src) => {
    const img = new Image();
    const outcome = new Promise<string>((resolve) => {
      img.onload = () => resolve('loaded');
      img.onerror = () => resolve('refused');
    });
    img.src = src;
    return outcome;
  }, url);
}

test('node images from other origins are never requested, by the viewer nor by anything the page tries; allowed ones are drawn', { skip, timeout: 120_000 }, async () => {
  const page = await env.open(await env.session('viewer-img', networkId));
  const frame = viewerFrame(page);
  // the details panel of each node with an image (it shows the image when allowed)
  for (const id of ['a', 'b', 'c']) {
    assert.equal((await sdk(page, 'nodes.select', [{ id }])).ok, true);
    await page.waitForTimeout(200);
  }
  // the allowed image is fetched (drawn in its node, shown in the details)
  for (let i = 0; i < 300 && allowed.hits.length === 0; i++) await page.waitForTimeout(100);
  assert.ok(allowed.hits.some((h) => h.startsWith('/ok.png')), `the allowed image was requested (${JSON.stringify(allowed.hits)})`);
  // the page itself cannot load the attacker's URL either: the CSP refuses it (an error, no request)
  const direct = await imageOutcome(frame, `${attacker.origin}/direct.png`);
  assert.equal(direct, 'refused');
  const viaAllowed = await imageOutcome(frame, `${allowed.origin}/direct.png`);
  assert.equal(viaAllowed, 'loaded', 'the same test on the allow-listed origin loads');
  // no <img> in the viewer points elsewhere
  const srcs = await frame.evaluate(() => [...document.querySelectorAll('img')].map((i) => i.src));
  assert.ok(srcs.every((s) => !s.startsWith('http') || s.startsWith(location.origin) || s.includes('/ok.png') || s.includes('/direct.png')), JSON.stringify(srcs));
  await page.waitForTimeout(1000);
  assert.deepEqual(attacker.hits, [], 'nothing reached the other origin');
  await page.close();
});
