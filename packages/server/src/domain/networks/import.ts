/**
 * Import of an uploaded file (docs/api/import-export.md): the form fields are checked (all problems at
 * once), the owner is resolved and the plan's maximum checked (checkPlanRoom) before the file is read (a
 * refused caller costs no parsing; the caller's own room is checked even before the upload is received,
 * http/network-files.ts), the file is
 * read by its format module in a worker thread (formats/read-pool.ts; every problem with sheet/row or
 * line, nothing stored on error), then the network is created by the create-network command with
 * `originalFileType` of the format.
 *
 * Name, description, status and directedness: a form field wins; else what the file says (JSON
 * network, Excel `Network` sheet, GEXF/GraphML edge default, CSV `Type`/network.csv); else the file
 * name (without extension), "", Private, directed.
 */
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database, NetworkStatus } from '../../store/schema.ts';
import type { NetworkRecord } from '../../store/networks.ts';
import type { Principal } from '../identity/credentials/principal.ts';
import { DomainError, invalidArgs, type DomainErrorItem } from '../errors.ts';
import { parseBoolean } from './body.ts';
import { createNetwork, resolveCreator } from './create.ts';
import { checkPlanRoom } from './ownership.ts';
import { detectFormat, FORMATS, isFormatId, type FormatId, type UploadedFile } from '../formats/index.ts';
import type { ImportWarning } from '../formats/problems.ts';
import { readNetworkFileOffThread } from '../formats/read-pool.ts';

export interface ImportFields {
  name?: string;
  description?: string;
  status?: string;
  isDirected?: string;
  owner?: string;
  format?: string;
}

export interface ImportRequest {
  file: UploadedFile | undefined;
  nodesFile?: UploadedFile;
  fields: ImportFields;
}

export function importLimits(config: Config) {
  return { maxNodes: config.limits.maxNodes, maxEdges: config.limits.maxEdges, maxBytes: config.limits.maxBodyBytes, maxInflatedBytes: config.limits.maxInflatedBytes, readerHeapMb: config.limits.importHeapMb };
}

function baseName(filename: string): string {
  const base = filename.replace(/^.*[\\/]/, '').replace(/\.(csv\.zip|[a-z0-9]{1,8})$/i, '').trim();
  return base || 'Imported network';
}

export async function importNetwork(db: Kysely<Database>, config: Config, principal: Principal, req: ImportRequest): Promise<NetworkRecord & { format: FormatId; warnings: ImportWarning[] }> {
  const f = req.fields;
  const problems: DomainErrorItem[] = [];
  if (!req.file) problems.push({ path: '/file', message: 'is required (the network file, as a multipart part named "file")' });
  if (f.name !== undefined && f.name.trim() === '') problems.push({ path: '/name', message: 'must be a non-empty String' });
  if (f.status !== undefined && f.status !== 'Public' && f.status !== 'Private') problems.push({ path: '/status', message: 'must be "Public" or "Private"' });
  const directed = f.isDirected === undefined ? undefined : parseBoolean(f.isDirected);
  if (f.isDirected !== undefined && directed === undefined) problems.push({ path: '/isDirected', message: 'must be "true" or "false"' });
  if (f.format !== undefined && !isFormatId(f.format)) problems.push({ path: '/format', message: `must be one of ${Object.keys(FORMATS).join(', ')}` });
  if (f.owner !== undefined && f.owner.trim() === '') problems.push({ path: '/owner', message: 'must be an e-mail address or a user id' });
  if (req.nodesFile && f.format !== undefined && f.format !== 'csv') problems.push({ path: '/nodesFile', message: 'is only used with a CSV edge list' });
  if (problems.length > 0) throw invalidArgs(problems);
  const file = req.file as UploadedFile;

  const owner = await resolveCreator(db, principal, f.owner);
  // the plan's maximum before the file is read (the status field known, or no room for either status)
  await checkPlanRoom(db, config, owner, f.status as NetworkStatus | undefined);
  const format: FormatId = isFormatId(f.format) ? f.format : await detectFormat(file);
  if (req.nodesFile && format !== 'csv') throw new DomainError('INVALID_ARGS', 'nodesFile: is only used with a CSV edge list', [{ path: '/nodesFile', message: 'is only used with a CSV edge list' }]);
  const read = await readNetworkFileOffThread(format, file, req.nodesFile, importLimits(config));
  const meta = read.meta;
  // what the file says about the network is stored in text columns, which cannot hold U+0000 on
  // PostgreSQL (issue 19, Low: a 500 before); attribute values travel inside the stored JSON and may
  const label = file.filename || 'file';
  for (const [key, value] of [['name', meta.name], ['description', meta.description]] as const) {
    if (value?.includes('\u0000')) throw new DomainError('INVALID_ARGS', `${label}: the network ${key} in the file must not contain U+0000`, [{ path: `/file`, message: `the network ${key} in the file must not contain U+0000` }]);
  }
  const rec = await createNetwork(db, config, principal, {
    // the graph's own name (GraphML graph name/id, GEXF meta title, JSON/Excel/CSV network name)
    name: f.name?.trim() || meta.name?.trim() || baseName(file.filename),
    description: f.description ?? meta.description ?? '',
    isDirected: directed ?? meta.isDirected ?? true,
    status: (f.status as NetworkStatus | undefined) ?? meta.status ?? 'Private',
    networkJSONText: read.json,
    owner: f.owner,
    nodeCount: read.nodeCount,
    edgeCount: read.edgeCount,
    originalFileType: FORMATS[format].originalFileType,
  });
  return { ...rec, format, warnings: meta.warnings ?? [] };
}
