/**
 * Pure embedding rules (docs/spec/api.md Managed user, Embedding organization settings, Session, Viewer options,
 * EmbedView; docs/spec/decisions.md §5): identifiers, origins, `ui` normalisation, EmbedView v1 validation, the
 * conditions that end a session, and limit overrides. No I/O; unit-tested in embed-rules.test.ts.
 */
import { parseOrigin } from '@netloom/protocol/http';
import type { EmbedLimits } from '../../config.ts';
import type { EmbedOrgPermission, SharePermission } from '../../store/schema.ts';
import { CHAT_ACCESS, HEADERS, MENU_ITEMS, type MenuItem } from '@netloom/protocol';
import { ORG_PERMISSIONS as HTTP_ORG_PERMISSIONS, PERMISSIONS as HTTP_PERMISSIONS } from '@netloom/protocol/http';
import { DomainError, invalidArgs, type DomainErrorItem } from '../errors.ts';

// The permission levels are wire data of the HTTP contract (@netloom/protocol/http); the store's types must accept them.
export const ORG_PERMISSIONS: readonly EmbedOrgPermission[] = HTTP_ORG_PERMISSIONS;
export const PERMISSIONS: readonly SharePermission[] = HTTP_PERMISSIONS;
// The menu items, header options and chat access levels are the viewer's contract (@netloom/protocol).
export { CHAT_ACCESS, HEADERS, MENU_ITEMS, type MenuItem };

export const MAX_MINUTES = 720;
export const DEFAULT_MAX_MINUTES = 60;
export const MAX_ORIGINS = 100;
export const MAX_EMBEDDABLE_NETWORKS = 10_000;

const EXTERNAL_ID = /^[A-Za-z0-9._:@|-]{1,128}$/;

export function isExternalId(value: unknown): value is string {
  return typeof value === 'string' && EXTERNAL_ID.test(value);
}

export function parseExternalId(value: unknown): string {
  if (!isExternalId(value)) {
    throw new DomainError('INVALID_ARGS', 'externalId: 1 to 128 characters from letters, digits and . _ : @ | -', [
      { path: '/externalId', message: 'must be 1 to 128 characters from letters, digits and . _ : @ | -' },
    ]);
  }
  return value;
}

/** An allowed host origin (the one rule, shared with the web console: @netloom/protocol/http origin.ts). */
export { parseOrigin };

/** Validates and normalises a list of origins (deduplicated, order kept); every problem is reported. */
export function parseOrigins(value: unknown, path = '/allowedOrigins'): string[] {
  if (!Array.isArray(value)) throw invalidArgs([{ path, message: 'must be an array of origins' }]);
  const problems: DomainErrorItem[] = [];
  const out: string[] = [];
  value.forEach((v, i) => {
    const r = parseOrigin(v);
    if ('error' in r) problems.push({ path: `${path}/${i}`, message: `${JSON.stringify(v)} ${r.error}` });
    else if (!out.includes(r.origin)) out.push(r.origin);
  });
  if (out.length > MAX_ORIGINS) problems.push({ path, message: `at most ${MAX_ORIGINS} origins` });
  if (problems.length) throw invalid(problems);
  return out;
}

export interface NormalizedUi {
  menu: MenuItem[];
  aiChat: boolean;
}

function invalid(problems: DomainErrorItem[]): DomainError {
  return invalidArgs(problems);
}

/**
 * Normalises `ui` (docs/spec/api.md Viewer options): omitted menu = every item; the listed items in the viewer's
 * own order (duplicates dropped); `aiChat` omitted = true. Unknown keys, unknown menu items and wrongly
 * typed values are 400 INVALID_ARGS (all of them listed).
 */
export function normalizeUi(ui: unknown): NormalizedUi {
  if (ui === undefined) return { menu: [...MENU_ITEMS], aiChat: true };
  if (typeof ui !== 'object' || ui === null || Array.isArray(ui)) throw invalid([{ path: '/ui', message: 'must be an object with optional `menu` and `aiChat`' }]);
  const problems: DomainErrorItem[] = [];
  const o = ui as Record<string, unknown>;
  for (const key of Object.keys(o)) if (key !== 'menu' && key !== 'aiChat') problems.push({ path: `/ui/${key}`, message: 'is not a known viewer option (known: menu, aiChat)' });
  let menu: MenuItem[] = [...MENU_ITEMS];
  if (o.menu !== undefined) {
    if (!Array.isArray(o.menu)) problems.push({ path: '/ui/menu', message: 'must be an array of menu item names' });
    else {
      const listed = new Set<string>();
      o.menu.forEach((item, i) => {
        if (typeof item !== 'string') problems.push({ path: `/ui/menu/${i}`, message: 'must be a String' });
        else if (!(MENU_ITEMS as readonly string[]).includes(item)) problems.push({ path: `/ui/menu/${i}`, message: `${JSON.stringify(item)} is not a menu item (allowed: ${MENU_ITEMS.join(', ')})` });
        else listed.add(item);
      });
      menu = MENU_ITEMS.filter((m) => listed.has(m));
    }
  }
  let aiChat = true;
  if (o.aiChat !== undefined) {
    if (typeof o.aiChat !== 'boolean') problems.push({ path: '/ui/aiChat', message: 'must be a Boolean' });
    else aiChat = o.aiChat;
  }
  if (problems.length) throw invalid(problems);
  return { menu, aiChat };
}

