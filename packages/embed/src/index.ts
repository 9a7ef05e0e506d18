/**
 * @netloom/embed — embeds the Netloom network viewer in a host page and drives it from code.
 *
 *   import Embed from '@netloom/embed';
 *   const embed = await Embed.create(document.getElementById('viewer'), {
 *     sessionId,
 *     getLaunchToken: (sessionId) => fetch(`/my-backend/launch-token/${sessionId}`).then((r) => r.text()),
 *   });
 *   const { layerId } = await embed.layers.color({ attribute: 'team' });
 *
 * The iframe (sandboxed, no referrer) says `hello` to its parent; the SDK checks the message's origin and
 * source, then hands the viewer one end of a private MessageChannel. Launch tokens are obtained only
 * through `getLaunchToken`, when the viewer asks (on load, and before its 15-minute access token
 * expires if the viewer or host has been active). No dependencies; ES module.
 */
import {
  COMMANDS, LIMITS, isErrorCode, isMessageOfType, isProtocolMessage, message,
  type CallOptions, type CommandArgs, type CommandName, type CommandResult, type ConnectMessage, type ErrorCode,
  type EventName, type EventPayload, type HostToViewer, type RequestMessage, type TokenMessage, type ViewerToHost,
} from '@netloom/protocol';

export type * from '@netloom/protocol';

/** The error every command and `Embed.create` reject with. */
export class EmbedError extends Error {
  readonly code: ErrorCode;
  readonly requestId: string | null;
  readonly details?: Record<string, unknown>;
  constructor(code: ErrorCode, message: string, requestId: string | null = null, details?: Record<string, unknown>) {
    super(message);
    this.name = 'EmbedError';
    this.code = code;
    this.requestId = requestId;
    if (details !== undefined) this.details = details;
  }
}

export interface EmbedCreateOptions {
  sessionId: string;
  /** Asks the host's backend for a launch token for this session (it must check the user owns it). */
  getLaunchToken: (sessionId: string) => Promise<string>;
  /** Origin of the Netloom service; default: the origin this script was loaded from (`/sdk/embed.js`). */
  viewerOrigin?: string;
  /** How long `Embed.create` waits for the network to be loaded, ms (default 60,000). */
  timeoutMs?: number;
  /** `title` attribute of the iframe (accessibility). */
  title?: string;
}

/** A command's promise, with the id to give `cancel()`. */
export type CommandPromise<R> = Promise<R> & { requestId: string };

type Spec<N extends CommandName> = (typeof COMMANDS)[N];
type Positional<N extends CommandName> = Spec<N> extends { positional: infer P } ? P : never;
type OptionKeys<N extends CommandName> = Spec<N> extends { optionKeys: readonly (infer K)[] } ? K & keyof CommandArgs<N> : never;
type MethodOptions<N extends CommandName> = CallOptions & Pick<CommandArgs<N>, OptionKeys<N>>;
type Method<N extends CommandName> = [Positional<N>] extends [never]
  ? (options?: MethodOptions<N>) => CommandPromise<CommandResult<N>>
  : Positional<N> extends '*'
    ? (args: CommandArgs<N>, options?: MethodOptions<N>) => CommandPromise<CommandResult<N>>
    : PositionalMethod<N, Positional<N>>;
type PositionalMethod<N extends CommandName, P> = P extends keyof CommandArgs<N>
  ? undefined extends CommandArgs<N>[P]
    ? (arg?: CommandArgs<N>[P], options?: MethodOptions<N>) => CommandPromise<CommandResult<N>>
    : (arg: CommandArgs<N>[P], options?: MethodOptions<N>) => CommandPromise<CommandResult<N>>
  : never;
type Namespace<N> = N extends `${infer NS}.${string}` ? NS : never;
export type EmbedCommands = {
  [NS in Namespace<CommandName>]: { [N in CommandName as N extends `${NS}.${infer C}` ? C : never]: Method<N> };
};

type Handler<E extends EventName> = (payload: EventPayload<E>) => void;

