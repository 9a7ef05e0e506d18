/**
 * Every message between the SDK (host page) and the viewer (iframe): a discriminated union on `type`,
 * stamped with `protocol` and version `v`.
 *
 * 1. Handshake over window.postMessage (origin-checked on both sides):
 *    viewer → host  `hello`   (targetOrigin = the session's host origin, known to the embed page)
 *    host → viewer  `connect` (targetOrigin = the viewer origin) transferring port2 of a new MessageChannel.
 *    The host accepts `hello` only from its own iframe's window and the viewer origin; the viewer accepts
 *    `connect` only from `window.parent` and the session's host origin.
 * 2. Everything else goes over the private MessagePort:
 *    host → viewer  `request` (command call), `token` (a launch token, answering `token-request`)
 *    viewer → host  `reply` (exactly one per request), `event`, `token-request` (initial and refresh)
 */
import type { CommandName } from './commands.ts';
import type { WireError } from './errors.ts';
import type { EventName } from './events.ts';

export const PROTOCOL = 'netloom-embed' as const;
export const PROTOCOL_VERSION = 1 as const;

interface Base {
  protocol: typeof PROTOCOL;
  v: typeof PROTOCOL_VERSION;
}

export interface HelloMessage extends Base {
  type: 'hello';
  sessionId: string;
}

export interface ConnectMessage extends Base {
  type: 'connect';
  sessionId: string;
}

export interface RequestMessage extends Base {
  type: 'request';
  /** Unique per embed; replies and cancel refer to it. */
  id: string;
  command: CommandName;
  args: unknown;
  ifRevision?: number;
  /** Deadline in ms counted from receipt (the SDK's send time plus transit). */
  timeoutMs: number;
}

export type ReplyMessage = Base & {
  type: 'reply';
  id: string;
  revision: number;
} & ({ ok: true; result: unknown } | { ok: false; error: WireError });

export interface EventMessage extends Base {
  type: 'event';
  name: EventName;
  /** The event's payload, `revision` included. */
  payload: Record<string, unknown> & { revision: number };
}

export interface TokenRequestMessage extends Base {
  type: 'token-request';
  id: string;
  reason: 'initial' | 'refresh';
}

export type TokenMessage = Base & {
  type: 'token';
  id: string;
} & ({ ok: true; launchToken: string } | { ok: false; message: string });

export type WindowMessage = HelloMessage | ConnectMessage;
export type HostToViewer = RequestMessage | TokenMessage;
export type ViewerToHost = ReplyMessage | EventMessage | TokenRequestMessage;
export type Message = WindowMessage | HostToViewer | ViewerToHost;
export type MessageType = Message['type'];

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Stamps protocol and version onto a message body. */
export function message<M extends Message>(body: DistributiveOmit<M, 'protocol' | 'v'>): M {
  return { protocol: PROTOCOL, v: PROTOCOL_VERSION, ...body } as unknown as M;
}

/** True for an object of this protocol and version (anything else is ignored by both sides). */
export function isProtocolMessage(data: unknown): data is Message {
  if (typeof data !== 'object' || data === null) return false;
  const d = data as Record<string, unknown>;
  return d.protocol === PROTOCOL && d.v === PROTOCOL_VERSION && typeof d.type === 'string';
}

export function isMessageOfType<T extends MessageType>(data: unknown, type: T): data is Extract<Message, { type: T }> {
  return isProtocolMessage(data) && data.type === type;
}
