/**
 * Export of a stored network in a file format (docs/api/import-export.md): the same visibility as
 * `GET /networks/:id` (Public networks need no credential), and the limits of "Export limits" (issue 19
 * finding 4: an anonymous xlsx export of a large Public network was built on the request thread, held
 * `/healthz` for 25.8 s and grew the process by ~2 GiB):
 *
 * - the file is built in a worker thread (formats/export-pool.ts), whose heap is capped, with a cell
 *   budget (`NETLOOM_EXPORT_MAX_CELLS`; 413 beyond);
 * - exports in progress at once are capped per caller (`NETLOOM_EXPORTS_PER_CALLER`: a user, or an
 *   anonymous caller's address) and for all anonymous callers together (`NETLOOM_ANONYMOUS_EXPORTS`):
 *   429 RATE_LIMITED with Retry-After beyond — counted in this process (each instance caps its own);
 * - exports of Public networks of at least `NETLOOM_EXPORT_CACHE_MIN_BYTES` are kept in a memory cache
 *   of `NETLOOM_EXPORT_CACHE_BYTES` (least recently used out first), keyed by the network's
 *   `networkUUID`, version and presented metadata and the format, so a network everyone downloads is
 *   built once per change; requests for a file being built wait for that build.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database } from '../../store/schema.ts';
import { isDirectedNetwork, type NetworkRecord } from '../../store/networks.ts';
import type { Principal } from '../identity/credentials/principal.ts';
import { DomainError } from '../errors.ts';
import { loadReadableWithGzip } from './access.ts';
import { fileBaseName } from '../formats/values.ts';
import { buildExportOffThread } from '../formats/export-pool.ts';
import type { ExportedFile, FormatId } from '../formats/index.ts';

export interface ExportResult {
  file: ExportedFile;
  /** ASCII file name and the UTF-8 original, for Content-Disposition. */
  filename: string;
  filenameUtf8: string;
  /** Served from the cache of Public exports. */
  cached: boolean;
}

/** Who is exporting: a user, or an anonymous caller's address. */
export function exportCallerOf(principal: Principal | null, ip: string): { key: string; anonymous: boolean } {
  return principal ? { key: `user:${principal.userId}`, anonymous: false } : { key: `ip:${ip}`, anonymous: true };
}

/** Seconds a caller refused for too many exports at once is told to wait. */
const RETRY_AFTER_S = 5;

function tooMany(detail: string): DomainError {
  return Object.assign(new DomainError('RATE_LIMITED', detail), { headers: { 'retry-after': String(RETRY_AFTER_S) } });
}

/** The export limits and cache of one app instance. */
export class NetworkExports {
  private readonly cfg: Config['exports'];
  private readonly perCaller = new Map<string, number>();
  private anonymous = 0;
  private readonly cache = new Map<string, ExportedFile>();
  private cacheBytes = 0;
  private readonly building = new Map<string, Promise<ExportedFile>>();

  constructor(cfg: Config['exports']) {
    this.cfg = cfg;
  }

  /** Bytes held by the cache now. */
  get cachedBytes(): number {
    return this.cacheBytes;
  }

  async export(db: Kysely<Database>, principal: Principal | null, caller: { key: string; anonymous: boolean }, id: string, format: FormatId, present: (rec: NetworkRecord) => Record<string, unknown>): Promise<ExportResult> {
    const rec = await loadReadableWithGzip(db, principal, id);
    const { json_gz: gz, ...meta } = rec;
    const resource = present(meta);
    // eslint-disable-next-line no-control-regex
    const stem = rec.name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ').trim().slice(0, 120) || 'network';
    const named = (file: ExportedFile, cached: boolean): ExportResult => ({ file, cached, filename: `${fileBaseName(rec.name)}.${file.extension}`, filenameUtf8: `${stem}.${file.extension}` });
    const key = rec.status === 'Public' && this.cfg.cacheBytes > 0 ? cacheKey(rec, format, resource) : null;
    const hit = key ? this.cache.get(key) : undefined;
    if (key && hit) {
      // most recently used last
      this.cache.delete(key);
      this.cache.set(key, hit);
      return named(hit, true);
    }
    const release = this.acquire(caller);
    try {
      const pending = key ? this.building.get(key) : undefined;
      if (pending) return named(await pending, true);
      const build = buildExportOffThread(
        { format, gz, name: rec.name, description: rec.description, isDirected: isDirectedNetwork(rec), resource, maxCells: this.cfg.maxCells },
        { threads: this.cfg.threads, memoryMb: this.cfg.workerMemoryMb },
      ).then(({ cells: _cells, ...file }) => file);
      if (!key) return named(await build, false);
      this.building.set(key, build);
      try {
        const file = await build;
        this.remember(key, file);
        return named(file, false);
      } finally {
        this.building.delete(key);
      }
    } finally {
      release();
    }
  }

  /** A place for one export of `caller`, or 429. */
  private acquire(caller: { key: string; anonymous: boolean }): () => void {
    const mine = this.perCaller.get(caller.key) ?? 0;
    if (mine >= this.cfg.perCaller) throw tooMany(`${mine} exports of yours are in progress (at most ${this.cfg.perCaller} at once); retry when one has finished`);
    if (caller.anonymous && this.anonymous >= this.cfg.anonymous) throw tooMany(`too many exports without a credential are in progress (at most ${this.cfg.anonymous} at once); retry shortly, or sign in`);
    this.perCaller.set(caller.key, mine + 1);
    if (caller.anonymous) this.anonymous++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const n = (this.perCaller.get(caller.key) ?? 1) - 1;
      if (n > 0) this.perCaller.set(caller.key, n);
      else this.perCaller.delete(caller.key);
      if (caller.anonymous) this.anonymous--;
    };
  }

  private remember(key: string, file: ExportedFile): void {
    const size = file.body.byteLength;
    if (size < this.cfg.cacheMinBytes || size > this.cfg.cacheBytes) return;
    while (this.cacheBytes + size > this.cfg.cacheBytes && this.cache.size > 0) {
      const [oldest, f] = this.cache.entries().next().value as [string, ExportedFile];
      this.cache.delete(oldest);
      this.cacheBytes -= f.body.byteLength;
    }
    this.cache.set(key, file);
    this.cacheBytes += size;
  }
}

/** networkUUID (changes with the data), version (any change) and the presented metadata (in the JSON export), with the format. */
function cacheKey(rec: NetworkRecord, format: FormatId, resource: Record<string, unknown>): string {
  const meta = createHash('sha256').update(JSON.stringify(resource)).digest('base64url');
  return `${rec.id}:${rec.network_uuid}:${rec.version}:${format}:${meta}`;
}
