import { test } from 'node:test';
import assert from 'node:assert/strict';
import { message, type Camera, type EmbedView, type RequestMessage, type ReplyMessage, type SessionInfo } from '@netloom/protocol';
import { buildModel, type NetworkJson } from './model.ts';
import { ViewerEngine, chatGateOf, type BackendPort, type DisplayPort } from './engine.ts';
import { delay } from './queue.ts';
import { editDistance, normalizeLabel } from './refs.ts';

function network(): NetworkJson {
  const nodes: NetworkJson['nodes'] = [
    { id: 'a', attributes: { name: 'Ana', team: 'Sales', age: 31, _secret: 'x' }, x: 0, y: 0 },
    { id: 'b', attributes: { name: 'Ben', team: 'Eng', age: 45 }, x: 1, y: 0 },
    { id: 3, attributes: { name: 'Cho', team: 'Eng', age: 28 }, x: 0, y: 1 },
    { id: 'd', attributes: { name: 'Ana', team: 'Eng' }, x: 1, y: 1 },
    { id: 'e', attributes: { name: 'José Pérez', team: 'Ops', age: 50 } },
    { id: 'f', attributes: { name: 'Johanna', team: 'Ops', age: 39 } },
  ];
  for (let i = 0; i < 300; i++) nodes.push({ id: `n${i}`, attributes: { team: i % 2 ? 'Bulk' : 'Mass', score: i } });
  return { nodes, edges: [{ id: 1, source: 'a', target: 'b' }, { id: 2, source: 'b', target: 3 }, { id: 3, source: 'x', target: 'a' }] };
}

interface Harness {
  engine: ViewerEngine;
  events: { name: string; payload: Record<string, unknown> }[];
  call(command: string, args?: unknown, extra?: Partial<RequestMessage>): Promise<ReplyMessage>;
  ok(command: string, args?: unknown, extra?: Partial<RequestMessage>): Promise<unknown>;
  refreshes: number;
  animations: string[];
}

function harness(opts: { animationMs?: number; session?: Partial<SessionInfo> } = {}): Harness {
  const model = buildModel({ networkId: 'net1', name: 'Test network', json: network() });
  const animations: string[] = [];
  let camera: Camera = { x: 0.5, y: 0.5, ratio: 1, angle: 0 };
  const h = { refreshes: 0 } as Harness;
  const display: DisplayPort = {
    refresh: () => { h.refreshes++; },
    focus: async (i, ratio, signal) => { animations.push(`focus:${model.ids[i]}:${ratio}`); await delay(opts.animationMs ?? 5, signal); },
    fit: async (indices, signal) => { animations.push(`fit:${indices ? indices.map((i) => model.ids[i]).join(',') : 'all'}`); await delay(opts.animationMs ?? 5, signal); },
    getCamera: () => camera,
    setCamera: async (c) => { camera = c; },
  };
  const views = new Map<string, EmbedView>();
  const backend: BackendPort = {
    sessionInfo: async () => ({ sessionId: 's1', displayName: 'Viewer', capabilities: { edit: true, chat: 'full' }, networkIds: ['net1'], ui: {}, header: 'none', expiresAt: '2030-01-01T00:00:00Z', ...opts.session }),
    listViews: async () => [...views.values()].map(({ id, name, description }) => ({ id, name, description })),
    getView: async (id) => {
      const v = views.get(id);
      if (!v) throw new Error('no view');
      return v;
    },
    saveView: async (v) => {
      const view = { ...v, id: `v${views.size + 1}` };
      views.set(view.id, view);
      return view;
    },
    updateView: async (v) => {
      views.set(v.id, v);
      return v;
    },
  };
  const events: Harness['events'] = [];
  const engine = new ViewerEngine({ model, display, backend, emit: (name, payload) => events.push({ name, payload }) });
  let n = 0;
  Object.assign(h, {
    engine,
    events,
    animations,
    call: (command: string, args: unknown = {}, extra: Partial<RequestMessage> = {}) =>
      engine.handle(message<RequestMessage>({ type: 'request', id: `r${++n}`, command: command as RequestMessage['command'], args, timeoutMs: 30_000, ...extra })),
    ok: async (command: string, args?: unknown, extra?: Partial<RequestMessage>) => {
      const r = await h.call(command, args, extra);
      if (!r.ok) throw new Error(`${command} failed: ${r.error.code} ${r.error.message}`);
      return r.result;
    },
  });
  return h;
}

