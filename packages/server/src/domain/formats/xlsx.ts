/**
 * Excel workbooks (.xlsx): read by xlsx-read.ts from the parts zip.ts checked and inflated (our own
 * SpreadsheetML reader: exceljs's streaming reader built an object per cell and was most of an
 * import's time), written with exceljs's streaming writer.
 *
 * Layout (docs/api/import-export.md):
 * - sheet `Nodes`: `Name` (the node id, and its label) plus one column per attribute; optional `X`, `Y`
 *   (position) and `Image` (image URL);
 * - sheet `Edges`: `Source`, `Target` plus one column per attribute; optional `Id`;
 * - optional sheet `Network`: rows `Name`, `Description`, `Directed` (TRUE/FALSE) with the value in
 *   column B.
 * Sheet and reserved column names match case-insensitively. Empty cells are absent values; number
 * cells stay Numbers, text cells Strings; in a numeric column (columns.ts) a text that is not a number
 * is a problem. A workbook without `Nodes` takes its nodes from the edges. The archive is checked
 * against zip bombs (zip.ts) before anything is read.
 */
import { readFile } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import type { Id, NodeJSON } from '@netloom/engine';
import { NetworkBuilder } from './builder.ts';
import { Problems, unreadable, Warnings } from './problems.ts';
import { checkZip, isZip } from './zip.ts';
import { columnLetter, exportTables, planColumns, readNodePlacement, rowAttributes, type Cell } from './columns.ts';
import { readWorkbook } from './xlsx-read.ts';
import type { ExportableNetwork, ExportedFile, ImportedNetwork, ImportLimits, UploadedFile } from './types.ts';

/** exceljs only writes: loaded on the first export (an import worker never loads it). */
async function workbookWriter(stream: PassThrough) {
  const { default: ExcelJS } = await import('exceljs');
  return new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
}

const NODE_COLUMNS = ['name', 'x', 'y', 'image'] as const;
const EDGE_COLUMNS = ['source', 'target', 'id'] as const;

function idCell(v: Cell): Id | undefined {
  if (v === undefined) return undefined;
  return typeof v === 'number' ? v : v.trim();
}

