/**
 * AI chat of embedded sessions (issue 5 item 5; docs/spec/api.md "Embedded viewer SDK" rule 4, docs/spec/decisions.md §5).
 *
 * Gates, in this order, each a 403 CHAT_NOT_PERMITTED whose detail says why (the SDK's NOT_PERMITTED
 * message): the session's `ui.aiChat` is false; the managed user's `chatAccess` is `off`; the
 * organization's AI chat switch is off; (asking) a `presetOnly` user's question is not one of the
 * network's preset questions; the organization's monthly AI allowance is spent.
 * One question at a time per session: the per-session lease of the ephemeral store (the one metrics
 * use, key `session:<id>:chat`) is held from the question until its answer is finished or cancelled;
 * a second question meanwhile is 429 RATE_LIMITED.
 * Allowance: `aiQuestionsPerMonth` (operator limit, 1,000 by default) questions per organization per
 * calendar month (UTC). Every accepted question counts from the moment it is asked (so a question in
 * progress counts), also when its answer is cancelled or fails. Decided by rank: the question is stored,
 * then accepted only if it is among the first `limit` of the month (ordered by time and id), so
 * concurrent questions on several instances cannot overshoot (a refused one is deleted again).
 * Answers are computed in the background by the assistant (domain/embedding/assistant); the question's HTTP call
 * returns at once (202) with the id of the pending answer, which the viewer waits for (long poll).
 * Cancel marks the pending answer `cancelled` (a conditional update, so it works from any instance) and
 * aborts it if it runs here; a late result is then dropped.
 */
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { NetworkJSON } from '@netloom/engine';
import { LIMITS, type ChatUnavailableReason } from '@netloom/protocol';
import { DomainError, invalidArgs } from '../errors.ts';
import { audit, sessionActor, limitsOf, RateLimitedError, type EmbedContext } from './context.ts';
import type { LiveSession } from './sessions.ts';
import { defaultPresetQuestions, ProviderError, type Assistant, type AssistantAction, type MetricValues } from './assistant/index.ts';
import { getNetwork, getNetworkJSONGzip, getNetworkVersion } from '../../store/networks.ts';
import { listViews } from '../../store/embed-views.ts';
import {
  countQuestionsSince, currentConversation, deleteMessages, finishReply, getAiChatSwitch, getMessage, getPresetQuestions,
  insertConversation, insertMessage, listConversationIds, listMessages, pendingReply, questionIdsSince, type ChatMessageRecord,
} from '../../store/embed-chat.ts';

const gunzipAsync = promisify(gunzip);

/** A question's length limit: the SDK, the viewer and the server share it (@netloom/protocol LIMITS). */
export const CHAT_MAX_CHARS = LIMITS.chatMaxChars;
export const MAX_PRESETS = 20;
export const PRESET_MAX_CHARS = 500;
export const MAX_WAIT_MS = 25_000;

/** Runs an engine metric on a stored network (the routes pass the metric worker pool). */
export type ComputeFn = (metric: string, params: Record<string, unknown>, network: { text: Uint8Array; directed: boolean; nodeCount: number }, signal: AbortSignal) => Promise<MetricValues>;

export interface ChatDeps {
  ctx: EmbedContext;
  assistant: Assistant;
  compute: ComputeFn;
  /** Logs failures of background answers (never message content). */
  logError(err: unknown, facts: Record<string, unknown>): void;
}

/** Answers running in this process, by session: aborted on cancel. */
const running = new Map<string, { replyId: string; controller: AbortController }>();

let seq = 0;
/** Message/conversation ids sort by time: 12 hex of ms, 4 hex of an in-process counter, 8 random hex. */
function chatId(now: number): string {
  seq = (seq + 1) & 0xffff;
  return now.toString(16).padStart(12, '0') + seq.toString(16).padStart(4, '0') + randomBytes(4).toString('hex');
}

function monthStart(now: number): { start: string; next: string } {
  const d = new Date(now);
  return {
    start: new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)).toISOString(),
    next: new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString(),
  };
}

const lockKey = (sessionId: string) => `session:${sessionId}:chat`;

/* ---------------------------------------------------------------- network cache */

const networkCache = new Map<string, { json: NetworkJSON; text: Uint8Array }>();

