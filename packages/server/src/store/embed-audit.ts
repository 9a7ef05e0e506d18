/** The embedding audit log of organizations (repository). */
import type { Kysely, Selectable } from 'kysely';
import type { Database, EmbedAuditTable } from './schema.ts';

export type AuditRecord = Selectable<EmbedAuditTable>;

export async function insertAudit(db: Kysely<Database>, row: AuditRecord): Promise<void> {
  await db.insertInto('embed_audit').values(row).execute();
}

export interface AuditFilter {
  action?: string;
  /** Actor id (credential, user, managed user, ...). */
  actorId?: string;
  /** Target (a managed user's external id, a session id, a network id, ...). */
  target?: string;
  /** Inclusive ISO lower bound of `at`. */
  from?: string;
  /** Exclusive ISO upper bound of `at`. */
  to?: string;
}

/** Newest first. */
export async function listAudit(
  db: Kysely<Database>,
  orgId: string,
  opts: { limit: number; offset: number } & AuditFilter,
): Promise<{ total: number; rows: AuditRecord[] }> {
  let count = db.selectFrom('embed_audit').select((eb) => eb.fn.countAll<number>().as('n')).where('org_id', '=', orgId);
  let q = db.selectFrom('embed_audit').selectAll().where('org_id', '=', orgId);
  const eq = [
    ['action', opts.action],
    ['actor_id', opts.actorId],
    ['target', opts.target],
  ] as const;
  for (const [column, value] of eq) {
    if (value === undefined) continue;
    count = count.where(column, '=', value);
    q = q.where(column, '=', value);
  }
  if (opts.from !== undefined) {
    count = count.where('at', '>=', opts.from);
    q = q.where('at', '>=', opts.from);
  }
  if (opts.to !== undefined) {
    count = count.where('at', '<', opts.to);
    q = q.where('at', '<', opts.to);
  }
  const [{ n }, rows] = await Promise.all([
    count.executeTakeFirstOrThrow(),
    q.orderBy('at', 'desc').orderBy('id', 'desc').limit(opts.limit).offset(opts.offset).execute(),
  ]);
  return { total: Number(n), rows };
}
