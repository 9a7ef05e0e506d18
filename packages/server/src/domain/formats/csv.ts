/**
 * CSV edge list (+ optional nodes CSV), parsed with papaparse (streaming from the file; delimiter
 * detected: comma, semicolon, tab, …). Export is a zip (fflate) of `nodes.csv`, `edges.csv` and
 * `network.csv`; that zip imports as it is.
 *
 * - edges CSV: `Source`, `Target`, optional `Id`, optional `Type` (`Directed`/`Undirected`, Gephi's
 *   column: all `Undirected` makes an undirected network), other columns are edge attributes;
 * - nodes CSV: `Id` (or `Name` when there is no `Id` column), optional `X`, `Y`, `Image`, other
 *   columns are node attributes. Without a nodes CSV the nodes are the edges' endpoints;
 * - `network.csv`: rows `Name`, `Description`, `Directed` (value in the second column).
 * Values are text: a column is numeric when most of its values are numbers (values.ts), then a value
 * that is not a number is a problem naming file, line and column; `Zip [text]` / `Score [number]`
 * headers force the type. Empty values are absent.
 */
import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';

import Papa from 'papaparse';
import { zipSync, strToU8 } from 'fflate';
import type { Id, NodeJSON } from '@netloom/engine';
import { NetworkBuilder, type EdgeKind } from './builder.ts';
import { BUDGETS, CellBudget, checkLineLengths, Problems, textOf, unreadable, Warnings } from './problems.ts';
import { isZip, unzipChecked } from './zip.ts';
import { exportTables, planColumns, readNodePlacement, rowAttributes, type Cell, type Table } from './columns.ts';
import { idFromText, parseHeader } from './values.ts';
import type { ExportableNetwork, ExportedFile, ImportedNetwork, ImportLimits, UploadedFile } from './types.ts';

const NODE_COLUMNS = ['id', 'x', 'y', 'image'];
const NODE_COLUMNS_BY_NAME = ['name', 'x', 'y', 'image'];
const EDGE_COLUMNS = ['source', 'target', 'id', 'type'];

/**
 * The delimiter of a CSV: the one of , ; tab | that occurs most often (outside quotes) in its first
 * line, the header; comma when none does. (Guessing from the data, as papaparse does, is fooled by
 * values that hold delimiters.)
 */
export function headerDelimiter(head: string): string {
  const line = head.replace(/^\ufeff/, '').split(/\r?\n/, 1)[0].replace(/"[^"]*"/g, '');
  let best = ',';
  let most = 0;
  for (const d of [',', ';', '\t', '|']) {
    const n = line.split(d).length - 1;
    if (n > most) {
      best = d;
      most = n;
    }
  }
  return best;
}

async function firstBytes(path: string, n: number): Promise<Buffer> {
  const fh = await open(path);
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await fh.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}
const firstChunk = async (path: string) => (await firstBytes(path, 64 * 1024)).toString('utf8');

/**
 * A leading `'` that CSV export puts before = + - @ (formula neutralisation) — or before a value that
 * itself starts with `'` and then one of them, so that it survives — removed again on import.
 */
const NEUTRALISED = /^'+[=+\-@]/;
/** What export neutralises: a text starting with = + - @, possibly after quotes of its own. */
const FORMULA_LIKE = /^'*[=+\-@]/;

interface ReadContext {
  problems: Problems;
  warnings: Warnings;
  cells: CellBudget;
}

/** Checks the line lengths of a file before it is parsed (streamed, nothing kept). */
async function checkFileLines(path: string, label: string): Promise<void> {
  const state = { line: 1, length: 0 };
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  try {
    for await (const chunk of stream) checkLineLengths(chunk as Buffer, label, state);
  } finally {
    stream.destroy();
  }
}

