/**
 * Viewer entry point (browser). The embed page carries `data-session-id`, `data-host-origin`,
 * `data-api-base` and `data-image-origins` on #netloom-viewer. Sequence: hello → connect (private port) → launch token from the
 * host → access token → session info + network → draw → `ready`. Requests that arrive before `ready`
 * wait for it.
 */
import {
  LIMITS, isMessageOfType, isProtocolMessage, message,
  type EventMessage, type EventName, type HelloMessage, type HostToViewer, type RequestMessage, type TokenRequestMessage,
} from '@netloom/protocol';
import { ViewerApi } from './api.ts';
import { SigmaDisplay } from './display.ts';
import { ViewerEngine } from './engine.ts';
import { ChatController } from './chat.ts';
import { CommandError, toWireError } from './errors.ts';
import { buildModel, imagePolicy } from './model.ts';
import { TokenManager } from './tokens.ts';
import { mountMenu } from './menu/index.ts';
import { installInspect } from './inspect.ts';
import { AutoFit } from './camera-fit.ts';

/** How long `ready` waits for the automatic first layout of a network without stored positions. */
const AUTO_LAYOUT_READY_WAIT_MS = 3000;

const root = document.getElementById('netloom-viewer') as HTMLElement;
const sessionId = root.dataset.sessionId ?? '';
const hostOrigin = root.dataset.hostOrigin || (location.ancestorOrigins?.length ? location.ancestorOrigins[0] : '');
const apiBase = root.dataset.apiBase || location.origin;
/** Node images only from the service and the operator's allow-list (model.ts imagePolicy; the page's CSP says the same). */
const imageAllowed = imagePolicy(location.href, (root.dataset.imageOrigins ?? '').split(' ').filter((o) => o !== ''));

let port: MessagePort | null = null;
let engine: ViewerEngine | null = null;
const revisionBeforeReady = 0;
const early: RequestMessage[] = [];
const tokenWaiters = new Map<string, { resolve(t: string): void; reject(e: Error): void }>();
let tokenCounter = 0;

function post(m: object): void {
  port?.postMessage(m);
}

function emit(name: EventName, payload: Record<string, unknown>): void {
  post(message<EventMessage>({ type: 'event', name, payload: { revision: engine?.revision ?? revisionBeforeReady, ...payload } }));
}

function status(text: string, isError = false): void {
  let box = root.querySelector<HTMLElement>('.nl-status');
  if (!box) {
    box = document.createElement('div');
    box.className = 'nl-status';
    root.append(box);
  }
  box.textContent = text;
  box.classList.toggle('nl-error', isError);
  box.hidden = text === '';
}

const api = new ViewerApi({ base: apiBase, sessionId });
const tokens = new TokenManager({
  requestLaunchToken: (reason) => new Promise<string>((resolve, reject) => {
    if (!port) return reject(new CommandError('SESSION_EXPIRED', 'not connected to the host'));
    const id = `t${++tokenCounter}`;
    tokenWaiters.set(id, {
      resolve: (t) => {
        mark('launch-token');
        resolve(t);
      },
      reject,
    });
    post(message<TokenRequestMessage>({ type: 'token-request', id, reason }));
  }),
  exchange: (launchToken) => api.exchange(launchToken),
});
api.tokens = tokens;

let expired = false;
function expire(reason: string): void {
  if (expired) return;
  expired = true;
  tokens.stop();
  if (engine) engine.expire(reason);
  else emit('session.expired', { reason });
  for (const r of early.splice(0)) replyError(r, new CommandError('SESSION_EXPIRED', 'the session has ended'));
  status('This session has ended.', true);
}
api.onExpired = expire;

function replyError(req: RequestMessage, err: unknown): void {
  post(message({ type: 'reply', id: req.id, ok: false, error: toWireError(err), revision: engine?.revision ?? revisionBeforeReady }));
}

let activeSinceBeat = false;
function activity(): void {
  activeSinceBeat = true;
  tokens.activity();
}