async function loadNetwork(ctx: EmbedContext, networkId: string): Promise<{ json: NetworkJSON; text: Uint8Array; version: number }> {
  const stored = await getNetworkJSONGzip(ctx.db, networkId);
  if (!stored) throw new DomainError('NOT_FOUND', 'the network no longer exists');
  const key = `${networkId}:${stored.version}`;
  let hit = networkCache.get(key);
  if (!hit) {
    const text = new Uint8Array(await gunzipAsync(stored.gz));
    hit = { json: JSON.parse(Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString('utf8')) as NetworkJSON, text };
    networkCache.set(key, hit);
    while (networkCache.size > 8) networkCache.delete(networkCache.keys().next().value as string);
  }
  return { ...hit, version: stored.version };
}

/* ---------------------------------------------------------------- gates */

export type { ChatUnavailableReason };

export interface Allowance {
  limit: number;
  used: number;
  resetsAt: string;
}

export async function allowanceOf(ctx: EmbedContext, live: LiveSession): Promise<Allowance> {
  const m = monthStart(ctx.now());
  return { limit: limitsOf(ctx, live.settings).aiQuestionsPerMonth, used: await countQuestionsSince(ctx.db, live.session.org_id, m.start), resetsAt: m.next };
}

const REASON_TEXT: Record<ChatUnavailableReason, string> = {
  'hidden': 'AI chat is hidden for this session (ui.aiChat is false)',
  'chat-access-off': 'this viewer has no AI chat (chatAccess is off)',
  'organization-off': 'AI chat is switched off for this organization',
  'allowance-spent': "the organization's AI allowance for this month is spent",
};

function refuse(reason: ChatUnavailableReason, extra = ''): never {
  throw new DomainError('CHAT_NOT_PERMITTED', REASON_TEXT[reason] + extra);
}

/** Why chat is unavailable to this session (allowance included), or null. */
export async function unavailableReason(ctx: EmbedContext, live: LiveSession, allowance?: Allowance): Promise<ChatUnavailableReason | null> {
  if (!live.ui.aiChat) return 'hidden';
  if (live.user.chat_access === 'off') return 'chat-access-off';
  if (!(await getAiChatSwitch(ctx.db, live.session.org_id))) return 'organization-off';
  const a = allowance ?? (await allowanceOf(ctx, live));
  if (a.used >= a.limit) return 'allowance-spent';
  return null;
}

/** Throws CHAT_NOT_PERMITTED unless chat is open to this session (the allowance is checked by ask). */
async function requireChat(ctx: EmbedContext, live: LiveSession): Promise<void> {
  if (!live.ui.aiChat) refuse('hidden');
  if (live.user.chat_access === 'off') refuse('chat-access-off');
  if (!(await getAiChatSwitch(ctx.db, live.session.org_id))) refuse('organization-off');
}

/* ---------------------------------------------------------------- presets */

function normQuestion(s: string): string {
  return s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim().replace(/[?.!]+$/, '');
}

/** The network's preset questions: those set by organization admins, else the default set. */
export async function presetQuestions(ctx: EmbedContext, networkId: string): Promise<{ questions: string[]; custom: boolean }> {
  const set = await getPresetQuestions(ctx.db, networkId);
  if (set) return { questions: set, custom: true };
  // Every viewer open asks for them: the default set is derived from the network's attributes once per
  // stored version (reading and parsing a 100k-node network took the event loop 0.5–6 s per open).
  const version = await getNetworkVersion(ctx.db, networkId);
  const cached = version === null ? undefined : defaultPresetCache.get(`${networkId}:${version}`);
  if (cached) return { questions: cached, custom: false };
  const loaded = await loadNetwork(ctx, networkId);
  const questions = defaultPresetQuestions(loaded.json);
  defaultPresetCache.set(`${networkId}:${loaded.version}`, questions);
  while (defaultPresetCache.size > 256) defaultPresetCache.delete(defaultPresetCache.keys().next().value as string);
  return { questions, custom: false };
}

/** Default preset questions by `networkId:version` (a changed network has a new version, so a new entry). */
const defaultPresetCache = new Map<string, string[]>();

