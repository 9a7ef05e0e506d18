/**
 * AI chat settings of organization admins (organization credential with embed:manage):
 *   GET/PUT /api/v2/embed/chat                          { aiChat } the organization's switch (default on); allowance shown read-only
 *   GET/PUT /api/v2/embed/networks/:networkId/chat      { presetQuestions } of a network (null: the default set from its attributes)
 * The monthly allowance (`aiQuestionsPerMonth`) is the service operator's lever (operator limits, CLI).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { EmbedContext } from '../../domain/embed-context.ts';
import { audit, limitsOf, requireEnabled } from '../../domain/embed-context.ts';
import { isOrgNetwork } from '../../domain/embed-settings.ts';
import { parsePresetQuestions, presetQuestions } from '../../domain/embed-chat.ts';
import { DomainError } from '../../domain/errors.ts';
import { getEmbedSettings } from '../../store/embed-settings.ts';
import { countQuestionsSince, getAiChatSwitch, setAiChatSwitch, setPresetQuestions } from '../../store/embed-chat.ts';
import { orgCredential } from './context.ts';

const auth = { resource: 'embed', action: 'manage' } as const;
const tags = ['embedding'];

async function chatSettings(ctx: EmbedContext, orgId: string) {
  const d = new Date(ctx.now());
  const start = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)).toISOString();
  const next = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString();
  return {
    aiChat: await getAiChatSwitch(ctx.db, orgId),
    allowance: { limit: limitsOf(ctx, await getEmbedSettings(ctx.db, orgId)).aiQuestionsPerMonth, used: await countQuestionsSince(ctx.db, orgId, start), resetsAt: next },
  };
}

export function chatSettingsRoutes(app: FastifyInstance, ctx: EmbedContext): void {
  app.get('/api/v2/embed/chat', { config: { auth }, schema: { summary: "The organization's AI chat switch and monthly allowance", tags } }, async (request) => chatSettings(ctx, orgCredential(request).orgId));

  app.put(
    '/api/v2/embed/chat',
    { config: { auth }, schema: { summary: "Switch the organization's AI chat on or off", tags, body: Type.Object({ aiChat: Type.Boolean() }, { additionalProperties: false }) } },
    async (request) => {
      const { orgId, actor } = orgCredential(request);
      await requireEnabled(ctx, orgId);
      const { aiChat } = request.body as { aiChat: boolean };
      await setAiChatSwitch(ctx.db, orgId, aiChat, new Date(ctx.now()).toISOString());
      await audit(ctx, orgId, actor, 'chat.settings', null, { aiChat });
      return chatSettings(ctx, orgId);
    },
  );

  const networkOf = async (orgId: string, networkId: string) => {
    if (!(await isOrgNetwork(ctx.db, orgId, networkId))) throw new DomainError('NOT_FOUND', `no network ${JSON.stringify(networkId)} owned by a member of this organization`);
  };

  app.get(
    '/api/v2/embed/networks/:networkId/chat',
    { config: { auth }, schema: { summary: "A network's preset chat questions (the default set until admins set their own)", tags, params: Type.Object({ networkId: Type.String({ maxLength: 100 }) }) } },
    async (request) => {
      const { orgId } = orgCredential(request);
      const { networkId } = request.params as { networkId: string };
      await networkOf(orgId, networkId);
      const p = await presetQuestions(ctx, networkId);
      return { networkId, presetQuestions: p.questions, custom: p.custom };
    },
  );

  app.put(
    '/api/v2/embed/networks/:networkId/chat',
    {
      config: { auth },
      schema: { summary: "Set a network's preset chat questions (1–20, ≤ 500 characters each; null: back to the default set)", tags, params: Type.Object({ networkId: Type.String({ maxLength: 100 }) }) },
    },
    async (request) => {
      const { orgId, actor } = orgCredential(request);
      await requireEnabled(ctx, orgId);
      const { networkId } = request.params as { networkId: string };
      await networkOf(orgId, networkId);
      const body = request.body as Record<string, unknown> | undefined;
      if (typeof body !== 'object' || body === null || Array.isArray(body) || !('presetQuestions' in body) || Object.keys(body).length !== 1) {
        throw new DomainError('INVALID_ARGS', 'body must be { presetQuestions: [String] | null }', [{ path: '', message: 'must be { presetQuestions }' }]);
      }
      const questions = parsePresetQuestions(body.presetQuestions);
      await setPresetQuestions(ctx.db, orgId, networkId, questions, new Date(ctx.now()).toISOString());
      await audit(ctx, orgId, actor, 'chat.presets', networkId, { count: questions?.length ?? null });
      const p = await presetQuestions(ctx, networkId);
      return { networkId, presetQuestions: p.questions, custom: p.custom };
    },
  );
}