async function onRequest(req: RequestMessage): Promise<void> {
  activity();
  if (expired) return replyError(req, new CommandError('SESSION_EXPIRED', 'the session has ended'));
  if (!engine) {
    if (early.length >= LIMITS.maxPending) return replyError(req, new CommandError('RATE_LIMITED', 'too many commands before the viewer was ready'));
    early.push(req);
    return;
  }
  post(await engine.handle(req));
}

function onPortMessage(data: unknown): void {
  if (!isProtocolMessage(data)) return;
  const m = data as HostToViewer;
  if (m.type === 'request') void onRequest(m);
  else if (m.type === 'token') {
    const w = tokenWaiters.get(m.id);
    if (!w) return;
    tokenWaiters.delete(m.id);
    if (m.ok) w.resolve(m.launchToken);
    else w.reject(new CommandError('SESSION_EXPIRED', `the host gave no launch token: ${m.message}`));
  }
}

/** Performance marks `netloom:<step>` of the load (read by bench/viewer.ts; harmless otherwise). */
function mark(step: string): void {
  performance.mark(`netloom:${step}`);
}

async function load(): Promise<void> {
  status('Loading…');
  try {
    await tokens.get();
    mark('token');
    const [session, net] = await Promise.all([api.sessionInfo(), api.network()]);
    mark('data');
    const model = buildModel({ networkId: net.networkId, name: net.name, directed: net.isDirected, json: net.json, imageAllowed });
    mark('model');
    if (session.header === 'title') {
      const header = document.createElement('header');
      header.className = 'nl-header';
      header.textContent = net.name;
      root.prepend(header);
      root.classList.add('nl-with-header');
    }
    const display = new SigmaDisplay(root, model);
    mark('display');
    const e = new ViewerEngine({ model, display, backend: api, emit: (name, payload) => emit(name, payload), session });
    engine = e;
    e.start();
    // The AI chat: floating button and panel (unless ui.aiChat is false or chatAccess is off); chat.* commands.
    const chat = new ChatController({ backend: api, engine: e, session });
    e.chat = chat;
    void chat.mount(root).catch(() => undefined);
    // The Explore left menu (hidden entirely by `ui.menu: []`) and the drawing hooks it shares with views.
    const menu = mountMenu({ root, engine: e, display, model, session, api, layoutWorkerUrl: new URL('layout-worker.js', import.meta.url), downloadPageUrl: new URL('download.html', import.meta.url) });
    installInspect(display, model, menu.layout);
    mark('drawn');
    requestAnimationFrame(() => mark('first-frame'));
    // No stored positions: the circle is drawn, then ForceAtlas2 runs by itself. `ready` waits for it (at
    // most AUTO_LAYOUT_READY_WAIT_MS), so a host's first commands see the readable drawing.
    const auto = menu.autoLayout();
    if (auto) {
      await Promise.race([auto, new Promise((r) => setTimeout(r, AUTO_LAYOUT_READY_WAIT_MS))]);
      mark('auto-layout');
    }
    // The viewer's own clicks go through the same queue as host commands.
    display.renderer.on('clickNode', ({ node }) => {
      activity();
      const i = model.index.get(node);
      if (i !== undefined) void e.viewerClick(i);
    });
    display.renderer.on('clickStage', () => {
      activity();
      if (e.selected.length) void e.viewerClick(null);
    });
    // The details card's neighbour list moves the focus; Escape clears it (unless a panel field has the key).
    display.onPickNode = (i) => {
      activity();
      void e.viewerSelect(i, 'viewer.neighbour');
    };
    document.addEventListener('keydown', (ev) => {
      if (ev.key !== 'Escape' || !e.selected.length) return;
      const t = ev.target as HTMLElement | null;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT')) return;
      activity();
      void e.viewerSelect(null, 'viewer.escape');
    });
    let moveTimer: ReturnType<typeof setTimeout> | null = null;
    display.renderer.getCamera().on('updated', () => {
      if (display.animating) return;
      activity();
      if (moveTimer) clearTimeout(moveTimer);
      moveTimer = setTimeout(() => e.viewerCameraMoved(), 300);
    });
    // Activity heartbeat (keeps the session from ending for inactivity): once a minute, only when the
    // viewer or host code was active in that minute.
    root.addEventListener('pointerdown', () => activity());
    root.addEventListener('wheel', () => activity(), { passive: true });
    setInterval(() => {
      if (expired || !activeSinceBeat) return;
      activeSinceBeat = false;
      api.heartbeat().catch(() => undefined);
    }, 60_000);
    // Revocation or inactivity while idle: check the session's status (not activity, no token) now and then.
    // The first answer tells how often to ask (the service's setting; 30 s by default).
    const checkStatus = (): void => {
      if (expired) return;
      api.status().then((s) => setTimeout(checkStatus, s.checkAfterMs), () => setTimeout(checkStatus, 30_000));
    };
    checkStatus();
    // The session's lifetime end is known in advance: expire then even if nothing calls the service.
    const endsIn = Date.parse(session.expiresAt) - Date.now();
    if (Number.isFinite(endsIn)) setTimeout(() => expire('expired'), Math.min(Math.max(0, endsIn), 2 ** 31 - 1));
    status('');
    menu.layoutPanel.ready = true;
    e.emit('ready', { sessionId, networkId: model.networkId, nodeCount: model.ids.length, edgeCount: model.edges.length, protocolVersion: 1 });
    // Room for the labels at the stage's right edge (camera-fit.ts), on the next frame and again after each
    // layout, only while nobody has set the camera; not a move of the person's (the camera listener ignores it).
    const autoFit = new AutoFit(display.renderer, (move) => {
      display.animating = true;
      try {
        move();
      } finally {
        display.animating = false;
      }
    });
    autoFit.padding = () => menu.layout.guides?.padding() ?? { left: 0, right: 0, top: 0, bottom: 0 };
    menu.layout.onEnded = (s) => {
      // "Distribute nodes" measures overlaps at the current zoom: a new zoom would undo its work
      if (s.kind !== 'noverlap' && s.outcome !== 'error') requestAnimationFrame(() => autoFit.fit());
    };
    requestAnimationFrame(() => autoFit.fit());
    for (const r of early.splice(0)) void onRequest(r);
    // The label index of node references, once the viewer is idle (a command that needs it earlier builds it).
    const warm = (): void => void e.labels;
    if (typeof requestIdleCallback === 'function') requestIdleCallback(warm, { timeout: 2000 });
    else setTimeout(warm, 0);
  } catch (err) {
    const w = toWireError(err);
    if (w.code === 'SESSION_EXPIRED') expire(w.message);
    else {
      status(`The network could not be loaded: ${w.message}`, true);
      emit('error', { ...w });
    }
  }
}

// Handshake: say hello to the host origin until it connects a private port.
function hello(): void {
  // with the JS heap this page starts with: a large one means this renderer process held another page
  performance.mark('netloom:script', { detail: { heapMB: ((performance as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0) / 2 ** 20 } });
  if (!sessionId || !hostOrigin || window.parent === window) {
    status('This page only works inside an embedding page.', true);
    return;
  }
  let tries = 0;
  const timer = setInterval(() => {
    if (port || ++tries > 40) return clearInterval(timer);
    window.parent.postMessage(message<HelloMessage>({ type: 'hello', sessionId }), hostOrigin);
  }, 250);
  window.parent.postMessage(message<HelloMessage>({ type: 'hello', sessionId }), hostOrigin);
  window.addEventListener('message', (e) => {
    if (e.source !== window.parent || e.origin !== hostOrigin) return;
    if (!isMessageOfType(e.data, 'connect') || e.data.sessionId !== sessionId || !e.ports[0]) return;
    if (port) return; // paired already; a second connect is ignored
    port = e.ports[0];
    mark('connected');
    port.onmessage = (m) => onPortMessage(m.data);
    clearInterval(timer);
    void load();
  });
}

hello();
