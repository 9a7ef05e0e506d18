/**
 * The viewer's AI chat (issue 5 item 5; rules in domain/embedding/chat.ts), with the access token:
 *   GET  /api/v2/embed/viewer/chat                     state: available?, why not, chatAccess, preset questions, current conversation, answer in progress, allowance
 *   GET  /api/v2/embed/viewer/chat/messages            [{ id, role, content, isError, … }] of the current conversation (?conversation=<id>|all)
 *   GET  /api/v2/embed/viewer/chat/messages/:id        one message; ?waitMs=… (≤ 25,000) waits while it is a pending answer
 *   POST /api/v2/embed/viewer/chat/ask                 { message ≤ 4,000, newChat?, source? } → 202 { conversationId, question, reply (pending) }
 *   POST /api/v2/embed/viewer/chat/cancel              stops the answer in progress → { cancelled, reply? }
 *   POST /api/v2/embed/viewer/chat/new                 starts a new conversation → { conversationId, cancelled }
 */
import type { App } from '../../http/app-type.ts';
import { checkedByDomain } from '../../http/route-contract.ts';
import { problemResponses, ref, ChatAskBodySchema, ChatAskedSchema, ChatCancelledSchema, ChatConversationSchema, ChatMessageSchema, ChatStateSchema } from '@netloom/protocol/http';
import { Type } from 'typebox';
import type { EmbedContext } from '../../domain/embedding/context.ts';
import { viewerOf } from './auth.ts';
import { askQuestion, cancelAnswer, chatMessage, chatMessages, chatState, newConversation, type ChatDeps } from '../../domain/embedding/chat.ts';
import { assistantFromConfig, type Assistant } from '../../domain/embedding/assistant/index.ts';
import { DomainError } from '../../domain/errors.ts';
import { chatCompute } from '../../domain/metrics/runs.ts';
import { metricRunDeps } from '../metrics/index.ts';

const skip = { auth: { skip: true } };
const tags = ['embedded viewer'];
const security = [{ viewerToken: [] }];
/** Missing/invalid access token (401), ended session (410). */
const viewerProblems = problemResponses(401, 410);
/** Chat refused (403 CHAT_NOT_PERMITTED). */
const chatProblems = problemResponses(401, 403, 410);

export function viewerChatRoutes(app: App, ctx: EmbedContext, opts: { assistant?: Assistant } = {}): void {
  const viewer = viewerOf;
  const assistant = opts.assistant ?? assistantFromConfig(ctx.config.ai);
  const deps: ChatDeps = {
    ctx,
    assistant,
    compute: chatCompute(metricRunDeps(app)), // engine metrics through the pool, never written back
    logError: (err, facts) => app.log.warn({ err: { message: err instanceof Error ? err.message : String(err) }, ...facts }, 'AI chat answer failed'),
  };

  app.get('/api/v2/embed/viewer/chat', { config: skip, schema: { summary: 'AI chat state of the session (availability, preset questions, conversation, allowance)', tags, security, response: { 200: ref(ChatStateSchema), ...viewerProblems } } }, async (request) => {
    const state = await chatState(ctx, await viewer(request));
    return { ...state, assistant: assistant.name };
  });

  app.get(
    '/api/v2/embed/viewer/chat/messages',
    {
      config: skip,
      schema: {
        summary: 'Messages of the current conversation (or ?conversation=<id>|all)',
        tags,
        security,
        querystring: Type.Object({ conversation: Type.Optional(Type.String({ maxLength: 100, description: 'A conversation id, or `all`; default the current one.' })) }, { additionalProperties: false }),
        response: { 200: Type.Array(ref(ChatMessageSchema)), ...chatProblems, ...problemResponses(404) },
      },
    },
    async (request) => chatMessages(ctx, await viewer(request), request.query.conversation),
  );

  app.get(
    '/api/v2/embed/viewer/chat/messages/:messageId',
    {
      config: skip,
      schema: {
        summary: 'One chat message; waits up to waitMs (≤ 25,000) while it is an answer in progress',
        tags,
        security,
        params: Type.Object({ messageId: Type.String({ maxLength: 100 }) }),
        querystring: Type.Object({ waitMs: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$' })) }, { additionalProperties: false }),
        response: { 200: ref(ChatMessageSchema), ...viewerProblems, ...problemResponses(404) },
      },
    },
    async (request) => {
      const live = await viewer(request);
      return chatMessage(ctx, live, request.params.messageId, Number(request.query.waitMs ?? 0));
    },
  );

  app.post('/api/v2/embed/viewer/chat/ask', {
      config: skip,
      validatorCompiler: checkedByDomain,
      schema: { summary: 'Ask a question (≤ 4,000 characters); 202 with the pending answer', tags, security, body: ref(ChatAskBodySchema), response: { 202: ref(ChatAskedSchema), ...chatProblems, ...problemResponses(429) } },
    }, async (request, reply) => {
    const live = await viewer(request);
    if (request.body === undefined) throw new DomainError('INVALID_ARGS', 'body must be an object { message, newChat?, source? }');
    return reply.code(202).send(await askQuestion(deps, live, request.body));
  });

  app.post('/api/v2/embed/viewer/chat/cancel', { config: skip, schema: { summary: 'Stop the answer in progress', tags, security, response: { 200: ref(ChatCancelledSchema), ...viewerProblems } } }, async (request) => cancelAnswer(ctx, await viewer(request)));

  app.post('/api/v2/embed/viewer/chat/new', { config: skip, schema: { summary: 'Start a new conversation', tags, security, response: { 200: ref(ChatConversationSchema), ...viewerProblems } } }, async (request) => newConversation(ctx, await viewer(request)));
}
