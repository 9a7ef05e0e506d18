/**
 * Setup of the web application's browser tests: the service started the way a newcomer starts it
 * (`node packages/server/src/main.ts` on an empty data directory, the first-run banner read from stderr
 * for the owner's e-mail, password and token), the browser bundles built first (what `npm start`'s
 * prestart does), and Debian's Chromium from the shared viewer harness. One service per test file.
 *
 * `webEnvFixture` gives a test file its env as before/after hooks. Helpers: `signIn` through the sign-in
 * page, `openMetricCard` (a network page's metric card, signed in as the owner), `axe` (axe-core:
 * serious/critical violations of a page), `horizontalOverflow` (elements wider than the viewport), `api` (a bearer call), `shotPng`, `nodePixels`
 * (pixels of a screenshot in the viewer's node colours: the network was drawn).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import assert from 'node:assert/strict';
import type { Browser, Locator, Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { freePort, launchChromium, skipBrowser, CHROMIUM } from '../../../viewer/test/helpers/browser-env.ts';
import { buildEmbed } from '../../../embed/build.ts';
import { buildViewer } from '../../../viewer/build.ts';
import { buildWeb } from '../../build.ts';
import { decodePng } from '../../../viewer/test/png.ts';
import { fixture } from '../../../server/test/helpers/fixture.ts';

export { skipBrowser, CHROMIUM };

const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');

export interface FirstRun {
  email: string;
  password: string;
  token: string;
  organization: string;
}

export interface WebEnv {
  /** http://localhost:<port> */
  base: string;
  owner: FirstRun;
  browser: Browser;
  /** The server's stderr and stdout so far (for failure messages). */
  output(): string;
  /** A JSON call with a bearer token (the owner's unless given); returns status and parsed body. */
  api(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: Record<string, unknown> }>;
  /** Creates a network of the owner's (`extra`: more fields of the body, e.g. isDirected); asserts 200, returns its id. */
  network(name: string, networkJSON: unknown, extra?: Record<string, unknown>): Promise<string>;
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

function parseBanner(text: string): FirstRun | null {
  const get = (label: string) => new RegExp(`${label}:\\s+(.+)`).exec(text)?.[1]?.trim();
  const email = get('e-mail');
  const password = get('password');
  const token = get('API token \\(full access\\)');
  if (!email || !password || !token) return null;
  return { email, password, token, organization: get('organization') ?? '' };
}

export async function startWebEnv(opts: { env?: Record<string, string> } = {}): Promise<WebEnv> {
  await Promise.all([buildEmbed(), buildViewer(), buildWeb()]);
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'netloom-web-'));
  let out = '';
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'packages/server/src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', NETLOOM_DATA_DIR: dataDir, NETLOOM_PUBLIC_URL: base, LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));

  // Wait for the banner and for the server to answer.
  const until = Date.now() + 60_000;
  let owner: FirstRun | null = null;
  for (;;) {
    owner ??= parseBanner(out);
    if (owner) {
      const ok = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
      if (ok) break;
    }
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${out}`);
    if (Date.now() > until) throw new Error(`server did not start within 60 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const browser = await launchChromium();

  const env: WebEnv = {
    base,
    owner,
    browser,
    output: () => out,
    async api(method, path, body, token = owner.token) {
      const res = await fetch(base + path, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: Record<string, unknown>;
      try {
        parsed = text ? JSON.parse(text) : {};
      } catch {
        parsed = { text };
      }
      return { status: res.status, body: parsed };
    },
    async network(name, networkJSON, extra = {}) {
      const r = await env.api('POST', '/api/v2/networks', { name, ...extra, networkJSON });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return String(r.body._id);
    },
    async newPage(viewport = { width: 1280, height: 800 }) {
      // a context per page (axe-core needs one it can open pages in); closing the page closes it
      const context = await browser.newContext({ viewport, acceptDownloads: true });
      const page = await context.newPage();
      page.once('close', () => void context.close().catch(() => undefined));
      page.on('pageerror', (e) => console.error('[page error]', e.message));
      return page;
    },
    async close() {
      await browser.close();
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return env;
}

/**
 * The web env of a test file, as its top-level before/after hooks (nothing starts without Chromium):
 * started with `opts`, then `setup` makes what the tests use (networks…); closed after them.
 */
export function webEnvFixture(opts: { env?: Record<string, string> } = {}, setup?: (env: WebEnv) => Promise<void>): WebEnv {
  return fixture(() => startWebEnv(opts), { skip: skipBrowser, setup });
}

/** A page signed in as the owner on the network's page, `metric` chosen in its metric card: the page and the card. */
export async function openMetricCard(env: WebEnv, networkId: string, metric: string): Promise<{ page: Page; card: Locator }> {
  const page = await env.newPage({ width: 1280, height: 800 });
  await signIn(page, env.base, env.owner.email, env.owner.password);
  await page.goto(`${env.base}/networks/${networkId}`);
  const card = page.getByTestId('metric-jobs');
  await card.getByLabel('Metric').selectOption(metric);
  return { page, card };
}

/** Signs in through the sign-in page; resolves once the networks page is shown. */
export async function signIn(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/sign-in`);
  await page.getByLabel('E-mail').waitFor({ timeout: 15_000 }).catch(async (e: Error) => {
    throw new Error(`no sign-in form at ${page.url()}; the page says: ${(await page.locator('body').innerText().catch(() => '?')).slice(0, 500)}\n${e.message}`);
  });
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).last().click();
  await page.getByRole('heading', { level: 1, name: 'Networks' }).waitFor();
  if (!/\/networks$/.test(page.url())) throw new Error(`signed in at ${page.url()}, expected /networks`);
}

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** axe-core on the page as it is now: the serious and critical violations (WCAG 2.x A/AA and best practices). */
export async function axe(page: Page): Promise<AxeFinding[]> {
  const r = await new AxeBuilder({ page }).exclude('iframe').analyze();
  return r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: String(v.impact), help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
}

/** Elements sticking out of the viewport horizontally, and the document's own overflow (0 = none). */
export async function horizontalOverflow(page: Page): Promise<{ scrollWidth: number; viewport: number; offenders: string[] }> {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const offenders: string[] = [];
    for (const el of Array.from(document.querySelectorAll('body *'))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      // ignore things inside a scroll container of their own (code blocks, wide tables in docs)
      let p: Element | null = el.parentElement;
      let scrolled = false;
      while (p && p !== document.body) {
        const s = getComputedStyle(p);
        if (s.overflowX === 'auto' || s.overflowX === 'scroll' || s.overflowX === 'hidden') {
          scrolled = true;
          break;
        }
        p = p.parentElement;
      }
      if (!scrolled && (r.right > vw + 1 || r.left < -1)) offenders.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${el.className && typeof el.className === 'string' ? '.' + el.className.split(' ').join('.') : ''} (${Math.round(r.left)}–${Math.round(r.right)})`);
    }
    return { scrollWidth: document.documentElement.scrollWidth, viewport: vw, offenders: offenders.slice(0, 10) };
  });
}

/** Keeps a screenshot when NETLOOM_SCREENSHOT_DIR is set. */
export function keepShot(name: string, png: Buffer): void {
  const dir = process.env.NETLOOM_SCREENSHOT_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.png`), png);
}

/** Pixels of the viewer in its node colour family (blue-grey discs), not background, edges or labels. */
export function nodePixels(png: Buffer): number {
  const img = decodePng(png);
  let n = 0;
  for (let i = 0; i < img.data.length; i += 4) {
    const r = img.data[i], b = img.data[i + 2];
    if (b - r > 25 && b > 90 && b < 210) n++;
  }
  return n;
}