/* ----------------------------------------------------------------- sessions */

export type SessionEndReason =
  | 'revoked'
  | 'lifetime'
  | 'inactivity'
  | 'user-deactivated'
  | 'embedding-disabled'
  | 'origin-removed'
  | 'access-removed'
  | 'network-not-embeddable';

export const END_REASON_TEXT: Record<SessionEndReason, string> = {
  revoked: 'the session was revoked',
  lifetime: 'the session reached its maxMinutes',
  inactivity: 'the session was inactive for too long',
  'user-deactivated': 'the managed user was deactivated',
  'embedding-disabled': 'embedding was turned off for the organization',
  'origin-removed': "the session's origin was removed from the allowed host origins",
  'access-removed': "the managed user's access to the network was removed",
  'network-not-embeddable': 'the network is no longer embeddable',
};

export interface SessionFacts {
  now: number;
  endedReason: string | null;
  expiresAt: number;
  lastActivityAt: number;
  inactivityMs: number;
  userActive: boolean;
  embeddingEnabled: boolean;
  originAllowed: boolean;
  /** Null when the user has no grant on the session's network any more. */
  permission: SharePermission | null;
  networkEmbeddable: boolean;
}

/** Why a session has ended (first matching condition of docs/spec/api.md "Session"), or null while it lives. */
export function sessionEndReason(f: SessionFacts): SessionEndReason | null {
  if (f.endedReason) return (f.endedReason in END_REASON_TEXT ? f.endedReason : 'revoked') as SessionEndReason;
  if (!f.embeddingEnabled) return 'embedding-disabled';
  if (!f.userActive) return 'user-deactivated';
  if (f.now >= f.expiresAt) return 'lifetime';
  if (f.now - f.lastActivityAt >= f.inactivityMs) return 'inactivity';
  if (!f.originAllowed) return 'origin-removed';
  if (!f.networkEmbeddable) return 'network-not-embeddable';
  if (f.permission === null) return 'access-removed';
  return null;
}

/* --------------------------------------------------------------- limits */

export const LIMIT_KEYS = ['provisioningPerHour', 'launchTokensPerHour', 'metricsPerHour', 'redemptionsPerSessionPerHour', 'aiQuestionsPerMonth'] as const satisfies readonly (keyof EmbedLimits)[];

/** Validates operator overrides: a subset of LIMIT_KEYS with positive integers; null removes an override. */
export function parseLimitOverrides(value: unknown, current: Partial<EmbedLimits> = {}): Partial<EmbedLimits> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid([{ path: '/limits', message: 'must be an object' }]);
  const problems: DomainErrorItem[] = [];
  const out: Partial<EmbedLimits> = { ...current };
  for (const [key, v] of Object.entries(value)) {
    if (!(LIMIT_KEYS as readonly string[]).includes(key)) problems.push({ path: `/limits/${key}`, message: `is not a known limit (known: ${LIMIT_KEYS.join(', ')})` });
    else if (v === null) delete out[key as keyof EmbedLimits];
    else if (typeof v !== 'number' || !Number.isInteger(v) || v < (key === 'aiQuestionsPerMonth' ? 0 : 1) || v > 1e9) problems.push({ path: `/limits/${key}`, message: `must be a whole number from ${key === 'aiQuestionsPerMonth' ? 0 : 1} to 1000000000, or null for the default` });
    else out[key as keyof EmbedLimits] = v;
  }
  if (problems.length) throw invalid(problems);
  return out;
}

export function effectiveLimits(defaults: EmbedLimits, overrides: Partial<EmbedLimits>): EmbedLimits {
  return { ...defaults, ...overrides };
}

/* ---------------------------------------------------------------- views */

export interface EmbedViewContent {
  layers: Record<string, unknown>[];
  camera: { x: number; y: number; ratio: number; angle: number };
  display: { backgroundColor: string; showLabels: string; showEdges: boolean } & Record<string, unknown>;
}

const MAX_LAYERS = 200;
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Validates the saved-view body (EmbedView v1): `name` (1–200, required unless `partial`), `description`
 * (≤ 2,000), `layers`, `camera`, `display`. Filter/Color/Size layers need `appliedTo` ("nodes", or
 * "edges" for ties by an edge attribute), `attribute`, `attType`, `hidden` and (Filter) either `values` or `min`/`max`; other layer
 * kinds must be read-only (`readOnly: true` with a `summary`). All problems are reported.
 */
