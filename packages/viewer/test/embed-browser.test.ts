/**
 * End to end in Debian's Chromium (playwright-core, never a downloaded browser; setup in
 * helpers/browser-env.ts): a host page on one origin (127.0.0.1:<hostPort>) imports the SDK from the
 * service (localhost:<servicePort>) and embeds a session created through the real embedding API; its
 * "backend" hands out launch tokens. Commands run through the SDK; screenshots show the network drawn
 * and a color layer changing the drawing.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { countColor, countDifferent, countNonBackground } from './png.ts';
import { PALETTE } from '../src/layers.ts';
import { sdk, shot, skipBrowser as skip, startBrowserEnv, type BrowserEnv, type Win } from './helpers/browser-env.ts';

let env: BrowserEnv;
let networkId: string;

function network() {
  const teams = ['Sales', 'Eng', 'Ops', 'Design'];
  const nodes = Array.from({ length: 40 }, (_, i) => ({
    id: `n${i}`,
    attributes: { name: i === 0 ? 'Ana' : i === 1 ? 'Ana' : `Person ${i}`, team: teams[i % 4], score: i, _internal: 'x' } as Record<string, string | number>,
  }));
  nodes[4].attributes.role = '**Lead** of [site](https://example.com) <img src=x onerror="document.title=1">';
  const edges = Array.from({ length: 60 }, (_, k) => ({ id: k, source: `n${k % 40}`, target: `n${(k * 7 + 3) % 40}` }));
  return { nodes, edges };
}

before(async () => {
  if (skip) return;
  // Access tokens live 75 s here, so the viewer's refresh (1 minute before expiry) comes after 15 s.
  env = await startBrowserEnv({ env: { NETLOOM_EMBED_ACCESS_TOKEN_TTL_MS: '75000' } });
  networkId = await env.network('Team network', network());
  await env.user('viewer-1', networkId, { displayName: 'Vera Viewer', permission: 'Edit' });
});

after(async () => {
  await env?.close();
});

const newSession = () => env.session('viewer-1', networkId);

test('a host page on another origin embeds a session and drives the viewer through the SDK', { skip, timeout: 60_000 }, async () => {
  const sessionId = await newSession();
  const page = await env.openHost();
  const t0 = Date.now();
  const revision = await env.embed(page, sessionId);
  console.log(`Embed.create resolved in ${Date.now() - t0} ms`);
  assert.equal(typeof revision, 'number');
  assert.equal(env.launchTokensIssued.length, 1, 'one launch token, obtained through getLaunchToken');

  // The iframe: sandbox and referrer policy as docs/spec/api.md requires.
  const attrs = await page.locator('#viewer iframe').evaluate((f) => ({ sandbox: f.getAttribute('sandbox'), referrer: f.getAttribute('referrerpolicy'), src: f.getAttribute('src') }));
  assert.equal(attrs.sandbox, 'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox');
  assert.equal(attrs.referrer, 'no-referrer');
  assert.equal(attrs.src, `${env.service}/embed/${sessionId}`);

  const info = await sdk(page, 'network.info');
  assert.deepEqual(info.ok && { ...(info.value as object), nodeAttributes: undefined }, { name: 'Team network', nodeCount: 40, edgeCount: 60, nodeAttributes: undefined });
  assert.deepEqual((info.value as { nodeAttributes: unknown[] }).nodeAttributes, [{ name: '_internal', type: 'string' }, { name: 'name', type: 'string' }, { name: 'role', type: 'string' }, { name: 'score', type: 'number' }, { name: 'team', type: 'string' }]);
  const session = await sdk(page, 'session.info');
  assert.equal((session.value as { displayName: string }).displayName, 'Vera Viewer');
  assert.deepEqual((session.value as { networkIds: string[] }).networkIds, [networkId]);

  // The network is drawn.
  const before = await shot(page, 'embed');
  const drawn = countNonBackground(before);
  assert.ok(drawn > 2000, `non-background pixels: ${drawn}`);

  // A color layer changes the drawing: palette colors appear.
  const st0 = await sdk(page, 'state.get');
  const rev0 = (st0.value as { revision: number }).revision;
  const color = await sdk(page, 'layers.color', { attribute: 'team' }, { ifRevision: rev0 });
  assert.ok(color.ok, JSON.stringify(color));
  const afterColor = await shot(page, 'embed');
  const changed = countDifferent(before, afterColor);
  assert.ok(changed > 500, `pixels changed by the color layer: ${changed}`);
  const paletteHits = PALETTE.slice(0, 4).map((c) => countColor(afterColor, c));
  assert.ok(paletteHits.filter((n) => n > 30).length >= 3, `palette colors drawn: ${paletteHits}`);

  // ifRevision: the color layer moved the revision on.
  const stale = await sdk(page, 'layers.size', { attribute: 'score' }, { ifRevision: rev0 });
  assert.equal(stale.code, 'STALE_STATE');

  // Filter, references, paging.
  const filter = await sdk(page, 'layers.filter', { attribute: 'team', values: ['Eng', 'Sales'] });
  assert.ok(filter.ok);
  const st1 = (await sdk(page, 'state.get')).value as { visibleNodeCount: number; layers: unknown[]; dirty: boolean; revision: number };
  assert.equal(st1.visibleNodeCount, 20);
  assert.equal(st1.layers.length, 2);
  assert.equal(st1.dirty, true);
  const refs = (await sdk(page, 'nodes.get', [{ id: 'n1' }, { id: 'n2' }, { label: 'Ana' }, { label: 'person 5' }, { id: 'nope' }])).value as { status: string }[];
  assert.deepEqual(refs.map((r) => r.status), ['resolved', 'hidden', 'ambiguous', 'fuzzy', 'not_found'], 'n0 and n1 are both "Ana" and visible');
  // "Person 1" exists nowhere (n1 is "Ana"): approximate matches are not enough for a change.
  const approx = await sdk(page, 'nodes.focus', { label: 'Person 1' });
  assert.equal(approx.code, 'AMBIGUOUS_NODE');
  const candidates = (approx.details as { candidates: { id: string }[] }).candidates;
  assert.ok(candidates.length >= 1 && candidates.length <= 10);
  assert.equal((await sdk(page, 'nodes.select', [{ label: 'Ana' }])).code, 'AMBIGUOUS_NODE');
  assert.equal((await sdk(page, 'nodes.focus', { id: 'n2' })).code, 'NOT_FOUND', 'hidden by the filter');
  const page1 = (await sdk(page, 'nodes.find', { limit: 8 })).value as { nodes: unknown[]; total: number; coverage: number; cursor: string };
  assert.equal(page1.nodes.length, 8);
  assert.equal(page1.total, 20);
  const page2 = (await sdk(page, 'nodes.find', { limit: 8, cursor: page1.cursor })).value as { nodes: { id: string }[]; coverage: number };
  assert.equal(page2.coverage, 16 / 20);

  // Focus resolves after the camera animation; selection events arrive with revisions.
  const t1 = Date.now();
  const focus = await sdk(page, 'nodes.focus', { id: 'n4' }, { zoom: 0.3 });
  assert.ok(focus.ok, JSON.stringify(focus));
  assert.ok(Date.now() - t1 >= 350, 'focus waited for the 400 ms animation');
  const events = await page.evaluate(() => (window as unknown as Win).events);
  const sel = events.filter((e) => e.name === 'selection.changed');
  assert.ok(sel.length >= 1);
  assert.ok(events.every((e) => typeof e.revision === 'number'));
  assert.ok(events.some((e) => e.name === 'state.changed'));

  // The viewer's own click (the focused node is at the centre of the frame) goes through the same queue.
  const revBeforeClick = await page.evaluate(() => (window as unknown as Win).embed.revision);
  await sdk(page, 'nodes.clearSelection');
  // The drawing area (.nl-stage) sits right of the Explore menu: its centre is the camera's.
  const box = await page.frameLocator('#viewer iframe').locator('.nl-stage').boundingBox();
  assert.ok(box);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForFunction(() => (window as unknown as Win).events.some((e) => e.name === 'node.clicked'));
  const clickEvents = await page.evaluate(() => (window as unknown as Win).events.filter((e) => e.name === 'node.clicked' || e.name === 'selection.changed').slice(-2));
  assert.deepEqual(clickEvents.map((e) => [e.name, (e as unknown as { nodeId?: string }).nodeId]), [['node.clicked', 'n4'], ['selection.changed', undefined]]);
  const afterClick = (await sdk(page, 'state.get')).value as { selectedNodeIds: string[]; revision: number };
  assert.deepEqual(afterClick.selectedNodeIds, ['n4']);
  assert.ok(afterClick.revision > revBeforeClick, 'the click bumped the revision');
  // Details panel: Markdown rendered, markup shown as text, `_` attributes hidden.
  const details = page.frameLocator('#viewer iframe').locator('.nl-details');
  assert.equal(await details.locator('strong').textContent(), 'Lead');
  assert.equal(await details.locator('a').getAttribute('href'), 'https://example.com/');
  assert.equal(await details.locator('img').count(), 0);
  assert.match(await details.textContent() ?? '', /<img src=x/);
  assert.doesNotMatch(await details.textContent() ?? '', /_internal/);

  // Views: save (Edit), list, open.
  const saved = await sdk(page, 'views.save', { name: 'Two teams' });
  assert.ok(saved.ok, JSON.stringify(saved));
  assert.equal((await sdk(page, 'layers.clear')).ok, true);
  const opened = await sdk(page, 'views.open', (saved.value as { id: string }).id);
  assert.ok(opened.ok, JSON.stringify(opened));
  const st2 = (await sdk(page, 'state.get')).value as { viewId: string; layers: unknown[]; dirty: boolean };
  assert.equal(st2.viewId, (saved.value as { id: string }).id);
  assert.equal(st2.layers.length, 2);

  // Cancel a command still in the queue behind a camera animation; a short deadline times out.
  const [fit, cancelled, cancelResult] = await page.evaluate(async () => {
    const w = window as unknown as Win & { embed: { camera: { fit(r?: unknown, o?: unknown): Promise<unknown> & { requestId: string } }; state: { get(o?: unknown): Promise<unknown> & { requestId: string } } } };
    const fitP = w.embed.camera.fit();
    const getP = w.embed.state.get();
    const res = await w.embed.cancel(getP.requestId);
    const out = await Promise.allSettled([fitP, getP]);
    return [out[0].status, out[1].status === 'rejected' ? (out[1].reason as { code: string }).code : 'resolved', res];
  });
  assert.equal(fit, 'fulfilled');
  assert.equal(cancelled, 'CANCELLED');
  assert.deepEqual(cancelResult, { cancelled: true });
  const timeout = await sdk(page, 'camera.fit', undefined, { timeoutMs: 50 });
  assert.equal(timeout.code, 'TIMEOUT');
  const unknown = await page.evaluate(async () => {
    try {
      await ((window as unknown as Win).embed as unknown as { nodes: Record<string, unknown> }).nodes.explode;
      return 'no method';
    } catch {
      return 'threw';
    }
  });
  assert.equal(unknown, 'no method', 'unknown commands are not on the SDK object');

  // Revocation: the viewer learns on its next call; later commands reject with SESSION_EXPIRED.
  await env.api('DELETE', `/api/v2/embed/sessions/${sessionId}`);
  const afterRevoke = await sdk(page, 'views.list');
  assert.equal(afterRevoke.code, 'SESSION_EXPIRED');
  await page.waitForFunction(() => (window as unknown as Win).events.some((e) => e.name === 'session.expired'));
  assert.equal((await sdk(page, 'state.get')).code, 'SESSION_EXPIRED');
  await page.close();
});

test('the embed page refuses a frame on a non-allowed origin (CSP frame-ancestors)', { skip, timeout: 30_000 }, async () => {
  const sessionId = await newSession();
  const res = await fetch(`${env.service}/embed/${sessionId}`);
  assert.match(res.headers.get('content-security-policy') ?? '', new RegExp(`frame-ancestors ${env.hostOrigin.replace(/[.:/]/g, '\\$&')}`));
  // Framed from the service's own origin (not allowed), the page does not load: no hello, create times out.
  const page = await env.browser.newPage();
  await page.goto(`${env.service}/healthz`);
  const outcome = await page.evaluate(async ([svc, id]) => {
    const { default: Embed } = await import(`${svc}/sdk/embed.js`);
    const div = document.createElement('div');
    document.body.append(div);
    try {
      await Embed.create(div, { sessionId: id, viewerOrigin: svc, getLaunchToken: async () => 'nll_x', timeoutMs: 3000 });
      return 'loaded';
    } catch (e) {
      return (e as { code: string }).code;
    }
  }, [env.service, sessionId] as const);
  assert.equal(outcome, 'TIMEOUT');
  await page.close();
});

test('the viewer refreshes its access token through getLaunchToken after activity', { skip, timeout: 45_000 }, async () => {
  const sessionId = await newSession();
  const page = await env.openHost();
  const issued = env.launchTokensIssued.length;
  await env.embed(page, sessionId);
  assert.equal(env.launchTokensIssued.length, issued + 1);
  assert.ok((await sdk(page, 'layers.color', { attribute: 'team' })).ok); // activity
  const deadline = Date.now() + 25_000;
  while (env.launchTokensIssued.length === issued + 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
  assert.equal(env.launchTokensIssued.length, issued + 2, 'a refresh asked the host for a second launch token');
  const views = await sdk(page, 'views.list'); // served with the refreshed access token
  assert.ok(views.ok, JSON.stringify(views));
  await page.close();
});
