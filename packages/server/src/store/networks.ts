/**
 * Networks repository. The network JSON is stored gzip-compressed in `json_gz` and is never read by the
 * listing/metadata queries (they select explicit columns), so listing a 100k-node network costs the same
 * as listing a tiny one. `version` increases on every change: `updateNetworkIf` applies a change only
 * if nobody changed the network since it was read (metric write-back, docs/spec/decisions.md §4.3).
 */
import { promisify } from 'node:util';
import { constants as zc, gunzip, gzip } from 'node:zlib';
import type { Kysely, Selectable } from 'kysely';
import { nowIso, runPreparedFirst, toBuffer } from './db.ts';
import { countByStatus } from './queries.ts';
import type { Database, NetworkSharesTable, NetworksTable, NetworkStatus, SharePermission } from './schema.ts';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);
/**
 * Level 1: network JSON is highly repetitive and compresses ~5-10x even at the fastest level, while
 * level 6 is 3-4x slower on a 50 MB body (create must stay under 3 s for 100k nodes / 500k edges).
 * Compression runs on the libuv thread pool (async zlib), never on the event loop.
 */
const GZIP_LEVEL = 1;

/** A network without its JSON, plus the owner's display name (for `owner: { _id, name }`). */
export type NetworkRecord = Omit<Selectable<NetworksTable>, 'json_gz'> & { owner_name: string };
export type NetworkListRow = NetworkRecord & {
  /** Permission of the share with the listing user, when the network is listed because it is shared. */
  share_permission: SharePermission | null;
};
export type ShareRecord = Selectable<NetworkSharesTable>;

export type NewNetwork = Omit<NetworksTable, 'json_gz' | 'json_bytes' | 'version' | 'created' | 'modified' | 'handpicked' | 'org_id'> & {
  handpicked?: number;
  /** The organization it belongs to (null/absent: personal). */
  org_id?: string | null;
  created?: string;
  /** The network JSON text (or its UTF-8 bytes) exactly as it is to be returned by GET. */
  json: string | Uint8Array;
};

export type NetworkPatch = Partial<
  Pick<
    NetworksTable,
    'name' | 'description' | 'is_directed' | 'status' | 'network_uuid' | 'node_count' | 'edge_count' | 'max_views' | 'owner_id' | 'file_type' | 'original_file_type'
  >
> & {
  json?: string | Uint8Array;
  /** Defaults to now. */
  modified?: string;
};

const META = [
  'n.id', 'n.owner_id', 'n.name', 'n.description', 'n.is_directed', 'n.status', 'n.file_type', 'n.original_file_type',
  'n.network_uuid', 'n.handpicked', 'n.max_views', 'n.node_count', 'n.edge_count', 'n.json_bytes', 'n.version',
  'n.created', 'n.modified', 'n.org_id', 'u.name as owner_name',
] as const;

async function compress(json: string | Uint8Array): Promise<{ gz: Buffer; bytes: number }> {
  const bytes = typeof json === 'string' ? Buffer.byteLength(json) : json.byteLength;
  const gz = await gzipAsync(json, { level: GZIP_LEVEL, memLevel: 9, strategy: zc.Z_DEFAULT_STRATEGY });
  return { gz, bytes };
}

export async function insertNetwork(db: Kysely<Database>, input: NewNetwork): Promise<NetworkRecord> {
  const { json, ...rest } = input;
  const { gz, bytes } = await compress(json);
  const created = input.created ?? nowIso();
  await db
    .insertInto('networks')
    .values({ ...rest, org_id: input.org_id ?? null, handpicked: input.handpicked ?? 0, json_gz: gz, json_bytes: bytes, version: 1, created, modified: created })
    .execute();
  const rec = await getNetwork(db, input.id);
  if (!rec) throw new Error('insertNetwork: row vanished');
  return rec;
}

/** Networks joined with their owner (the META columns read both). */
function networksWithOwner(db: Kysely<Database>) {
  return db.selectFrom('networks as n').innerJoin('users as u', 'u.id', 'n.owner_id');
}

/** networksWithOwner plus the share of the user `userId` on each (left join: null when not shared). */
function networksWithOwnerAndShare(db: Kysely<Database>, userId: string) {
  return networksWithOwner(db).leftJoin('network_shares as s', (j) => j.onRef('s.network_id', '=', 'n.id').on('s.user_id', '=', userId));
}

/** A record with the share permission of a user on it (null when not shared with that user). */
type WithShare<R> = R & { share_permission: SharePermission | null };
const SHARE = 's.permission as share_permission';

/** Metadata of a network (never its JSON), or null. */
export function getNetwork(db: Kysely<Database>, id: string): Promise<NetworkRecord | null> {
  return runPreparedFirst(db, 'getNetwork', (db, p) => networksWithOwner(db).select(META).where('n.id', '=', p(0)), [id]);
}

/** Metadata plus the share permission of `userId` on it, in one query: what an access check for GET/PUT/DELETE needs. */
export function getNetworkForUser(db: Kysely<Database>, id: string, userId: string): Promise<WithShare<NetworkRecord> | null> {
  return runPreparedFirst(db, 'getNetworkForUser', (db, p) => networksWithOwnerAndShare(db, p(0)).select([...META, SHARE]).where('n.id', '=', p(1)), [userId, id]);
}

