/**
 * Export of a stored network in a file format (docs/api/import-export.md): the same visibility as
 * `GET /networks/:id` (Public networks need no credential), the stored JSON inflated off the event loop,
 * and the format's writer. The caller supplies the metadata resource (for the JSON format).
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { Kysely } from 'kysely';
import type { NetworkJSON } from '@netloom/engine';
import type { Database } from '../../store/schema.ts';
import type { NetworkRecord } from '../../store/networks.ts';
import type { Principal } from '../identity/credentials/principal.ts';
import { loadReadableWithGzip } from './access.ts';
import { fileBaseName } from '../formats/values.ts';
import { writeNetworkFile, type ExportedFile, type FormatId } from '../formats/index.ts';

const gunzipAsync = promisify(gunzip);

export interface ExportResult {
  file: ExportedFile;
  /** ASCII file name and the UTF-8 original, for Content-Disposition. */
  filename: string;
  filenameUtf8: string;
}

export async function exportNetwork(
  db: Kysely<Database>,
  principal: Principal | null,
  id: string,
  format: FormatId,
  present: (rec: NetworkRecord) => Record<string, unknown>,
): Promise<ExportResult> {
  const rec = await loadReadableWithGzip(db, principal, id);
  const text = (await gunzipAsync(rec.json_gz)).toString('utf8');
  const networkJSON = JSON.parse(text) as NetworkJSON;
  const { json_gz: _gz, ...meta } = rec;
  const file = await writeNetworkFile(format, {
    name: rec.name,
    description: rec.description,
    isDirected: rec.is_directed === 1,
    networkJSON,
    resource: present(meta),
  });
  // eslint-disable-next-line no-control-regex
  const stem = rec.name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ').trim().slice(0, 120) || 'network';
  return { file, filename: `${fileBaseName(rec.name)}.${file.extension}`, filenameUtf8: `${stem}.${file.extension}` };
}
