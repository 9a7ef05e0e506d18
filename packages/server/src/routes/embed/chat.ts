/**
 * AI chat settings of organization admins (organization credential with embed:manage):
 *   GET/PUT /api/v2/embed/chat                          { aiChat } the organization's switch (default on); allowance shown read-only
 *   GET/PUT /api/v2/embed/networks/:networkId/chat      { presetQuestions } of a network (null: the default set from its attributes)
 * The monthly allowance (`aiQuestionsPerMonth`) is the service operator's lever (operator limits, CLI).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { EmbedContext } from '../../domain/embed-context.ts';
import { chatSettings, networkPresets, setAiChat, setNetworkPresets } from '../../domain/embed-chat-settings.ts';
import { orgCredential } from './context.ts';

const auth = { resource: 'embed', action: 'manage' } as const;
const tags = ['embedding'];

export function chatSettingsRoutes(app: FastifyInstance, ctx: EmbedContext): void {
  app.get('/api/v2/embed/chat', { config: { auth }, schema: { summary: "The organization's AI chat switch and monthly allowance", tags } }, async (request) => chatSettings(ctx, orgCredential(request).orgId));

  app.put(
    '/api/v2/embed/chat',
    { config: { auth }, schema: { summary: "Switch the organization's AI chat on or off", tags, body: Type.Object({ aiChat: Type.Boolean() }, { additionalProperties: false }) } },
    async (request) => {
      const { orgId, actor } = orgCredential(request);
      return setAiChat(ctx, orgId, actor, (request.body as { aiChat: boolean }).aiChat);
    },
  );

  app.get(
    '/api/v2/embed/networks/:networkId/chat',
    { config: { auth }, schema: { summary: "A network's preset chat questions (the default set until admins set their own)", tags, params: Type.Object({ networkId: Type.String({ maxLength: 100 }) }) } },
    async (request) => networkPresets(ctx, orgCredential(request).orgId, (request.params as { networkId: string }).networkId),
  );

  app.put(
    '/api/v2/embed/networks/:networkId/chat',
    {
      config: { auth },
      schema: { summary: "Set a network's preset chat questions (1–20, ≤ 500 characters each; null: back to the default set)", tags, params: Type.Object({ networkId: Type.String({ maxLength: 100 }) }) },
    },
    async (request) => {
      const { orgId, actor } = orgCredential(request);
      return setNetworkPresets(ctx, orgId, actor, (request.params as { networkId: string }).networkId, request.body);
    },
  );
}
