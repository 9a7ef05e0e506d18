/**
 * The file-format registry (docs/api/import-export.md): one entry per format, with its reader and
 * writer. Routes, the OpenAPI enums, templates and the docs are driven by it.
 */
import { open } from 'node:fs/promises';
// the module itself, not the engine's index: import workers (read-pool.ts) load only what reading needs
import { validateNetworkJSON } from '@netloom/engine/graph/network-json.ts';
import { invalidArgs } from '../errors.ts';
import { exportCsv, importCsv } from './csv.ts';
import { exportGexf, importGexf } from './gexf.ts';
import { exportGraphml, importGraphml } from './graphml.ts';
import { exportJson, importJson } from './json.ts';
import { tooLarge } from './problems.ts';
import { exportXlsx, importXlsx } from './xlsx.ts';
import { FORMAT_IDS, type FormatId } from '@netloom/protocol/http';
import type { ExportableNetwork, ExportedFile, ImportedNetwork, ImportLimits, UploadedFile } from './types.ts';

export type { ExportableNetwork, ExportedFile, ImportedNetwork, ImportLimits, UploadedFile };

export interface FormatDef {
  title: string;
  /** File name endings that select this format on import. */
  extensions: readonly string[];
  /** `originalFileType` of a network imported from this format (docs/spec/decisions.md §7). */
  originalFileType: 'JSON' | 'Excel' | 'GEXF';
  read(file: UploadedFile, nodesFile: UploadedFile | undefined, limits: ImportLimits): Promise<ImportedNetwork>;
  write(net: ExportableNetwork): ExportedFile | Promise<ExportedFile>;
}

export const FORMATS = {
  json: { title: 'JSON (network JSON)', extensions: ['.json'], originalFileType: 'JSON', read: (f, _n, l) => importJson(f, l), write: exportJson },
  xlsx: { title: 'Excel workbook', extensions: ['.xlsx', '.xlsm'], originalFileType: 'Excel', read: (f, _n, l) => importXlsx(f, l), write: exportXlsx },
  gexf: { title: 'GEXF 1.2 / 1.3 (Gephi)', extensions: ['.gexf'], originalFileType: 'GEXF', read: (f, _n, l) => importGexf(f, l), write: exportGexf },
  graphml: { title: 'GraphML', extensions: ['.graphml', '.xml'], originalFileType: 'JSON', read: (f, _n, l) => importGraphml(f, l), write: exportGraphml },
  csv: { title: 'CSV edge list (+ nodes CSV); export: zip of nodes.csv, edges.csv, network.csv', extensions: ['.csv', '.tsv', '.txt', '.zip'], originalFileType: 'JSON', read: (f, n, l) => importCsv(f, n, l), write: exportCsv },
} as const satisfies Record<FormatId, FormatDef>;

// The format ids are wire data of the HTTP contract (@netloom/protocol/http): the registry above has exactly
// those keys (the `satisfies` fails on a missing or an extra one) and the list keeps the contract's order.
export { FORMAT_IDS, type FormatId };

export function isFormatId(s: unknown): s is FormatId {
  return typeof s === 'string' && Object.hasOwn(FORMATS, s);
}

/** The format of an upload: by its file name ending, else by its first bytes. */
export async function detectFormat(file: UploadedFile): Promise<FormatId> {
  const name = file.filename.toLowerCase();
  for (const id of FORMAT_IDS) if (FORMATS[id].extensions.some((e) => name.endsWith(e)) && !(id === 'graphml' && name.endsWith('.xml'))) return id;
  const fh = await open(file.path);
  const buf = Buffer.alloc(4096);
  let head: Buffer;
  try {
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    head = buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
  const text = head.toString('utf8').replace(/^\ufeff/, '').trimStart();
  if (head[0] === 0x50 && head[1] === 0x4b) return name.endsWith('.zip') ? 'csv' : 'xlsx';
  if (text.startsWith('<')) {
    if (/<(\w+:)?graphml[\s>]/.test(text)) return 'graphml';
    if (/<(\w+:)?gexf[\s>]/.test(text)) return 'gexf';
  }
  if (text.startsWith('{')) return 'json';
  if (text.startsWith('<')) return name.endsWith('.xml') ? 'graphml' : 'gexf';
  return 'csv';
}

/**
 * Reads an upload into a checked network: the format's own problems (with sheet/row/line), then the
 * network JSON rules every network obeys (docs/spec/decisions.md §3), then the node/edge limits (413).
 */
export async function readNetworkFile(format: FormatId, file: UploadedFile, nodesFile: UploadedFile | undefined, limits: ImportLimits): Promise<ImportedNetwork & { nodeCount: number; edgeCount: number }> {
  if (file.bytes > limits.maxBytes || (nodesFile && nodesFile.bytes > limits.maxBytes)) throw tooLarge(`the file is larger than ${limits.maxBytes} bytes`);
  const imported = await FORMATS[format].read(file, nodesFile, limits);
  const result = validateNetworkJSON(imported.networkJSON, { maxNodes: limits.maxNodes, maxEdges: limits.maxEdges, maxProblems: 100 });
  if (result.tooLarge) throw tooLarge(result.tooLarge);
  if (result.problems.length > 0) {
    const label = file.filename || 'file';
    const items = result.problems.map((p) => ({ path: `${label}: ${p.path}`, message: p.message }));
    throw invalidArgs(items, { paths: 'place', total: items.length });
  }
  return { ...imported, nodeCount: result.nodeCount, edgeCount: result.edgeCount };
}

export async function writeNetworkFile(format: FormatId, net: ExportableNetwork): Promise<ExportedFile> {
  return FORMATS[format].write(net);
}
