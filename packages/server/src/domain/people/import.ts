/**
 * Import of a directory from Excel (.xlsx, first sheet) or CSV (docs/spec/decisions.md §9): one row per
 * person, columns `EmployeeId`, `Name`, `Email`, `Manager` (and optionally `PhotoUrl`), then one column
 * per custom field (its key or its label). Headers match case-insensitively. Every problem of the file is
 * reported at once with its row and column (`/rows/<row>/<column header>`, the message says `row 7,
 * column C (Email): …`); nothing is stored when there is any. The rows then go through the bulk upsert.
 * Also the template: the same columns with one example row.
 */
import type { Kysely } from 'kysely';
import Papa from 'papaparse';
import type { Database } from '../../store/schema.ts';
import { DomainError, invalidArgs, type ProblemItem } from '../errors.ts';
import { readWorkbook } from '../formats/xlsx-read.ts';
import { workbookFromRows } from '../formats/xlsx.ts';
import { isZip, unzipChecked } from '../formats/zip.ts';
import { Problems } from '../formats/problems.ts';
import { columnLetter, type Cell } from '../formats/columns.ts';
import { numberFromText } from '../formats/values.ts';
import type { Directory } from './directory.ts';
import { applyPeople, type UpsertMode, type UpsertResult } from './employees.ts';
import { fieldsByKey, type CustomField } from './fields.ts';

const BASE_COLUMNS = [
  { header: 'EmployeeId', key: 'employeeId', required: true },
  { header: 'Name', key: 'name', required: true },
  { header: 'Email', key: 'email', required: false },
  { header: 'Manager', key: 'managerId', required: false },
  { header: 'PhotoUrl', key: 'photoUrl', required: false },
] as const;

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Inflated size limit of an uploaded workbook. */
const MAX_INFLATED = 512 * 1024 * 1024;

interface Grid {
  headerRow: number;
  header: (string | undefined)[];
  rows: { n: number; cells: Cell[] }[];
}

function csvGrid(bytes: Buffer): Grid {
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' });
  const [head = [], ...rest] = parsed.data;
  return {
    headerRow: 1,
    header: head.map((h) => (h.trim() === '' ? undefined : h.trim())),
    rows: rest.map((cells, i) => ({ n: i + 2, cells: cells.map((c) => (c.trim() === '' ? undefined : c.trim())) })),
  };
}

function xlsxGrid(bytes: Buffer): Grid {
  const problems = new Problems();
  const parts = new Map(Object.entries(unzipChecked(bytes, 'workbook', MAX_INFLATED, (n) => n.endsWith('.xml') || n.endsWith('.rels'))));
  const { names } = readWorkbook(parts, 'workbook', problems, []);
  if (names.length === 0) throw new DomainError('INVALID_ARGS', 'file: the workbook has no sheet', [{ path: '/file', message: 'the workbook has no sheet' }]);
  const key = names[0].trim().toLowerCase();
  const { sheets } = readWorkbook(parts, 'workbook', problems, [key]);
  problems.throwIfAny('the workbook cannot be read');
  const t = sheets.get(key)!.table;
  return { headerRow: t.headerRow, header: t.header.map((h) => (h === undefined ? undefined : h.trim())), rows: t.rows };
}

/** The format of an upload from its content type, else its first bytes. */
export function importFormat(contentType: string | undefined, bytes: Buffer): 'xlsx' | 'csv' {
  const ct = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (ct === XLSX_TYPE) return 'xlsx';
  if (ct === 'text/csv') return 'csv';
  return isZip(bytes) ? 'xlsx' : 'csv';
}

type Column = { index: number; header: string; key: string; field?: CustomField };

function planColumns(grid: Grid, fields: ReadonlyMap<string, CustomField>, problems: ProblemItem[]): Column[] {
  const cols: Column[] = [];
  const taken = new Map<string, number>();
  const byName = new Map<string, { key: string; field?: CustomField }>();
  for (const c of BASE_COLUMNS) byName.set(c.header.toLowerCase(), { key: c.key });
  for (const f of fields.values()) {
    byName.set(f.key.toLowerCase(), { key: `fields/${f.key}`, field: f });
    if (!byName.has(f.label.toLowerCase())) byName.set(f.label.toLowerCase(), { key: `fields/${f.key}`, field: f });
  }
  grid.header.forEach((h, index) => {
    const at = `/rows/${grid.headerRow}/${columnLetter(index)}`;
    if (h === undefined) {
      if (grid.rows.some((r) => r.cells[index] !== undefined)) problems.push({ path: at, message: `row ${grid.headerRow}, column ${columnLetter(index)}: the column has values but no header` });
      return;
    }
    const m = byName.get(h.toLowerCase());
    if (!m) {
      problems.push({ path: at, message: `row ${grid.headerRow}, column ${columnLetter(index)} (${h}): not a column of the template nor a custom field of this directory (add the field first)` });
      return;
    }
    const prev = taken.get(m.key);
    if (prev !== undefined) {
      problems.push({ path: at, message: `row ${grid.headerRow}, column ${columnLetter(index)} (${h}): the same column as ${columnLetter(prev)}` });
      return;
    }
    taken.set(m.key, index);
    cols.push({ index, header: h, key: m.key, field: m.field });
  });
  for (const c of BASE_COLUMNS) {
    if (c.required && !taken.has(c.key)) problems.push({ path: `/rows/${grid.headerRow}`, message: `row ${grid.headerRow}: the column ${c.header} is missing` });
  }
  return cols;
}

