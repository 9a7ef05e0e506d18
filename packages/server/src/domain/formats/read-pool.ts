/**
 * Uploaded files are read off the request thread: a large workbook or GEXF file takes a second or more
 * of CPU to read, and on the request thread no other request (not even `/healthz`) would be answered
 * meanwhile (docs/benchmarks.md). A piscina pool of worker threads (read-worker.ts), started on the
 * first import and stopped when idle for a minute; half the cores at most (at least one), so imports
 * queue rather than take every core or multiply the memory a large file needs. Each worker's heap is
 * bounded (`resourceLimits`, NETLOOM_IMPORT_HEAP_MB).
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { DomainError } from '../errors.ts';
import type { FormatId, ImportLimits, UploadedFile } from './index.ts';
import type { ReadReply, ReadTask } from './read-worker.ts';

/** One pool per heap limit (a server has one; tests start servers with different limits). */
const pools = new Map<number, Piscina<ReadTask, ReadReply>>();

function readers(heapMb: number): Piscina<ReadTask, ReadReply> {
  let pool = pools.get(heapMb);
  if (!pool) {
    pool = new Piscina<ReadTask, ReadReply>({
      filename: new URL('./read-worker.ts', import.meta.url).href,
      minThreads: 0,
      maxThreads: Math.max(1, Math.floor(availableParallelism() / 2)),
      idleTimeout: 60_000,
      concurrentTasksPerWorker: 1,
      // a reader's JavaScript heap is bounded (docs/security.md): a file that needs more ends its
      // worker, and the import is a 413, not a server out of memory
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(8, heapMb >> 4)) },
    });
    pools.set(heapMb, pool);
  }
  return pool;
}

/** As readNetworkFile (every problem of the file, the limits), in a worker; the network JSON comes back serialized. */
export async function readNetworkFileOffThread(format: FormatId, file: UploadedFile, nodesFile: UploadedFile | undefined, limits: ImportLimits): Promise<Extract<ReadReply, { ok: true }>> {
  let reply: ReadReply;
  try {
    reply = await readers(limits.readerHeapMb ?? 4096).run({ format, file, nodesFile, limits });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
      throw new DomainError('PAYLOAD_TOO_LARGE', `reading the file needs more memory than an import may use (${limits.readerHeapMb ?? 4096} MiB, NETLOOM_IMPORT_HEAP_MB)`);
    }
    throw err;
  }
  if (!reply.ok) throw new DomainError(reply.code, reply.detail, reply.errors);
  return reply;
}
