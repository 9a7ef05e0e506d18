/**
 * Reading an organization's audit log (docs/embedding-api.md, "Audit log"): filtered by action, actor,
 * target (a managed user's external id, a member's id, a session id, a network id) and a date range,
 * newest first, paged — or the whole filtered log as CSV for the console's download.
 */
import { auditActorNames, listAudit, type AuditFilter, type AuditRecord } from '../../store/embed-audit.ts';
import { invalidArgs, type DomainErrorItem } from '../errors.ts';
import type { EmbedContext } from './context.ts';

export interface AuditEntry {
  id: string;
  at: string;
  actor: { kind: string; id: string; name?: string };
  action: string;
  target: string | null;
  details: Record<string, unknown>;
}

export function presentAuditEntry(a: AuditRecord): AuditEntry {
  return {
    id: a.id,
    at: a.at,
    actor: { kind: a.actor_kind, id: a.actor_id },
    action: a.action,
    target: a.target,
    details: JSON.parse(a.details) as Record<string, unknown>,
  };
}

export interface AuditQuery {
  action?: string;
  actor?: string;
  actorKind?: string;
  target?: string;
  /** ISO date or date-time; inclusive. A bare date means its start (UTC). */
  from?: string;
  /** ISO date or date-time; a bare date includes that whole day (UTC). */
  to?: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

function bound(value: string, name: 'from' | 'to', problems: DomainErrorItem[]): string | undefined {
  const ms = DATE.test(value) || DATE_TIME.test(value) ? Date.parse(DATE.test(value) ? `${value}T00:00:00Z` : value) : NaN;
  if (!Number.isFinite(ms)) {
    problems.push({ path: `/query/${name}`, message: 'must be a date (2026-11-24) or an ISO date-time' });
    return undefined;
  }
  return new Date(name === 'to' && DATE.test(value) ? ms + 86_400_000 : ms).toISOString();
}

/** Validates the query's filter (400 naming the field). */
export function parseAuditFilter(q: AuditQuery): AuditFilter {
  const problems: DomainErrorItem[] = [];
  if (q.action && !/^[A-Za-z][A-Za-z0-9_.-]*$/.test(q.action)) problems.push({ path: '/query/action', message: 'must be an action (member.role) or a kind of event ending with a dot (invitation.)' });
  const filter: AuditFilter = {
    action: q.action || undefined,
    actorId: q.actor || undefined,
    actorKind: q.actorKind || undefined,
    target: q.target || undefined,
    from: q.from ? bound(q.from, 'from', problems) : undefined,
    to: q.to ? bound(q.to, 'to', problems) : undefined,
  };
  if (problems.length) throw invalidArgs(problems);
  return filter;
}

/** Actors without an id to look up; the others are named by auditActorNames (issue 23: who acted, readable). */
const FIXED_NAMES: Record<string, string> = { anonymous: 'anonymous (Discover)', operator: 'service operator', cli: 'command line (netloom CLI)' };

export async function auditPage(ctx: EmbedContext, orgId: string, filter: AuditFilter, page: { limit: number; offset: number }) {
  const { total, rows } = await listAudit(ctx.db, orgId, { ...filter, ...page });
  const names = await auditActorNames(ctx.db, orgId, rows);
  const entries = rows.map((r) => {
    const e = presentAuditEntry(r);
    const name = FIXED_NAMES[r.actor_kind] ?? names.get(`${r.actor_kind}:${r.actor_id}`);
    return name ? { ...e, actor: { ...e.actor, name } } : e;
  });
  return { total, offset: page.offset, limit: page.limit, entries };
}

/** At most this many rows in one CSV download (newest first); the header says when it was cut. */
export const AUDIT_CSV_MAX_ROWS = 50_000;

function csvCell(v: string): string {
  // Quote every cell; neutralise spreadsheet formulas (a cell starting with = + - @ is prefixed with ').
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return `"${safe.replaceAll('"', '""')}"`;
}

/** The filtered log as CSV (RFC 4180, CRLF), newest first. */
export async function auditCsv(ctx: EmbedContext, orgId: string, filter: AuditFilter): Promise<{ csv: string; rows: number; truncated: boolean }> {
  const { total, rows } = await listAudit(ctx.db, orgId, { ...filter, limit: AUDIT_CSV_MAX_ROWS, offset: 0 });
  const lines = [['at', 'actor_kind', 'actor_id', 'action', 'target', 'details'].map(csvCell).join(',')];
  for (const r of rows) lines.push([r.at, r.actor_kind, r.actor_id, r.action, r.target ?? '', r.details].map(csvCell).join(','));
  return { csv: lines.join('\r\n') + '\r\n', rows: rows.length, truncated: total > rows.length };
}