function errorOf(r: ReplyMessage): { code: string; details?: Record<string, unknown> } {
  assert.equal(r.ok, false, `expected a failure, got ${JSON.stringify(r)}`);
  return (r as Extract<ReplyMessage, { ok: false }>).error;
}

test('model: labels from name else id, circle for missing positions, attribute types, dangling edges dropped', () => {
  const m = buildModel({ networkId: 'n', name: 'x', json: network() });
  assert.equal(m.labels[m.index.get('a') as number], 'Ana');
  assert.equal(m.labels[m.index.get('n0') as number], 'n0');
  assert.equal(m.nodeAttributeTypes.get('age'), 'number');
  assert.equal(m.nodeAttributeTypes.get('team'), 'string');
  assert.equal(m.edges.length, 2);
  const e = m.index.get('e') as number;
  const f = m.index.get('f') as number;
  assert.ok(Math.hypot(m.x[e], m.y[e]) > 0);
  assert.ok(Math.abs(Math.hypot(m.x[e], m.y[e]) - Math.hypot(m.x[f], m.y[f])) < 1e-9, 'same circle');
});

test('network.info and state.get', async () => {
  const h = harness();
  const info = await h.ok('network.info') as { name: string; nodeCount: number; edgeCount: number; nodeAttributes: { name: string; type: string }[] };
  assert.equal(info.name, 'Test network');
  assert.equal(info.nodeCount, 306);
  assert.equal(info.edgeCount, 2);
  assert.deepEqual(info.nodeAttributes.find((a) => a.name === 'age'), { name: 'age', type: 'number' });
  const st = await h.ok('state.get') as { revision: number; visibleNodeCount: number; dirty: boolean };
  assert.equal(st.revision, 0);
  assert.equal(st.visibleNodeCount, 306);
  assert.equal(st.dirty, false);
});

test('layers bump the revision, emit state.changed, filter hides nodes; remove and clear', async () => {
  const h = harness();
  const { layerId } = await h.ok('layers.filter', { attribute: 'team', values: ['Eng'] }) as { layerId: string };
  assert.equal(h.engine.revision, 1);
  assert.equal(h.engine.display.visibleCount, 3);
  const changed = h.events.filter((e) => e.name === 'state.changed');
  assert.equal(changed.length, 1);
  assert.equal(changed[0].payload.revision, 1);
  await h.ok('layers.color', { attribute: 'age' });
  assert.notEqual(h.engine.display.color[h.engine.model.index.get('b') as number], h.engine.display.color[h.engine.model.index.get(3 as unknown as string) ?? h.engine.model.index.get('3') as number]);
  await h.ok('layers.filter', { attribute: 'age', min: 30, max: 60 });
  assert.equal(h.engine.display.visibleCount, 1); // Ben (Eng, 45); d has no age
  await h.ok('layers.remove', layerId === undefined ? {} : { layerId });
  assert.equal(h.engine.display.visibleCount, 4); // Ana 31, Ben 45, José 50, Johanna 39
  assert.equal(errorOf(await h.call('layers.remove', { layerId: 'nope' })).code, 'NOT_FOUND');
  assert.equal(errorOf(await h.call('layers.color', { attribute: 'nope' })).code, 'INVALID_ARGS');
  assert.equal(errorOf(await h.call('layers.filter', { attribute: 'team', min: 1 })).code, 'INVALID_ARGS');
  await h.ok('layers.clear');
  assert.equal(h.engine.display.visibleCount, 306);
  const st = await h.ok('state.get') as { layers: unknown[]; dirty: boolean; revision: number };
  assert.equal(st.layers.length, 0);
  assert.equal(st.dirty, true);
  assert.equal(st.revision, 5);
});

