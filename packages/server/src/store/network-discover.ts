/** Discover: Public networks of everyone, handpicked first, then most recently modified, searchable by name. */
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';
import type { NetworkRecord } from './networks.ts';

const META = [
  'n.id', 'n.owner_id', 'n.name', 'n.description', 'n.is_directed', 'n.status', 'n.file_type', 'n.original_file_type',
  'n.network_uuid', 'n.handpicked', 'n.max_views', 'n.node_count', 'n.edge_count', 'n.json_bytes', 'n.version',
  'n.created', 'n.modified', 'n.org_id', 'u.name as owner_name',
] as const;

/** `q` matches a case-insensitive substring of the name (LIKE wildcards in `q` are literal). */
export async function searchPublicNetworks(db: Kysely<Database>, opts: { q?: string; limit: number; offset: number }): Promise<{ rows: NetworkRecord[]; total: number }> {
  const pattern = opts.q ? `%${opts.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const base = () => {
    let q = db.selectFrom('networks as n').innerJoin('users as u', 'u.id', 'n.owner_id').where('n.status', '=', 'Public');
    if (pattern) q = q.where(sql<boolean>`lower(n.name) like ${pattern} escape '\\'`);
    return q;
  };
  const [rows, count] = await Promise.all([
    base().select([...META]).orderBy('n.handpicked', 'desc').orderBy('n.modified', 'desc').orderBy('n.id').limit(opts.limit).offset(opts.offset).execute(),
    base().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}
