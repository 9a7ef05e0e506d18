/**
 * The one setup of the viewer's browser tests and of bench/viewer.ts (never a downloaded browser):
 *
 * - `startService`: the real service built and running in process (SQLite) on localhost:<port>, an
 *   organization (enterprise plan) with embedding on, `api()` with its token (bodies over 1 MB sent
 *   gzipped), networks and managed users with a permission and a chatAccess.
 * - `startBrowserEnv`: that service, plus a host page and "backend" on another origin (127.0.0.1:<hostPort>,
 *   allowed in the embed settings) that imports the SDK from the service, hands out launch tokens
 *   (recorded in `launchTokensIssued`, with an `onLaunchToken` hook) and records every SDK event in
 *   `window.events`; and Debian's Chromium through playwright-core.
 * - `browserEnvFixture`: a test file's browser env (its before/after hooks), with its networks and managed users.
 * - `launchChromium`: the browser, with software WebGL (SwiftShader through ANGLE) unless told otherwise.
 * - In-page helpers: `sdk()` runs an SDK command, `events()`/`waitForEvent()` read the recorded events,
 *   `shot()` screenshots the viewer iframe (decoded by png.ts), `viewerFrame()` finds the viewer's frame.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Download, type Frame, type Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { EVENT_NAMES } from '@netloom/protocol';
import { testApp, type TestApp } from '../../../server/test/helpers/app.ts';
import { fixture } from '../../../server/test/helpers/fixture.ts';
import { buildEmbed } from '../../../embed/build.ts';
import { buildViewer } from '../../build.ts';
import { decodePng, type Image } from '../png.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const OPERATOR = 'op-test-token-0123456789';
/** `skip` for node:test when there is no Chromium. */
export const skipBrowser: string | false = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (apt-get install chromium)`;
const BASE_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
/** Software WebGL: SwiftShader through ANGLE (sigma needs WebGL; there is no GPU). */
const SWIFTSHADER_ARGS = ['--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * An axe-core builder that really reaches into frames (the viewer's iframe). @axe-core/playwright gives each
 * frame 1 s to take axe's source and otherwise leaves the frame out without a word — a viewer drawing 10,000
 * nodes on a loaded machine takes longer, and the check then covered the host page only. Evaluating the
 * same source in every frame first, without that limit, lets the builder's own injection reuse V8's compiled
 * script. Callers still assert that the result holds nodes inside the frame.
 */
export async function axeBuilder(page: Page): Promise<AxeBuilder> {
  for (const frame of page.frames()) await frame.evaluate(AXE_SOURCE);
  return new AxeBuilder({ page, axeSource: AXE_SOURCE });
}

/**
 * Clicks an export button of the viewer (`selector` inside its frame) and receives the file from the
 * download window the click opens (export/deliver.ts); with `keep` the bytes are also written to
 * `keep.out` as `<prefix><file name>` for a person to look at.
 */
export async function viewerDownload(page: Page, selector: string, keep?: { out: URL; prefix: string }): Promise<{ d: Download; bytes: Buffer }> {
  const popup = page.waitForEvent('popup');
  await page.frameLocator('#viewer iframe').locator(selector).click();
  const win = await popup;
  const d = await win.waitForEvent('download', { timeout: 30_000 });
  const bytes = readFileSync(await d.path());
  if (keep) writeFileSync(new URL(`${keep.prefix}${d.suggestedFilename()}`, keep.out), bytes);
  return { d, bytes };
}

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

/** Debian's Chromium; playwright-core gives every launch a fresh temporary profile (its own --user-data-dir). */
export function launchChromium(opts: { swiftshader?: boolean } = {}): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: opts.swiftshader === false ? BASE_ARGS : [...BASE_ARGS, ...SWIFTSHADER_ARGS] });
}

export type Permission = 'View' | 'Edit';
export type ChatAccess = 'off' | 'presetOnly' | 'full';

export interface ServiceOptions {
  /** Server environment on top of the operator token and the public URL (e.g. shorter token lifetimes). */
  env?: Record<string, string>;
  /** false: build the viewer unminified (readable CPU profiles). */
  minify?: boolean;
}

export interface Service {
  t: TestApp;
  port: number;
  /** http://localhost:<port>, the service's public URL. */
  service: string;
  orgId: string;
  orgToken: string;
  /** A JSON call to the service with the organization's token (or `token`); throws unless 2xx. */
  api(method: string, path: string, body?: unknown, token?: string): Promise<Record<string, unknown>>;
  /** Creates a network owned by the organization; returns its id. */
  network(name: string, networkJSON: unknown): Promise<string>;
  /** A managed user (created or updated; display name = externalId unless given, chatAccess full unless given) with `permission` (Edit unless given) on the networks. */
  user(externalId: string, networkIds: string | string[], opts?: { permission?: Permission; chatAccess?: ChatAccess; displayName?: string }): Promise<void>;
  close(): Promise<void>;
}

export async function startService(opts: ServiceOptions = {}): Promise<Service> {
  await Promise.all([buildEmbed(), buildViewer({ minify: opts.minify })]);
  const port = await freePort();
  const service = `http://localhost:${port}`;
  const t = await testApp('sqlite', { NETLOOM_OPERATOR_TOKEN: OPERATOR, NETLOOM_PUBLIC_URL: service, ...opts.env });
  await t.app.listen({ port, host: '127.0.0.1' });
  const owner = await t.user();
  const org = await t.org(owner.id);
  const orgToken = await t.token(owner.id, { orgId: org.id });

  const api: Service['api'] = async (method, path, body, token = orgToken) => {
    const text0 = body !== undefined ? JSON.stringify(body) : undefined;
    const gz = text0 !== undefined && text0.length > 1_000_000;
    const res = await fetch(service + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(text0 !== undefined ? { 'content-type': 'application/json' } : {}), ...(gz ? { 'content-encoding': 'gzip' } : {}) },
      body: text0 === undefined ? undefined : gz ? gzipSync(text0) : text0,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text.slice(0, 500)}`);
    return text ? JSON.parse(text) : {};
  };
  await api('PUT', `/api/v2/operator/organizations/${org.id}/embedding`, { enabled: true, seats: 50 }, OPERATOR);

  return {
    t,
    port,
    service,
    orgId: org.id,
    orgToken,
    api,
    network: async (name, networkJSON) => String((await api('POST', '/api/v2/networks', { name, networkJSON }))._id),
    async user(externalId, networkIds, o = {}) {
      const path = `/api/v2/embed/users/${encodeURIComponent(externalId)}`;
      await api('PUT', path, { displayName: o.displayName ?? externalId, chatAccess: o.chatAccess ?? 'full' });
      for (const id of [networkIds].flat()) await api('PUT', `${path}/networks/${id}`, { permission: o.permission ?? 'Edit' });
    },
    close: () => t.close(),
  };
}

export interface BrowserEnvOptions extends ServiceOptions {
  /** Size of the host page's viewer element (800 × 600 unless given); the page's viewport is 20 px larger each way. */
  viewer?: { width: number; height: number };
  /** Also log HTTP responses ≥ 400 seen by the host page (session ids masked). */
  logHttpErrors?: boolean;
}

export interface BrowserEnv extends Service {
  browser: Browser;
  hostOrigin: string;
  /** Every launch token the host backend handed out, in order. */
  launchTokensIssued: string[];
  /** Called by the host backend after it obtained a launch token and before it answers (tests). */
  onLaunchToken: ((sessionId: string) => Promise<void>) | null;
  /** A session of a managed user on the networks (the first one opened), for the host origin; returns its id. */
  session(externalId: string, networkIds: string | string[], body?: Record<string, unknown>): Promise<string>;
  /** A fresh host page, SDK loaded, nothing embedded yet. */
  openHost(): Promise<Page>;
  /** Embeds a session in the host page; resolves with the revision once Embed.create resolved. */
  embed(page: Page, sessionId: string, opts?: { timeoutMs?: number }): Promise<number>;
  /** Like `embed`, for a session expected to fail: 'loaded', or the code Embed.create rejected with. */
  tryEmbed(page: Page, sessionId: string): Promise<string>;
  /** A fresh host page with the session embedded. */
  open(sessionId: string): Promise<Page>;
}

/** The host page: `window.embedIt(sessionId, opts)` embeds the session, records events and timings. */
function hostPage(service: string, viewer: { width: number; height: number }): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0}#viewer{width:${viewer.width}px;height:${viewer.height}px}</style></head>
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
    for (const name of ${JSON.stringify(EVENT_NAMES)}) window.embed.on(name, (p) => window.events.push({ name, ...p }));
    return window.embed.revision;
  };
  window.hostReady = true;
</script></body></html>`;
}

