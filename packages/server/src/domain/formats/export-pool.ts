/**
 * Export files are built off the request thread (docs/api/import-export.md "Export limits"; issue 19
 * finding 4), as imports are read (read-pool.ts): a piscina pool of `NETLOOM_EXPORT_THREADS` worker
 * threads (export-worker.ts), started on the first export and stopped when idle for a minute. Each
 * thread's heap is capped (`NETLOOM_EXPORT_WORKER_MEMORY_MB`): an export that would need more ends that
 * thread (piscina starts another) and answers 413, instead of growing the whole process.
 */
import { Piscina } from 'piscina';
import { ownBuffer } from '@netloom/engine/pool/transfer.ts';
import { DomainError } from '../errors.ts';
import type { ExportReply, ExportTask } from './export-worker.ts';
import type { ExportedFile } from './types.ts';

let pool: Piscina<ExportTask, ExportReply> | undefined;
let poolKey = '';

function builders(threads: number, memoryMb: number): Piscina<ExportTask, ExportReply> {
  const key = `${threads}:${memoryMb}`;
  if (!pool || poolKey !== key) {
    void pool?.destroy();
    poolKey = key;
    pool = new Piscina<ExportTask, ExportReply>({
      filename: new URL('./export-worker.ts', import.meta.url).href,
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: 60_000,
      concurrentTasksPerWorker: 1,
      resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(8, Math.floor(memoryMb / 16))) },
    });
  }
  return pool;
}

/** Builds an export file in a worker thread; 413 PAYLOAD_TOO_LARGE over the cell budget or the thread's memory. */
export async function buildExportOffThread(task: ExportTask, opts: { threads: number; memoryMb: number }): Promise<ExportedFile & { cells: number }> {
  let reply: ExportReply;
  try {
    const gz = ownBuffer(task.gz);
    reply = await builders(opts.threads, opts.memoryMb).run(task, { transferList: gz ? [gz] : [] });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
      throw new DomainError('PAYLOAD_TOO_LARGE', `the export needs more than the ${opts.memoryMb} MiB an export may use; download the network JSON (GET /networks/:id) instead`);
    }
    throw err;
  }
  if (!reply.ok) throw new DomainError(reply.code, reply.detail);
  return { body: Buffer.from(reply.body.buffer, reply.body.byteOffset, reply.body.byteLength), contentType: reply.contentType, extension: reply.extension, cells: reply.cells };
}
