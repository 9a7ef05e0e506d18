/**
 * The SDK command registry: `namespace.command` → how the SDK method maps its positional arguments to
 * the wire `args` object, whether the command changes what is on screen, and (at the type level only)
 * the wire argument and result types. The SDK builds `embed.<namespace>.<command>` from this object;
 * the viewer dispatches on the same keys; docs/embed-sdk.md is generated from it.
 *
 * SDK call shape: `embed.ns.cmd(arg?, options?)`.
 * - `positional`: the wire field the first positional argument fills; `'*'` means the first argument
 *   is the whole args object; absent means the command takes no argument (then `options` comes first).
 * - `optionKeys`: command-specific keys read from `options` into the wire args (e.g. `zoom`, `newChat`).
 *   The common options `ifRevision`, `timeoutMs` and `requestId` are never copied into args.
 */
import type {
  ChatMessage, EmbedView, FilterArgs, StyleArgs, FindArgs, FindResult, NetworkInfo, NodeRef, NodeRefResult,
  SessionInfo, ViewSummary, ViewerState,
} from './types.ts';

export interface CommandSpec<A, R> {
  summary: string;
  /** True when the command can change what is on screen (and so bump `revision`). */
  changesState: boolean;
  positional?: string;
  optionKeys?: readonly string[];
  /** Phantom fields carrying the types; never set at run time. */
  readonly __args?: A;
  readonly __result?: R;
}

interface SpecFields {
  summary: string;
  changesState: boolean;
  positional?: string;
  optionKeys?: readonly string[];
}

/** `cmd<Args, Result>()({ ...fields })`: curried so the field literals (positional, optionKeys) are kept. */
function cmd<A, R>() {
  return <const S extends SpecFields>(spec: S): S & CommandSpec<A, R> => spec as S & CommandSpec<A, R>;
}

type None = Record<string, never>;
export interface LayerIdResult { layerId: string }
export interface OkResult { ok: true }

