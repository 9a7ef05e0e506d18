/** Embed sessions and (database mode) their hashed launch/access tokens (repository). */
import type { Kysely, Selectable } from 'kysely';
import type { Database, EmbedSessionsTable, EmbedTokenKind } from './schema.ts';

export type EmbedSessionRecord = Selectable<EmbedSessionsTable>;

export async function insertSession(db: Kysely<Database>, row: EmbedSessionRecord): Promise<void> {
  await db.insertInto('embed_sessions').values(row).execute();
}

export async function getSession(db: Kysely<Database>, id: string): Promise<EmbedSessionRecord | null> {
  return (await db.selectFrom('embed_sessions').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** Marks a session ended (first reason wins); true when this call ended it. */
export async function endSession(db: Kysely<Database>, id: string, reason: string, at: string): Promise<boolean> {
  const r = await db.updateTable('embed_sessions').set({ ended_at: at, ended_reason: reason }).where('id', '=', id).where('ended_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Ends every open embed session (mode 'embed'; Explore sessions of the web app are not embedding's) matching the filter; returns their ids. */
export async function endSessionsWhere(
  db: Kysely<Database>,
  filter: { orgId: string; userId?: string; networkId?: string; originNotIn?: readonly string[] },
  reason: string,
  at: string,
): Promise<string[]> {
  let q = db.selectFrom('embed_sessions').select('id').where('org_id', '=', filter.orgId).where('ended_at', 'is', null).where('mode', '=', 'embed');
  if (filter.userId) q = q.where('user_id', '=', filter.userId);
  if (filter.networkId) q = q.where('network_id', '=', filter.networkId);
  if (filter.originNotIn) q = filter.originNotIn.length ? q.where('origin', 'not in', [...filter.originNotIn]) : q;
  const ids = (await q.execute()).map((r) => r.id);
  if (ids.length) await db.updateTable('embed_sessions').set({ ended_at: at, ended_reason: reason }).where('id', 'in', ids).where('ended_at', 'is', null).execute();
  return ids;
}

export async function touchSession(db: Kysely<Database>, id: string, at: string): Promise<void> {
  await db.updateTable('embed_sessions').set({ last_activity_at: at }).where('id', '=', id).where('last_activity_at', '<', at).execute();
}

export async function insertToken(db: Kysely<Database>, row: { hash: string; kind: EmbedTokenKind; session_id: string; expires_at: string }): Promise<void> {
  await db.insertInto('embed_tokens').values({ ...row, used_at: null }).execute();
}

/**
 * Single-use redemption: one conditional UPDATE (atomic on both databases and across processes): only
 * an unused, unexpired launch token of exactly this session is marked used. True when this call won.
 */
export async function useLaunchToken(db: Kysely<Database>, hash: string, sessionId: string, nowIso: string): Promise<boolean> {
  const r = await db
    .updateTable('embed_tokens')
    .set({ used_at: nowIso })
    .where('hash', '=', hash)
    .where('kind', '=', 'launch')
    .where('session_id', '=', sessionId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', nowIso)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function getAccessToken(db: Kysely<Database>, hash: string): Promise<{ session_id: string; expires_at: string } | null> {
  const r = await db.selectFrom('embed_tokens').select(['session_id', 'expires_at']).where('hash', '=', hash).where('kind', '=', 'access').executeTakeFirst();
  return r ?? null;
}

/** Drops tokens that expired before `before` (housekeeping). */
export async function pruneTokens(db: Kysely<Database>, before: string): Promise<number> {
  const r = await db.deleteFrom('embed_tokens').where('expires_at', '<', before).executeTakeFirst();
  return Number(r.numDeletedRows);
}

export interface LiveSessionRow {
  id: string;
  externalId: string;
  displayName: string;
  networkId: string;
  networkName: string;
  origin: string;
  created: string;
  expiresAt: string;
  lastActivityAt: string;
}

/** Open, unexpired sessions of an organization's managed users, newest first. */
export async function listLiveSessions(
  db: Kysely<Database>,
  orgId: string,
  opts: { now: string; limit: number; offset: number; externalId?: string },
): Promise<{ total: number; rows: LiveSessionRow[] }> {
  let base = db
    .selectFrom('embed_sessions as s')
    .innerJoin('embed_users as e', (j) => j.onRef('e.user_id', '=', 's.user_id').onRef('e.org_id', '=', 's.org_id'))
    .innerJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('networks as n', 'n.id', 's.network_id')
    .where('s.org_id', '=', orgId)
    .where('s.ended_at', 'is', null)
    .where('s.expires_at', '>', opts.now);
  if (opts.externalId !== undefined) base = base.where('e.external_id', '=', opts.externalId);
  const [{ n }, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    base
      .select([
        's.id as id',
        'e.external_id as externalId',
        'u.name as displayName',
        's.network_id as networkId',
        'n.name as networkName',
        's.origin as origin',
        's.created as created',
        's.expires_at as expiresAt',
        's.last_activity_at as lastActivityAt',
      ])
      .orderBy('s.created', 'desc')
      .orderBy('s.id', 'desc')
      .limit(opts.limit)
      .offset(opts.offset)
      .execute(),
  ]);
  return { total: Number(n), rows: rows.map((r) => ({ ...r, networkName: r.networkName ?? '' })) };
}
