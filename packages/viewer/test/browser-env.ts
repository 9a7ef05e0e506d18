/**
 * Shared setup of the browser tests (the one of embed-browser.test.ts, as functions): the real service
 * on localhost:<port>, a host page and "backend" on 127.0.0.1:<port> (another origin) that imports the SDK
 * from the service and hands out launch tokens, an organization with embedding on and the host origin
 * allowed, and Debian's Chromium through playwright-core. Every SDK event is recorded in `window.events`.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { testApp, type TestApp } from '../../server/test/helpers/app.ts';
import { buildEmbed } from '../../embed/build.ts';
import { buildViewer } from '../build.ts';
import { EVENT_NAMES } from '@netloom/protocol';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const OPERATOR = 'op-test-token-0123456789';
export const skipBrowser: string | false = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (apt-get install chromium)`;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createNetServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface SdkResult {
  ok: boolean;
  value?: unknown;
  code?: string;
  message?: string;
  requestId?: string;
  details?: unknown;
}

export interface BrowserEnv {
  t: TestApp;
  browser: Browser;
  service: string;
  hostOrigin: string;
  orgId: string;
  orgToken: string;
  api(method: string, path: string, body?: unknown, token?: string): Promise<Record<string, unknown>>;
  createNetwork(name: string, networkJSON: unknown): Promise<string>;
  /** A managed user (created or updated) with a grant on the network. */
  user(externalId: string, networkId: string, opts?: { chatAccess?: 'off' | 'presetOnly' | 'full'; permission?: 'View' | 'Edit' }): Promise<void>;
  newSession(externalId: string, networkId: string, body?: Record<string, unknown>): Promise<string>;
  openHost(): Promise<Page>;
  /** Embeds a session in the host page; resolves with the revision once Embed.create resolved. */
  embed(page: Page, sessionId: string): Promise<number>;
  close(): Promise<void>;
}

type Win = Window & { embed: Record<string, Record<string, (...a: unknown[]) => Promise<unknown>>>; embedIt(id: string): Promise<number> };

/** Runs `embed.<ns>.<cmd>(...args)` in the page. */
export async function sdk(page: Page, path: string, ...args: unknown[]): Promise<SdkResult> {
  return page.evaluate(async ([p, a]) => {
    const w = window as unknown as Win;
    const [ns, cmd] = (p as string).split('.');
    try {
      const value = cmd ? await w.embed[ns][cmd](...(a as unknown[])) : await (w.embed as unknown as Record<string, (...x: unknown[]) => Promise<unknown>>)[ns](...(a as unknown[]));
      return { ok: true, value };
    } catch (e) {
      const err = e as { code?: string; message: string; requestId?: string; details?: unknown };
      return { ok: false, code: err.code, message: err.message, requestId: err.requestId, details: err.details };
    }
  }, [path, args] as const);
}

export interface RecordedEvent {
  name: string;
  revision: number;
  [key: string]: unknown;
}

export function events(page: Page): Promise<RecordedEvent[]> {
  return page.evaluate(() => (window as unknown as { events: RecordedEvent[] }).events);
}

/** Waits until an event matching `pred` was recorded; returns it. */
export async function waitForEvent(page: Page, pred: (e: RecordedEvent) => boolean, timeoutMs = 15_000): Promise<RecordedEvent> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const hit = (await events(page)).find(pred);
    if (hit) return hit;
    if (Date.now() > until) throw new Error(`no such event within ${timeoutMs} ms; events: ${JSON.stringify((await events(page)).map((e) => e.name))}`);
    await page.waitForTimeout(50);
  }
}

export async function startBrowserEnv(env: Record<string, string> = {}): Promise<BrowserEnv> {
  await Promise.all([buildEmbed(), buildViewer()]);
  const port = await freePort();
  const service = `http://localhost:${port}`;
  const t = await testApp('sqlite', { NETLOOM_OPERATOR_TOKEN: OPERATOR, NETLOOM_PUBLIC_URL: service, ...env });
  await t.app.listen({ port, host: '127.0.0.1' });
  let orgToken = '';
  const api: BrowserEnv['api'] = async (method, path, body, token = orgToken) => {
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
      res.end(`<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0}#viewer{width:800px;height:600px}</style></head>
<body><div id="viewer"></div>
<script type="module">
  import Embed, { EmbedError } from '${service}/sdk/embed.js';
  window.Embed = Embed;
  window.EmbedError = EmbedError;
  window.events = [];
  window.embedIt = async (sessionId) => {
    window.embed = await Embed.create(document.getElementById('viewer'), {
      sessionId,
      viewerOrigin: '${service}',
      getLaunchToken: (id) => fetch('/backend/launch-token?session=' + encodeURIComponent(id), { method: 'POST' }).then((r) => { if (!r.ok) throw new Error('no token'); return r.text(); }),
    });
    for (const name of ${JSON.stringify(EVENT_NAMES)}) window.embed.on(name, (p) => window.events.push({ name, ...p }));
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
  await api('PUT', `/api/v2/operator/organizations/${org.id}/embedding`, { enabled: true, seats: 50 }, OPERATOR);
  await api('PUT', '/api/v2/embed/settings', { allowedOrigins: [hostOrigin], dataDisclosureAccepted: true });

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
  });

  return {
    t,
    browser,
    service,
    hostOrigin,
    orgId: org.id,
    orgToken,
    api,
    async createNetwork(name, networkJSON) {
      return String((await api('POST', '/api/v2/networks', { name, networkJSON }))._id);
    },
    async user(externalId, networkId, opts = {}) {
      await api('PUT', `/api/v2/embed/users/${encodeURIComponent(externalId)}`, { displayName: externalId, ...(opts.chatAccess ? { chatAccess: opts.chatAccess } : {}) });
      await api('PUT', `/api/v2/embed/users/${encodeURIComponent(externalId)}/networks/${networkId}`, { permission: opts.permission ?? 'Edit' });
    },
    async newSession(externalId, networkId, body = {}) {
      const s = await api('POST', '/api/v2/embed/sessions', { externalId, networkIds: [networkId], origin: hostOrigin, ...body });
      return String(s.sessionId);
    },
    async openHost() {
      const page = await browser.newPage({ viewport: { width: 820, height: 620 } });
      page.on('pageerror', (e) => console.error('[host page error]', e.message));
      page.on('console', (m) => {
        if (m.type() === 'error') console.error('[browser]', m.text());
      });
      await page.goto(hostOrigin + '/');
      await page.waitForFunction(() => (window as unknown as { hostReady?: boolean }).hostReady === true);
      return page;
    },
    embed: (page, sessionId) => page.evaluate((id) => (window as unknown as Win).embedIt(id), sessionId),
    async close() {
      await browser.close();
      await new Promise((r) => hostServer.close(r));
      await t.close();
    },
  };
}