/** A cell as the person's value: ids and texts as Strings, numbers for number fields (numeric text too). */
function cellValue(v: Cell, col: Column): unknown {
  if (v === undefined) return undefined;
  if (col.field?.type === 'number') return typeof v === 'number' ? v : (numberFromText(v) ?? v);
  return typeof v === 'number' ? String(v) : v;
}

/**
 * Reads the file and applies it as a bulk upsert (`dryRun`: checks and counts only). 400 lists every
 * problem of the file with its row and column.
 */
export async function importPeople(db: Kysely<Database>, dir: Directory, file: { bytes: Buffer; contentType?: string }, opts: { mode: UpsertMode; dryRun: boolean }): Promise<UpsertResult & { rows: number }> {
  if (file.bytes.length === 0) throw new DomainError('INVALID_ARGS', 'file: is empty; send the .xlsx or .csv file as the request body', [{ path: '/file', message: 'is empty' }]);
  const format = importFormat(file.contentType, file.bytes);
  const grid = format === 'xlsx' ? xlsxGrid(file.bytes) : csvGrid(file.bytes);
  const fields = await fieldsByKey(db, dir);
  const problems: ProblemItem[] = [];
  const cols = planColumns(grid, fields, problems);
  if (problems.length) throw fileProblems(problems);
  const people = grid.rows.map((r) => {
    const o: Record<string, unknown> = {};
    const f: Record<string, unknown> = {};
    for (const c of cols) {
      const v = cellValue(r.cells[c.index], c);
      if (v === undefined) continue;
      if (c.field) f[c.field.key] = v;
      else o[c.key] = v;
    }
    if (Object.keys(f).length) o.fields = f;
    return o;
  });
  const where = new Map(cols.map((c) => [c.key, c]));
  try {
    const result = await applyPeople(db, dir, people, opts.mode, '/rows', { dryRun: opts.dryRun });
    return { ...result, rows: people.length };
  } catch (err) {
    if (!(err instanceof DomainError) || err.code !== 'INVALID_ARGS' || !err.errors) throw err;
    // `/rows/<index>/<key>` → the sheet row and the column the value came from
    throw fileProblems(
      err.errors.map((p) => {
        const m = /^\/rows\/(\d+)(?:\/(fields\/[^/]+|[^/]+))?/.exec(p.path);
        if (!m) return p;
        const row = grid.rows[Number(m[1])]?.n ?? Number(m[1]);
        const col = m[2] === undefined ? undefined : where.get(m[2]);
        const place = col ? `row ${row}, column ${columnLetter(col.index)} (${col.header})` : `row ${row}`;
        const message = p.message.replace(/\/rows\/(\d+)/g, (_s, i: string) => `row ${grid.rows[Number(i)]?.n ?? i}`);
        return { path: col ? `/rows/${row}/${col.header}` : `/rows/${row}`, message: `${place}: ${message}` };
      }),
    );
  }
}

function fileProblems(problems: ProblemItem[]): DomainError {
  return invalidArgs(problems, { lead: 'the file has problems', paths: 'none', total: problems.length });
}

/** The import template: the columns (custom fields by key) and one example row. */
export async function peopleTemplate(db: Kysely<Database>, dir: Directory, format: 'xlsx' | 'csv'): Promise<{ body: Buffer; contentType: string; filename: string }> {
  const fields = [...(await fieldsByKey(db, dir)).values()];
  const header = ['EmployeeId', 'Name', 'Email', 'Manager', ...fields.map((f) => f.key)];
  const example = ['E001', 'Ada Lovelace', 'ada@example.com', '', ...fields.map((f) => (f.type === 'number' ? 1 : f.type === 'date' ? '2026-01-31' : f.type === 'category' ? (f.options?.[0] ?? '') : ''))];
  if (format === 'xlsx') return { body: await workbookFromRows({ People: [header, example] }), contentType: XLSX_TYPE, filename: 'people-template.xlsx' };
  const line = (cells: unknown[]) => cells.map((c) => `"${String(c).replaceAll('"', '""')}"`).join(',');
  return { body: Buffer.from(`${line(header)}\r\n${line(example)}\r\n`), contentType: 'text/csv; charset=utf-8', filename: 'people-template.csv' };
}