/** Validates a preset list set by organization admins: 1..20 distinct non-empty questions ≤ 500 characters, or null (back to the default set). */
export function parsePresetQuestions(value: unknown): string[] | null {
  if (value === null) return null;
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_PRESETS) {
    throw new DomainError('INVALID_ARGS', `presetQuestions: must be an array of 1 to ${MAX_PRESETS} questions, or null for the default set`, [{ path: '/presetQuestions', message: `must be an array of 1 to ${MAX_PRESETS} questions, or null` }]);
  }
  const out: string[] = [];
  const problems: { path: string; message: string }[] = [];
  value.forEach((q, i) => {
    if (typeof q !== 'string' || q.trim() === '' || q.length > PRESET_MAX_CHARS) problems.push({ path: `/presetQuestions/${i}`, message: `must be a non-empty String of at most ${PRESET_MAX_CHARS} characters` });
    else if (!out.some((o) => normQuestion(o) === normQuestion(q))) out.push(q.trim());
  });
  if (problems.length) throw invalidArgs(problems);
  return out;
}

/* ---------------------------------------------------------------- presentation */

export interface ChatMessageView {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  isError: boolean;
  conversationId: string;
  status: string;
  created: string;
  source?: 'host' | 'viewer';
  replyTo?: string;
  cancelled?: boolean;
  actions?: AssistantAction[];
}

export function presentMessage(m: ChatMessageRecord): ChatMessageView {
  return {
    id: m.id,
    role: m.role,
    content: m.content,
    isError: m.is_error === 1,
    conversationId: m.conversation_id,
    status: m.status,
    created: m.created,
    ...(m.role === 'user' ? { source: m.source === 'host' ? ('host' as const) : ('viewer' as const) } : { replyTo: m.reply_to ?? undefined, actions: JSON.parse(m.actions) as AssistantAction[] }),
    ...(m.status === 'cancelled' ? { cancelled: true } : {}),
  };
}

/* ---------------------------------------------------------------- state, messages */

export async function chatState(ctx: EmbedContext, live: LiveSession) {
  const allowance = await allowanceOf(ctx, live);
  const reason = await unavailableReason(ctx, live, allowance);
  const showPresets = live.ui.aiChat && live.user.chat_access !== 'off';
  const pending = await pendingReply(ctx.db, live.session.id);
  return {
    available: reason === null,
    reason,
    message: reason ? REASON_TEXT[reason] : null,
    chatAccess: live.user.chat_access,
    presetQuestions: showPresets ? (await presetQuestions(ctx, live.session.network_id)).questions : [],
    conversationId: await currentConversation(ctx.db, live.session.id),
    answering: pending ? { replyId: pending.id, replyTo: pending.reply_to } : null,
    allowance,
    assistant: null as string | null,
  };
}

export async function chatMessages(ctx: EmbedContext, live: LiveSession, conversation: string | undefined): Promise<ChatMessageView[]> {
  await requireChat(ctx, live);
  let ids: string[];
  if (conversation === 'all') ids = await listConversationIds(ctx.db, live.session.id);
  else if (conversation) {
    ids = (await listConversationIds(ctx.db, live.session.id)).filter((c) => c === conversation);
    if (ids.length === 0) throw new DomainError('NOT_FOUND', `no conversation ${JSON.stringify(conversation)} in this session`);
  } else {
    const cur = await currentConversation(ctx.db, live.session.id);
    ids = cur ? [cur] : [];
  }
  return (await listMessages(ctx.db, ids)).map(presentMessage);
}

