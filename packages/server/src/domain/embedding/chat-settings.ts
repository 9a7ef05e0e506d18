/**
 * The organization's AI chat settings (docs/embedding-api.md, "AI chat"): the switch (default on), this
 * month's allowance (used / limit; the limit is the operator's lever) and each network's preset questions.
 * Used by the public API (`/api/v2/embed/chat`, organization credentials) and the organization console.
 */
import { audit, limitsOf, requireEnabled, type Actor, type EmbedContext } from './context.ts';
import { isOrgNetwork } from './settings.ts';
import { parsePresetQuestions, presetQuestions } from './chat.ts';
import { DomainError } from '../errors.ts';
import { getEmbedSettings } from '../../store/embed-settings.ts';
import { countQuestionsSince, getAiChatSwitch, setAiChatSwitch, setPresetQuestions } from '../../store/embed-chat.ts';

export interface ChatSettingsView {
  aiChat: boolean;
  allowance: { limit: number; used: number; resetsAt: string };
}

export async function chatSettings(ctx: EmbedContext, orgId: string): Promise<ChatSettingsView> {
  const d = new Date(ctx.now());
  const start = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)).toISOString();
  const next = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString();
  return {
    aiChat: await getAiChatSwitch(ctx.db, orgId),
    allowance: { limit: limitsOf(ctx, await getEmbedSettings(ctx.db, orgId)).aiQuestionsPerMonth, used: await countQuestionsSince(ctx.db, orgId, start), resetsAt: next },
  };
}

export async function setAiChat(ctx: EmbedContext, orgId: string, actor: Actor, aiChat: boolean): Promise<ChatSettingsView> {
  await requireEnabled(ctx, orgId);
  await setAiChatSwitch(ctx.db, orgId, aiChat, new Date(ctx.now()).toISOString());
  await audit(ctx, orgId, actor, 'chat.settings', null, { aiChat });
  return chatSettings(ctx, orgId);
}

async function requireOrgNetwork(ctx: EmbedContext, orgId: string, networkId: string): Promise<void> {
  if (!(await isOrgNetwork(ctx.db, orgId, networkId))) throw new DomainError('NOT_FOUND', `no network ${JSON.stringify(networkId)} owned by a member of this organization`);
}

export interface PresetQuestionsView {
  networkId: string;
  presetQuestions: string[];
  custom: boolean;
}

export async function networkPresets(ctx: EmbedContext, orgId: string, networkId: string): Promise<PresetQuestionsView> {
  await requireOrgNetwork(ctx, orgId, networkId);
  const p = await presetQuestions(ctx, networkId);
  return { networkId, presetQuestions: p.questions, custom: p.custom };
}

/** `body` must be `{ presetQuestions: [String] | null }` (null: back to the default set). */
export async function setNetworkPresets(ctx: EmbedContext, orgId: string, actor: Actor, networkId: string, body: unknown): Promise<PresetQuestionsView> {
  await requireEnabled(ctx, orgId);
  await requireOrgNetwork(ctx, orgId, networkId);
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('presetQuestions' in body) || Object.keys(body).length !== 1) {
    throw new DomainError('INVALID_ARGS', 'body must be { presetQuestions: [String] | null }', [{ path: '', message: 'must be { presetQuestions }' }]);
  }
  const questions = parsePresetQuestions((body as { presetQuestions: unknown }).presetQuestions);
  await setPresetQuestions(ctx.db, orgId, networkId, questions, new Date(ctx.now()).toISOString());
  await audit(ctx, orgId, actor, 'chat.presets', networkId, { count: questions?.length ?? null });
  const p = await presetQuestions(ctx, networkId);
  return { networkId, presetQuestions: p.questions, custom: p.custom };
}
