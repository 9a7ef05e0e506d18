/**
 * The viewer's AI chat (issue 5 item 5): a floating button and panel, and the `chat.*` commands of the
 * SDK. The service decides (docs/embedding-api.md, chat): it answers 403 CHAT_NOT_PERMITTED (→ SDK
 * NOT_PERMITTED with the service's reason as message) when `ui.aiChat` is false, chatAccess is off, the
 * organization's chat is off, its allowance is spent or a presetOnly viewer asks something else, and 429
 * (→ RATE_LIMITED) while another question of the session is answered. The viewer also refuses at once
 * what it knows: a question while one is being answered (RATE_LIMITED), any chat command when
 * `ui.aiChat` is false or chatAccess is off (NOT_PERMITTED).
 *
 * A question (from the host's chat.ask or typed in the panel) is posted; chat.ask resolves with its id
 * once the service accepted it, `chat.question` is emitted (`source` host or viewer), and the answer is
 * awaited (long poll) outside the command queue. The answer's actions (layers, views) run through the
 * engine's command handlers as viewer tasks — so they bump `revision` and raise `state.changed` — and
 * then `chat.reply` is emitted (`cancelled: true` for a stopped answer). Panel open/close and a new
 * conversation are visible changes: they bump `revision` (not the view's dirty flag).
 */
import type { ChatMessage, CommandName, EventName, SessionInfo } from '@netloom/protocol';
import { CommandError } from './errors.ts';
import { CHAT_GATE_TEXT, chatGateOf, type ChatPort } from './chat-port.ts';
import { el } from './dom.ts';
import { renderMarkdown } from './markdown-dom.ts';

export const CHAT_PATHS = {
  state: '/api/v2/embed/viewer/chat',
  messages: '/api/v2/embed/viewer/chat/messages',
  message: (id: string, waitMs: number) => `/api/v2/embed/viewer/chat/messages/${encodeURIComponent(id)}?waitMs=${waitMs}`,
  ask: '/api/v2/embed/viewer/chat/ask',
  cancel: '/api/v2/embed/viewer/chat/cancel',
  new: '/api/v2/embed/viewer/chat/new',
};

/** What the chat needs of the service client (ViewerApi). */
export interface ChatBackend {
  request<T>(path: string, init?: { method?: string; body?: unknown }): Promise<T>;
}

/** What the chat needs of the engine. */
export interface ChatEngine {
  emit(name: EventName, payload: Record<string, unknown>): void;
  bump(reason: string, requestId?: string, opts?: { layersChanged?: boolean; dirty?: boolean }): void;
  viewerCommand(command: CommandName, args?: Record<string, unknown>): Promise<unknown>;
  readonly expired: boolean;
}


type Action =
  | { type: 'layer'; operation: 'Color' | 'Size' | 'Filter'; attribute: string; values?: (string | number)[]; min?: number; max?: number }
  | { type: 'openView'; viewId: string; name: string };

interface ServerMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  isError: boolean;
  status: string;
  conversationId: string;
  cancelled?: boolean;
  actions?: Action[];
  source?: string;
}

interface ChatStateBody {
  available: boolean;
  reason: string | null;
  message: string | null;
  chatAccess: 'off' | 'presetOnly' | 'full';
  presetQuestions: string[];
  conversationId: string | null;
  answering: { replyId: string } | null;
}

export class ChatController implements ChatPort {
  #backend: ChatBackend;
  #engine: ChatEngine;
  #session: SessionInfo;
  #state: ChatStateBody | null = null;
  /** The reply id of the answer in progress. */
  #answering: string | null = null;
  #finished = new Set<string>();
  #open = false;
  // DOM
  #button: HTMLButtonElement | null = null;
  #panel: HTMLElement | null = null;
  #list: HTMLElement | null = null;
  #presets: HTMLElement | null = null;
  #input: HTMLTextAreaElement | null = null;
  #send: HTMLButtonElement | null = null;
  #stop: HTMLButtonElement | null = null;
  #notice: HTMLElement | null = null;

  constructor(opts: { backend: ChatBackend; engine: ChatEngine; session: SessionInfo }) {
    this.#backend = opts.backend;
    this.#engine = opts.engine;
    this.#session = opts.session;
  }