async function readTable(input: { path: string } | { bytes: Uint8Array }, label: string, ctx: ReadContext, delimiter?: string): Promise<Table> {
  const { problems, warnings, cells: budget } = ctx;
  const table: Table = { header: [], headerRow: 0, rows: [] };
  let line = 0;
  const onRow = (cells: string[]) => {
    line++;
    const out: Cell[] = [];
    let any = false;
    for (let i = 0; i < cells.length; i++) {
      let v = cells[i];
      if (line === 1 && i === 0 && v.charCodeAt(0) === 0xfeff) v = v.slice(1);
      if (v.trim() === '') continue;
      if (v.charCodeAt(0) === 39 && NEUTRALISED.test(v)) {
        v = v.slice(1);
        warnings.add(`formula:${label}`, `${label} line ${line}, column ${i + 1}`, `a ' before = + - or @ (how spreadsheet formulas are neutralised in CSV exports) was removed`);
      }
      out[i] = v;
      any = true;
    }
    if (!any) return;
    budget.add(out.length);
    if (table.headerRow === 0) {
      if (out.length > BUDGETS.maxColumns) throw unreadable(`${label} line ${line}`, `more than ${BUDGETS.maxColumns} columns (the most a CSV may have)`);
      table.headerRow = line;
      table.header = out.map((c) => (c === undefined ? undefined : String(c)));
    } else table.rows.push({ n: line, cells: out });
  };
  if ('bytes' in input) checkLineLengths(input.bytes, label, { line: 1, length: 0 });
  else await checkFileLines(input.path, label);
  const text = 'bytes' in input ? textOf(input.bytes, label) : undefined;
  const delim = delimiter ?? headerDelimiter(text !== undefined ? text.slice(0, 64 * 1024) : await firstChunk((input as { path: string }).path));
  const config = { skipEmptyLines: false as const, header: false as const, dynamicTyping: false as const, delimiter: delim };
  if (text !== undefined) {
    const r = Papa.parse<string[]>(text, config);
    for (const row of r.data) onRow(row);
    for (const e of r.errors) if (e.code !== 'UndetectableDelimiter') problems.add(`${label} line ${(e.row ?? 0) + 1}`, e.message);
    return table;
  }
  await new Promise<void>((resolve, reject) => {
    const source = createReadStream((input as { path: string }).path, { encoding: 'utf8', highWaterMark: 1 << 20 });
    const parser = Papa.parse(Papa.NODE_STREAM_INPUT, config);
    let failed = false;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      source.destroy();
      parser.destroy();
      reject(err as Error);
    };
    parser.on('data', (row: string[]) => {
      if (failed) return;
      try {
        onRow(row);
      } catch (err) {
        fail(err);
      }
    });
    parser.on('end', () => {
      if (!failed) resolve();
    });
    parser.on('error', fail);
    source.on('error', fail);
    source.pipe(parser);
  });
  return table;
}

function idCell(v: Cell): Id | undefined {
  if (v === undefined) return undefined;
  const s = String(v).trim();
  return s === '' ? undefined : idFromText(s);
}

interface CsvInput {
  edges?: { table: Table; label: string };
  nodes?: { table: Table; label: string };
  network?: Table;
}