export function parseViewBody(body: unknown, opts: { partial: boolean }): { name?: string; description?: string; content?: EmbedViewContent } {
  if (!isObj(body)) throw invalid([{ path: '', message: 'body must be an EmbedView object' }]);
  const p: DomainErrorItem[] = [];
  const known = ['version', 'id', 'name', 'description', 'layers', 'camera', 'display'];
  for (const k of Object.keys(body)) if (!known.includes(k)) p.push({ path: `/${k}`, message: 'is not a field of EmbedView v1' });
  if (body.version !== undefined && body.version !== 1) p.push({ path: '/version', message: 'must be 1' });
  const out: { name?: string; description?: string; content?: EmbedViewContent } = {};
  if (body.name !== undefined || !opts.partial) {
    if (typeof body.name !== 'string' || body.name.trim().length === 0 || body.name.length > 200) p.push({ path: '/name', message: 'must be a String of 1 to 200 characters' });
    else out.name = body.name.trim();
  }
  if (body.description !== undefined) {
    if (typeof body.description !== 'string' || body.description.length > 2000) p.push({ path: '/description', message: 'must be a String of at most 2000 characters' });
    else out.description = body.description;
  }
  const hasContent = body.layers !== undefined || body.camera !== undefined || body.display !== undefined || !opts.partial;
  if (hasContent) {
    const layers: Record<string, unknown>[] = [];
    if (!Array.isArray(body.layers)) p.push({ path: '/layers', message: 'must be an array of layers' });
    else if (body.layers.length > MAX_LAYERS) p.push({ path: '/layers', message: `at most ${MAX_LAYERS} layers` });
    else body.layers.forEach((l, i) => {
      const at = `/layers/${i}`;
      if (!isObj(l)) return void p.push({ path: at, message: 'must be an object' });
      if (typeof l.id !== 'string' || l.id.length === 0 || l.id.length > 200) p.push({ path: `${at}/id`, message: 'must be a non-empty String' });
      if (typeof l.operation !== 'string' || l.operation.length === 0 || l.operation.length > 100) p.push({ path: `${at}/operation`, message: 'must be a String (Filter, Color, Size, Calculate, ...)' });
      const editable = l.operation === 'Filter' || l.operation === 'Color' || l.operation === 'Size';
      if (editable && l.readOnly !== true) {
        // Edge layers (ties) came later in v1: `appliedTo: "edges"` (docs/embedding.md "Saved views").
        if (l.appliedTo !== 'nodes' && l.appliedTo !== 'edges') p.push({ path: `${at}/appliedTo`, message: 'must be "nodes" or "edges"' });
        if (typeof l.attribute !== 'string' || l.attribute.length === 0) p.push({ path: `${at}/attribute`, message: 'must be a non-empty String' });
        if (l.attType !== 'string' && l.attType !== 'number') p.push({ path: `${at}/attType`, message: 'must be "string" or "number"' });
        if (typeof l.hidden !== 'boolean') p.push({ path: `${at}/hidden`, message: 'must be a Boolean' });
        if (l.values !== undefined && (!Array.isArray(l.values) || !l.values.every((v) => typeof v === 'string'))) p.push({ path: `${at}/values`, message: 'must be an array of Strings' });
        for (const k of ['min', 'max'] as const) if (l[k] !== undefined && !finite(l[k])) p.push({ path: `${at}/${k}`, message: 'must be a Number' });
        if (l.operation === 'Filter' && l.values === undefined && (l.min === undefined || l.max === undefined)) p.push({ path: at, message: 'a Filter layer needs `values` (categorical) or `min` and `max` (numeric)' });
      } else if (!editable) {
        if (l.readOnly !== true) p.push({ path: `${at}/readOnly`, message: 'layers other than Filter, Color and Size are read-only: must be true' });
        if (typeof l.summary !== 'string') p.push({ path: `${at}/summary`, message: 'must be a String' });
      }
      if (JSON.stringify(l).length > 100_000) p.push({ path: at, message: 'is too large' });
      layers.push(l);
    });
    const cam = body.camera;
    if (!isObj(cam)) p.push({ path: '/camera', message: 'must be an object with x, y, ratio, angle' });
    else for (const k of ['x', 'y', 'ratio', 'angle']) if (!finite(cam[k])) p.push({ path: `/camera/${k}`, message: 'must be a Number' });
    const d = body.display;
    if (!isObj(d)) p.push({ path: '/display', message: 'must be an object with backgroundColor, showLabels, showEdges' });
    else {
      if (typeof d.backgroundColor !== 'string' || d.backgroundColor.length > 100) p.push({ path: '/display/backgroundColor', message: 'must be a CSS color String' });
      if (typeof d.showLabels !== 'string' || d.showLabels.length > 50) p.push({ path: '/display/showLabels', message: 'must be a String (e.g. "always")' });
      if (typeof d.showEdges !== 'boolean') p.push({ path: '/display/showEdges', message: 'must be a Boolean' });
      for (const k of Object.keys(d)) if (!['backgroundColor', 'showLabels', 'showEdges'].includes(k)) p.push({ path: `/display/${k}`, message: 'is not a display setting of EmbedView v1' });
    }
    if (p.length === 0) {
      const c = cam as Record<string, number>;
      const dd = d as Record<string, unknown>;
      out.content = {
        layers,
        camera: { x: c.x, y: c.y, ratio: c.ratio, angle: c.angle },
        display: { backgroundColor: dd.backgroundColor as string, showLabels: dd.showLabels as string, showEdges: dd.showEdges as boolean },
      };
    }
  }
  if (p.length) throw invalid(p);
  return out;
}
