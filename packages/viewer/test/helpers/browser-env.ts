/**
 * Shared setup of the viewer's browser tests: the real server (SQLite) on localhost, a host page and
 * "backend" on another origin (127.0.0.1) that imports the SDK from the service and hands out launch
 * tokens, an organization with embedding on, and Debian's Chromium through playwright-core (never a
 * downloaded browser). Same arrangement as embed-browser.test.ts.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { testApp, type TestApp } from '../../../server/test/helpers/app.ts';
import { buildEmbed } from '../../../embed/build.ts';
import { buildViewer } from '../../build.ts';
import { decodePng } from '../png.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const OPERATOR = 'op-test-token-0123456789';
export const skipBrowser: string | false = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (apt-get install chromium)`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createNetServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export type Win = Window & { embed: Record<string, Record<string, (...a: unknown[]) => Promise<unknown>>> & { revision: number }; events: { name: string; revision: number; reason?: string }[]; embedIt(id: string): Promise<number> };

export interface BrowserEnv {
  t: TestApp;
  browser: Browser;
  service: string;
  hostOrigin: string;
  api(method: string, path: string, body?: unknown): Promise<Record<string, unknown>>;
  /** Creates a network owned by the organization; returns its id. */
  network(name: string, json: unknown): Promise<string>;
  /** A managed user with `permission` on the network (created on first use). */
  user(externalId: string, networkId: string, permission: 'View' | 'Edit'): Promise<void>;
  session(externalId: string, networkId: string, body?: Record<string, unknown>): Promise<string>;
  /** A host page with the session embedded (Embed.create resolved). */
  embed(sessionId: string): Promise<Page>;
  close(): Promise<void>;
}

export async function startBrowserEnv(): Promise<BrowserEnv> {
  await Promise.all([buildEmbed(), buildViewer()]);
  const port = await freePort();
  const service = `http://localhost:${port}`;
  const t = await testApp('sqlite', { NETLOOM_OPERATOR_TOKEN: OPERATOR, NETLOOM_PUBLIC_URL: service });
  await t.app.listen({ port, host: '127.0.0.1' });
  let orgToken = '';
  const api = async (method: string, path: string, body?: unknown, token = orgToken): Promise<Record<string, unknown>> => {
    const res = await fetch(service + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
    return text ? JSON.parse(text) : {};
  };
  const hostServer: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0}#viewer{width:900px;height:600px}</style></head>
<body><div id="viewer"></div>
<script type="module">
  import Embed from '${service}/sdk/embed.js';
  window.events = [];
  window.embedIt = async (sessionId) => {
    window.embed = await Embed.create(document.getElementById('viewer'), {
      sessionId,
      viewerOrigin: '${service}',
      getLaunchToken: (id) => fetch('/backend/launch-token?session=' + encodeURIComponent(id), { method: 'POST' }).then((r) => { if (!r.ok) throw new Error('no token'); return r.text(); }),
    });
    for (const name of ['ready', 'busy', 'state.changed', 'selection.changed', 'node.clicked', 'error', 'session.expired']) {
      window.embed.on(name, (p) => window.events.push({ name, ...p }));
    }
    return window.embed.revision;
  };
  window.hostReady = true;
</script></body></html>`);
      return;
    }
    if (url.pathname === '/backend/launch-token' && req.method === 'POST') {
      try {
        const r = await api('POST', `/api/v2/embed/sessions/${url.searchParams.get('session')}/launch-tokens`);
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(String(r.launchToken));
      } catch (err) {
        res.writeHead(403);
        res.end(String(err));
      }
      return;
    }
    res.writeHead(404);
    res.end();
  });
  const hostPort = await new Promise<number>((resolve) => hostServer.listen(0, '127.0.0.1', () => resolve((hostServer.address() as { port: number }).port)));
  const hostOrigin = `http://127.0.0.1:${hostPort}`;
  const owner = await t.user();
  const org = await t.org(owner.id);
  orgToken = await t.token(owner.id, { orgId: org.id });
  await api('PUT', `/api/v2/operator/organizations/${org.id}/embedding`, { enabled: true, seats: 10 }, OPERATOR);
  await api('PUT', '/api/v2/embed/settings', { allowedOrigins: [hostOrigin], dataDisclosureAccepted: true });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
  });
  const users = new Set<string>();
  return {
    t, browser, service, hostOrigin,
    api: (m, p, b) => api(m, p, b),
    network: async (name, json) => String((await api('POST', '/api/v2/networks', { name, networkJSON: json }))._id),
    user: async (externalId, networkId, permission) => {
      if (!users.has(externalId)) {
        await api('PUT', `/api/v2/embed/users/${externalId}`, { displayName: externalId, chatAccess: 'full' });
        users.add(externalId);
      }
      await api('PUT', `/api/v2/embed/users/${externalId}/networks/${networkId}`, { permission });
    },
    session: async (externalId, networkId, body = {}) => String((await api('POST', '/api/v2/embed/sessions', { externalId, networkIds: [networkId], origin: hostOrigin, ...body })).sessionId),
    embed: async (sessionId) => {
      const page = await browser.newPage({ viewport: { width: 920, height: 620 } });
      page.on('pageerror', (e) => console.error('[host page error]', e.message));
      page.on('console', (m) => { if (m.type() === 'error') console.error('[browser]', m.text()); });
      page.on('response', (r) => { if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) console.error('[http]', r.status(), r.url().replace(/\/embed\/[^/]+$/, '/embed/<session>')); });
      await page.goto(hostOrigin + '/');
      await page.waitForFunction(() => (window as unknown as { hostReady?: boolean }).hostReady === true);
      await page.evaluate((id) => (window as unknown as Win).embedIt(id), sessionId);
      return page;
    },
    close: async () => {
      await browser.close();
      await new Promise((r) => hostServer.close(r));
      await t.close();
    },
  };
}

/** Runs `embed.<ns>.<cmd>(...args)` in the host page. */
export async function sdk(page: Page, path: string, ...args: unknown[]): Promise<{ ok: boolean; value?: unknown; code?: string; message?: string }> {
  return page.evaluate(async ([p, a]) => {
    const w = window as unknown as Win;
    const [ns, cmd] = (p as string).split('.');
    try {
      return { ok: true, value: await w.embed[ns][cmd](...(a as unknown[])) };
    } catch (e) {
      const err = e as { code?: string; message: string };
      return { ok: false, code: err.code, message: err.message };
    }
  }, [path, args] as const);
}

let shots = 0;
/** Screenshot of the embedded viewer, decoded. */
export async function shot(page: Page, name = 'menu') {
  await page.waitForTimeout(150);
  const png = await page.locator('#viewer iframe').screenshot();
  if (process.env.NETLOOM_SCREENSHOT_DIR) writeFileSync(join(process.env.NETLOOM_SCREENSHOT_DIR, `${name}-${++shots}.png`), png);
  return decodePng(png);
}
