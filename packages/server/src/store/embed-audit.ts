/** The embedding audit log of organizations (repository). */
import type { Kysely, Selectable } from 'kysely';
import type { Database, EmbedAuditTable } from './schema.ts';

export type AuditRecord = Selectable<EmbedAuditTable>;

export async function insertAudit(db: Kysely<Database>, row: AuditRecord): Promise<void> {
  await db.insertInto('embed_audit').values(row).execute();
}

/** Newest first. */
export async function listAudit(
  db: Kysely<Database>,
  orgId: string,
  opts: { limit: number; offset: number; action?: string },
): Promise<{ total: number; rows: AuditRecord[] }> {
  let count = db.selectFrom('embed_audit').select((eb) => eb.fn.countAll<number>().as('n')).where('org_id', '=', orgId);
  let q = db.selectFrom('embed_audit').selectAll().where('org_id', '=', orgId);
  if (opts.action) {
    count = count.where('action', '=', opts.action);
    q = q.where('action', '=', opts.action);
  }
  const [{ n }, rows] = await Promise.all([
    count.executeTakeFirstOrThrow(),
    q.orderBy('at', 'desc').orderBy('id', 'desc').limit(opts.limit).offset(opts.offset).execute(),
  ]);
  return { total: Number(n), rows };
}
