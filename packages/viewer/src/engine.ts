/**
 * The command engine: one graph model, the viewer state (layers, selection, open view, revision), the
 * command queue, and one handler per command of the protocol registry. The DOM side (sigma, panels)
 * and the service side (session info, views) are reached through two ports, so the engine runs and is
 * tested without a browser. Every visible change bumps `revision` and emits `state.changed`.
 */
import {
  COMMANDS, LIMITS, isCommandName, message,
  type Camera, type CommandName, type EmbedView, type EventName, type Layer, type ReplyMessage, type RequestMessage,
  type SessionInfo, type ViewSummary, type ViewerState,
} from '@netloom/protocol';
import { CommandError, toWireError } from './errors.ts';
import { computeDisplay, makeLayer, type Display } from './layers.ts';
import { networkInfo, type NetworkModel } from './model.ts';
import { assertRef, assertRefs, buildLabelIndex, describe, requireOne, resolveRef, type LabelIndex } from './refs.ts';
import { findNodes } from './find.ts';
import { CommandQueue } from './queue.ts';
import { CHAT_GATE_TEXT, chatGateOf, type ChatPort } from './chat-port.ts';

export { CHAT_GATE_TEXT, chatGateOf, type ChatPort } from './chat-port.ts';

export interface DisplayPort {
  /** Redraw with the given display attributes and selection (reducers), and show the details panel. */
  refresh(display: Display, selected: readonly number[]): void;
  /** Animate the camera onto one node at `ratio`; resolves when the animation ends. */
  focus(index: number, ratio: number, signal: AbortSignal): Promise<void>;
  /** Animate the camera to frame these nodes (null: every visible node). */
  fit(indices: readonly number[] | null, signal: AbortSignal): Promise<void>;
  getCamera(): Camera;
  setCamera(camera: Camera, signal: AbortSignal): Promise<void>;
}

export interface BackendPort {
  sessionInfo(): Promise<SessionInfo>;
  listViews(): Promise<ViewSummary[]>;
  getView(viewId: string): Promise<EmbedView>;
  saveView(view: Omit<EmbedView, 'id'>): Promise<EmbedView>;
  updateView(view: EmbedView): Promise<EmbedView>;
}


export type Emit = (name: EventName, payload: Record<string, unknown>) => void;

type Handler = (args: Record<string, unknown>, ctx: { signal: AbortSignal; id: string }) => Promise<unknown> | unknown;

const DEFAULT_DISPLAY_SETTINGS: EmbedView['display'] = { backgroundColor: '#ffffff', showLabels: 'auto', showEdges: true };

function noExtraKeys(args: Record<string, unknown>, allowed: string[], command: string): void {
  for (const k of Object.keys(args)) if (!allowed.includes(k)) throw new CommandError('INVALID_ARGS', `${command}: unknown argument ${k}`);
}

export class ViewerEngine {
  readonly model: NetworkModel;
  #labels: LabelIndex | null = null;
  revision = 0;
  layers: Layer[] = [];
  selected: number[] = [];
  viewId: string | null = null;
  dirty = false;
  expired = false;
  display: Display;
  /** EmbedView `display` settings (background, label mode, edges); saved with views, applied on open. */
  displaySettings: EmbedView['display'] = { ...DEFAULT_DISPLAY_SETTINGS };
  readonly queue: CommandQueue;
  /** The AI chat (chat.ts); null: chat commands fail with NOT_PERMITTED after the session's gates. */
  chat: ChatPort | null = null;
  #displayPort: DisplayPort;
  #backend: BackendPort;
  #emit: Emit;
  #session: SessionInfo | null = null;
  #handlers: Record<CommandName, Handler>;

  constructor(opts: { model: NetworkModel; display: DisplayPort; backend: BackendPort; emit: Emit; session?: SessionInfo }) {
    this.model = opts.model;
    this.#displayPort = opts.display;
    this.#backend = opts.backend;
    this.#emit = opts.emit;
    this.#session = opts.session ?? null;
    this.display = computeDisplay(this.model, this.layers);
    this.queue = new CommandQueue({ revision: () => this.revision, onBusy: (on) => this.emit('busy', { on }) });
    this.#handlers = this.#makeHandlers();
  }

  /**
   * The label lookup tables for node references, built on first use (0.3 s at 100k nodes: not on the
   * way to the first drawing; main.ts builds them when the viewer is idle after `ready`).
   */
  get labels(): LabelIndex {
    this.#labels ??= buildLabelIndex(this.model);
    return this.#labels;
  }

  emit(name: EventName, payload: Record<string, unknown>): void {
    this.#emit(name, { ...payload, revision: this.revision });
  }

  /** Draws the initial state. */
  start(): void {
    this.#displayPort.refresh(this.display, this.selected);
  }

