/**
 * The SDK's rules end to end in Debian's Chromium (playwright-core), host page on another origin than the
 * service, sessions through the real embedding API (helpers/browser-env.ts): the pending-command limit,
 * deadlines, cancel, ifRevision, node references (ambiguous, fuzzy, hidden, not_found), nodes.find paging,
 * nodes.get's 100-reference limit, unknown commands, and the ends of a session (revoked before
 * Embed.create, during the token exchange, while idle; inactivity not extended by the status checks).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { sdk, skipBrowser as skip, startBrowserEnv, type BrowserEnv, type Win } from './helpers/browser-env.ts';
const INACTIVITY_MS = 15_000;

/** 260 nodes: twelve called "Sam" (n0–n11), the rest "Person <i>"; four teams; a ring plus chords. */
function network() {
  const teams = ['Sales', 'Eng', 'Ops', 'Design'];
  const nodes = Array.from({ length: 260 }, (_, i) => ({ id: `n${i}`, attributes: { name: i < 12 ? 'Sam' : `Person ${i}`, team: teams[i % 4], score: i } }));
  const edges = Array.from({ length: 400 }, (_, k) => ({ id: k, source: `n${k % 260}`, target: `n${(k * 7 + 3) % 260}` }));
  return { nodes, edges };
}

let h: BrowserEnv;
let networkId: string;

before(async () => {
  if (skip) return;
  // Status checks every second (the minimum) and a short inactivity limit, so idle ends are seen quickly.
  h = await startBrowserEnv({ env: { NETLOOM_EMBED_STATUS_CHECK_MS: '1000', NETLOOM_EMBED_INACTIVITY_MS: String(INACTIVITY_MS) } });
  networkId = await h.network('Rules network', network());
  await h.user('viewer-1', networkId, { permission: 'Edit' });
});

after(async () => {
  await h?.close();
});

const newSession = () => h.session('viewer-1', networkId);

async function embedded(): Promise<{ page: Page; sessionId: string }> {
  const sessionId = await newSession();
  return { page: await h.open(sessionId), sessionId };
}

test('at most 20 commands pending: the 21st and later reject with RATE_LIMITED at once', { skip, timeout: 30_000 }, async () => {
  const { page } = await embedded();
  const out = await page.evaluate(async () => {
    const w = window as unknown as Win;
    // A 400 ms camera animation runs while the rest wait in the queue (it counts as pending too).
    const all = [w.embed.nodes.focus({ id: 'n20' }, { zoom: 0.2 })];
    for (let i = 0; i < 24; i++) all.push(w.embed.state.get());
    const settled = await Promise.allSettled(all);
    return settled.map((s) => (s.status === 'fulfilled' ? 'ok' : (s.reason as { code: string }).code));
  });
  assert.deepEqual(out, [...Array(20).fill('ok'), ...Array(5).fill('RATE_LIMITED')]);
  // Once the queue drained, commands are accepted again.
  assert.ok((await sdk(page, 'state.get')).ok);
  await page.close();
});

test('deadlines: a command waiting behind an animation past its timeoutMs rejects with TIMEOUT; the queue goes on', { skip, timeout: 30_000 }, async () => {
  const { page } = await embedded();
  const out = await page.evaluate(async () => {
    const w = window as unknown as Win;
    const t0 = performance.now();
    const focus = w.embed.nodes.focus({ id: 'n30' }, { zoom: 0.2 });
    const waiting = w.embed.state.get({ timeoutMs: 100 });
    const r = await Promise.allSettled([focus, waiting]);
    return { focus: r[0].status, waiting: r[1].status === 'rejected' ? (r[1].reason as { code: string }).code : 'resolved', ms: performance.now() - t0 };
  });
  assert.deepEqual([out.focus, out.waiting], ['fulfilled', 'TIMEOUT']);
  // A running command past its deadline: the camera animation takes 400 ms.
  const running = await sdk(page, 'camera.fit', undefined, { timeoutMs: 100 });
  assert.equal(running.code, 'TIMEOUT');
  assert.ok((await sdk(page, 'state.get')).ok, 'the queue goes on after a timeout');
  await page.close();
});

