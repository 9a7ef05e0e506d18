/**
 * An OpenAI-compatible provider: `POST {NETLOOM_AI_BASE_URL}/chat/completions` with `model`, the
 * conversation and two tools (`add_layer`, `open_view`) the model may call; tool calls become assistant
 * actions the viewer applies. The system message gives the model the network's facts (size, attributes,
 * the most connected nodes, saved views), not the whole network. One request per answer, no streaming;
 * aborted on cancel or after NETLOOM_AI_TIMEOUT_MS. The API key is sent as a bearer token and never logged.
 */
import type { AiConfig } from '../../../config.ts';
import type { Assistant, AssistantAction, AssistantAnswer, AssistantInput } from './types.ts';
import { networkFacts, topK, visibleAttributes } from './facts.ts';

const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'add_layer',
      description: 'Add a layer to the viewer: color or size the nodes by an attribute, or filter the nodes by attribute values or a numeric range.',
      parameters: {
        type: 'object',
        properties: {
          operation: { type: 'string', enum: ['Color', 'Size', 'Filter'] },
          attribute: { type: 'string', description: 'A node attribute name' },
          values: { type: 'array', items: { type: ['string', 'number'] }, description: 'Filter: keep nodes with one of these values' },
          min: { type: 'number' },
          max: { type: 'number' },
        },
        required: ['operation', 'attribute'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'open_view',
      description: 'Open one of the saved views of the network.',
      parameters: { type: 'object', properties: { viewId: { type: 'string' } }, required: ['viewId'] },
    },
  },
] as const;

export class ProviderError extends Error {}

function systemPrompt(input: AssistantInput): string {
  const f = networkFacts(input.network.json);
  const attrs = visibleAttributes(f).map((a) => `- ${a.name} (${a.type}${a.type === 'number' ? `, ${a.min}..${a.max}` : `, e.g. ${a.values.slice(0, 5).map((v) => String(v.value)).join(', ')}`})`);
  const top = topK(f.degree, 10, f).map((i) => `- ${f.labels[i]} (id ${f.ids[i]}): ${f.degree[i]} connections`);
  return [
    'You answer questions about one network shown in an embedded network viewer. Answer in concise GitHub-flavoured Markdown.',
    'You may call add_layer or open_view to change what the viewer shows.',
    `Network: ${input.network.name}${input.network.description ? ` — ${input.network.description}` : ''}; ${input.network.directed ? 'directed' : 'undirected'}; ${f.ids.length} nodes, ${f.edgeCount} edges.`,
    `Node attributes:\n${attrs.join('\n') || '- none'}`,
    `Most connected nodes:\n${top.join('\n') || '- none'}`,
    `Saved views:\n${input.views.map((v) => `- ${v.name} (viewId ${v.id})`).join('\n') || '- none'}`,
  ].join('\n\n');
}

function toAction(name: string, rawArgs: string, input: AssistantInput): AssistantAction | null {
  let a: Record<string, unknown>;
  try {
    a = JSON.parse(rawArgs) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (name === 'open_view') {
    const v = input.views.find((x) => x.id === a.viewId);
    return v ? { type: 'openView', viewId: v.id, name: v.name } : null;
  }
  if (name !== 'add_layer' || typeof a.attribute !== 'string') return null;
  if (a.operation === 'Color' || a.operation === 'Size') return { type: 'layer', operation: a.operation, attribute: a.attribute };
  if (a.operation === 'Filter') {
    if (Array.isArray(a.values)) return { type: 'layer', operation: 'Filter', attribute: a.attribute, values: a.values.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number') };
    if (typeof a.min === 'number' && typeof a.max === 'number') return { type: 'layer', operation: 'Filter', attribute: a.attribute, min: a.min, max: a.max };
  }
  return null;
}

export class OpenAiCompatibleAssistant implements Assistant {
  readonly name: string;
  #cfg: AiConfig & { baseUrl: string };
  #fetch: typeof fetch;

  constructor(cfg: AiConfig & { baseUrl: string }, fetchImpl: typeof fetch = fetch) {
    this.#cfg = cfg;
    this.#fetch = fetchImpl;
    this.name = `openai:${cfg.model}`;
  }

  async answer(input: AssistantInput): Promise<AssistantAnswer> {
    const messages = [
      { role: 'system', content: systemPrompt(input) },
      ...input.history.slice(-20).map((m) => ({ role: m.role, content: m.content })),
      { role: 'user', content: input.question },
    ];
    const res = await this.#fetch(`${this.#cfg.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(this.#cfg.apiKey ? { authorization: `Bearer ${this.#cfg.apiKey}` } : {}) },
      body: JSON.stringify({ model: this.#cfg.model, messages, tools: TOOLS, temperature: 0 }),
      signal: input.signal,
    });
    if (!res.ok) {
      const text = (await res.text().catch(() => '')).slice(0, 200);
      throw new ProviderError(`the AI provider answered ${res.status}${text ? `: ${text}` : ''}`);
    }
    const body = (await res.json()) as { choices?: { message?: { content?: string | null; tool_calls?: { function?: { name?: string; arguments?: string } }[] } }[] };
    const msg = body.choices?.[0]?.message;
    if (!msg) throw new ProviderError('the AI provider sent no answer');
    const actions: AssistantAction[] = [];
    for (const call of msg.tool_calls ?? []) {
      const act = call.function?.name ? toAction(call.function.name, call.function.arguments ?? '{}', input) : null;
      if (act) actions.push(act);
    }
    let content = typeof msg.content === 'string' ? msg.content : '';
    if (!content.trim()) {
      content = actions.length
        ? actions.map((a) => (a.type === 'openView' ? `Opened the view **${a.name}**.` : `Added a ${a.operation.toLowerCase()} layer on **${a.attribute}**.`)).join('\n')
        : '(no answer)';
    }
    return { content, actions };
  }
}
