/**
 * The server ⇄ viewer contract that is data rather than a command: the left-menu items a session's
 * `ui.menu` may name (the viewer's own order), the session header options, the chat access levels and
 * the reasons chat is closed (`capabilities.chatReason`). The server validates and documents with these
 * (domain/embedding/rules.ts, http/embed.ts) and the viewer builds its menu and gates from them, so the two
 * cannot drift. Limits shared by the SDK, the viewer and the server are in `LIMITS` (commands.ts), e.g.
 * `chatMaxChars`.
 */

/** Explore left-menu items in the viewer's own order (docs/embedding-api.md "Viewer options"). */
export const MENU_ITEMS = ['layout', 'open', 'save', 'templates', 'labels', 'layers', 'tables', 'metrics', 'groups', 'color', 'size', 'filter', 'shapes', 'rollup', 'export', 'settings'] as const;
export type MenuItem = (typeof MENU_ITEMS)[number];

/** The session header above the viewer. */
export const HEADERS = ['none', 'title'] as const;
export type EmbedHeader = (typeof HEADERS)[number];

/** A managed user's AI chat access. */
export const CHAT_ACCESS = ['off', 'presetOnly', 'full'] as const;
export type ChatAccess = (typeof CHAT_ACCESS)[number];

/** Why chat is closed to a session, first closed gate first (`capabilities.chatReason`). */
export const CHAT_UNAVAILABLE_REASONS = ['hidden', 'chat-access-off', 'organization-off', 'allowance-spent'] as const;
export type ChatUnavailableReason = (typeof CHAT_UNAVAILABLE_REASONS)[number];

/** A metric job's status (docs/jobs.md): `queued` → `running` → `succeeded` | `failed` | `cancelled`. */
export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/**
 * A metric job of the viewer's session as its job endpoints answer it (docs/embedding-api.md "Metric
 * jobs"; the server's `ViewerJob` schema): the Metrics panel draws `progress` and `etaSeconds` and, once
 * it succeeded, adds `result.values` as node attributes.
 */
export interface ViewerJob {
  jobId: string;
  status: JobStatus;
  /** 0..1, never decreases (sources done / total, or iterations). */
  progress: number;
  /** Estimated seconds left; null until there is progress. */
  etaSeconds: number | null;
  metric: string;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** When succeeded: a network metric's number, or a node metric's `{ values, meta }` (values by attribute, then node id). */
  result?: number | { values?: Record<string, Record<string, number | string>>; meta?: Record<string, unknown>; attributes?: string[] };
  /** When failed: the problem (`code`, `detail`). */
  error?: { status: number; code: string; title: string; detail?: string; message?: string };
}
