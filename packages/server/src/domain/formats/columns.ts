/**
 * Column-shaped tables (Excel sheets, CSV files) → typed values, shared by xlsx.ts and csv.ts: header
 * handling (reserved columns matched case-insensitively, `[text]`/`[number]` suffixes, duplicate and
 * missing headers) and the numeric-column rule of values.ts, with every problem at its cell.
 */
import type { Attributes, NodeJSON } from '@netloom/engine';
import { BUDGETS, unreadable, type Problems, type Warnings } from './problems.ts';
import { attributeNames, countKinds, headerFor, isLargeInteger, isNotANumberToken, isNumericColumn, losesDigits, numberFromText, parseHeader, type ColumnType } from './values.ts';
import type { ExportableNetwork } from './types.ts';

/** A cell as read: a Number, a String (never empty), or absent. */
export type Cell = number | string | undefined;

export interface Table {
  /** 0-based column → header text (undefined: no header). */
  header: (string | undefined)[];
  /** Row number of the header (as the user sees it: 1-based sheet row or file line). */
  headerRow: number;
  rows: { n: number; cells: Cell[] }[];
}

export interface ColumnPlan {
  /** Reserved column name (lower case) → 0-based column index. */
  reserved: Map<string, number>;
  attributes: { index: number; name: string; numeric: boolean; forced: ColumnType | undefined }[];
}

/** Where a cell is, for problems: e.g. `Nodes!C7` or `edges.csv line 7`. */
export type CellRef = (row: number, col: number) => string;

/**
 * Which columns are reserved and which are attributes, and whether each attribute column is numeric.
 * `INF`/`-INF`/`NaN`/`null` texts do not count against a numeric column (they are read as absent
 * values, with a warning); a numeric column holding an integer that a Number cannot hold exactly is
 * read as text (with a warning naming the cell); one whose large integers all fit is kept numeric,
 * with a warning saying so.
 */
export function planColumns(t: Table, reservedNames: readonly string[], problems: Problems, ref: CellRef, typedCells: boolean, warnings?: Warnings): ColumnPlan {
  const reserved = new Map<string, number>();
  const attributes: ColumnPlan['attributes'] = [];
  const seen = new Map<string, number>();
  let width = t.header.length;
  for (const r of t.rows) if (r.cells.length > width) width = r.cells.length;
  if (width > BUDGETS.maxColumns) throw unreadable(ref(t.headerRow, BUDGETS.maxColumns), `more than ${BUDGETS.maxColumns} columns (the most a sheet or CSV may have)`);
  for (let c = 0; c < width; c++) {
    const h = t.header[c];
    if (h === undefined || h.trim() === '') {
      const used = t.rows.find((r) => r.cells[c] !== undefined);
      if (used) problems.add(ref(t.headerRow, c), `the column has values (first in row ${used.n}) but no header`);
      continue;
    }
    const { name, forced } = parseHeader(h);
    const lower = name.trim().toLowerCase();
    const isReserved = !forced && reservedNames.includes(lower);
    // reserved columns match case-insensitively; attribute names are exact
    const key = isReserved ? lower : `attr:${name}`;
    if (seen.has(key)) {
      problems.add(ref(t.headerRow, c), `duplicate column ${JSON.stringify(h)}`);
      continue;
    }
    seen.set(key, c);
    if (isReserved) {
      reserved.set(lower, c);
      continue;
    }
    let numbers = 0;
    let texts = 0;
    let numericTexts = 0;
    let lossy: number | undefined;
    let large: number | undefined;
    if (forced === undefined) {
      for (const r of t.rows) {
        const v = r.cells[c];
        if (typeof v === 'number') numbers++;
        else if (typeof v === 'string') {
          if (isNotANumberToken(v)) continue;
          texts++;
          if (numberFromText(v) !== undefined) {
            numericTexts++;
            if (lossy === undefined && losesDigits(v)) lossy = r.n;
            else if (large === undefined && isLargeInteger(v)) large = r.n;
          }
        }
      }
    }
    let numeric = forced === 'number' || (forced === undefined && (numbers > 0 || !typedCells) && (numbers + numericTexts) > 0 && isNumericColumn({ numbers, texts, numericTexts }));
    if (numeric && forced === undefined && lossy !== undefined) {
      numeric = false;
      warnings?.add(`lossy:${c}:${ref(t.headerRow, c)}`, ref(lossy, c), `column ${JSON.stringify(name)} is read as text: it holds an integer too long for a number to keep every digit`);
    } else if (numeric && large !== undefined) {
      warnings?.add(`large:${c}:${ref(t.headerRow, c)}`, ref(large, c), `column ${JSON.stringify(name)} stays numeric: its integers beyond 2^53 are kept exactly`);
    }
    attributes.push({ index: c, name, numeric, forced });
  }
  return { reserved, attributes };
}

/**
 * The attributes of one row; problems for texts in numeric columns; `INF`/`NaN`/`null` in a numeric
 * column are absent values with a warning.
 */
