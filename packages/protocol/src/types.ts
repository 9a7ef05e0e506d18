/**
 * Data shapes carried by SDK commands, replies and events. Plain JSON only (structured-clone safe).
 */
import type { ChatAccess, ChatUnavailableReason, EmbedHeader } from './viewer-contract.ts';

export type AttributeValue = string | number;
export type Attributes = Record<string, AttributeValue>;

/** A node reference (docs/spec/api.md Rules 1): by id, or by label (the `name` attribute, else the id). */
export type NodeRef = { id: string | number } | { label: string };

export type RefStatus = 'resolved' | 'ambiguous' | 'fuzzy' | 'hidden' | 'not_found';

export interface NodeSummary {
  id: string;
  label: string;
  /** Every attribute of the node, `_`-prefixed ones included (they are hidden only in the details panel). */
  attributes: Attributes;
}

export interface NodeCandidate {
  id: string;
  label: string;
  hidden: boolean;
}

/**
 * One result of nodes.get per reference, in order.
 * - resolved: exactly one visible node; `node` is set.
 * - ambiguous: the label names several nodes exactly; `candidates` (≤ 10, visible ones first).
 * - fuzzy: no exact label match, but approximate matches (case, accents, spacing, a few typos);
 *   `node` is the best one and `candidates` (≤ 10) all of them, best first.
 * - hidden: the node exists but a filter layer hides it; `node` is set.
 * - not_found: nothing matches.
 */
export interface NodeRefResult {
  ref: NodeRef;
  status: RefStatus;
  node?: NodeSummary;
  candidates?: NodeCandidate[];
}

export type AttributeType = 'string' | 'number';

export interface NetworkInfo {
  name: string;
  nodeCount: number;
  edgeCount: number;
  /** Node attributes sorted by name; `number` when every value is a Number, else `string` (categorical). */
  nodeAttributes: { name: string; type: AttributeType }[];
}

export interface ViewerUi {
  menu?: string[];
  aiChat?: boolean;
}

/**
 * `session.info()`: what the service's viewer API answers (GET /api/v2/embed/viewer/session; the server
 * builds it against this type, domain/embedding/viewer.ts), passed through by the viewer.
 */
export interface SessionInfo {
  sessionId: string;
  displayName: string;
  /** The host's id of the managed user. */
  externalId?: string;
  orgPermission?: string;
  network?: { networkId: string; name: string; permission: 'View' | 'Edit' };
  /** The host origin the session is bound to. */
  origin?: string;
  /** When the viewer's current access token expires (it is refreshed before). */
  accessTokenExpiresAt?: string;
  /**
   * What the viewer may do: from its network permission and, for chat, every gate of the chat when the
   * session info was read (`ui.aiChat`, `chatAccess`, the organization's AI switch, its monthly
   * allowance); `chatReason` names the first closed gate (null when chat is open).
   */
  capabilities: { edit: boolean; chat: ChatAccess; chatReason?: ChatUnavailableReason | null; [key: string]: unknown };
  /** The managed user's chat access (the per-user setting, whatever the organization's state). */
  chatAccess?: ChatAccess;
  /** The networks this session may open (exactly one). */
  networkIds: string[];
  ui: ViewerUi;
  header: EmbedHeader;
  expiresAt: string;
}

export type LayerOperation = 'Filter' | 'Color' | 'Size';

/** A layer as stored in an EmbedView (version 1) and reported by state.get. */
export interface Layer {
  id: string;
  operation: LayerOperation | string;
  /** What the layer styles or filters: nodes (the default; every layer before edge layers) or edges (ties), by an edge attribute. */
  appliedTo?: 'nodes' | 'edges';
  attribute?: string;
  attType?: AttributeType;
  hidden?: boolean;
  values?: string[];
  min?: number;
  max?: number;
  /** Layers the viewer user added that code cannot edit. */
  summary?: string;
  readOnly?: boolean;
}

export interface Camera {
  x: number;
  y: number;
  ratio: number;
  angle: number;
}

export interface EmbedView {
  version: 1;
  id: string;
  name: string;
  description: string;
  layers: Layer[];
  camera: Camera;
  display: { backgroundColor: string; showLabels: string; showEdges: boolean };
}

export interface ViewSummary {
  id: string;
  name: string;
  description: string;
}

export interface ViewerState {
  networkId: string;
  viewId: string | null;
  /** True when layers, camera or selection differ from the open view (or from the initial state). */
  dirty: boolean;
  layers: Layer[];
  selectedNodeIds: string[];
  visibleNodeCount: number;
  /** Edges drawn: both ends visible and not hidden by an edge filter. */
  visibleEdgeCount: number;
  revision: number;
}

/** `appliedTo: 'edges'` filters ties by an edge attribute (an edge is also hidden when one of its ends is). */
export type FilterArgs =
  | { attribute: string; values: AttributeValue[]; appliedTo?: 'nodes' | 'edges' }
  | { attribute: string; min?: number; max?: number; appliedTo?: 'nodes' | 'edges' };

/** layers.color / layers.size: by a node attribute, or with `appliedTo: 'edges'` the ties by an edge attribute. */
export interface StyleArgs { attribute: string; appliedTo?: 'nodes' | 'edges' }

export interface FindArgs {
  /** Attribute to test; omitted: every visible node matches (useful for paging through all of them). */
  attribute?: string;
  /** Exact value (numbers compare numerically, strings exactly). */
  equals?: AttributeValue;
  /** Case-insensitive substring of the value as text. */
  contains?: string;
  min?: number;
  max?: number;
  /** Page size: 50 by default, at most 200. */
  limit?: number;
  /** From the previous page's result. */
  cursor?: string;
}

export interface FindResult {
  nodes: NodeSummary[];
  /** Number of visible nodes matching, over all pages. */
  total: number;
  /** Share of the matching nodes returned by this page and the ones before it, 0..1 (1 when total is 0). */
  coverage: number;
  /** Cursor for the next page; null on the last one. Valid while the revision does not change. */
  cursor: string | null;
}

export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  isError: boolean;
}