export async function startBrowserEnv(opts: BrowserEnvOptions = {}): Promise<BrowserEnv> {
  const svc = await startService(opts);
  const viewer = opts.viewer ?? { width: 800, height: 600 };
  const env = { ...svc, launchTokensIssued: [] as string[], onLaunchToken: null } as BrowserEnv;

  const hostServer: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(hostPage(svc.service, viewer));
      return;
    }
    if (url.pathname === '/backend/launch-token' && req.method === 'POST') {
      // A real host checks that its signed-in user owns this session before asking for a token.
      const sessionId = url.searchParams.get('session') ?? '';
      try {
        const r = await svc.api('POST', `/api/v2/embed/sessions/${sessionId}/launch-tokens`);
        env.launchTokensIssued.push(String(r.launchToken));
        if (env.onLaunchToken) await env.onLaunchToken(sessionId);
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
  env.hostOrigin = `http://127.0.0.1:${hostPort}`;
  await svc.api('PUT', '/api/v2/embed/settings', { allowedOrigins: [env.hostOrigin], dataDisclosureAccepted: true });
  env.browser = await launchChromium();

  env.session = async (externalId, networkIds, body = {}) =>
    String((await svc.api('POST', '/api/v2/embed/sessions', { externalId, networkIds: [networkIds].flat(), origin: env.hostOrigin, ...body })).sessionId);
  env.openHost = async () => {
    const page = await env.browser.newPage({ viewport: { width: viewer.width + 20, height: viewer.height + 20 } });
    page.on('pageerror', (e) => console.error('[host page error]', e.message));
    page.on('console', (m) => { if (m.type() === 'error') console.error('[browser]', m.text()); });
    if (opts.logHttpErrors) {
      page.on('response', (r) => { if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) console.error('[http]', r.status(), r.url().replace(/\/embed\/[^/]+$/, '/embed/<session>')); });
    }
    await page.goto(env.hostOrigin + '/');
    await page.waitForFunction(() => (window as unknown as { hostReady?: boolean }).hostReady === true);
    return page;
  };
  env.embed = (page, sessionId, o = {}) => page.evaluate(([id, x]) => (window as unknown as Win).embedIt(id, x), [sessionId, o] as const);
  env.tryEmbed = (page, sessionId) => page.evaluate(async (id) => {
    try {
      await (window as unknown as Win).embedIt(id);
      return 'loaded';
    } catch (e) {
      return (e as { code: string }).code;
    }
  }, sessionId);
  env.open = async (sessionId) => {
    const page = await env.openHost();
    await env.embed(page, sessionId);
    return page;
  };
  env.close = async () => {
    await env.browser.close();
    await new Promise((r) => hostServer.close(r));
    await svc.close();
  };
  return env;
}