function build(input: CsvInput, limits: ImportLimits, ctx: ReadContext): ImportedNetwork {
  const { problems, warnings } = ctx;
  const refOf = (label: string) => (r: number, c: number) => `${label} line ${r}, column ${c + 1}`;
  const locate = (kind: 'node' | 'edge', loc: number, field: string) => {
    const f = kind === 'node' ? input.nodes : input.edges;
    return `${f?.label ?? 'file'} line ${loc}${field === 'id' ? '' : `, ${field[0].toUpperCase()}${field.slice(1)}`}`;
  };
  const builder = new NetworkBuilder(problems, limits, locate);
  const meta: Omit<ImportedNetwork, 'networkJSON'> = {};
  if (input.nodes) {
    const { table, label } = input.nodes;
    const ref = refOf(label);
    const byName = !table.header.some((h) => h !== undefined && h.trim().toLowerCase() === 'id');
    const plan = planColumns(table, byName ? NODE_COLUMNS_BY_NAME : NODE_COLUMNS, problems, ref, false, warnings);
    const idCol = plan.reserved.get(byName ? 'name' : 'id');
    // Gephi's node table: its Label column is the node label (the attribute name) unless there is a Name
    const labelCol = plan.attributes.find((a) => a.forced === undefined && a.name.trim().toLowerCase() === 'label');
    if (!byName && labelCol && !plan.attributes.some((a) => a.name.trim().toLowerCase() === 'name')) {
      labelCol.name = 'name';
      labelCol.numeric = false;
      warnings.add(`label:${label}`, `${label} line ${table.headerRow}, column ${labelCol.index + 1}`, 'the column "Label" is read as the node label (the attribute name)');
    }
    if (idCol === undefined) problems.add(`${label} line ${table.headerRow || 1}`, 'the nodes CSV needs a column "Id" (or "Name") in its first line');
    else {
      for (const row of table.rows) {
        const id = idCell(row.cells[idCol]);
        const attributes = rowAttributes(plan, row, problems, ref, warnings);
        if (id === undefined) {
          problems.add(ref(row.n, idCol), `line ${row.n}: the node id is empty`);
          continue;
        }
        const node: NodeJSON = { id };
        if (attributes) node.attributes = attributes;
        readNodePlacement(node, plan, row, problems, ref, 'line');
        builder.addNode(node, row.n);
      }
    }
  }
  if (input.edges) {
    const { table, label } = input.edges;
    const ref = refOf(label);
    const plan = planColumns(table, EDGE_COLUMNS, problems, ref, false, warnings);
    const [s, t, idCol, typeCol] = [plan.reserved.get('source'), plan.reserved.get('target'), plan.reserved.get('id'), plan.reserved.get('type')];
    let directed = 0;
    let undirected = 0;
    if (s === undefined || t === undefined) problems.add(`${label} line ${table.headerRow || 1}`, 'the edges CSV needs the columns "Source" and "Target" in its first line');
    else {
      for (const row of table.rows) {
        const source = idCell(row.cells[s]);
        const target = idCell(row.cells[t]);
        const attributes = rowAttributes(plan, row, problems, ref, warnings);
        if (source === undefined) problems.add(ref(row.n, s), `line ${row.n}: Source is empty`);
        if (target === undefined) problems.add(ref(row.n, t), `line ${row.n}: Target is empty`);
        let kind: EdgeKind | undefined;
        if (typeCol !== undefined && row.cells[typeCol] !== undefined) {
          const ty = String(row.cells[typeCol]).trim().toLowerCase();
          if (ty === 'directed' || ty === 'undirected' || ty === 'mutual') {
            kind = ty;
            if (ty === 'undirected') undirected++;
            else directed++;
          } else problems.add(ref(row.n, typeCol), `line ${row.n}, column Type: must be Directed, Undirected or Mutual, got ${JSON.stringify(row.cells[typeCol])}`);
        }
        if (source === undefined || target === undefined) continue;
        builder.addEdge(idCol === undefined ? undefined : idCell(row.cells[idCol]), source, target, attributes, row.n, kind);
      }
    }
    if (undirected > 0 && directed === 0) meta.isDirected = false;
    else if (directed > 0) meta.isDirected = true;
  }
  const networkJSON = builder.finish(!input.nodes);
  if (input.network) {
    for (const row of [{ n: input.network.headerRow, cells: input.network.header as Cell[] }, ...input.network.rows]) {
      const key = typeof row.cells[0] === 'string' ? row.cells[0].trim().toLowerCase() : '';
      const v = row.cells[1];
      if (v === undefined) continue;
      if (key === 'name') meta.name = String(v);
      else if (key === 'description') meta.description = String(v);
      else if (key === 'directed') {
        const b = String(v).trim().toLowerCase();
        if (b === 'true' || b === 'false') meta.isDirected = b === 'true';
        else problems.add(`network.csv line ${row.n}`, `Directed must be true or false, got ${JSON.stringify(v)}`);
      }
    }
  }
  problems.throwIfAny('the CSV has problems');
  // Gephi's Type column: edges without one follow the network (network.csv, else all Undirected →
  // undirected); a mix is stored directed with the undirected edges as two arcs (builder.ts)
  if (meta.isDirected !== undefined) meta.isDirected = builder.resolveDirection(meta.isDirected, warnings, 'CSV');
  return { networkJSON, ...meta, warnings: warnings.list() };
}

