/**
 * SDK error codes (docs/spec/api.md "SDK error codes"), each with the condition that raises it. `EmbedError.code`
 * is always one of these. Conditions docs/spec/api.md leaves open are settled here and documented in
 * docs/embed-sdk.md (generated from this registry).
 */
export const ERROR_CODES = {
  UNKNOWN_COMMAND: 'The command name is not in the command registry of the protocol version the viewer speaks (for example a newer SDK talking to an older viewer).',
  INVALID_ARGS: 'Arguments or options of a command have the wrong shape or type, are out of range (nodes.get with more than 100 references, a find limit above 200, a chat message above 4,000 characters), or a cursor that does not belong to this query.',
  NOT_PERMITTED: 'The viewer may not do this: saving a view without Edit, or beyond the network\'s view limit; chat while ui.aiChat is false, chatAccess is off, the organization\'s chat is off or its allowance is spent, or a presetOnly viewer asking a question that is not a preset. `message` says which.',
  NOT_FOUND: 'A node reference matches no node, or only a node hidden by a filter layer; also an unknown view id or layer id.',
  AMBIGUOUS_NODE: 'A node reference given to a command that changes something matches several visible nodes or only approximately; `details.candidates` lists up to 10 of them.',
  STALE_STATE: 'The command carried `ifRevision` and the viewer\'s revision is different when the command starts; also a nodes.find cursor from an older revision.',
  CANCELLED: 'The command was cancelled with `cancel(requestId)` while queued or running, or the embed was destroyed before it finished.',
  TIMEOUT: 'The command did not finish before its deadline (`timeoutMs`, 30 s by default), counted from when the SDK sent it (queue time included).',
  RATE_LIMITED: 'More than 20 commands were pending (queued or running) in the viewer, or a chat question was sent while another one is being answered.',
  SESSION_EXPIRED: 'The session has ended (revoked, expired, inactive, user deactivated, embedding disabled or origin removed), or no launch token could be obtained; every later command fails the same way.',
  INTERNAL: 'An unexpected failure in the viewer or the service (a bug or an outage); `message` carries the detail. Retrying may help.',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

/** The serialisable form of an error as it travels in a reply. */
export interface WireError {
  code: ErrorCode;
  message: string;
  /** Extra facts, e.g. `{ candidates }` for AMBIGUOUS_NODE, `{ revision }` for STALE_STATE. */
  details?: Record<string, unknown>;
}