/** A network's metadata with its stored gzip bytes (GET /networks/:id reads both in one query). */
export type NetworkRecordWithGzip = NetworkRecord & { json_gz: Uint8Array };

/** `getNetwork` plus the stored gzip bytes, in one query. */
export function getNetworkWithGzip(db: Kysely<Database>, id: string): Promise<NetworkRecordWithGzip | null> {
  return runPreparedFirst(db, 'getNetworkWithGzip', (db, p) => networksWithOwner(db).select([...META, 'n.json_gz']).where('n.id', '=', p(0)), [id]);
}

/** `getNetworkForUser` plus the stored gzip bytes, in one query. */
export function getNetworkForUserWithGzip(db: Kysely<Database>, id: string, userId: string): Promise<WithShare<NetworkRecordWithGzip> | null> {
  return runPreparedFirst(db, 'getNetworkForUserWithGzip', (db, p) => networksWithOwnerAndShare(db, p(0)).select([...META, 'n.json_gz', SHARE]).where('n.id', '=', p(1)), [userId, id]);
}

/** The stored network JSON, decompressed to a string (not parsed), or null. */
export async function getNetworkJSONText(db: Kysely<Database>, id: string): Promise<string | null> {
  const r = await db.selectFrom('networks').select('json_gz').where('id', '=', id).executeTakeFirst();
  if (!r) return null;
  return (await gunzipAsync(toBuffer(r.json_gz))).toString('utf8');
}

/** The stored network's version (bumped by every change of its JSON), or null — without reading the JSON. */
export async function getNetworkVersion(db: Kysely<Database>, id: string): Promise<number | null> {
  const r = await db.selectFrom('networks').select('version').where('id', '=', id).executeTakeFirst();
  return r ? r.version : null;
}

/** Whether a stored network is directed (SQLite stores 1/0, PostgreSQL a boolean). */
export function isDirectedNetwork(rec: { is_directed: unknown }): boolean {
  return rec.is_directed === 1 || rec.is_directed === true;
}

/**
 * Inflates stored network JSON whose size is known (`json_bytes`) into one buffer of exactly that size:
 * zlib then writes a single output chunk, which is handed over as is, instead of 16 KiB chunks joined
 * afterwards (for a 45 MB network the join and its garbage were about half of the inflating's CPU on the
 * event loop; docs/benchmarks.md, issue 22). The buffer spans its whole ArrayBuffer, so it can be moved to
 * a worker without a copy. A size that turns out wrong only costs the join again.
 */
export function inflateStoredJSON(gz: Buffer, bytes: number): Promise<Buffer> {
  const exact = Number.isSafeInteger(bytes) && bytes >= 64 && bytes <= 1024 * 1024 * 1024;
  return gunzipAsync(gz, exact ? { chunkSize: bytes } : {});
}

/** The gzip bytes as stored (to send with `Content-Encoding: gzip` without inflating), or null. */
export async function getNetworkJSONGzip(
  db: Kysely<Database>,
  id: string,
): Promise<{ gz: Buffer; bytes: number; version: number } | null> {
  const r = await db.selectFrom('networks').select(['json_gz', 'json_bytes', 'version']).where('id', '=', id).executeTakeFirst();
  if (!r) return null;
  return { gz: toBuffer(r.json_gz), bytes: Number(r.json_bytes), version: r.version };
}

/** Metadata and JSON text read together (consistent `version`, for metric computation), or null. */
export async function getNetworkWithJSONText(
  db: Kysely<Database>,
  id: string,
): Promise<{ network: NetworkRecord; jsonText: string } | null> {
  const r = await networksWithOwner(db).select([...META, 'n.json_gz']).where('n.id', '=', id).executeTakeFirst();
  if (!r) return null;
  const { json_gz, ...network } = r;
  return { network, jsonText: (await gunzipAsync(toBuffer(json_gz))).toString('utf8') };
}

async function patchValues(patch: NetworkPatch): Promise<Record<string, unknown>> {
  const { json, modified, ...rest } = patch;
  const values: Record<string, unknown> = { ...rest, modified: modified ?? nowIso() };
  if (json !== undefined) {
    const { gz, bytes } = await compress(json);
    values.json_gz = gz;
    values.json_bytes = bytes;
  }
  return values;
}