  state(): ViewerState {
    return {
      networkId: this.model.networkId,
      viewId: this.viewId,
      dirty: this.dirty,
      layers: this.layers.map((l) => ({ ...l })),
      selectedNodeIds: this.selected.map((i) => this.model.ids[i]),
      visibleNodeCount: this.display.visibleCount,
      visibleEdgeCount: this.display.visibleEdgeCount,
      revision: this.revision,
    };
  }

  /** Something visible changed: bump the revision, redraw, tell the host. */
  bump(reason: string, requestId?: string, opts: { layersChanged?: boolean; dirty?: boolean } = {}): void {
    if (opts.layersChanged) {
      this.display = computeDisplay(this.model, this.layers);
      // Nodes hidden by a filter leave the selection.
      const before = this.selected.length;
      this.selected = this.selected.filter((i) => !this.display.hidden[i]);
      if (this.selected.length !== before) queueMicrotask(() => this.emit('selection.changed', { selectedNodeIds: this.selected.map((i) => this.model.ids[i]) }));
    }
    this.revision++;
    if (opts.dirty !== false) this.dirty = true;
    this.#displayPort.refresh(this.display, this.selected);
    this.emit('state.changed', { reason, ...(requestId ? { requestId } : {}) });
  }

  #setSelection(indices: number[], reason: string, requestId?: string): void {
    const same = indices.length === this.selected.length && indices.every((v, k) => v === this.selected[k]);
    this.selected = indices;
    if (!same) {
      this.bump(reason, requestId);
      this.emit('selection.changed', { selectedNodeIds: indices.map((i) => this.model.ids[i]) });
    }
  }

  /** The session ended: fail everything pending; later requests fail with SESSION_EXPIRED. */
  expire(reason: string): void {
    if (this.expired) return;
    this.expired = true;
    this.queue.failAll(new CommandError('SESSION_EXPIRED', 'the session has ended'));
    this.emit('session.expired', { reason });
  }

  /** The viewer clicked a node (or the background: null); runs in the queue like a command. */
  viewerClick(index: number | null): Promise<void> {
    return this.queue.enqueue({
      id: `viewer-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`,
      source: 'viewer',
      run: () => {
        if (index !== null) this.emit('node.clicked', { nodeId: this.model.ids[index] });
        this.#setSelection(index === null ? [] : [index], 'viewer.click');
      },
    }).catch(() => undefined);
  }

  /**
   * The viewer selected a node by other means than a canvas click (a neighbour in the details card), or
   * cleared the selection (Escape): `selection.changed` only, no `node.clicked`.
   */
  viewerSelect(index: number | null, reason: string): Promise<void> {
    return this.queue.enqueue({
      id: `viewer-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`,
      source: 'viewer',
      run: () => this.#setSelection(index === null ? [] : [index], reason),
    }).catch(() => undefined);
  }

  /** The viewer panned or zoomed (debounced by the DOM side). */
  viewerCameraMoved(): void {
    void this.queue.enqueue({ id: `viewer-camera-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`, source: 'viewer', run: () => this.bump('viewer.camera') }).catch(() => undefined);
  }

  /**
   * The viewer's own menu runs a protocol command through the same handlers and queue as the SDK (as a
   * viewer task: no deadline, not counted against the host's 20 pending), so revision and
   * `state.changed` behave identically.
   */
  viewerCommand(command: CommandName, args: Record<string, unknown> = {}): Promise<unknown> {
    if (this.expired) return Promise.reject(new CommandError('SESSION_EXPIRED', 'the session has ended'));
    const id = `viewer-${command}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
    return this.queue.enqueue({ id, source: 'viewer', run: (ctx) => this.#handlers[command](args, ctx) });
  }

  /** Handles one request from the SDK; always produces exactly one reply. */
  async handle(req: RequestMessage): Promise<ReplyMessage> {
    try {
      const result = await this.#dispatch(req);
      return message<ReplyMessage>({ type: 'reply', id: req.id, ok: true, result: result ?? null, revision: this.revision });
    } catch (err) {
      return message<ReplyMessage>({ type: 'reply', id: req.id, ok: false, error: toWireError(err), revision: this.revision });
    }
  }

  async #dispatch(req: RequestMessage): Promise<unknown> {
    if (this.expired) throw new CommandError('SESSION_EXPIRED', 'the session has ended');
    if (!isCommandName(req.command)) throw new CommandError('UNKNOWN_COMMAND', `unknown command ${String(req.command)}`);
    if (typeof req.id !== 'string' || req.id === '') throw new CommandError('INVALID_ARGS', 'request id missing');
    const args = req.args ?? {};
    if (typeof args !== 'object' || Array.isArray(args)) throw new CommandError('INVALID_ARGS', 'args must be an object');
    if (req.ifRevision !== undefined && (typeof req.ifRevision !== 'number' || !Number.isInteger(req.ifRevision))) throw new CommandError('INVALID_ARGS', 'ifRevision must be a whole number');
    const timeoutMs = typeof req.timeoutMs === 'number' && req.timeoutMs > 0 ? req.timeoutMs : LIMITS.defaultTimeoutMs;
    const handler = this.#handlers[req.command];
    // cancel is not queued: it acts on the queue.
    if (req.command === 'cancel') return handler(args as Record<string, unknown>, { signal: new AbortController().signal, id: req.id });
    return this.queue.enqueue({
      id: req.id,
      source: 'host',
      timeoutMs,
      ifRevision: req.ifRevision,
      run: (ctx) => handler(args as Record<string, unknown>, ctx),
    });
  }

  #currentViewBody(): Omit<EmbedView, 'id'> {
    return { version: 1, name: '', description: '', layers: this.layers.map((l) => ({ ...l })), camera: this.#displayPort.getCamera(), display: { ...this.displaySettings } };
  }

  async #session_(): Promise<SessionInfo> {
    this.#session ??= await this.#backend.sessionInfo();
    return this.#session;
  }

  async #chatGate(): Promise<never> {
    const gate = chatGateOf(await this.#session_());
    throw new CommandError('NOT_PERMITTED', gate ? CHAT_GATE_TEXT[gate] : 'AI chat is not connected in this viewer');
  }

  #addLayer(op: 'Filter' | 'Color' | 'Size', args: Record<string, unknown>, id: string): { layerId: string } {
    const layer = makeLayer(this.model, op, args);
    this.layers = [...this.layers, layer];
    this.bump(`layers.${op.toLowerCase()}`, id, { layersChanged: true });
    return { layerId: layer.id };
  }

  #makeHandlers(): Record<CommandName, Handler> {
    const m = this.model;
    return {
      // Read again each time: capabilities.chat follows the organization's switch and allowance.
      'session.info': async () => {
        this.#session = await this.#backend.sessionInfo();
        return this.#session;
      },
      'state.get': () => this.state(),
      'network.info': () => networkInfo(m),
      'views.list': async () => this.#backend.listViews(),
      'views.open': async (a, ctx) => {
        noExtraKeys(a, ['viewId'], 'views.open');
        if (typeof a.viewId !== 'string' || a.viewId === '') throw new CommandError('INVALID_ARGS', 'views.open takes a view id');
        const view = await this.#backend.getView(a.viewId);
        ctx.signal.throwIfAborted();
        this.layers = view.layers.map((l) => ({ ...l }));
        this.viewId = view.id;
        if (view.display) this.displaySettings = { ...DEFAULT_DISPLAY_SETTINGS, ...view.display };
        this.bump('views.open', ctx.id, { layersChanged: true, dirty: false });
        this.dirty = false;
        await this.#displayPort.setCamera(view.camera, ctx.signal);
        return view;
      },
      'views.save': async (a, ctx) => {
        noExtraKeys(a, ['name', 'description'], 'views.save');
        if (typeof a.name !== 'string' || a.name.trim() === '') throw new CommandError('INVALID_ARGS', 'views.save needs a name');
        if (a.description !== undefined && typeof a.description !== 'string') throw new CommandError('INVALID_ARGS', 'description must be a string');
        const s = await this.#session_();
        if (!s.capabilities.edit) throw new CommandError('NOT_PERMITTED', 'saving views needs Edit access to the network');
        const view = await this.#backend.saveView({ ...this.#currentViewBody(), name: a.name, description: (a.description as string | undefined) ?? '' });
        this.viewId = view.id;
        this.dirty = false;
        this.bump('views.save', ctx.id, { dirty: false });
        return view;
      },
      'views.update': async (a, ctx) => {
        noExtraKeys(a, [], 'views.update');
        if (this.viewId === null) throw new CommandError('NOT_FOUND', 'no view is open; use views.save');
        const s = await this.#session_();
        if (!s.capabilities.edit) throw new CommandError('NOT_PERMITTED', 'saving views needs Edit access to the network');
        const old = await this.#backend.getView(this.viewId);
        const view = await this.#backend.updateView({ ...this.#currentViewBody(), id: this.viewId, name: old.name, description: old.description });
        this.dirty = false;
        this.bump('views.update', ctx.id, { dirty: false });
        return view;
      },
      'layers.filter': (a, ctx) => this.#addLayer('Filter', a, ctx.id),
      'layers.color': (a, ctx) => this.#addLayer('Color', a, ctx.id),
      'layers.size': (a, ctx) => this.#addLayer('Size', a, ctx.id),
      'layers.remove': (a, ctx) => {
        noExtraKeys(a, ['layerId'], 'layers.remove');
        if (typeof a.layerId !== 'string') throw new CommandError('INVALID_ARGS', 'layers.remove takes a layer id');
        const layer = this.layers.find((l) => l.id === a.layerId);
        if (!layer) throw new CommandError('NOT_FOUND', `no layer ${a.layerId}`);
        if (layer.readOnly) throw new CommandError('NOT_PERMITTED', `layer ${a.layerId} is read-only`);
        this.layers = this.layers.filter((l) => l !== layer);
        this.bump('layers.remove', ctx.id, { layersChanged: true });
        return { ok: true };
      },
      'layers.clear': (a, ctx) => {
        noExtraKeys(a, [], 'layers.clear');
        const kept = this.layers.filter((l) => l.readOnly);
        if (kept.length !== this.layers.length) {
          this.layers = kept;
          this.bump('layers.clear', ctx.id, { layersChanged: true });
        }
        return { ok: true };
      },
      'nodes.find': (a) => findNodes(m, this.display.hidden, a, this.revision),
      'nodes.get': (a) => {
        noExtraKeys(a, ['refs'], 'nodes.get');
        assertRefs(a.refs, LIMITS.getMaxRefs, 'nodes.get');
        return a.refs.map((ref) => describe(m, this.display.hidden, ref, resolveRef(m, this.labels, this.display.hidden, ref)));
      },
      'nodes.focus': async (a, ctx) => {
        noExtraKeys(a, ['ref', 'zoom'], 'nodes.focus');
        assertRef(a.ref, 'nodes.focus');
        if (a.zoom !== undefined && (typeof a.zoom !== 'number' || !(a.zoom > 0) || a.zoom > 10)) throw new CommandError('INVALID_ARGS', 'zoom must be a camera ratio between 0 and 10');
        const i = requireOne(m, this.labels, this.display.hidden, a.ref);
        this.#setSelection([i], 'nodes.focus', ctx.id);
        await this.#displayPort.focus(i, (a.zoom as number | undefined) ?? 0.25, ctx.signal);
        return { nodeId: m.ids[i] };
      },
      'nodes.select': (a, ctx) => {
        noExtraKeys(a, ['refs'], 'nodes.select');
        assertRefs(a.refs, LIMITS.getMaxRefs, 'nodes.select');
        const indices = [...new Set(a.refs.map((r) => requireOne(m, this.labels, this.display.hidden, r)))];
        this.#setSelection(indices, 'nodes.select', ctx.id);
        return { selectedNodeIds: indices.map((i) => m.ids[i]) };
      },
      'nodes.clearSelection': (a, ctx) => {
        noExtraKeys(a, [], 'nodes.clearSelection');
        this.#setSelection([], 'nodes.clearSelection', ctx.id);
        return { selectedNodeIds: [] };
      },
      'camera.fit': async (a, ctx) => {
        noExtraKeys(a, ['refs'], 'camera.fit');
        let indices: number[] | null = null;
        if (a.refs !== undefined) {
          assertRefs(a.refs, LIMITS.getMaxRefs, 'camera.fit');
          indices = a.refs.map((r) => requireOne(m, this.labels, this.display.hidden, r));
        }
        this.bump('camera.fit', ctx.id);
        await this.#displayPort.fit(indices, ctx.signal);
        return { ok: true };
      },
      'chat.ask': async (a, ctx) => {
        noExtraKeys(a, ['message', 'newChat'], 'chat.ask');
        if (typeof a.message !== 'string' || a.message.trim() === '') throw new CommandError('INVALID_ARGS', 'chat.ask takes a message');
        if (a.message.length > LIMITS.chatMaxChars) throw new CommandError('INVALID_ARGS', `a chat message has at most ${LIMITS.chatMaxChars} characters`);
        if (a.newChat !== undefined && typeof a.newChat !== 'boolean') throw new CommandError('INVALID_ARGS', 'newChat must be a Boolean');
        return this.chat ? this.chat.ask({ message: a.message, newChat: a.newChat as boolean | undefined }, ctx) : this.#chatGate();
      },
      'chat.messages': async () => {
        if (this.chat) return this.chat.messages();
        if (chatGateOf(await this.#session_())) return this.#chatGate();
        return [];
      },
      'chat.open': (_a, ctx) => (this.chat ? this.chat.open(ctx) : this.#chatGate()),
      'chat.close': (_a, ctx) => (this.chat ? this.chat.close(ctx) : this.#chatGate()),
      'chat.new': (_a, ctx) => (this.chat ? this.chat.newChat(ctx) : this.#chatGate()),
      'chat.cancel': (_a, ctx) => (this.chat ? this.chat.cancel(ctx) : this.#chatGate()),
      'cancel': (a) => {
        noExtraKeys(a, ['requestId'], 'cancel');
        if (typeof a.requestId !== 'string') throw new CommandError('INVALID_ARGS', 'cancel takes a request id');
        return { cancelled: this.queue.cancel(a.requestId) };
      },
    } satisfies Record<keyof typeof COMMANDS, Handler>;
  }
}
