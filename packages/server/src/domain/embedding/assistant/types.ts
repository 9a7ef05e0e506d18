/**
 * The AI chat's assistant interface (issue 5 item 5). An assistant answers one question about the
 * session's network, in Markdown, and may propose actions the viewer applies through its command engine
 * (so they bump `revision` and raise `state.changed`). Implementations: the built-in offline assistant
 * (offline.ts, deterministic, answers from the network itself) and an OpenAI-compatible provider
 * (openai.ts, configured by NETLOOM_AI_BASE_URL / NETLOOM_AI_API_KEY / NETLOOM_AI_MODEL).
 */
import type { NetworkJSON } from '@netloom/engine';

/** What the viewer does for an assistant: add a layer (like layers.color/size/filter) or open a saved view. */
export type AssistantAction =
  | { type: 'layer'; operation: 'Color' | 'Size'; attribute: string }
  | { type: 'layer'; operation: 'Filter'; attribute: string; values: (string | number)[] }
  | { type: 'layer'; operation: 'Filter'; attribute: string; min: number; max: number }
  | { type: 'openView'; viewId: string; name: string };

export interface AssistantAnswer {
  /** Markdown. */
  content: string;
  actions: AssistantAction[];
}

/** Node values of one engine metric run: attribute → node id → value. */
export type MetricValues = Record<string, Record<string, number | string>>;

export interface AssistantInput {
  question: string;
  /** Earlier messages of the conversation, oldest first (finished ones only). */
  history: { role: 'user' | 'assistant'; content: string }[];
  network: { id: string; name: string; description: string; directed: boolean; json: NetworkJSON };
  views: { id: string; name: string; description: string }[];
  /** Runs an engine metric on the network (through the metric worker pool). */
  compute(metric: string, params?: Record<string, unknown>): Promise<MetricValues>;
  /** Aborted when the viewer cancels the answer or its time limit passes. */
  signal: AbortSignal;
}

export interface Assistant {
  /** `offline` or `openai:<model>`. */
  readonly name: string;
  answer(input: AssistantInput): Promise<AssistantAnswer>;
}