/**
 * `file`: an edges CSV, or a zip with `edges.csv` (+ `nodes.csv`, `network.csv`); `nodesFile`: a nodes
 * CSV for an edges CSV.
 */
export async function importCsv(file: UploadedFile, nodesFile: UploadedFile | undefined, limits: ImportLimits): Promise<ImportedNetwork> {
  const ctx: ReadContext = { problems: new Problems('the CSV has problems'), warnings: new Warnings(), cells: new CellBudget() };
  if (isZip(await firstBytes(file.path, 4))) {
    const label = file.filename || 'archive';
    const buf = await readFile(file.path);
    const entries = unzipChecked(buf, label, limits.maxInflatedBytes, (name) => /(^|\/)(nodes|edges|network)\.csv$/i.test(name));
    const get = (base: string) => Object.entries(entries).find(([n]) => new RegExp(`(^|/)${base}\\.csv$`, 'i').test(n));
    const edges = get('edges');
    const nodes = get('nodes');
    const network = get('network');
    if (!edges && !nodes) throw unreadable(label, 'the zip needs an edges.csv (and optionally nodes.csv)');
    const input: CsvInput = {};
    // Netloom's own export (it has network.csv) is comma-separated; other zips are guessed per file
    const delimiter = network ? ',' : undefined;
    if (edges) input.edges = { label: edges[0], table: await readTable({ bytes: edges[1] }, edges[0], ctx, delimiter) };
    if (nodes) input.nodes = { label: nodes[0], table: await readTable({ bytes: nodes[1] }, nodes[0], ctx, delimiter) };
    if (network) input.network = await readTable({ bytes: network[1] }, network[0], ctx, ',');
    return build(input, limits, ctx);
  }
  const first = { label: file.filename || 'edges.csv', table: await readTable({ path: file.path }, file.filename || 'edges.csv', ctx) };
  const has = (h: string) => first.table.header.some((c) => c !== undefined && parseHeader(c).forced === undefined && c.trim().toLowerCase() === h);
  // a node table alone (Gephi's "Export table: nodes"): an Id column and no Source/Target
  if (!nodesFile && has('id') && !has('source') && !has('target')) {
    ctx.warnings.add('nodes-only', '', `${first.label} has an Id column and no Source and Target: it is read as a nodes CSV (a network without edges)`);
    return build({ nodes: first }, limits, ctx);
  }
  const input: CsvInput = { edges: first };
  if (nodesFile) input.nodes = { label: nodesFile.filename || 'nodes.csv', table: await readTable({ path: nodesFile.path }, nodesFile.filename || 'nodes.csv', ctx) };
  return build(input, limits, ctx);
}

function csvText(rows: unknown[][]): string {
  // CSV formula injection (issue 19 finding 9; docs/api/import-export.md "CSV"): a text a spreadsheet would
  // run as a formula (first character = + - @) is written with a leading ', and so is a text that already
  // starts with ' then one of them; import removes one ' (NEUTRALISED), so every value reads back as written.
  // Numbers are written as they are (-3 stays the number -3).
  const cell = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' && FORMULA_LIKE.test(v) ? `'${v}` : String(v));
  return Papa.unparse(rows.map((r) => r.map(cell)), { newline: '\r\n', quotes: false, escapeFormulae: false }) + '\r\n';
}

export function exportCsvFiles(net: ExportableNetwork): { nodes: string; edges: string; network: string } {
  const tables = exportTables(net, 'Id', [...NODE_COLUMNS, 'name', 'label'], EDGE_COLUMNS);
  const network = csvText([['Property', 'Value'], ['Name', net.name], ['Description', net.description], ['Directed', String(net.isDirected)]]);
  return { nodes: csvText([...tables.nodes]), edges: csvText([...tables.edges]), network };
}

export function exportCsv(net: ExportableNetwork): ExportedFile {
  const f = exportCsvFiles(net);
  const body = zipSync({ 'nodes.csv': strToU8(f.nodes), 'edges.csv': strToU8(f.edges), 'network.csv': strToU8(f.network) }, { level: 6 });
  return { body: Buffer.from(body), contentType: 'application/zip', extension: 'csv.zip' };
}