interface Pending {
  resolve(value: unknown): void;
  reject(error: EmbedError): void;
  timer: ReturnType<typeof setTimeout>;
  command: CommandName;
}

/** Grace given to the viewer's own deadline before the SDK gives up on a reply. */
const REPLY_GRACE_MS = 2_000;

function defaultViewerOrigin(): string | undefined {
  try {
    const u = new URL(import.meta.url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

function randomId(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID().slice(0, 8);
  return Math.random().toString(36).slice(2, 10);
}

// The class carries one property per namespace (built from COMMANDS at construction).
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface Embed extends EmbedCommands {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Embed {
  readonly sessionId: string;
  readonly iframe: HTMLIFrameElement;
  readonly viewerOrigin: string;
  /** The last revision seen in a reply or event. */
  revision = 0;
  /** True once the session has ended (`session.expired`); every later command rejects with SESSION_EXPIRED. */
  expired = false;

  #getLaunchToken: (sessionId: string) => Promise<string>;
  #port: MessagePort | null = null;
  #pending = new Map<string, Pending>();
  #handlers = new Map<EventName, Set<(payload: never) => void>>();
  #idPrefix = randomId();
  #counter = 0;
  #onWindowMessage: (e: MessageEvent) => void;
  #destroyed = false;
  #helloSeen = false;

  static create(element: HTMLElement | string, options: EmbedCreateOptions): Promise<Embed> {
    const container = typeof element === 'string' ? document.querySelector<HTMLElement>(element) : element;
    if (!container) return Promise.reject(new EmbedError('INVALID_ARGS', `no element ${String(element)}`));
    if (!options || typeof options.sessionId !== 'string' || options.sessionId === '') return Promise.reject(new EmbedError('INVALID_ARGS', 'sessionId is required'));
    if (typeof options.getLaunchToken !== 'function') return Promise.reject(new EmbedError('INVALID_ARGS', 'getLaunchToken must be a function returning a promise of a launch token'));
    const origin = options.viewerOrigin ?? defaultViewerOrigin();
    if (!origin) return Promise.reject(new EmbedError('INVALID_ARGS', 'viewerOrigin is required when the SDK is bundled'));
    let viewerOrigin: string;
    try {
      viewerOrigin = new URL(origin).origin;
    } catch {
      return Promise.reject(new EmbedError('INVALID_ARGS', `viewerOrigin ${origin} is not an origin`));
    }
    const embed = new Embed(container, options, viewerOrigin);
    return new Promise<Embed>((resolve, reject) => {
      let settled = false;
      const fail = (err: EmbedError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer); off1(); off2();
        embed.destroy();
        reject(err);
      };
      const timer = setTimeout(() => {
        fail(new EmbedError('TIMEOUT', 'the viewer did not load the network in time (is this page\'s origin allowed for the session?)'));
      }, options.timeoutMs ?? 60_000);
      const off1 = embed.on('ready', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer); off1(); off2();
        resolve(embed);
      });
      const off2 = embed.on('session.expired', (p) => fail(new EmbedError('SESSION_EXPIRED', `the session has ended (${p.reason})`)));
      // The page of an ended session is never framed (CSP frame-ancestors 'none'), so no viewer code runs
      // to say so: when the frame loaded without a hello, ask the service whether the session still lives.
      embed.iframe.addEventListener('load', () => {
        setTimeout(() => {
          if (settled || embed.#helloSeen) return;
          fetch(`${viewerOrigin}/api/v2/embed/sessions/${encodeURIComponent(options.sessionId)}/status`, { credentials: 'omit', referrerPolicy: 'no-referrer', cache: 'no-store' })
            .then((r) => (r.ok ? r.json() as Promise<{ live?: unknown }> : null))
            .then((b) => { if (b?.live === false) fail(new EmbedError('SESSION_EXPIRED', 'the session has ended (the viewer page is no longer served for it)')); })
            .catch(() => undefined);
        }, 300);
      });
    });
  }

  private constructor(container: HTMLElement, options: EmbedCreateOptions, viewerOrigin: string) {
    this.sessionId = options.sessionId;
    this.viewerOrigin = viewerOrigin;
    this.#getLaunchToken = options.getLaunchToken;
    for (const name of Object.keys(COMMANDS) as CommandName[]) {
      const dot = name.indexOf('.');
      if (dot < 0) continue;
      const ns = name.slice(0, dot);
      const self = this as unknown as Record<string, Record<string, unknown>>;
      self[ns] ??= {};
      self[ns][name.slice(dot + 1)] = (arg?: unknown, opts?: unknown) => this.#call(name, arg, opts);
    }
    const iframe = document.createElement('iframe');
    iframe.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox');
    iframe.setAttribute('referrerpolicy', 'no-referrer');
    iframe.setAttribute('title', options.title ?? 'Network viewer');
    iframe.setAttribute('allow', 'clipboard-write');
    iframe.style.cssText = 'border:0;width:100%;height:100%;display:block';
    iframe.src = `${viewerOrigin}/embed/${encodeURIComponent(options.sessionId)}`;
    this.iframe = iframe;
    this.#onWindowMessage = (e) => this.#handshake(e);
    window.addEventListener('message', this.#onWindowMessage);
    container.appendChild(iframe);
  }

  /** Registers an event handler; returns a function that removes it. */
  on<E extends EventName>(event: E, handler: Handler<E>): () => void {
    let set = this.#handlers.get(event);
    if (!set) this.#handlers.set(event, (set = new Set()));
    set.add(handler as (payload: never) => void);
    return () => this.off(event, handler);
  }

  off<E extends EventName>(event: E, handler: Handler<E>): void {
    this.#handlers.get(event)?.delete(handler as (payload: never) => void);
  }

  /** Cancels a queued or running command; it rejects with CANCELLED. Resolves `{ cancelled: false }` if it had finished. */
  cancel(requestId: string, options?: CallOptions): CommandPromise<{ cancelled: boolean }> {
    return this.#call('cancel', requestId, options);
  }

  /** Removes the iframe and rejects every pending command with CANCELLED. */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    window.removeEventListener('message', this.#onWindowMessage);
    this.#rejectAll('CANCELLED', 'the embed was destroyed');
    this.#port?.close();
    this.#port = null;
    this.iframe.remove();
  }

  #handshake(e: MessageEvent): void {
    if (e.source !== this.iframe.contentWindow || e.origin !== this.viewerOrigin) return;
    if (!isMessageOfType(e.data, 'hello') || e.data.sessionId !== this.sessionId) return;
    this.#helloSeen = true;
    // A new hello means the viewer (re)loaded: commands sent to the old page will never be answered.
    if (this.#port) {
      this.#rejectAll('INTERNAL', 'the viewer reloaded');
      this.#port.close();
    }
    const channel = new MessageChannel();
    this.#port = channel.port1;
    this.#port.onmessage = (m) => this.#receive(m.data);
    this.iframe.contentWindow?.postMessage(message<ConnectMessage>({ type: 'connect', sessionId: this.sessionId }), this.viewerOrigin, [channel.port2]);
  }

  #send(m: HostToViewer): void {
    this.#port?.postMessage(m);
  }

  #receive(data: unknown): void {
    if (!isProtocolMessage(data)) return;
    const m = data as ViewerToHost;
    switch (m.type) {
      case 'reply': {
        this.#seeRevision(m.revision);
        const p = this.#pending.get(m.id);
        if (!p) return;
        this.#pending.delete(m.id);
        clearTimeout(p.timer);
        if (m.ok) p.resolve(m.result);
        else p.reject(new EmbedError(isErrorCode(m.error.code) ? m.error.code : 'INTERNAL', m.error.message, m.id, m.error.details));
        return;
      }
      case 'event': {
        this.#seeRevision(m.payload.revision);
        if (m.name === 'session.expired') {
          this.expired = true;
          this.#rejectAll('SESSION_EXPIRED', 'the session has ended');
        }
        this.#emit(m.name, m.payload);
        return;
      }
      case 'token-request': {
        this.#getLaunchToken(this.sessionId).then(
          (token) => {
            if (typeof token !== 'string' || token === '') throw new Error('getLaunchToken did not return a token');
            this.#send(message<TokenMessage>({ type: 'token', id: m.id, ok: true, launchToken: token }));
          },
        ).catch((err: unknown) => {
          this.#send(message<TokenMessage>({ type: 'token', id: m.id, ok: false, message: err instanceof Error ? err.message : String(err) }));
        });
        return;
      }
    }
  }

  #seeRevision(revision: unknown): void {
    if (typeof revision === 'number' && revision > this.revision) this.revision = revision;
  }

  #emit(name: EventName, payload: unknown): void {
    for (const h of [...(this.#handlers.get(name) ?? [])]) {
      try {
        (h as (p: unknown) => void)(payload);
      } catch (err) {
        setTimeout(() => { throw err; });
      }
    }
  }

  #rejectAll(code: ErrorCode, text: string): void {
    for (const [id, p] of this.#pending) {
      clearTimeout(p.timer);
      p.reject(new EmbedError(code, text, id));
    }
    this.#pending.clear();
  }

  #call<N extends CommandName>(command: N, arg: unknown, rawOptions: unknown): CommandPromise<CommandResult<N>> {
    const spec: { positional?: string; optionKeys?: readonly string[] } = COMMANDS[command];
    // Commands without a positional argument take their options first.
    const options = ((spec.positional === undefined ? arg : rawOptions) ?? {}) as CallOptions & Record<string, unknown>;
    const requestId = typeof options.requestId === 'string' && options.requestId !== '' ? options.requestId : `${this.#idPrefix}-${++this.#counter}`;
    const promise = new Promise<CommandResult<N>>((resolve, reject) => {
      if (this.expired) return reject(new EmbedError('SESSION_EXPIRED', 'the session has ended', requestId));
      if (this.#destroyed || !this.#port) return reject(new EmbedError(this.#destroyed ? 'CANCELLED' : 'INTERNAL', this.#destroyed ? 'the embed was destroyed' : 'the viewer is not connected yet', requestId));
      if (this.#pending.has(requestId)) return reject(new EmbedError('INVALID_ARGS', `request id ${requestId} is already pending`, requestId));
      if (typeof options !== 'object') return reject(new EmbedError('INVALID_ARGS', 'options must be an object', requestId));
      const timeoutMs = options.timeoutMs ?? LIMITS.defaultTimeoutMs;
      if (typeof timeoutMs !== 'number' || !(timeoutMs > 0)) return reject(new EmbedError('INVALID_ARGS', 'timeoutMs must be a positive number', requestId));
      if (options.ifRevision !== undefined && typeof options.ifRevision !== 'number') return reject(new EmbedError('INVALID_ARGS', 'ifRevision must be a number', requestId));
      let args: Record<string, unknown>;
      if (spec.positional === undefined) args = {};
      else if (spec.positional === '*') args = (arg ?? {}) as Record<string, unknown>;
      else args = arg === undefined ? {} : { [spec.positional]: arg };
      for (const k of spec.optionKeys ?? []) if (options[k] !== undefined) args = { ...args, [k]: options[k] };
      const timer = setTimeout(() => {
        if (!this.#pending.delete(requestId)) return;
        reject(new EmbedError('TIMEOUT', `${command} did not finish within ${timeoutMs} ms`, requestId));
      }, timeoutMs + REPLY_GRACE_MS);
      this.#pending.set(requestId, { resolve: resolve as (v: unknown) => void, reject, timer, command });
      const m = message<RequestMessage>({ type: 'request', id: requestId, command, args, timeoutMs, ...(options.ifRevision !== undefined ? { ifRevision: options.ifRevision } : {}) });
      try {
        this.#send(m);
      } catch (err) {
        this.#pending.delete(requestId);
        clearTimeout(timer);
        reject(new EmbedError('INVALID_ARGS', `arguments cannot be sent: ${err instanceof Error ? err.message : String(err)}`, requestId));
      }
    });
    return Object.assign(promise, { requestId });
  }
}

export default Embed;