test('node references: resolved, ambiguous, fuzzy, hidden, not_found', async () => {
  const h = harness();
  const res = await h.ok('nodes.get', { refs: [{ id: 'b' }, { id: 3 }, { label: 'Ana' }, { label: 'jose perez' }, { label: 'Johana' }, { id: 'zzz' }, { label: 'Qwertyuiop' }] }) as { status: string; node?: { id: string }; candidates?: { id: string }[] }[];
  assert.deepEqual(res.map((r) => r.status), ['resolved', 'resolved', 'ambiguous', 'fuzzy', 'fuzzy', 'not_found', 'not_found']);
  assert.deepEqual(res[2].candidates?.map((c) => c.id), ['a', 'd']);
  assert.equal(res[3].node?.id, 'e');
  assert.equal(res[4].node?.id, 'f');
  await h.ok('layers.filter', { attribute: 'team', values: ['Eng'] });
  const after = await h.ok('nodes.get', { refs: [{ id: 'a' }, { label: 'Ana' }, { label: 'Ben' }] }) as { status: string; node?: { id: string } }[];
  assert.deepEqual(after.map((r) => r.status), ['hidden', 'resolved', 'resolved']);
  assert.equal(after[1].node?.id, 'd', 'the only visible Ana');
  // Commands that change something need exactly one visible node.
  assert.equal(errorOf(await h.call('nodes.focus', { ref: { id: 'a' } })).code, 'NOT_FOUND');
  await h.ok('layers.clear');
  const amb = errorOf(await h.call('nodes.select', { refs: [{ label: 'Ana' }] }));
  assert.equal(amb.code, 'AMBIGUOUS_NODE');
  assert.equal((amb.details?.candidates as unknown[]).length, 2);
  assert.equal(errorOf(await h.call('nodes.focus', { ref: { label: 'Johana' } })).code, 'AMBIGUOUS_NODE');
  assert.equal(errorOf(await h.call('nodes.get', { refs: Array.from({ length: 101 }, () => ({ id: 'a' })) })).code, 'INVALID_ARGS');
  assert.equal(errorOf(await h.call('nodes.get', { refs: [{ name: 'x' }] })).code, 'INVALID_ARGS');
  const many = await h.ok('nodes.get', { refs: [{ label: 'n1' }] }) as { status: string; candidates?: unknown[] }[];
  assert.ok(many[0].candidates === undefined || many[0].candidates.length <= 10);
});

test('label helpers', () => {
  assert.equal(normalizeLabel('  José   PÉREZ '), 'jose perez');
  assert.equal(editDistance('johana', 'johanna', 2), 1);
  assert.equal(editDistance('abc', 'xyzuvw', 2), 3);
});

test('nodes.find: paging 50 by default, max 200, coverage, cursor, stale cursor', async () => {
  const h = harness();
  const p1 = await h.ok('nodes.find', {}) as { nodes: unknown[]; total: number; coverage: number; cursor: string | null };
  assert.equal(p1.nodes.length, 50);
  assert.equal(p1.total, 306);
  assert.ok(Math.abs(p1.coverage - 50 / 306) < 1e-9);
  const all: unknown[] = [...p1.nodes];
  let cursor = p1.cursor;
  while (cursor) {
    const p = await h.ok('nodes.find', { limit: 200, cursor }) as { nodes: unknown[]; coverage: number; cursor: string | null };
    all.push(...p.nodes);
    cursor = p.cursor;
    if (!cursor) assert.equal(p.coverage, 1);
  }
  assert.equal(all.length, 306);
  assert.equal(errorOf(await h.call('nodes.find', { limit: 201 })).code, 'INVALID_ARGS');
  const eng = await h.ok('nodes.find', { attribute: 'team', equals: 'Eng' }) as { total: number; cursor: string | null };
  assert.equal(eng.total, 3);
  assert.equal(eng.cursor, null);
  const range = await h.ok('nodes.find', { attribute: 'score', min: 10, max: 19, limit: 5 }) as { total: number; cursor: string };
  assert.equal(range.total, 10);
  const contains = await h.ok('nodes.find', { attribute: 'name', contains: 'jo' }) as { total: number };
  assert.equal(contains.total, 2);
  assert.equal(errorOf(await h.call('nodes.find', { attribute: 'team', equals: 'Eng', cursor: range.cursor })).code, 'INVALID_ARGS');
  await h.ok('layers.filter', { attribute: 'score', min: 0, max: 100 });
  assert.equal(errorOf(await h.call('nodes.find', { attribute: 'score', min: 10, max: 19, limit: 5, cursor: range.cursor })).code, 'STALE_STATE');
  const visible = await h.ok('nodes.find', { attribute: 'team', equals: 'Eng' }) as { total: number };
  assert.equal(visible.total, 0, 'only visible nodes');
});