/** One message of the session; with `waitMs`, waits (polling the database) while it is a pending answer. */
export async function chatMessage(ctx: EmbedContext, live: LiveSession, id: string, waitMs: number): Promise<ChatMessageView> {
  const deadline = Date.now() + Math.min(Math.max(0, waitMs), MAX_WAIT_MS);
  for (;;) {
    const m = await getMessage(ctx.db, id);
    if (!m || m.session_id !== live.session.id) throw new DomainError('NOT_FOUND', `no chat message ${JSON.stringify(id)} in this session`);
    if (m.status !== 'pending' || Date.now() >= deadline) return presentMessage(m);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/* ---------------------------------------------------------------- ask, cancel, new */

export interface AskInput {
  message: string;
  newChat?: boolean;
  source?: 'host' | 'viewer';
}

export function parseAsk(body: unknown): AskInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new DomainError('INVALID_ARGS', 'body must be an object { message, newChat?, source? }');
  const b = body as Record<string, unknown>;
  const problems: { path: string; message: string }[] = [];
  for (const k of Object.keys(b)) if (!['message', 'newChat', 'source'].includes(k)) problems.push({ path: `/${k}`, message: 'is not a field (fields: message, newChat, source)' });
  if (typeof b.message !== 'string' || b.message.trim() === '') problems.push({ path: '/message', message: 'must be a non-empty String' });
  else if (b.message.length > CHAT_MAX_CHARS) problems.push({ path: '/message', message: `must have at most ${CHAT_MAX_CHARS} characters` });
  if (b.newChat !== undefined && typeof b.newChat !== 'boolean') problems.push({ path: '/newChat', message: 'must be a Boolean' });
  if (b.source !== undefined && b.source !== 'host' && b.source !== 'viewer') problems.push({ path: '/source', message: 'must be host or viewer' });
  if (problems.length) throw invalidArgs(problems);
  return { message: b.message as string, newChat: b.newChat as boolean | undefined, source: (b.source as 'host' | 'viewer' | undefined) ?? 'viewer' };
}

async function newConversationId(ctx: EmbedContext, sessionId: string): Promise<string> {
  const id = chatId(ctx.now());
  await insertConversation(ctx.db, id, sessionId, new Date(ctx.now()).toISOString());
  return id;
}

export async function askQuestion(deps: ChatDeps, live: LiveSession, body: unknown) {
  const { ctx } = deps;
  const input = parseAsk(body);
  await requireChat(ctx, live);
  let preset = false;
  if (live.user.chat_access === 'presetOnly') {
    const { questions } = await presetQuestions(ctx, live.session.network_id);
    preset = questions.some((q) => normQuestion(q) === normQuestion(input.message));
    if (!preset) throw new DomainError('CHAT_NOT_PERMITTED', `this viewer may only ask the network's preset questions (chatAccess is presetOnly): ${questions.map((q) => JSON.stringify(q)).join(', ')}`);
  }
  const limit = limitsOf(ctx, live.settings).aiQuestionsPerMonth;
  const month = monthStart(ctx.now());
  if ((await countQuestionsSince(ctx.db, live.session.org_id, month.start)) >= limit) refuse('allowance-spent', ` (${limit} questions; it renews on ${month.next.slice(0, 10)})`);

  const sessionId = live.session.id;
  if (!(await ctx.state.acquire(lockKey(sessionId), ctx.config.ai.timeoutMs + 15_000, ctx.now()))) {
    throw new RateLimitedError('one AI chat question at a time per session; another one is being answered', 2);
  }
  let handedOff = false;
  try {
    let conversationId = input.newChat ? null : await currentConversation(ctx.db, sessionId);
    conversationId ??= await newConversationId(ctx, sessionId);
    const now = ctx.now();
    const at = new Date(now).toISOString();
    const question: ChatMessageRecord = {
      id: chatId(now), org_id: live.session.org_id, session_id: sessionId, conversation_id: conversationId, role: 'user', content: input.message,
      is_error: 0, status: 'asked', source: input.source ?? 'viewer', reply_to: null, actions: '[]', created: at, finished: at,
    };
    await insertMessage(ctx.db, question);
    // The allowance by rank (see the header): only the first `limit` questions of the month are accepted.
    const rank = (await questionIdsSince(ctx.db, live.session.org_id, month.start)).indexOf(question.id);
    if (rank < 0 || rank >= limit) {
      await deleteMessages(ctx.db, [question.id]);
      refuse('allowance-spent', ` (${limit} questions; it renews on ${month.next.slice(0, 10)})`);
    }
    const reply: ChatMessageRecord = {
      id: chatId(now), org_id: live.session.org_id, session_id: sessionId, conversation_id: conversationId, role: 'assistant', content: '',
      is_error: 0, status: 'pending', source: null, reply_to: question.id, actions: '[]', created: at, finished: null,
    };
    await insertMessage(ctx.db, reply);
    await audit(ctx, live.session.org_id, sessionActor(live.session), 'chat.ask', live.user.external_id, {
      sessionId, networkId: live.session.network_id, conversationId, messageId: question.id, source: question.source, chars: input.message.length, ...(preset ? { preset: true } : {}),
    });
    handedOff = true;
    void answerInBackground(deps, live, question, reply);
    return { conversationId, question: presentMessage(question), reply: presentMessage(reply) };
  } finally {
    if (!handedOff) await ctx.state.release(lockKey(sessionId));
  }
}

async function answerInBackground(deps: ChatDeps, live: LiveSession, question: ChatMessageRecord, reply: ChatMessageRecord): Promise<void> {
  const { ctx } = deps;
  const sessionId = live.session.id;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('time limit')), ctx.config.ai.timeoutMs);
  running.set(sessionId, { replyId: reply.id, controller });
  let patch: Parameters<typeof finishReply>[2];
  try {
    const [net, network, views, history] = await Promise.all([
      getNetwork(ctx.db, live.session.network_id),
      loadNetwork(ctx, live.session.network_id),
      listViews(ctx.db, live.session.network_id),
      listMessages(ctx.db, [question.conversation_id]),
    ]);
    const directed = net?.is_directed === 1;
    const answer = await deps.assistant.answer({
      question: question.content,
      history: history.filter((m) => m.id !== question.id && m.id !== reply.id && (m.status === 'asked' || m.status === 'done')).map((m) => ({ role: m.role, content: m.content })),
      network: { id: live.session.network_id, name: net?.name ?? '', description: net?.description ?? '', directed, json: network.json },
      views: views.map((v) => ({ id: v.id, name: v.name, description: v.description })),
      compute: (metric, params = {}) => deps.compute(metric, params, { text: network.text, directed, nodeCount: network.json.nodes.length }, controller.signal),
      signal: controller.signal,
    });
    patch = { content: answer.content, is_error: 0, status: 'done', actions: JSON.stringify(answer.actions), finished: new Date(ctx.now()).toISOString() };
  } catch (err) {
    const timedOut = controller.signal.aborted && (controller.signal.reason as Error | undefined)?.message === 'time limit';
    if (!timedOut) deps.logError(err, { sessionId, messageId: reply.id });
    const why = timedOut ? 'the answer took too long and was stopped' : err instanceof ProviderError ? err.message : 'the assistant failed to answer';
    patch = { content: `Sorry — ${why}. Please try again.`, is_error: 1, status: 'error', actions: '[]', finished: new Date(ctx.now()).toISOString() };
  } finally {
    clearTimeout(timer);
    if (running.get(sessionId)?.replyId === reply.id) running.delete(sessionId);
  }
  try {
    // Only the one who finishes a pending answer releases the lease (a cancel did both already).
    if (await finishReply(ctx.db, reply.id, patch)) await ctx.state.release(lockKey(sessionId));
  } catch (err) {
    deps.logError(err, { sessionId, messageId: reply.id });
  }
}

