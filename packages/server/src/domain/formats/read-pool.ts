/**
 * Uploaded files are read off the request thread: a large workbook or GEXF file takes a second or more
 * of CPU to read, and on the request thread no other request (not even `/healthz`) would be answered
 * meanwhile (docs/benchmarks.md). A piscina pool of worker threads (read-worker.ts), started on the
 * first import and stopped when idle for a minute; half the cores at most (at least one), so imports
 * queue rather than take every core or multiply the memory a large file needs.
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { DomainError } from '../errors.ts';
import type { FormatId, ImportLimits, UploadedFile } from './index.ts';
import type { ReadReply, ReadTask } from './read-worker.ts';

let pool: Piscina<ReadTask, ReadReply> | undefined;

function readers(): Piscina<ReadTask, ReadReply> {
  pool ??= new Piscina<ReadTask, ReadReply>({
    filename: new URL('./read-worker.ts', import.meta.url).href,
    minThreads: 0,
    maxThreads: Math.max(1, Math.floor(availableParallelism() / 2)),
    idleTimeout: 60_000,
    concurrentTasksPerWorker: 1,
  });
  return pool;
}

/** As readNetworkFile (every problem of the file, the limits), in a worker; the network JSON comes back serialized. */
export async function readNetworkFileOffThread(format: FormatId, file: UploadedFile, nodesFile: UploadedFile | undefined, limits: ImportLimits): Promise<Extract<ReadReply, { ok: true }>> {
  const reply = await readers().run({ format, file, nodesFile, limits });
  if (!reply.ok) throw new DomainError(reply.code, reply.detail, reply.errors);
  return reply;
}