test('ifRevision: STALE_STATE when the viewer moved on', async () => {
  const h = harness();
  await h.ok('layers.color', { attribute: 'team' });
  const stale = errorOf(await h.call('layers.size', { attribute: 'age' }, { ifRevision: 0 }));
  assert.equal(stale.code, 'STALE_STATE');
  assert.equal(stale.details?.revision, 1);
  await h.ok('layers.size', { attribute: 'age' }, { ifRevision: 1 });
  assert.equal(h.engine.revision, 2);
});

test('queue: order with the viewer clicks, focus resolves after the animation, selection events', async () => {
  const h = harness({ animationMs: 30 });
  const t0 = Date.now();
  const focus = h.call('nodes.focus', { ref: { label: 'Ben' }, zoom: 0.5 });
  const click = h.engine.viewerClick(h.engine.model.index.get('a') as number);
  const state = h.call('state.get');
  const f = await focus;
  assert.ok(f.ok);
  assert.ok(Date.now() - t0 >= 25, 'resolved after the animation');
  await click;
  const st = (await state) as Extract<ReplyMessage, { ok: true }>;
  assert.deepEqual((st.result as { selectedNodeIds: string[] }).selectedNodeIds, ['a'], 'the click ran after focus, before state.get');
  assert.deepEqual(h.animations, ['focus:b:0.5']);
  const names = h.events.map((e) => e.name);
  assert.ok(names.includes('node.clicked'));
  assert.equal(names.filter((n) => n === 'selection.changed').length, 2);
  assert.ok(names.includes('busy'));
  for (const e of h.events) assert.equal(typeof e.payload.revision, 'number');
});

test('queue: more than 20 pending → RATE_LIMITED; deadline → TIMEOUT; cancel → CANCELLED', async () => {
  const h = harness({ animationMs: 200 });
  const calls = Array.from({ length: 21 }, (_, k) => h.call('camera.fit', {}, { id: `fit${k}` } as Partial<RequestMessage>));
  const last = await calls[20];
  assert.equal(errorOf(last).code, 'RATE_LIMITED');
  // cancel a queued one and the running one
  const c1 = await h.call('cancel', { requestId: 'fit5' });
  assert.deepEqual((c1 as Extract<ReplyMessage, { ok: true }>).result, { cancelled: true });
  assert.equal(errorOf(await calls[5]).code, 'CANCELLED');
  const c0 = await h.call('cancel', { requestId: 'fit0' });
  assert.deepEqual((c0 as Extract<ReplyMessage, { ok: true }>).result, { cancelled: true });
  assert.equal(errorOf(await calls[0]).code, 'CANCELLED');
  const unknown = await h.call('cancel', { requestId: 'nope' });
  assert.deepEqual((unknown as Extract<ReplyMessage, { ok: true }>).result, { cancelled: false });
  for (let k = 6; k < 20; k++) h.engine.queue.cancel(`fit${k}`);
  await Promise.all(calls);
  // a command whose deadline passes while running
  const slow = await h.call('camera.fit', {}, { timeoutMs: 50 });
  assert.equal(errorOf(slow).code, 'TIMEOUT');
  // one whose deadline passes while queued behind a slow one
  const a = h.call('camera.fit', {}, { timeoutMs: 1000 });
  const b = h.call('state.get', {}, { timeoutMs: 50 });
  assert.equal(errorOf(await b).code, 'TIMEOUT');
  assert.ok((await a).ok);
});