export async function importXlsx(file: UploadedFile, limits: ImportLimits): Promise<ImportedNetwork> {
  const label = file.filename || 'workbook';
  const buf = await readFile(file.path);
  if (!isZip(buf)) throw unreadable(label, 'not an Excel workbook (.xlsx); save the file as “Excel Workbook (.xlsx)”');
  const parts = new Map<string, Uint8Array>();
  for (const e of checkZip(buf, label, limits.maxInflatedBytes)) if (!e.name.endsWith('/')) parts.set(e.name, e.data);
  const problems = new Problems('the workbook has problems');
  const warnings = new Warnings();
  const { sheets, names } = readWorkbook(parts, label, problems, ['nodes', 'edges', 'network']);
  const nodesSheet = sheets.get('nodes');
  const edgesSheet = sheets.get('edges');
  if (!nodesSheet && !edgesSheet) {
    throw unreadable(label, `the workbook needs a sheet named "Nodes" (column Name) and/or "Edges" (columns Source, Target); its sheets are ${names.map((n) => JSON.stringify(n)).join(', ') || 'none'}`);
  }
  const locate = (kind: 'node' | 'edge', loc: number, field: string): string => {
    const sheet = kind === 'node' ? nodesSheet : edgesSheet;
    if (!sheet) return `row ${loc}`;
    const column = kind === 'node' && field === 'id' ? 'name' : field;
    let col = sheet.table.header.findIndex((h) => h !== undefined && h.trim().toLowerCase() === column);
    if (col < 0) col = sheet.table.header.findIndex((h) => h !== undefined && h.trim().toLowerCase() === (kind === 'node' ? 'name' : 'source'));
    return `${sheet.name}!${col >= 0 ? columnLetter(col) : ''}${loc}`;
  };
  const builder = new NetworkBuilder(problems, limits, locate);

  if (nodesSheet) {
    const { name, table } = nodesSheet;
    const ref = (r: number, c: number) => `${name}!${columnLetter(c)}${r}`;
    const plan = planColumns(table, NODE_COLUMNS, problems, ref, true, warnings);
    const nameCol = plan.reserved.get('name');
    if (nameCol === undefined) {
      problems.add(`${name}!A${table.headerRow || 1}`, `sheet ${name} needs a column "Name" (the node id and label) in its first row`);
    } else {
      for (const row of table.rows) {
        const id = idCell(row.cells[nameCol]);
        const attributes = rowAttributes(plan, row, problems, ref, warnings);
        if (id === undefined || id === '') {
          problems.add(ref(row.n, nameCol), `row ${row.n}: Name is empty (every node needs one)`);
          continue;
        }
        const node: NodeJSON = { id };
        if (attributes) node.attributes = attributes;
        readNodePlacement(node, plan, row, problems, ref, 'row');
        builder.addNode(node, row.n);
      }
    }
  }
  if (edgesSheet) {
    const { name, table } = edgesSheet;
    const ref = (r: number, c: number) => `${name}!${columnLetter(c)}${r}`;
    const plan = planColumns(table, EDGE_COLUMNS, problems, ref, true, warnings);
    const s = plan.reserved.get('source');
    const t = plan.reserved.get('target');
    const idCol = plan.reserved.get('id');
    if (s === undefined || t === undefined) {
      problems.add(`${name}!A${table.headerRow || 1}`, `sheet ${name} needs the columns "Source" and "Target" in its first row`);
    } else {
      for (const row of table.rows) {
        const source = idCell(row.cells[s]);
        const target = idCell(row.cells[t]);
        const attributes = rowAttributes(plan, row, problems, ref, warnings);
        if (source === undefined || source === '') problems.add(ref(row.n, s), `row ${row.n}: Source is empty`);
        if (target === undefined || target === '') problems.add(ref(row.n, t), `row ${row.n}: Target is empty`);
        if (source === undefined || target === undefined || source === '' || target === '') continue;
        builder.addEdge(idCol === undefined ? undefined : idCell(row.cells[idCol]), source, target, attributes, row.n);
      }
    }
  }
  const networkJSON = builder.finish(!nodesSheet);
  const meta: Omit<ImportedNetwork, 'networkJSON'> = {};
  const netSheet = sheets.get('network');
  if (netSheet) {
    for (const row of netSheet.table.rows) {
      const key = typeof row.cells[0] === 'string' ? row.cells[0].trim().toLowerCase() : '';
      const v = row.cells[1];
      if (key === 'name' && v !== undefined) meta.name = String(v);
      else if (key === 'description' && v !== undefined) meta.description = String(v);
      else if (key === 'directed' && v !== undefined) {
        const b = String(v).trim().toLowerCase();
        if (['true', 'yes', '1'].includes(b)) meta.isDirected = true;
        else if (['false', 'no', '0'].includes(b)) meta.isDirected = false;
        else problems.add(`${netSheet.name}!B${row.n}`, `Directed must be TRUE or FALSE, got ${JSON.stringify(v)}`);
      }
    }
  }
  problems.throwIfAny('the workbook has problems');
  return { networkJSON, ...meta, warnings: warnings.list() };
}

export async function exportXlsx(net: ExportableNetwork): Promise<ExportedFile> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  const wb = await workbookWriter(stream);
  const tables = exportTables(net, 'Name', NODE_COLUMNS, EDGE_COLUMNS);
  const ns = wb.addWorksheet('Nodes');
  for (const row of tables.nodes) ns.addRow(row).commit();
  ns.commit();
  const es = wb.addWorksheet('Edges');
  for (const row of tables.edges) es.addRow(row).commit();
  es.commit();

  const ms = wb.addWorksheet('Network');
  ms.addRow(['Name', net.name]).commit();
  ms.addRow(['Description', net.description]).commit();
  ms.addRow(['Directed', net.isDirected]).commit();
  ms.commit();
  await wb.commit();
  await done;
  return { body: Buffer.concat(chunks), contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extension: 'xlsx' };
}

/** For tests and the benchmark: a workbook from rows (first row = header) per sheet. */
export async function workbookFromRows(sheets: Record<string, unknown[][]>): Promise<Buffer> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => stream.on('end', resolve));
  const wb = await workbookWriter(stream);
  for (const [name, rows] of Object.entries(sheets)) {
    const ws = wb.addWorksheet(name);
    for (const r of rows) ws.addRow(r).commit();
    ws.commit();
  }
  await wb.commit();
  await done;
  return Buffer.concat(chunks);
}

