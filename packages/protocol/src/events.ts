/**
 * Events the viewer emits to the host (docs/spec/api.md "Events"), with the payloads docs/spec/api.md leaves open settled.
 * Every event payload also carries `revision` (added by the viewer when it emits).
 */
import type { WireError } from './errors.ts';

export interface EventSpec<P> {
  summary: string;
  readonly __payload?: P;
}

function ev<P>(summary: string): EventSpec<P> {
  return { summary };
}

export const EVENTS = {
  'ready': ev<{ sessionId: string; networkId: string; nodeCount: number; edgeCount: number; protocolVersion: number }>('The viewer has loaded and drawn the network; `Embed.create` resolves at the same time.'),
  'busy': ev<{ on: boolean }>('`on: true` when the viewer starts working on a command or its own click, `false` when the queue is empty again.'),
  'state.changed': ev<{ reason: string; requestId?: string }>('What is on screen changed (by code, the viewer or the AI); `reason` names the cause, e.g. `layers.color` or `viewer.click`; `requestId` when a command caused it.'),
  'selection.changed': ev<{ selectedNodeIds: string[] }>('The selection changed.'),
  'node.clicked': ev<{ nodeId: string }>('The viewer clicked a node.'),
  'chat.question': ev<{ messageId: string; content: string; source: 'host' | 'viewer' }>('A question was asked in the chat, by host code or the viewer.'),
  'chat.reply': ev<{ messageId: string; content: string; isError: boolean; cancelled?: boolean }>('An answer (Markdown); `cancelled: true` for a stopped answer.'),
  'error': ev<WireError & { requestId?: string }>('A failure not tied to a pending command (e.g. the network failed to load, a token refresh failed); command failures reject their promise instead.'),
  'session.expired': ev<{ reason: string }>('The session has ended; every later command rejects with SESSION_EXPIRED. `reason`: `revoked`, `expired`, `token` (no launch token) or the service\'s message.'),
} as const;

export type EventName = keyof typeof EVENTS;
export type EventPayload<N extends EventName> = ((typeof EVENTS)[N] extends EventSpec<infer P> ? P : never) & { revision: number };

export const EVENT_NAMES = Object.keys(EVENTS) as EventName[];