test('cancel(requestId): a running command rejects with CANCELLED; cancelling a finished one reports false', { skip, timeout: 30_000 }, async () => {
  const { page } = await embedded();
  const out = await page.evaluate(async () => {
    const w = window as unknown as Win & { embed: { nodes: { focus(r: unknown, o?: unknown): Promise<unknown> & { requestId: string } } } };
    const focus = w.embed.nodes.focus({ id: 'n40' }, { zoom: 0.2 });
    await new Promise((r) => setTimeout(r, 100)); // the animation is running
    const res = await w.embed.cancel(focus.requestId);
    const r = await Promise.allSettled([focus]);
    const done = w.embed.state.get() as Promise<unknown> & { requestId: string };
    await done;
    const late = await w.embed.cancel(done.requestId);
    const reason = r[0].status === 'rejected' ? (r[0].reason as { code: string; requestId: string }) : null;
    return { res, focus: reason && { code: reason.code, requestId: reason.requestId }, id: focus.requestId, late };
  });
  assert.deepEqual(out.res, { cancelled: true });
  assert.equal(out.focus?.code, 'CANCELLED');
  assert.equal(out.focus?.requestId, out.id);
  assert.deepEqual(out.late, { cancelled: false });
  await page.close();
});

test('ifRevision: the current revision runs the command; an older one rejects with STALE_STATE and names the revision', { skip, timeout: 30_000 }, async () => {
  const { page } = await embedded();
  const rev = ((await sdk(page, 'state.get')).value as { revision: number }).revision;
  const ok = await sdk(page, 'layers.color', { attribute: 'team' }, { ifRevision: rev });
  assert.ok(ok.ok, JSON.stringify(ok));
  const now = ((await sdk(page, 'state.get')).value as { revision: number }).revision;
  assert.ok(now > rev, 'the color layer bumped the revision');
  const stale = await sdk(page, 'layers.clear', { ifRevision: rev });
  assert.equal(stale.code, 'STALE_STATE');
  assert.deepEqual(stale.details, { revision: now });
  // Nothing changed: the layer is still there.
  assert.equal(((await sdk(page, 'state.get')).value as { layers: unknown[] }).layers.length, 1);
  const events = await page.evaluate(() => (window as unknown as Win).events.filter((e) => e.name === 'state.changed').map((e) => e.revision));
  assert.ok(events.includes(now), 'state.changed carried the new revision');
  await page.close();
});

test('node references: ambiguous (≤ 10 candidates), fuzzy, hidden and not_found, for nodes.get and for changes', { skip, timeout: 30_000 }, async () => {
  const { page } = await embedded();
  type R = { ref: unknown; status: string; node?: { id: string; label: string }; candidates?: { id: string; label: string; hidden: boolean }[] };
  const [amb, fuzzy, byId, missing, missingLabel] = (await sdk(page, 'nodes.get', [{ label: 'Sam' }, { label: 'person  15' }, { id: 'n15' }, { id: 'nope' }, { label: 'Nobody at all here' }])).value as R[];
  assert.equal(amb.status, 'ambiguous');
  assert.equal(amb.candidates?.length, 10, 'twelve "Sam"s, ten candidates');
  assert.ok(amb.candidates?.every((c) => c.label === 'Sam' && c.hidden === false));
  assert.equal(fuzzy.status, 'fuzzy');
  assert.equal(fuzzy.node?.id, 'n15', 'the best approximate match');
  assert.ok((fuzzy.candidates?.length ?? 0) >= 1 && (fuzzy.candidates?.length ?? 0) <= 10);
  assert.equal(byId.status, 'resolved');
  assert.deepEqual([missing.status, missingLabel.status], ['not_found', 'not_found']);

  // Changes need exactly one visible node.
  const ambFocus = await sdk(page, 'nodes.focus', { label: 'Sam' });
  assert.equal(ambFocus.code, 'AMBIGUOUS_NODE');
  assert.equal((ambFocus.details as { candidates: unknown[] }).candidates.length, 10);
  const fuzzySelect = await sdk(page, 'nodes.select', [{ label: 'person 15' }]);
  assert.equal(fuzzySelect.code, 'AMBIGUOUS_NODE', 'an approximate label is not enough for a change');
  assert.equal((fuzzySelect.details as { candidates: { id: string }[] }).candidates[0].id, 'n15');
  assert.equal((await sdk(page, 'nodes.focus', { id: 'nope' })).code, 'NOT_FOUND');
  assert.ok((await sdk(page, 'nodes.select', [{ label: 'Person 15' }])).ok, 'the exact label resolves');

  // Filtered out: hidden in nodes.get, NOT_FOUND for changes, and it leaves the selection.
  assert.ok((await sdk(page, 'layers.filter', { attribute: 'team', values: ['Sales'] })).ok); // n15 is Design
  const [hid, hidLabel, samVisible] = (await sdk(page, 'nodes.get', [{ id: 'n15' }, { label: 'Person 15' }, { label: 'Sam' }])).value as R[];
  assert.equal(hid.status, 'hidden');
  assert.equal(hid.node?.id, 'n15');
  assert.equal(hidLabel.status, 'hidden');
  assert.equal(samVisible.status, 'ambiguous', 'n0, n4, n8 are Sales "Sam"s');
  assert.deepEqual(samVisible.candidates?.map((c) => c.id), ['n0', 'n4', 'n8']);
  const hiddenFocus = await sdk(page, 'nodes.focus', { id: 'n15' });
  assert.equal(hiddenFocus.code, 'NOT_FOUND');
  assert.equal((hiddenFocus.details as { hidden?: boolean }).hidden, true);
  assert.equal((await sdk(page, 'nodes.select', [{ label: 'Person 15' }])).code, 'NOT_FOUND');
  assert.deepEqual(((await sdk(page, 'state.get')).value as { selectedNodeIds: string[] }).selectedNodeIds, []);
  await page.close();
});

