// The example host app (examples/host/server.ts) run as its own process against a real service, driven in
// Chromium: the page embeds the viewer through the SDK served by the service, "Color by team" changes the
// drawing, and "Log out" revokes the Netloom session on the backend and removes the iframe. The service is
// reached by the example as 127.0.0.1 while its public URL says localhost, as happens behind proxies.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { testApp, type TestApp } from '../../server/test/helpers/app.ts';
import { buildEmbed } from '../../embed/build.ts';
import { buildViewer } from '../build.ts';
import { decodePng } from './png.ts';
import { CHROMIUM, skipBrowser } from './helpers/browser-env.ts';

const OPERATOR = 'op-example-token-0123456789';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

describe('examples/host in Chromium', { skip: skipBrowser }, () => {
  let t: TestApp;
  let browser: Browser;
  let host: ChildProcess;
  let hostUrl = '';
  let launchTokenStatus: (sessionId: string) => Promise<number>;

  before(async () => {
    await Promise.all([buildEmbed(), buildViewer()]);
    const port = await freePort();
    t = await testApp('sqlite', { NETLOOM_OPERATOR_TOKEN: OPERATOR, NETLOOM_PUBLIC_URL: `http://localhost:${port}` });
    await t.app.listen({ port, host: '127.0.0.1' });
    const service = `http://127.0.0.1:${port}`;
    const owner = await t.user();
    const org = await t.org(owner.id);
    const orgToken = await t.token(owner.id, { orgId: org.id });
    const api = async (method: string, path: string, body: unknown, token = orgToken) => {
      const res = await fetch(service + path, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      assert.ok(res.ok, `${method} ${path} → ${res.status} ${await res.clone().text()}`);
      return (await res.json()) as Record<string, unknown>;
    };
    const hostPort = await freePort();
    hostUrl = `http://127.0.0.1:${hostPort}`;
    await api('PUT', `/api/v2/operator/organizations/${org.id}/embedding`, { enabled: true, seats: 5 }, OPERATOR);
    await api('PUT', '/api/v2/embed/settings', { allowedOrigins: [hostUrl], dataDisclosureAccepted: true });
    const nodes = Array.from({ length: 30 }, (_, i) => ({ id: i, attributes: { name: `Member ${i}`, team: i % 2 ? 'Red' : 'Blue' } }));
    const edges = Array.from({ length: 60 }, (_, i) => ({ id: i, source: i % 30, target: (i * 7 + 3) % 30 }));
    const net = await api('POST', '/api/v2/networks', { name: 'Example network', isDirected: false, networkJSON: { nodes, edges } });
    launchTokenStatus = async (sessionId) =>
      (await fetch(`${service}/api/v2/embed/sessions/${sessionId}/launch-tokens`, { method: 'POST', headers: { authorization: `Bearer ${orgToken}` } })).status;
    host = spawn(process.execPath, [join(import.meta.dirname, '..', '..', '..', 'examples', 'host', 'server.ts')], {
      env: { ...process.env, NETLOOM_URL: service, NETLOOM_TOKEN: orgToken, NETLOOM_NETWORK_ID: String(net._id), PORT: String(hostPort) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      host.once('exit', (code) => reject(new Error(`example host exited ${code}`)));
      host.stdout!.on('data', (d: Buffer) => { if (String(d).includes('host app on')) resolve(); });
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  });

  after(async () => {
    await browser?.close();
    host?.kill();
    await t?.close();
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
    let changed = 0;
    for (let i = 0; i < before.data.length; i += 4) {
      if (Math.abs(before.data[i] - after.data[i]) + Math.abs(before.data[i + 1] - after.data[i + 1]) + Math.abs(before.data[i + 2] - after.data[i + 2]) > 60) changed++;
    }
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
