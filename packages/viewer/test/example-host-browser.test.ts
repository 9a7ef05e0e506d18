// The example host app (examples/host/server.ts) run as its own process against a real service, driven in
// Chromium: the page embeds the viewer through the SDK served by the service, "Color by team" changes the
// drawing, and "Log out" revokes the Netloom session on the backend and removes the iframe. The service is
// reached by the example as 127.0.0.1 while its public URL says localhost, as happens behind proxies.
// The service and browser come from helpers/browser-env.ts (no host page of its own: the example is the host).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { countDifferent, decodePng } from './png.ts';
import { freePort, launchChromium, skipBrowser, startService, type Service } from './helpers/browser-env.ts';

describe('examples/host in Chromium', { skip: skipBrowser }, () => {
  let svc: Service;
  let browser: Browser;
  let host: ChildProcess;
  let hostUrl = '';
  let launchTokenStatus: (sessionId: string) => Promise<number>;

  before(async () => {
    svc = await startService();
    const service = `http://127.0.0.1:${svc.port}`;
    const hostPort = await freePort();
    hostUrl = `http://127.0.0.1:${hostPort}`;
    await svc.api('PUT', '/api/v2/embed/settings', { allowedOrigins: [hostUrl], dataDisclosureAccepted: true });
    const nodes = Array.from({ length: 30 }, (_, i) => ({ id: i, attributes: { name: `Member ${i}`, team: i % 2 ? 'Red' : 'Blue' } }));
    const edges = Array.from({ length: 60 }, (_, i) => ({ id: i, source: i % 30, target: (i * 7 + 3) % 30 }));
    const net = await svc.api('POST', '/api/v2/networks', { name: 'Example network', isDirected: false, networkJSON: { nodes, edges } });
    launchTokenStatus = async (sessionId) =>
      (await fetch(`${service}/api/v2/embed/sessions/${sessionId}/launch-tokens`, { method: 'POST', headers: { authorization: `Bearer ${svc.orgToken}` } })).status;
    host = spawn(process.execPath, [join(import.meta.dirname, '..', '..', '..', 'examples', 'host', 'server.ts')], {
      env: { ...process.env, NETLOOM_URL: service, NETLOOM_TOKEN: svc.orgToken, NETLOOM_NETWORK_ID: String(net._id), PORT: String(hostPort) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      host.once('exit', (code) => reject(new Error(`example host exited ${code}`)));
      host.stdout!.on('data', (d: Buffer) => { if (String(d).includes('host app on')) resolve(); });
    });
    browser = await launchChromium({ swiftshader: false });
  });

  after(async () => {
    await browser?.close();
    host?.kill();
    await svc?.close();
  });

  test('embeds, colors by team, and logs out (session revoked, iframe removed)', async () => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 760 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('dialog', (d) => { errors.push(`dialog: ${d.message()}`); void d.dismiss(); });
    let sessionId = '';
    page.on('response', (r) => {
      if (r.url().endsWith('/api/netloom/session')) void r.json().then((b: { sessionId: string }) => (sessionId = b.sessionId));
    });
    await page.goto(hostUrl + '/');
    const frame = await (await page.waitForSelector('#viewer iframe', { timeout: 30_000 })).contentFrame();
    assert.ok(frame);
    await frame.waitForSelector('canvas', { timeout: 30_000 });
    await page.waitForTimeout(800);
    const before = decodePng(await page.locator('#viewer iframe').screenshot());
    await page.click('#color');
    await page.waitForTimeout(1200);
    const after = decodePng(await page.locator('#viewer iframe').screenshot());
    const changed = countDifferent(before, after, 60);
    assert.ok(changed > 200, `coloring by team changed ${changed} pixels`);
    assert.deepEqual(errors, []);
    assert.ok(sessionId, 'the host backend created a session');
    assert.equal(await launchTokenStatus(sessionId), 200, 'the session is live before logout');
    await page.click('#logout');
    await page.waitForFunction(() => document.querySelectorAll('#viewer iframe').length === 0, undefined, { timeout: 10_000 });
    assert.equal(await launchTokenStatus(sessionId), 410, 'logout revoked the session');
    await page.close();
  });
});
