/**
 * AI chat settings of organization admins (organization credential with embed:manage):
 *   GET/PUT /api/v2/embed/chat                          { aiChat } the organization's switch (default on); allowance shown read-only
 *   GET/PUT /api/v2/embed/networks/:networkId/chat      { presetQuestions } of a network (null: the default set from its attributes)
 * The monthly allowance (`aiQuestionsPerMonth`) is the service operator's lever (operator limits, CLI).
 */
import type { App } from '../../http/app-type.ts';
import { checkedByDomain } from '../../http/route-contract.ts';
import { ChatSettingsBodySchema, ChatSettingsSchema, PresetQuestionsBodySchema, PresetQuestionsSchema, problemResponses, ref } from '@netloom/protocol/http';
import { Type } from 'typebox';
import type { EmbedContext } from '../../domain/embedding/context.ts';
import { chatSettings, networkPresets, setAiChat, setNetworkPresets } from '../../domain/embedding/chat-settings.ts';
import { orgCredential } from './context.ts';

const auth = { resource: 'embed', action: 'manage' } as const;
const tags = ['embedding'];
const NetworkParams = Type.Object({ networkId: Type.String({ maxLength: 100 }) });

export function chatSettingsRoutes(app: App, ctx: EmbedContext): void {
  app.get('/api/v2/embed/chat', { config: { auth }, schema: { summary: "The organization's AI chat switch and monthly allowance", tags, response: { 200: ref(ChatSettingsSchema), ...problemResponses(403) } } }, async (request) => chatSettings(ctx, orgCredential(request).orgId));

  app.put(
    '/api/v2/embed/chat',
    { config: { auth }, schema: { summary: "Switch the organization's AI chat on or off", tags, body: ref(ChatSettingsBodySchema), response: { 200: ref(ChatSettingsSchema), ...problemResponses(403) } } },
    async (request) => {
      const { orgId, actor } = orgCredential(request);
      return setAiChat(ctx, orgId, actor, request.body.aiChat);
    },
  );

  app.get(
    '/api/v2/embed/networks/:networkId/chat',
    { config: { auth }, schema: { summary: "A network's preset chat questions (the default set until admins set their own)", tags, params: NetworkParams, response: { 200: ref(PresetQuestionsSchema), ...problemResponses(403, 404) } } },
    async (request) => networkPresets(ctx, orgCredential(request).orgId, request.params.networkId),
  );

  app.put(
    '/api/v2/embed/networks/:networkId/chat',
    {
      config: { auth },
      validatorCompiler: checkedByDomain,
      schema: {
        summary: "Set a network's preset chat questions (1–20, ≤ 500 characters each; null: back to the default set)",
        tags,
        params: NetworkParams,
        body: ref(PresetQuestionsBodySchema),
        response: { 200: ref(PresetQuestionsSchema), ...problemResponses(403, 404) },
      },
    },
    async (request) => {
      const { orgId, actor } = orgCredential(request);
      return setNetworkPresets(ctx, orgId, actor, request.params.networkId, request.body);
    },
  );
}