test('unknown command, expired session, chat gates, views', async () => {
  const h = harness({ session: { ui: { aiChat: false } } });
  assert.equal(errorOf(await h.call('nodes.explode')).code, 'UNKNOWN_COMMAND');
  assert.equal(errorOf(await h.call('chat.ask', { message: 'hi' })).code, 'NOT_PERMITTED');
  assert.equal(errorOf(await h.call('chat.ask', { message: 'x'.repeat(4001) })).code, 'INVALID_ARGS');
  await h.ok('layers.color', { attribute: 'team' });
  const saved = await h.ok('views.save', { name: 'Teams' }) as { id: string; layers: unknown[] };
  assert.equal(saved.layers.length, 1);
  await h.ok('layers.clear');
  const opened = await h.ok('views.open', { viewId: saved.id }) as { id: string };
  assert.equal(opened.id, saved.id);
  const st = await h.ok('state.get') as { viewId: string; dirty: boolean; layers: unknown[] };
  assert.equal(st.viewId, saved.id);
  assert.equal(st.dirty, false);
  assert.equal(st.layers.length, 1);
  assert.equal((await h.ok('views.list') as unknown[]).length, 1);
  h.engine.expire('revoked');
  assert.equal(errorOf(await h.call('state.get')).code, 'SESSION_EXPIRED');
  assert.ok(h.events.some((e) => e.name === 'session.expired' && e.payload.reason === 'revoked'));
  const ro = harness({ session: { capabilities: { edit: false, chat: 'off' } } });
  assert.equal(errorOf(await ro.call('views.save', { name: 'x' })).code, 'NOT_PERMITTED');
  assert.equal(errorOf(await ro.call('chat.messages')).code, 'NOT_PERMITTED');
});

test('session.info reads the session again (chat capability follows the organization); chat gates use chatAccess and ui.aiChat', async () => {
  let chat: 'full' | 'off' = 'full';
  let calls = 0;
  const base = { sessionId: 's1', displayName: 'Viewer', networkIds: ['net1'], ui: {}, header: 'none' as const, expiresAt: '2030-01-01T00:00:00Z' };
  const model = buildModel({ networkId: 'net1', name: 'Net', directed: false, json: { nodes: [{ id: 'a' }], edges: [] } });
  const display = { refresh() {}, async focus() {}, async fit() {}, getCamera: () => ({ x: 0.5, y: 0.5, ratio: 1, angle: 0 }), async setCamera() {} };
  const backend = {
    sessionInfo: async () => {
      calls++;
      return { ...base, chatAccess: 'full' as const, capabilities: { edit: true, chat, chatReason: chat === 'off' ? 'organization-off' as const : null } };
    },
    listViews: async () => [], getView: async () => { throw new Error('no'); }, saveView: async () => { throw new Error('no'); }, updateView: async () => { throw new Error('no'); },
  };
  const e = new ViewerEngine({ model, display, backend, emit: () => undefined });
  const info = async (): Promise<SessionInfo> => {
    const r = await e.handle({ type: 'request', id: `r${Math.random()}`, command: 'session.info', args: {} } as never);
    assert.ok(r.ok, JSON.stringify(r));
    return r.result as SessionInfo;
  };
  assert.equal((await info()).capabilities.chat, 'full');
  chat = 'off';
  const now = await info();
  assert.deepEqual(now.capabilities, { edit: true, chat: 'off', chatReason: 'organization-off' });
  assert.equal(calls, 2);
  // The organization's switch does not remove the chat: the gate is the session's own (chatAccess, ui.aiChat).
  assert.equal(chatGateOf(now), null);
  assert.equal(chatGateOf({ ...base, chatAccess: 'off', capabilities: { edit: true, chat: 'off' } }), 'chat-access-off');
  assert.equal(chatGateOf({ ...base, ui: { aiChat: false }, chatAccess: 'full', capabilities: { edit: true, chat: 'off' } }), 'hidden');
  assert.equal(chatGateOf({ ...base, capabilities: { edit: true, chat: 'off' } }), 'chat-access-off', 'without chatAccess: the capability');
});