export const COMMANDS = {
  'session.info': cmd<None, SessionInfo>()({ summary: 'Display name, capabilities, network scope, `ui`, header and expiry of the session, read from the service at each call (`capabilities.chat` is `off` while the organization\'s AI chat is switched off or its allowance is spent, `capabilities.chatReason` says which; see embedding-api.md).', changesState: false }),
  'state.get': cmd<None, ViewerState>()({ summary: 'The viewer state: network, open view, dirty flag, layers, selection, visible node and edge counts, revision.', changesState: false }),
  'network.info': cmd<None, NetworkInfo>()({ summary: 'Name, node and edge counts, node attribute names and types.', changesState: false }),
  'views.list': cmd<None, ViewSummary[]>()({ summary: 'The network\'s saved views.', changesState: false }),
  'views.open': cmd<{ viewId: string }, EmbedView>()({ summary: 'Opens a saved view (layers and camera); resolves after the camera animation.', changesState: true, positional: 'viewId' }),
  'views.save': cmd<{ name: string; description?: string }, EmbedView>()({ summary: 'Saves the current state as a new view (needs Edit); it becomes the open view.', changesState: true, positional: '*' }),
  'views.update': cmd<None, EmbedView>()({ summary: 'Saves the current state onto the open view (needs Edit).', changesState: true }),
  'layers.filter': cmd<FilterArgs, LayerIdResult>()({ summary: 'Adds a filter layer: `{ attribute, values }` keeps nodes with one of the values, `{ attribute, min, max }` nodes in the range (inclusive); with `appliedTo: "edges"` it keeps the edges (ties) instead.', changesState: true, positional: '*' }),
  'layers.color': cmd<StyleArgs, LayerIdResult>()({ summary: 'Colors nodes by an attribute (a palette for categories, a gradient for numbers); with `appliedTo: "edges"` the edges by an edge attribute; the last color layer of each wins.', changesState: true, positional: '*' }),
  'layers.size': cmd<StyleArgs, LayerIdResult>()({ summary: 'Sizes nodes by an attribute (numbers linearly, categories by rank); with `appliedTo: "edges"` the edges\' thickness by an edge attribute; the last size layer of each wins.', changesState: true, positional: '*' }),
  'layers.remove': cmd<{ layerId: string }, OkResult>()({ summary: 'Removes one layer.', changesState: true, positional: 'layerId' }),
  'layers.clear': cmd<None, OkResult>()({ summary: 'Removes every layer code can remove (read-only layers stay).', changesState: true }),
  'nodes.find': cmd<FindArgs, FindResult>()({ summary: 'Visible nodes whose attribute equals, contains or lies in min..max; pages of 50 by default, at most 200, with total, coverage and cursor.', changesState: false, positional: '*' }),
  'nodes.get': cmd<{ refs: NodeRef[] }, NodeRefResult[]>()({ summary: 'Resolves up to 100 node references; one `{ ref, status, node?, candidates? }` per reference.', changesState: false, positional: 'refs' }),
  'nodes.focus': cmd<{ ref: NodeRef; zoom?: number }, { nodeId: string }>()({ summary: 'Selects one node and moves the camera onto it (`zoom`: camera ratio, default 0.25); resolves after the animation.', changesState: true, positional: 'ref', optionKeys: ['zoom'] }),
  'nodes.select': cmd<{ refs: NodeRef[] }, { selectedNodeIds: string[] }>()({ summary: 'Replaces the selection with the referenced nodes (each must identify one visible node).', changesState: true, positional: 'refs' }),
  'nodes.clearSelection': cmd<None, { selectedNodeIds: string[] }>()({ summary: 'Clears the selection.', changesState: true }),
  'camera.fit': cmd<{ refs?: NodeRef[] }, OkResult>()({ summary: 'Frames the referenced nodes, or every visible node; resolves after the animation.', changesState: true, positional: 'refs' }),
  'chat.ask': cmd<{ message: string; newChat?: boolean }, { messageId: string }>()({ summary: 'Asks the AI chat as if the viewer typed it (≤ 4,000 characters); resolves when sent; the answer comes as `chat.reply`.', changesState: true, positional: 'message', optionKeys: ['newChat'] }),
  'chat.messages': cmd<None, ChatMessage[]>()({ summary: 'The messages of the current conversation.', changesState: false }),
  'chat.open': cmd<None, OkResult>()({ summary: 'Opens the chat panel.', changesState: true }),
  'chat.close': cmd<None, OkResult>()({ summary: 'Closes the chat panel.', changesState: true }),
  'chat.new': cmd<None, OkResult>()({ summary: 'Starts a new conversation.', changesState: true }),
  'chat.cancel': cmd<None, { cancelled: boolean }>()({ summary: 'Stops the answer in progress.', changesState: true }),
  'cancel': cmd<{ requestId: string }, { cancelled: boolean }>()({ summary: 'Cancels a queued or running command (it rejects with CANCELLED); `cancelled: false` when it had already finished. Not queued itself.', changesState: false, positional: 'requestId' }),
} as const;

export type CommandName = keyof typeof COMMANDS;
type Spec<N extends CommandName> = (typeof COMMANDS)[N];
export type CommandArgs<N extends CommandName> = Spec<N> extends CommandSpec<infer A, unknown> ? A : never;
export type CommandResult<N extends CommandName> = Spec<N> extends CommandSpec<unknown, infer R> ? R : never;

export const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];

export function isCommandName(value: unknown): value is CommandName {
  return typeof value === 'string' && Object.hasOwn(COMMANDS, value);
}

/** Options every SDK command accepts (after its own argument). */
export interface CallOptions {
  /** Fail with STALE_STATE unless the viewer is at this revision when the command starts. */
  ifRevision?: number;
  /** Deadline in milliseconds from sending, 30,000 by default. */
  timeoutMs?: number;
  /** Caller-chosen request id (unique per embed); otherwise the SDK makes one. */
  requestId?: string;
}

export const LIMITS = {
  maxPending: 20,
  defaultTimeoutMs: 30_000,
  findDefaultLimit: 50,
  findMaxLimit: 200,
  getMaxRefs: 100,
  maxCandidates: 10,
  chatMaxChars: 4_000,
  /** Launch tokens live 60 s, access tokens 15 min; the viewer refreshes this long before expiry. */
  accessTokenRefreshMarginMs: 60_000,
  /** Viewer or host activity within this window before a refresh makes the refresh happen. */
  activityWindowMs: 15 * 60_000,
} as const;
