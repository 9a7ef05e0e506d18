/**
 * Shared setup of the browser tests and the viewer benchmark: the real service (in process, SQLite,
 * listening on localhost:<port>), a host page and "backend" on another origin (127.0.0.1:<hostPort>)
 * that imports the SDK from the service and hands out launch tokens, an organization with embedding
 * enabled and the host origin allowed, networks, a managed user with Edit, and Debian's Chromium through
 * playwright-core (software WebGL: SwiftShader through ANGLE).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { testApp, type TestApp } from '../../server/test/helpers/app.ts';
import { buildEmbed } from '../../embed/build.ts';
import { buildViewer } from '../build.ts';
import { decodePng } from './png.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const OPERATOR = 'op-test-token-0123456789';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];

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

export interface NetworkInput {
  name: string;
  json: { nodes: unknown[]; edges: unknown[] };
  isDirected?: boolean;
}

export interface Harness {
  t: TestApp;
  browser: Browser;
  service: string;
  hostOrigin: string;
  orgToken: string;
  networkIds: string[];
  /** Every launch token the host backend handed out, in order. */
  launchTokensIssued: string[];
  /** Called by the host backend after it obtained a launch token and before it answers (tests). */
  onLaunchToken: ((sessionId: string) => Promise<void>) | null;
  api(method: string, path: string, body?: unknown, token?: string): Promise<Record<string, unknown>>;
  newSession(body?: Record<string, unknown>): Promise<string>;
  openHost(viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

/** The host page: `window.embedIt(sessionId, { timeoutMs })` embeds the session and records events and timings. */
function hostPage(service: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0}#viewer{width:800px;height:600px}</style></head>
<body><div id="viewer"></div>
<script type="module">
  import Embed, { EmbedError } from '${service}/sdk/embed.js';
  window.Embed = Embed;
  window.EmbedError = EmbedError;
  window.events = [];
  window.timing = {};
  window.embedIt = async (sessionId, opts = {}) => {
    window.timing.createStart = performance.timeOrigin + performance.now();
    window.embed = await Embed.create(document.getElementById('viewer'), {
      sessionId,
      viewerOrigin: '${service}',
      ...opts,
      getLaunchToken: (id) => fetch('/backend/launch-token?session=' + encodeURIComponent(id), { method: 'POST' }).then((r) => { if (!r.ok) throw new Error('no token'); return r.text(); }),
    });
    window.timing.createResolved = performance.timeOrigin + performance.now();
    for (const name of ['ready', 'busy', 'state.changed', 'selection.changed', 'node.clicked', 'error', 'session.expired']) {
      window.embed.on(name, (p) => window.events.push({ name, at: Date.now(), ...p }));
    }
    return window.embed.revision;
  };
  window.hostReady = true;
</script></body></html>`;
}

export async function startHarness(opts: { env?: Record<string, string>; networks: NetworkInput[]; logBrowserErrors?: boolean; minify?: boolean }): Promise<Harness> {
  await Promise.all([buildEmbed(), buildViewer({ minify: opts.minify })]);
  const port = await freePort();
  const service = `http://localhost:${port}`;
  const t = await testApp('sqlite', { NETLOOM_OPERATOR_TOKEN: OPERATOR, NETLOOM_PUBLIC_URL: service, ...opts.env });
  await t.app.listen({ port, host: '127.0.0.1' });

  const h = {
    t,
    service,
    launchTokensIssued: [] as string[],
    onLaunchToken: null,
    networkIds: [] as string[],
  } as unknown as Harness;

  h.api = async (method, path, body, token = h.orgToken) => {
    const gz = body !== undefined && JSON.stringify(body).length > 1_000_000;
    const text0 = body !== undefined ? JSON.stringify(body) : undefined;
    const res = await fetch(service + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(gz ? { 'content-encoding': 'gzip' } : {}) },
      body: text0 === undefined ? undefined : gz ? gzipSync(text0) : text0,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text.slice(0, 500)}`);
    return text ? JSON.parse(text) : {};
  };

  const hostServer: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(hostPage(service));
      return;
    }
    if (url.pathname === '/backend/launch-token' && req.method === 'POST') {
      // A real host checks that its signed-in user owns this session before asking for a token.
      const sessionId = url.searchParams.get('session') ?? '';
      try {
        const r = await h.api('POST', `/api/v2/embed/sessions/${sessionId}/launch-tokens`);
        h.launchTokensIssued.push(String(r.launchToken));
        if (h.onLaunchToken) await h.onLaunchToken(sessionId);
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
  h.hostOrigin = `http://127.0.0.1:${hostPort}`;

  // Organization with embedding enabled, the host origin allowed, the networks, a managed user with Edit.
  const owner = await t.user({ plan: 'enterprise' });
  const org = await t.org(owner.id, { plan: 'enterprise' });
  h.orgToken = await t.token(owner.id, { orgId: org.id });
  await h.api('PUT', `/api/v2/operator/organizations/${org.id}/embedding`, { enabled: true, seats: 10 }, OPERATOR);
  await h.api('PUT', '/api/v2/embed/settings', { allowedOrigins: [h.hostOrigin], dataDisclosureAccepted: true });
  for (const n of opts.networks) {
    h.networkIds.push(String((await h.api('POST', '/api/v2/networks', { name: n.name, ...(n.isDirected !== undefined ? { isDirected: n.isDirected } : {}), networkJSON: n.json }))._id));
  }
  await h.api('PUT', '/api/v2/embed/users/viewer-1', { displayName: 'Vera Viewer', chatAccess: 'full' });
  for (const id of h.networkIds) await h.api('PUT', `/api/v2/embed/users/viewer-1/networks/${id}`, { permission: 'Edit' });

  // playwright-core gives every launch a fresh temporary profile (its own --user-data-dir).
  h.browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });

  h.newSession = async (body = {}) => {
    const s = await h.api('POST', '/api/v2/embed/sessions', { externalId: 'viewer-1', networkIds: [h.networkIds[0]], origin: h.hostOrigin, ...body });
    return String(s.sessionId);
  };
  h.openHost = async (viewport = { width: 820, height: 620 }) => {
    const page = await h.browser.newPage({ viewport });
    if (opts.logBrowserErrors !== false) {
      page.on('pageerror', (e) => console.error('[host page error]', e.message));
      page.on('console', (m) => { if (m.type() === 'error') console.error('[browser]', m.text()); });
    }
    await page.goto(h.hostOrigin + '/');
    await page.waitForFunction(() => (window as unknown as { hostReady?: boolean }).hostReady === true);
    return page;
  };
  h.close = async () => {
    await h.browser?.close();
    await new Promise((r) => hostServer.close(r));
    await t.close();
  };
  return h;
}

