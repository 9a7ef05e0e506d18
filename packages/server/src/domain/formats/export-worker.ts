/**
 * The worker side of export-pool.ts: builds an export file from a stored network's gzipped JSON — inflate,
 * parse, count the cells against the budget, write the format — off the request thread, so a large
 * export never holds up other requests (issue 19 finding 4: one xlsx of a 250k-edge network blocked
 * `/healthz` 25.8 s on the request thread). The file comes back as a transferred buffer; problems as data.
 */
import { gunzipSync } from 'node:zlib';
import type { NetworkJSON } from '@netloom/engine';
import { moved, ownedBytes } from '@netloom/engine/pool/transfer.ts';
import { writeNetworkFile, type FormatId } from './index.ts';
import { exportCells } from './values.ts';

export interface ExportTask {
  format: FormatId;
  /** The stored network JSON, gzipped (transferred). */
  gz: Uint8Array;
  name: string;
  description: string;
  isDirected: boolean;
  resource: Record<string, unknown>;
  maxCells: number;
}

export type ExportReply =
  | { ok: true; body: Uint8Array; contentType: string; extension: string; cells: number }
  | { ok: false; code: 'PAYLOAD_TOO_LARGE'; detail: string };

export default async function build(task: ExportTask): Promise<ExportReply> {
  const networkJSON = JSON.parse(gunzipSync(task.gz).toString('utf8')) as NetworkJSON;
  const cells = exportCells(networkJSON);
  if (cells > task.maxCells) {
    return { ok: false, code: 'PAYLOAD_TOO_LARGE', detail: `the export would have ${cells} cells (nodes × their columns + edges × theirs), more than the ${task.maxCells} an export may have; use the API (GET /networks/:id) for the network JSON` };
  }
  const file = await writeNetworkFile(task.format, { name: task.name, description: task.description, isDirected: task.isDirected, networkJSON, resource: task.resource });
  // a buffer of its own, so it can be moved (not copied) to the request thread
  const body = ownedBytes(file.body);
  return moved<ExportReply>({ ok: true, body, contentType: file.contentType, extension: file.extension, cells }, [body.buffer as ArrayBuffer]);
}