/** Applies a change unconditionally (bumps `version` and `modified`); returns the new metadata or null. */
export async function updateNetwork(db: Kysely<Database>, id: string, patch: NetworkPatch): Promise<NetworkRecord | null> {
  const values = await patchValues(patch);
  const res = await db
    .updateTable('networks')
    .set((eb) => ({ ...values, version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) return null;
  return getNetwork(db, id);
}

/**
 * Applies a change only if the stored `version` still equals `expectedVersion` (optimistic concurrency).
 * Returns true when applied; false when the network changed meanwhile or no longer exists.
 */
export async function updateNetworkIf(
  db: Kysely<Database>,
  id: string,
  expectedVersion: number,
  patch: NetworkPatch,
): Promise<boolean> {
  const values = await patchValues(patch);
  const res = await db
    .updateTable('networks')
    .set((eb) => ({ ...values, version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .where('version', '=', expectedVersion)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Moves a network into an organization (its owner's explicit choice); does not change `version`. */
export async function setNetworkOrganization(db: Kysely<Database>, id: string, orgId: string): Promise<boolean> {
  const res = await db.updateTable('networks').set({ org_id: orgId }).where('id', '=', id).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Deletes a network (its shares go with it through ON DELETE CASCADE). */
export async function deleteNetwork(db: Kysely<Database>, id: string): Promise<boolean> {
  const res = await db.deleteFrom('networks').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** Operator's Discover-page pick; does not change `version`/`modified`. */
export async function setHandpicked(db: Kysely<Database>, id: string, on: boolean): Promise<boolean> {
  const res = await db.updateTable('networks').set({ handpicked: on ? 1 : 0 }).where('id', '=', id).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export interface ListOptions {
  limit?: number;
  offset?: number;
}

/** Networks owned by `userId` plus networks shared with `userId`; oldest first. */
export async function listNetworksForUser(db: Kysely<Database>, userId: string, opts: ListOptions = {}): Promise<NetworkListRow[]> {
  let q = networksWithOwnerAndShare(db, userId)
    .select([...META, 's.permission as share_permission'])
    .where((eb) => eb.or([eb('n.owner_id', '=', userId), eb('s.user_id', '=', userId)]))
    .orderBy('n.created')
    .orderBy('n.id');
  if (opts.limit !== undefined) q = q.limit(opts.limit).offset(opts.offset ?? 0);
  return q.execute();
}

/** Networks that belong to the organization (`org_id`, migration 0012); oldest first. */
export async function listNetworksForOrg(db: Kysely<Database>, orgId: string, opts: ListOptions = {}): Promise<NetworkListRow[]> {
  let q = networksWithOwner(db)
    .select([...META])
    .where('n.org_id', '=', orgId)
    .orderBy('n.created')
    .orderBy('n.id');
  if (opts.limit !== undefined) q = q.limit(opts.limit).offset(opts.offset ?? 0);
  const rows = await q.execute();
  return rows.map((r) => ({ ...r, share_permission: null }));
}

/** Public networks, handpicked first, then newest first (Discover page). */
export async function listPublicNetworks(db: Kysely<Database>, opts: ListOptions = {}): Promise<NetworkRecord[]> {
  return networksWithOwner(db)
    .select([...META])
    .where('n.status', '=', 'Public')
    .orderBy('n.handpicked', 'desc')
    .orderBy('n.created', 'desc')
    .orderBy('n.id')
    .limit(opts.limit ?? 100)
    .offset(opts.offset ?? 0)
    .execute();
}

/** Number of Public and Private networks owned by a user (plan maxima). */
export function countNetworksByOwner(db: Kysely<Database>, ownerId: string): Promise<{ public: number; private: number }> {
  return countPublicAndPrivate(db, 'owner_id', ownerId);
}

/** Public and Private networks where `column` = `value` (every status but Public counts as private). */
async function countPublicAndPrivate(db: Kysely<Database>, column: 'owner_id' | 'org_id', value: string): Promise<{ public: number; private: number }> {
  const out = { public: 0, private: 0 };
  for (const [status, n] of await countByStatus(db, 'networks', column, value)) {
    if ((status as NetworkStatus) === 'Public') out.public = n;
    else out.private += n;
  }
  return out;
}

/** Creates or changes the share of a network with a user. */
export async function upsertShare(
  db: Kysely<Database>,
  networkId: string,
  userId: string,
  permission: SharePermission,
): Promise<ShareRecord> {
  const row: ShareRecord = { network_id: networkId, user_id: userId, permission, created: nowIso() };
  await db
    .insertInto('network_shares')
    .values(row)
    .onConflict((oc) => oc.columns(['network_id', 'user_id']).doUpdateSet({ permission }))
    .execute();
  return (await db
    .selectFrom('network_shares')
    .selectAll()
    .where('network_id', '=', networkId)
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow());
}

export async function deleteShare(db: Kysely<Database>, networkId: string, userId: string): Promise<boolean> {
  const res = await db.deleteFrom('network_shares').where('network_id', '=', networkId).where('user_id', '=', userId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export async function getShare(db: Kysely<Database>, networkId: string, userId: string): Promise<SharePermission | null> {
  const r = await db
    .selectFrom('network_shares')
    .select('permission')
    .where('network_id', '=', networkId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return r?.permission ?? null;
}

export function listShares(db: Kysely<Database>, networkId: string): Promise<ShareRecord[]> {
  return db.selectFrom('network_shares').selectAll().where('network_id', '=', networkId).orderBy('created').orderBy('user_id').execute();
}

/** Number of Public and Private networks that belong to an organization. */
export function countNetworksByOrg(db: Kysely<Database>, orgId: string): Promise<{ public: number; private: number }> {
  return countPublicAndPrivate(db, 'org_id', orgId);
}