test('nodes.find pages 50 by default, at most 200, with coverage and a cursor through every page', { skip, timeout: 30_000 }, async () => {
  const { page } = await embedded();
  type F = { nodes: { id: string; label: string; attributes: Record<string, unknown> }[]; total: number; coverage: number; cursor: string | null };
  const first = (await sdk(page, 'nodes.find')).value as F;
  assert.equal(first.nodes.length, 50);
  assert.equal(first.total, 260);
  assert.equal(first.coverage, 50 / 260);
  assert.equal(typeof first.cursor, 'string');
  assert.deepEqual(Object.keys(first.nodes[0]).sort(), ['attributes', 'id', 'label']);
  assert.equal((await sdk(page, 'nodes.find', { limit: 201 })).code, 'INVALID_ARGS');
  assert.equal((await sdk(page, 'nodes.find', { limit: 0 })).code, 'INVALID_ARGS');
  // Walk every page at the maximum size.
  const seen: string[] = [];
  const coverages: number[] = [];
  let cursor: string | null | undefined;
  let pages = 0;
  do {
    const r = (await sdk(page, 'nodes.find', { limit: 200, ...(cursor ? { cursor } : {}) })).value as F;
    assert.ok(r.nodes.length <= 200);
    seen.push(...r.nodes.map((n) => n.id));
    coverages.push(r.coverage);
    cursor = r.cursor;
    pages++;
  } while (cursor);
  assert.equal(pages, 2);
  assert.deepEqual(coverages, [200 / 260, 1]);
  assert.equal(new Set(seen).size, 260);
  // A filtered query pages the same way; a cursor is tied to its query and to the revision.
  const eng = (await sdk(page, 'nodes.find', { attribute: 'team', equals: 'Eng', limit: 30 })).value as F;
  assert.deepEqual([eng.total, eng.nodes.length, eng.coverage], [65, 30, 30 / 65]);
  const rest = (await sdk(page, 'nodes.find', { attribute: 'team', equals: 'Eng', limit: 200, cursor: eng.cursor })).value as F;
  assert.deepEqual([rest.nodes.length, rest.coverage, rest.cursor], [35, 1, null]);
  assert.equal((await sdk(page, 'nodes.find', { attribute: 'team', equals: 'Ops', cursor: eng.cursor })).code, 'INVALID_ARGS');
  assert.ok((await sdk(page, 'layers.color', { attribute: 'team' })).ok);
  assert.equal((await sdk(page, 'nodes.find', { attribute: 'team', equals: 'Eng', cursor: eng.cursor })).code, 'STALE_STATE');
  await page.close();
});

test('nodes.get takes up to 100 references (101 → INVALID_ARGS); an unknown command → UNKNOWN_COMMAND', { skip, timeout: 30_000 }, async () => {
  const sessionId = await newSession();
  const page = await h.openHost();
  // A newer SDK talking to this viewer: rewrite one request's command name on its way through the port.
  await page.evaluate(() => {
    const orig = MessagePort.prototype.postMessage;
    MessagePort.prototype.postMessage = function (this: MessagePort, m: unknown, ...rest: unknown[]) {
      const msg = m as { type?: string; id?: string; command?: string };
      if (msg && msg.type === 'request' && msg.id === 'from-the-future') m = { ...msg, command: 'nodes.explode' };
      return (orig as (...a: unknown[]) => void).call(this, m, ...rest);
    } as typeof orig;
  });
  await h.embed(page, sessionId);
  const refs = Array.from({ length: 100 }, (_, i) => ({ id: `n${i}` }));
  const hundred = await sdk(page, 'nodes.get', refs);
  assert.equal((hundred.value as unknown[]).length, 100);
  const tooMany = await sdk(page, 'nodes.get', [...refs, { id: 'n100' }]);
  assert.equal(tooMany.code, 'INVALID_ARGS');
  assert.equal((await sdk(page, 'nodes.get', [{ id: 'n1', label: 'x' }])).code, 'INVALID_ARGS');
  const unknown = await sdk(page, 'state.get', { requestId: 'from-the-future' });
  assert.equal(unknown.code, 'UNKNOWN_COMMAND');
  assert.equal(unknown.requestId, 'from-the-future');
  assert.ok((await sdk(page, 'state.get')).ok);
  await page.close();
});

