/** Discover (docs/spec/decisions.md §7): Public networks of everyone, handpicked first, searchable by name, paged; no credential needed. */
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.ts';
import { searchPublicNetworks } from '../../store/network-discover.ts';

export const DISCOVER_MAX_LIMIT = 100;

export function listPublicNetworks(db: Kysely<Database>, opts: { q?: string; limit?: number; offset?: number }) {
  const q = opts.q?.trim();
  return searchPublicNetworks(db, { q: q ? q : undefined, limit: Math.min(opts.limit ?? 20, DISCOVER_MAX_LIMIT), offset: opts.offset ?? 0 });
}