export interface BrowserTestOptions extends BrowserEnvOptions {
  /** A folder for what the tests keep (screenshots, downloads), created before the env starts. */
  out?: URL;
}

/**
 * The browser env of a test file, as its top-level before/after hooks (nothing starts without Chromium):
 * started with `opts`, then `setup` makes the networks and managed users the tests use; closed after them.
 */
export function browserEnvFixture(opts: BrowserTestOptions, setup: (env: BrowserEnv) => Promise<void>): BrowserEnv {
  return fixture(async () => {
    if (opts.out) mkdirSync(opts.out, { recursive: true });
    return startBrowserEnv(opts);
  }, { skip: skipBrowser, setup });
}

export interface RecordedEvent {
  name: string;
  revision: number;
  reason?: string;
  [key: string]: unknown;
}

/** The host page's globals. */
export type Win = Window & {
  embed: Record<string, Record<string, (...a: unknown[]) => Promise<unknown>>> & { revision: number; expired: boolean; cancel(id: string): Promise<unknown> };
  events: RecordedEvent[];
  timing: { createStart?: number; createResolved?: number };
  embedIt(id: string, opts?: { timeoutMs?: number }): Promise<number>;
};

export interface SdkResult { ok: boolean; value?: unknown; code?: string; message?: string; requestId?: string; details?: unknown; name?: string }

/** Runs `embed.<ns>.<cmd>(...args)` (or `embed.<ns>(...args)`) in the host page; returns `{ ok, value }` or `{ ok: false, code, message, requestId, details, name }`. */
export async function sdk(page: Page, path: string, ...args: unknown[]): Promise<SdkResult> {
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

/** The SDK events the host page recorded so far. */
export function events(page: Page): Promise<RecordedEvent[]> {
  return page.evaluate(() => (window as unknown as Win).events);
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

/** The viewer's frame inside the host page. */
export function viewerFrame(page: Page): Frame {
  const f = page.frames().find((fr) => fr.url().includes('/embed/'));
  if (!f) throw new Error('no viewer frame');
  return f;
}

/** Waits `settleMs` for sigma to paint the last frame, then writes a screenshot of the viewer iframe to `file` (for a person to look at). */
export async function saveViewerShot(page: Page, file: URL, settleMs = 150): Promise<void> {
  await page.waitForTimeout(settleMs);
  writeFileSync(file, await page.locator('#viewer iframe').screenshot());
}

let shots = 0;
/** A screenshot of the viewer iframe, decoded (NETLOOM_SCREENSHOT_DIR=/tmp/x keeps the PNGs as <prefix>-<n>.png). */
export async function shot(page: Page, prefix = 'shot'): Promise<Image> {
  await page.waitForTimeout(150); // let sigma paint the last frame
  const png = await page.locator('#viewer iframe').screenshot();
  if (process.env.NETLOOM_SCREENSHOT_DIR) writeFileSync(join(process.env.NETLOOM_SCREENSHOT_DIR, `${prefix}-${++shots}.png`), png);
  return decodePng(png);
}