/** Stops the answer in progress: `{ cancelled: false }` when none was. */
export async function cancelAnswer(ctx: EmbedContext, live: LiveSession): Promise<{ cancelled: boolean; reply?: ChatMessageView }> {
  await requireChat(ctx, live);
  const pending = await pendingReply(ctx.db, live.session.id);
  if (!pending) return { cancelled: false };
  const done = await finishReply(ctx.db, pending.id, { content: '', is_error: 0, status: 'cancelled', actions: '[]', finished: new Date(ctx.now()).toISOString() });
  if (!done) return { cancelled: false };
  const r = running.get(live.session.id);
  if (r?.replyId === pending.id) r.controller.abort(new Error('cancelled'));
  await ctx.state.release(lockKey(live.session.id));
  await audit(ctx, live.session.org_id, sessionActor(live.session), 'chat.cancel', live.user.external_id, { sessionId: live.session.id, messageId: pending.id });
  return { cancelled: true, reply: presentMessage((await getMessage(ctx.db, pending.id))!) };
}

/** Starts a new conversation (stopping an answer in progress); the current one is kept when still empty. */
export async function newConversation(ctx: EmbedContext, live: LiveSession): Promise<{ conversationId: string; cancelled: boolean }> {
  await requireChat(ctx, live);
  const { cancelled } = await cancelAnswer(ctx, live);
  const cur = await currentConversation(ctx.db, live.session.id);
  if (cur && (await listMessages(ctx.db, [cur])).length === 0) return { conversationId: cur, cancelled };
  return { conversationId: await newConversationId(ctx, live.session.id), cancelled };
}