  /** Whether chat exists at all for this session (the button is shown). */
  get shown(): boolean {
    return chatGateOf(this.#session) === null;
  }

  get isOpen(): boolean {
    return this.#open;
  }

  /** Builds the button and panel (when chat is shown) and loads the chat state and current conversation. */
  async mount(root: HTMLElement): Promise<void> {
    if (!this.shown) return;
    this.#buildDom(root);
    await this.refreshState();
    const msgs = await this.#backend.request<ServerMessage[]>(CHAT_PATHS.messages).catch(() => [] as ServerMessage[]);
    for (const m of msgs) if (m.status !== 'pending') this.#render(m);
    const pending = this.#state?.answering?.replyId;
    if (pending) {
      this.#setAnswering(pending);
      void this.#await(pending);
    }
  }

  async refreshState(): Promise<void> {
    this.#state = await this.#backend.request<ChatStateBody>(CHAT_PATHS.state).catch(() => null);
    this.#renderState();
  }

  #gate(): void {
    const gate = chatGateOf(this.#session);
    if (gate) throw new CommandError('NOT_PERMITTED', CHAT_GATE_TEXT[gate]);
  }

  /* ------------------------------------------------------------ commands */

  async ask(args: { message: string; newChat?: boolean }, ctx: { id: string }, source: 'host' | 'viewer' = 'host'): Promise<{ messageId: string }> {
    this.#gate();
    if (this.#answering) throw new CommandError('RATE_LIMITED', 'another question is being answered; wait for its chat.reply or call chat.cancel()');
    const res = await this.#backend.request<{ conversationId: string; question: ServerMessage; reply: ServerMessage }>(CHAT_PATHS.ask, {
      method: 'POST',
      body: { message: args.message, ...(args.newChat ? { newChat: true } : {}), source },
    }).catch(async (err: unknown) => {
      if (err instanceof CommandError && err.code === 'NOT_PERMITTED') void this.refreshState();
      throw err;
    });
    if (args.newChat && this.#list) this.#list.replaceChildren();
    if (this.#state) this.#state.conversationId = res.conversationId;
    this.#setAnswering(res.reply.id);
    if (!this.#open) this.#setOpen(true, source === 'host' ? ctx.id : undefined, 'chat.open');
    this.#render(res.question);
    this.#engine.emit('chat.question', { messageId: res.question.id, content: res.question.content, source });
    void this.#await(res.reply.id);
    return { messageId: res.question.id };
  }

  async messages(): Promise<ChatMessage[]> {
    this.#gate();
    const msgs = await this.#backend.request<ServerMessage[]>(CHAT_PATHS.messages);
    return msgs.filter((m) => m.status !== 'pending').map((m) => ({ id: m.id, role: m.role, content: m.content, isError: m.isError, ...(m.cancelled ? { cancelled: true } : {}) }));
  }

  async open(ctx: { id: string }): Promise<{ ok: true }> {
    this.#gate();
    if (!this.#open) this.#setOpen(true, ctx.id, 'chat.open');
    return { ok: true };
  }

  async close(ctx: { id: string }): Promise<{ ok: true }> {
    this.#gate();
    if (this.#open) this.#setOpen(false, ctx.id, 'chat.close');
    return { ok: true };
  }

  async newChat(ctx: { id: string }): Promise<{ ok: true }> {
    this.#gate();
    const r = await this.#backend.request<{ conversationId: string; cancelled: boolean }>(CHAT_PATHS.new, { method: 'POST', body: {} });
    if (this.#answering) this.#finish({ id: this.#answering, role: 'assistant', content: '', isError: false, status: 'cancelled', conversationId: '', cancelled: true }, false);
    if (this.#state) this.#state.conversationId = r.conversationId;
    this.#list?.replaceChildren();
    this.#engine.bump('chat.new', ctx.id, { dirty: false });
    return { ok: true };
  }

  async cancel(): Promise<{ cancelled: boolean }> {
    this.#gate();
    if (!this.#answering) return { cancelled: false };
    const r = await this.#backend.request<{ cancelled: boolean; reply?: ServerMessage }>(CHAT_PATHS.cancel, { method: 'POST', body: {} });
    if (r.cancelled && r.reply) await this.#finish(r.reply, true);
    return { cancelled: r.cancelled };
  }

  /* ------------------------------------------------------------ answers */

  async #await(replyId: string): Promise<void> {
    let failures = 0;
    while (!this.#finished.has(replyId) && !this.#engine.expired) {
      try {
        const m = await this.#backend.request<ServerMessage>(CHAT_PATHS.message(replyId, 20_000));
        failures = 0;
        if (m.status !== 'pending') return void (await this.#finish(m, true));
      } catch (err) {
        if (err instanceof CommandError && (err.code === 'SESSION_EXPIRED' || err.code === 'NOT_FOUND')) {
          if (err.code === 'NOT_FOUND') await this.#finish({ id: replyId, role: 'assistant', content: 'The answer was lost.', isError: true, status: 'error', conversationId: '' }, false);
          return;
        }
        if (++failures >= 5) return void (await this.#finish({ id: replyId, role: 'assistant', content: `The answer could not be fetched: ${err instanceof Error ? err.message : String(err)}`, isError: true, status: 'error', conversationId: '' }, false));
        await new Promise((r) => setTimeout(r, 1000 * failures));
      }
    }
  }

  /** Applies an answer once: its actions (through the command handlers), then the panel and `chat.reply`. */
  async #finish(m: ServerMessage, applyActions: boolean): Promise<void> {
    if (this.#finished.has(m.id)) return;
    this.#finished.add(m.id);
    if (this.#answering === m.id) this.#setAnswering(null);
    const cancelled = m.status === 'cancelled' || m.cancelled === true;
    if (applyActions && !cancelled) {
      for (const a of m.actions ?? []) {
        try {
          if (a.type === 'openView') await this.#engine.viewerCommand('views.open', { viewId: a.viewId });
          else if (a.operation === 'Color') await this.#engine.viewerCommand('layers.color', { attribute: a.attribute });
          else if (a.operation === 'Size') await this.#engine.viewerCommand('layers.size', { attribute: a.attribute });
          else if (a.values) await this.#engine.viewerCommand('layers.filter', { attribute: a.attribute, values: a.values });
          else await this.#engine.viewerCommand('layers.filter', { attribute: a.attribute, min: a.min, max: a.max });
        } catch (err) {
          this.#renderNote(`Could not apply: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    }
    this.#render({ ...m, ...(cancelled ? { cancelled: true } : {}) });
    this.#engine.emit('chat.reply', { messageId: m.id, content: m.content, isError: m.isError, ...(cancelled ? { cancelled: true } : {}) });
    void this.refreshState();
  }

  /* ------------------------------------------------------------ DOM */

  #setOpen(open: boolean, requestId: string | undefined, reason: string): void {
    this.#open = open;
    if (this.#panel) this.#panel.hidden = !open;
    this.#button?.setAttribute('aria-expanded', String(open));
    this.#engine.bump(reason, requestId, { dirty: false });
    if (open) this.#input?.focus();
  }

  #setAnswering(id: string | null): void {
    this.#answering = id;
    this.#panel?.classList.toggle('nl-chat-answering', id !== null);
    if (this.#stop) this.#stop.hidden = id === null;
    this.#renderState();
  }

  #buildDom(root: HTMLElement): void {
    const button = el('button', 'nl-chat-button', 'Ask');
    button.type = 'button';
    button.title = 'Ask about this network';
    button.setAttribute('aria-expanded', 'false');
    button.addEventListener('click', () => {
      void this.#engine.viewerCommand(this.#open ? 'chat.close' : 'chat.open').catch(() => undefined);
    });
    const panel = el('section', 'nl-chat-panel');
    panel.hidden = true;
    panel.setAttribute('aria-label', 'AI chat');
    const head = el('header', 'nl-chat-head');
    head.append(el('span', 'nl-chat-title', 'Ask about this network'));
    const newBtn = el('button', 'nl-chat-new', 'New');
    newBtn.type = 'button';
    newBtn.title = 'New conversation';
    newBtn.addEventListener('click', () => void this.#engine.viewerCommand('chat.new').catch((e: unknown) => this.#renderNote(String((e as Error).message ?? e))));
    const closeBtn = el('button', 'nl-chat-close', '×');
    closeBtn.type = 'button';
    closeBtn.title = 'Close';
    closeBtn.addEventListener('click', () => void this.#engine.viewerCommand('chat.close').catch(() => undefined));
    head.append(newBtn, closeBtn);
    const list = el('div', 'nl-chat-messages');
    list.setAttribute('aria-live', 'polite');
    const notice = el('div', 'nl-chat-notice');
    notice.hidden = true;
    const presets = el('div', 'nl-chat-presets');
    // No <form>: the sandbox (no allow-forms) blocks form submission, its submit event included.
    const form = el('div', 'nl-chat-form');
    const input = el('textarea', 'nl-chat-input');
    input.rows = 2;
    input.maxLength = 4000;
    input.placeholder = 'Ask a question about the network…';
    input.setAttribute('aria-label', 'Question');
    const send = el('button', 'nl-chat-send', 'Send');
    send.type = 'button';
    const stop = el('button', 'nl-chat-stop', 'Stop');
    stop.type = 'button';
    stop.hidden = true;
    stop.addEventListener('click', () => void this.#engine.viewerCommand('chat.cancel').catch(() => undefined));
    const submit = () => {
      const text = input.value.trim();
      if (!text || send.disabled) return;
      void this.#viewerAsk(text).then((ok) => {
        if (ok) input.value = '';
      });
    };
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey) {
        e.preventDefault();
        submit();
      }
    });
    send.addEventListener('click', submit);
    form.append(input, send, stop);
    panel.append(head, list, notice, presets, form);
    root.append(button, panel);
    this.#button = button;
    this.#panel = panel;
    this.#list = list;
    this.#presets = presets;
    this.#input = input;
    this.#send = send;
    this.#stop = stop;
    this.#notice = notice;
  }

  /** A question typed (or a preset clicked) in the panel. */
  async #viewerAsk(text: string): Promise<boolean> {
    try {
      await this.ask({ message: text }, { id: `viewer-chat-${Date.now().toString(36)}` }, 'viewer');
      return true;
    } catch (err) {
      this.#renderNote(err instanceof Error ? err.message : String(err));
      return false;
    }
  }

  #renderState(): void {
    if (!this.#panel) return;
    const s = this.#state;
    const presetOnly = s?.chatAccess === 'presetOnly';
    const form = this.#panel.querySelector<HTMLElement>('.nl-chat-form');
    if (this.#input) this.#input.hidden = presetOnly;
    if (this.#send) {
      this.#send.hidden = presetOnly;
      this.#send.disabled = this.#answering !== null || (s !== null && !s.available);
    }
    if (form) form.classList.toggle('nl-chat-preset-only', presetOnly);
    if (this.#notice) {
      this.#notice.hidden = !s || s.available;
      this.#notice.textContent = s && !s.available ? `AI chat is unavailable: ${s.message ?? s.reason}.` : '';
    }
    if (this.#presets) {
      this.#presets.replaceChildren();
      for (const q of s?.presetQuestions ?? []) {
        const b = el('button', 'nl-chat-preset', q);
        b.type = 'button';
        b.disabled = this.#answering !== null || (s !== null && !s.available);
        b.addEventListener('click', () => void this.#viewerAsk(q));
        this.#presets.append(b);
      }
      this.#presets.hidden = !presetOnly && (this.#list?.childElementCount ?? 0) > 0;
    }
  }

  #render(m: ServerMessage): void {
    if (!this.#list) return;
    const item = el('div', `nl-chat-msg nl-chat-${m.role}${m.isError ? ' nl-chat-error' : ''}${m.cancelled ? ' nl-chat-cancelled' : ''}`);
    item.dataset.messageId = m.id;
    if (m.role === 'user') item.textContent = m.content;
    else if (m.cancelled) item.textContent = '(answer stopped)';
    else renderMarkdown(m.content, item);
    this.#list.append(item);
    this.#list.scrollTop = this.#list.scrollHeight;
    this.#renderState();
  }

  #renderNote(text: string): void {
    if (!this.#list) return;
    const n = el('div', 'nl-chat-msg nl-chat-note', text);
    this.#list.append(n);
    this.#list.scrollTop = this.#list.scrollHeight;
  }
}