export function rowAttributes(plan: ColumnPlan, row: { n: number; cells: Cell[] }, problems: Problems, ref: CellRef, warnings?: Warnings): Attributes | undefined {
  let out: Attributes | undefined;
  for (const col of plan.attributes) {
    const v = row.cells[col.index];
    if (v === undefined) continue;
    let value: string | number = v;
    if (col.numeric && typeof v === 'string') {
      if (col.forced === undefined && isNotANumberToken(v)) {
        warnings?.add(`nan:${col.index}:${ref(0, col.index)}`, ref(row.n, col.index), `column ${JSON.stringify(col.name)}: INF, -INF, NaN and null are not numbers; read as absent values`);
        continue;
      }
      const n = numberFromText(v);
      if (n === undefined) {
        problems.add(ref(row.n, col.index), `row ${row.n}, column ${JSON.stringify(col.name)}: ${JSON.stringify(v)} is not a number (the column is numeric)`);
        continue;
      }
      value = n;
    }
    (out ??= {})[col.name] = value;
  }
  return out;
}

/** A number from a reserved numeric cell (X, Y), with a problem otherwise. */
export function numericCell(v: Cell, what: string, row: number, at: string, problems: Problems): number | undefined {
  if (v === undefined) return undefined;
  const n = typeof v === 'number' ? v : numberFromText(v);
  if (n === undefined) problems.add(at, `row ${row}, column ${what}: ${JSON.stringify(v)} is not a number`);
  return n;
}

export function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** `A`, `B`, … `Z`, `AA` for a 0-based column. */
export function columnLetter(c: number): string {
  let s = '';
  for (let n = c + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/**
 * A node row's reserved X, Y and Image columns onto `node` (CSV and Excel read them alike); problems name
 * the cell, with `where` ("line" for CSV, "row" for a sheet) in the message.
 */
export function readNodePlacement(node: NodeJSON, plan: ColumnPlan, row: { n: number; cells: Cell[] }, problems: Problems, ref: CellRef, where: 'line' | 'row'): void {
  const [xCol, yCol, imageCol] = [plan.reserved.get('x'), plan.reserved.get('y'), plan.reserved.get('image')];
  if (xCol !== undefined) {
    const x = numericCell(row.cells[xCol], 'X', row.n, ref(row.n, xCol), problems);
    if (x !== undefined) node.x = x;
  }
  if (yCol !== undefined) {
    const y = numericCell(row.cells[yCol], 'Y', row.n, ref(row.n, yCol), problems);
    if (y !== undefined) node.y = y;
  }
  if (imageCol !== undefined && row.cells[imageCol] !== undefined) {
    const url = String(row.cells[imageCol]).trim();
    if (isHttpUrl(url)) node.image = { url };
    else problems.add(ref(row.n, imageCol), `${where} ${row.n}, column Image: ${JSON.stringify(url)} is not an http: or https: URL`);
  }
}

/**
 * The node and edge tables of an export (CSV files, Excel sheets), each header first: the id column
 * (`idHeader`), X, Y and Image when any node has them, then one column per attribute, named so that the
 * import reads it back (headerFor: not one of the table's reserved names); edges: Source, Target, Id and
 * their attributes. A missing value is `null`. Rows are produced one at a time (the Excel writer streams).
 */
export function exportTables(net: ExportableNetwork, idHeader: string, nodeReserved: readonly string[], edgeReserved: readonly string[]): { nodes: Iterable<unknown[]>; edges: Iterable<unknown[]> } {
  const nodes = net.networkJSON.nodes;
  const edges = net.networkJSON.edges ?? [];
  const nodeAttrs = attributeNames(nodes.map((n) => n.attributes));
  const hasX = nodes.some((n) => typeof n.x === 'number');
  const hasY = nodes.some((n) => typeof n.y === 'number');
  const hasImage = nodes.some((n) => typeof n.image?.url === 'string' && n.image.url !== '');
  const edgeAttrs = attributeNames(edges.map((e) => e.attributes));
  function* nodeRows(): Generator<unknown[]> {
      yield [
        idHeader,
        ...(hasX ? ['X'] : []),
        ...(hasY ? ['Y'] : []),
        ...(hasImage ? ['Image'] : []),
        ...nodeAttrs.map((k) => headerFor(k, nodeReserved, countKinds(nodes.map((n) => n.attributes?.[k])))),
      ];
      for (const n of nodes) {
        const row: unknown[] = [n.id];
        if (hasX) row.push(n.x ?? null);
        if (hasY) row.push(n.y ?? null);
        if (hasImage) row.push(n.image?.url ?? null);
        for (const k of nodeAttrs) row.push(n.attributes?.[k] ?? null);
        yield row;
      }
  }
  function* edgeRows(): Generator<unknown[]> {
      yield ['Source', 'Target', 'Id', ...edgeAttrs.map((k) => headerFor(k, edgeReserved, countKinds(edges.map((e) => e.attributes?.[k]))))];
      for (const e of edges) yield [e.source, e.target, e.id, ...edgeAttrs.map((k) => e.attributes?.[k] ?? null)];
  }
  return { nodes: nodeRows(), edges: edgeRows() };
}
