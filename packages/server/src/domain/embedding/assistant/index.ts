/** The assistant of the AI chat: OpenAI-compatible when NETLOOM_AI_BASE_URL is set, else the offline one. */
import type { AiConfig } from '../../../config.ts';
import { OfflineAssistant } from './offline.ts';
import { OpenAiCompatibleAssistant } from './openai.ts';
import type { Assistant } from './types.ts';

export type { Assistant, AssistantAction, AssistantAnswer, AssistantInput, MetricValues } from './types.ts';
export { OfflineAssistant } from './offline.ts';
export { OpenAiCompatibleAssistant, ProviderError } from './openai.ts';
export { defaultPresetQuestions } from './facts.ts';

export function assistantFromConfig(ai: AiConfig): Assistant {
  if (ai.baseUrl) return new OpenAiCompatibleAssistant({ ...ai, baseUrl: ai.baseUrl });
  return new OfflineAssistant();
}