export type Win = Window & {
  embed: Record<string, Record<string, (...a: unknown[]) => Promise<unknown>>> & { revision: number; expired: boolean; cancel(id: string): Promise<unknown> };
  events: { name: string; revision: number; at: number; reason?: string }[];
  timing: { createStart?: number; createResolved?: number };
  embedIt(id: string, opts?: { timeoutMs?: number }): Promise<number>;
};

export interface SdkOutcome { ok: boolean; value?: unknown; code?: string; message?: string; requestId?: string; details?: unknown }

/** Runs `embed.<path>(...args)` in the page; returns `{ ok, value }` or `{ ok: false, code, message, requestId }`. */
export async function sdk(page: Page, path: string, ...args: unknown[]): Promise<SdkOutcome> {
  return page.evaluate(async ([p, a]) => {
    const w = window as unknown as Win;
    const [ns, cmd] = (p as string).split('.');
    try {
      const value = cmd ? await w.embed[ns][cmd](...(a as unknown[])) : await (w.embed as unknown as Record<string, (...x: unknown[]) => Promise<unknown>>)[ns](...(a as unknown[]));
      return { ok: true, value };
    } catch (e) {
      const err = e as { code?: string; message: string; requestId?: string; details?: unknown; name: string };
      return { ok: false, code: err.code, message: err.message, requestId: err.requestId, details: err.details, name: err.name };
    }
  }, [path, args] as const);
}

let shots = 0;
/** A screenshot of the viewer iframe, decoded (NETLOOM_SCREENSHOT_DIR=/tmp/x keeps the PNGs). */
export async function shot(page: Page, prefix = 'shot') {
  await page.waitForTimeout(150); // let sigma paint the last frame
  const png = await page.locator('#viewer iframe').screenshot();
  if (process.env.NETLOOM_SCREENSHOT_DIR) writeFileSync(join(process.env.NETLOOM_SCREENSHOT_DIR, `${prefix}-${++shots}.png`), png);
  return decodePng(png);
}
