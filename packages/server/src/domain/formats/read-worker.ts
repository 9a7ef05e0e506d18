/**
 * The worker side of read-pool.ts: reads an uploaded file with its format's reader (readNetworkFile,
 * every problem collected) and answers with the network JSON already serialized — the text that is
 * stored — so the request thread neither parses nor stringifies, and receives one string instead of
 * a structured clone of 300k objects. Problems come back as data (a thrown DomainError would lose its
 * code and items crossing the thread boundary).
 */
import { DomainError, type DomainErrorCode, type DomainErrorItem } from '../errors.ts';
import { readNetworkFile, type FormatId, type ImportLimits, type UploadedFile } from './index.ts';
import type { ImportedNetwork } from './types.ts';

export interface ReadTask {
  format: FormatId;
  file: UploadedFile;
  nodesFile: UploadedFile | undefined;
  limits: ImportLimits;
}

export type ReadReply =
  | { ok: true; meta: Omit<ImportedNetwork, 'networkJSON'>; json: string; nodeCount: number; edgeCount: number }
  | { ok: false; code: DomainErrorCode; detail: string; errors: DomainErrorItem[] | undefined };

export default async function read(task: ReadTask): Promise<ReadReply> {
  try {
    const { networkJSON, nodeCount, edgeCount, ...meta } = await readNetworkFile(task.format, task.file, task.nodesFile, task.limits);
    return { ok: true, meta, json: JSON.stringify(networkJSON), nodeCount, edgeCount };
  } catch (err) {
    if (err instanceof DomainError) return { ok: false, code: err.code, detail: err.detail, errors: err.errors };
    throw err;
  }
}
