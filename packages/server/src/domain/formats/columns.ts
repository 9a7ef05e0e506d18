/**
 * Column-shaped tables (Excel sheets, CSV files) → typed values, shared by xlsx.ts and csv.ts: header
 * handling (reserved columns matched case-insensitively, `[text]`/`[number]` suffixes, duplicate and
 * missing headers) and the numeric-column rule of values.ts, with every problem at its cell.
 */
import type { Attributes, NodeJSON } from '@netloom/engine';
import type { Problems } from './problems.ts';
import { isNumericColumn, numberFromText, parseHeader, type ColumnType } from './values.ts';

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

export function planColumns(t: Table, reservedNames: readonly string[], problems: Problems, ref: CellRef, typedCells: boolean): ColumnPlan {
  const reserved = new Map<string, number>();
  const attributes: ColumnPlan['attributes'] = [];
  const seen = new Map<string, number>();
  let width = t.header.length;
  for (const r of t.rows) if (r.cells.length > width) width = r.cells.length;
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
    if (forced === undefined) {
      for (const r of t.rows) {
        const v = r.cells[c];
        if (typeof v === 'number') numbers++;
        else if (typeof v === 'string') {
          texts++;
          if (numberFromText(v) !== undefined) numericTexts++;
        }
      }
    }
    const numeric = forced === 'number' || (forced === undefined && (numbers > 0 || !typedCells) && (numbers + numericTexts) > 0 && isNumericColumn({ numbers, texts, numericTexts }));
    attributes.push({ index: c, name, numeric, forced });
  }
  return { reserved, attributes };
}

/** The attributes of one row; problems for texts in numeric columns. */
export function rowAttributes(plan: ColumnPlan, row: { n: number; cells: Cell[] }, problems: Problems, ref: CellRef): Attributes | undefined {
  let out: Attributes | undefined;
  for (const col of plan.attributes) {
    const v = row.cells[col.index];
    if (v === undefined) continue;
    let value: string | number = v;
    if (col.numeric && typeof v === 'string') {
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