test('a revoked session: the page is not framed (410, frame-ancestors \'none\') and Embed.create rejects promptly with SESSION_EXPIRED', { skip, timeout: 30_000 }, async () => {
  const sessionId = await newSession();
  await h.api('DELETE', `/api/v2/embed/sessions/${sessionId}`);
  const res = await fetch(`${h.service}/embed/${sessionId}`);
  assert.equal(res.status, 410);
  assert.match(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
  const status = await fetch(`${h.service}/api/v2/embed/sessions/${sessionId}/status`);
  assert.deepEqual(await status.json(), { live: false, checkAfterMs: 1000 });
  assert.equal(status.headers.get('access-control-allow-origin'), '*');
  const page = await h.openHost();
  const issued = h.launchTokensIssued.length;
  const t0 = Date.now();
  const out = await h.tryEmbed(page, sessionId);
  const ms = Date.now() - t0;
  assert.equal(out, 'SESSION_EXPIRED');
  assert.ok(ms < 5_000, `rejected after ${ms} ms`);
  assert.equal(h.launchTokensIssued.length, issued, 'no launch token was asked for');
  assert.equal(await page.locator('#viewer iframe').count(), 0, 'the iframe was removed');
  await page.close();
});

test('a session that ends during the token exchange: Embed.create rejects with SESSION_EXPIRED', { skip, timeout: 30_000 }, async () => {
  const sessionId = await newSession();
  const page = await h.openHost();
  h.onLaunchToken = async (id) => {
    await h.api('DELETE', `/api/v2/embed/sessions/${id}`);
  };
  try {
    const t0 = Date.now();
    const out = await h.tryEmbed(page, sessionId);
    assert.equal(out, 'SESSION_EXPIRED');
    assert.ok(Date.now() - t0 < 5_000);
  } finally {
    h.onLaunchToken = null;
  }
  await page.close();
});

test('revoked while idle: the viewer notices within seconds (status checks), session.expired fires, commands reject; a reload is refused', { skip, timeout: 30_000 }, async () => {
  const { page, sessionId } = await embedded();
  await h.api('DELETE', `/api/v2/embed/sessions/${sessionId}`);
  const t0 = Date.now();
  await page.waitForFunction(() => (window as unknown as Win).events.some((e) => e.name === 'session.expired'), undefined, { timeout: 5_000 });
  console.log(`session.expired ${Date.now() - t0} ms after the revocation, with no command sent`);
  const out = await page.evaluate(() => (window as unknown as Win).embed.expired);
  assert.equal(out, true);
  assert.equal((await sdk(page, 'state.get')).code, 'SESSION_EXPIRED');
  assert.equal((await sdk(page, 'nodes.focus', { id: 'n1' })).code, 'SESSION_EXPIRED');
  // Reloading the frame: Chromium refuses to show the page (frame-ancestors 'none').
  const frameUrl = await page.locator('#viewer iframe').getAttribute('src');
  await page.locator('#viewer iframe').evaluate((f: HTMLIFrameElement) => { f.setAttribute("src", String(f.getAttribute("src"))); });
  await page.waitForTimeout(1_000);
  const frame = page.frames().find((f) => f !== page.mainFrame());
  assert.ok(frame);
  const inner = await frame.evaluate(() => document.getElementById('netloom-viewer') !== null).catch(() => false);
  assert.equal(inner, false, `the viewer page did not load in the frame (${frameUrl})`);
  await page.close();
});

test('status checks are not activity: an idle viewer\'s session ends for inactivity and the viewer says so', { skip, timeout: 60_000 }, async () => {
  const { page } = await embedded();
  const issued = h.launchTokensIssued.length;
  const t0 = Date.now();
  // Nothing happens in the page; the viewer checks the status every second.
  await page.waitForFunction(() => (window as unknown as Win).events.some((e) => e.name === 'session.expired'), undefined, { timeout: INACTIVITY_MS + 10_000, polling: 250 });
  const ms = Date.now() - t0;
  console.log(`idle session ended ${ms} ms after Embed.create (inactivity limit ${INACTIVITY_MS} ms)`);
  assert.ok(ms >= INACTIVITY_MS - 3_000, `not before the inactivity limit (${ms} ms)`);
  assert.equal(h.launchTokensIssued.length, issued, 'no token refresh while idle');
  assert.equal((await sdk(page, 'state.get')).code, 'SESSION_EXPIRED');
  await page.close();
});
