/**
 * JSON: a network as `GET /networks/:id` returns it (`name`, `description`, `isDirected`, `status`,
 * `networkJSON`, metadata that is ignored on import) or a bare network JSON (`{ nodes, edges }`).
 * Problems of the network JSON are reported with JSON pointers into the file.
 */
import { readFile } from 'node:fs/promises';
import type { NetworkJSON } from '@netloom/engine';
import { parseBoolean } from '../networks/body.ts';
import { elementsOverMessage, mayExceedElements, networkElementsOver } from '@netloom/engine/graph/json-limits.ts';
import { tooLarge, unreadable } from './problems.ts';
import type { ExportableNetwork, ExportedFile, ImportedNetwork, UploadedFile } from './types.ts';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export async function importJson(file: UploadedFile, limits?: { maxNodes: number; maxEdges: number }): Promise<ImportedNetwork> {
  const label = file.filename || 'file';
  const bytes = await readFile(file.path);
  // the node and edge limits before the file becomes a string and objects: the count stops at the first one over (413)
  if (limits && mayExceedElements(bytes.length, limits)) {
    const over = networkElementsOver(bytes, limits);
    if (over) throw tooLarge(`${label}: ${elementsOverMessage(over)}`);
  }
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw unreadable(label, `not valid JSON: ${(err as Error).message}`);
  }
  if (!isObj(value)) throw unreadable(label, 'expected a JSON object: a network ({ "name", "networkJSON" }) or a network JSON ({ "nodes", "edges" })');
  if (isObj(value.networkJSON)) {
    const out: ImportedNetwork = { networkJSON: value.networkJSON as NetworkJSON };
    if (typeof value.name === 'string' && value.name.trim() !== '') out.name = value.name;
    if (typeof value.description === 'string') out.description = value.description;
    const d = parseBoolean(value.isDirected);
    if (d !== undefined) out.isDirected = d;
    if (value.status === 'Public' || value.status === 'Private') out.status = value.status;
    return out;
  }
  if (Array.isArray(value.nodes)) return { networkJSON: value as NetworkJSON };
  throw unreadable(label, 'expected a network ({ "name", "networkJSON" }) or a network JSON with a "nodes" array');
}

export function exportJson(net: ExportableNetwork): ExportedFile {
  const body = JSON.stringify({ ...net.resource, networkJSON: net.networkJSON });
  return { body: Buffer.from(body), contentType: 'application/json; charset=utf-8', extension: 'json' };
}
