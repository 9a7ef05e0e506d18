/**
 * Reads the sheets of an xlsx workbook (SpreadsheetML, ECMA-376) into tables of typed cells, from the
 * parts zip.ts already checked and inflated, with the tokenizer of xml-scan.ts. exceljs's streaming
 * reader did this before and built a Row and a Cell object per cell (60 % of an import's time,
 * docs/benchmarks.md); exceljs still writes workbooks.
 *
 * What it follows: the package relationships to the workbook, its sheets (in workbook order) and their
 * parts; the shared-string table (rich-text runs joined, phonetic runs left out); the cell styles, to
 * tell dates (a number whose number format is a date format, built-in or custom) from numbers, and the
 * workbook's 1904 date system. Cells: shared strings (`t="s"`), inline strings (`inlineStr`), formula
 * strings (`str`, the cached result), booleans (`b` → "true"/"false"), ISO dates (`d`), errors (`e`, a
 * problem at the cell) and numbers; a formula cell is its cached value; cell references may skip
 * columns and rows (absent references count on from the previous cell or row). Only the sheets the
 * caller wants are read.
 */
import { columnLetter, type Cell, type Table } from './columns.ts';
import { BUDGETS, CellBudget, textOf, unreadable, type Problems } from './problems.ts';
import { attr, localPart, scanXml, XmlScanError, type ScanHandlers } from './xml-scan.ts';

export interface Sheet {
  name: string;
  table: Table;
}

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/';
const STRICT_REL = 'http://purl.oclc.org/ooxml/officeDocument/relationships/';

/** Built-in number formats that show dates or times (ECMA-376 18.8.30, and the East Asian ones). */
function builtinDate(id: number): boolean {
  return (id >= 14 && id <= 22) || (id >= 27 && id <= 36) || (id >= 45 && id <= 47) || (id >= 50 && id <= 58);
}

/**
 * A custom format code that shows a date or time: y m d h s outside quotes, brackets, escapes and the
 * keyword General (LibreOffice writes `General` as a custom format).
 */
export function isDateFormat(code: string): boolean {
  const bare = code.replace(/\[[^\]]*\]/g, '').replace(/"[^"]*"/g, '').replace(/\\./g, '').replace(/_.|\*./g, '').replace(/general/gi, '');
  return /[ymdhs]/i.test(bare.split(';')[0]);
}

/** A Date → the text the importer keeps: `YYYY-MM-DD` for whole days, else the ISO instant. */
export function dateText(d: Date): string | { error: string } {
  if (Number.isNaN(d.getTime())) return { error: 'invalid date' };
  const iso = d.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
}

/** An Excel serial day number → Date (as exceljs and Excel count; 1904 system when the workbook says so). */
function excelDate(serial: number, date1904: boolean): Date {
  return new Date(Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 86_400_000));
}

/** `dir/../x.xml` → `x.xml`; a target starting with `/` is from the package root. */
function resolvePart(fromPart: string, target: string): string {
  const parts = target.startsWith('/') ? [] : fromPart.split('/').slice(0, -1);
  for (const seg of target.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return parts.join('/');
}

class Workbook {
  private readonly parts: Map<string, Uint8Array>;
  private readonly label: string;
  constructor(parts: Map<string, Uint8Array>, label: string) {
    this.parts = parts;
    this.label = label;
  }

  /** The part's bytes (names match case-insensitively, as OPC says). */
  data(name: string): Uint8Array | undefined {
    const data = this.parts.get(name);
    if (data) return data;
    const lower = name.toLowerCase();
    for (const [k, v] of this.parts) if (k.toLowerCase() === lower) return v;
    return undefined;
  }

  /** The part's text, or undefined when the package has no such part. */
  text(name: string): string | undefined {
    const data = this.data(name);
    if (!data) return undefined;
    return textOf(data, `${this.label}: ${name}`);
  }

  scan(name: string, h: ScanHandlers): boolean {
    const s = this.text(name);
    if (s === undefined) return false;
    try {
      scanXml(s, h);
    } catch (err) {
      if (err instanceof XmlScanError) throw unreadable(this.label, `the workbook cannot be read: ${name} line ${err.line}, column ${err.column}: ${err.message}`);
      throw err;
    }
    return true;
  }

  /** Relationships of a part: id → { type (last path segment), target part }. */
  rels(ofPart: string): Map<string, { type: string; target: string }> {
    const slash = ofPart.lastIndexOf('/');
    const relsPart = `${ofPart.slice(0, slash + 1)}_rels/${ofPart.slice(slash + 1)}.rels`;
    const out = new Map<string, { type: string; target: string }>();
    this.scan(relsPart, {
      open(name, a) {
        if (localPart(name) !== 'Relationship' || attr(a, 'TargetMode') === 'External') return;
        const id = attr(a, 'Id');
        const type = attr(a, 'Type') ?? '';
        const target = attr(a, 'Target');
        if (id === undefined || target === undefined) return;
        out.set(id, { type: type.startsWith(REL) || type.startsWith(STRICT_REL) ? type.slice(type.lastIndexOf('/') + 1) : type, target: resolvePart(ofPart, target) });
      },
      close() {},
      text() {},
    });
    return out;
  }
}

function sharedStrings(wb: Workbook, part: string | undefined): string[] {
  const out: string[] = [];
  if (!part) return out;
  let cur: string | null = null;
  let inT = false;
  let phonetic = 0;
  wb.scan(part, {
    open(name) {
      const l = localPart(name);
      if (l === 'si') cur = '';
      else if (l === 'rPh') phonetic++;
      else if (l === 't' && cur !== null && phonetic === 0) inT = true;
    },
    close(name) {
      const l = localPart(name);
      if (l === 'si') {
        out.push(cur ?? '');
        cur = null;
      } else if (l === 'rPh') phonetic--;
      else if (l === 't') inT = false;
    },
    text(t) {
      if (inT) cur += t;
    },
  });
  return out;
}

/** Per cell style index: does it format numbers as dates? */
function dateStyles(wb: Workbook, part: string | undefined): boolean[] {
  const out: boolean[] = [];
  if (!part) return out;
  const custom = new Map<number, string>();
  let inCellXfs = false;
  wb.scan(part, {
    open(name, a) {
      const l = localPart(name);
      if (l === 'numFmt') custom.set(Number(attr(a, 'numFmtId')), attr(a, 'formatCode') ?? '');
      else if (l === 'cellXfs') inCellXfs = true;
      else if (l === 'xf' && inCellXfs) {
        const id = Number(attr(a, 'numFmtId') ?? 0);
        const code = custom.get(id);
        out.push(code !== undefined ? isDateFormat(code) : builtinDate(id));
      }
    },
    close(name) {
      if (localPart(name) === 'cellXfs') inCellXfs = false;
    },
    text() {},
  });
  return out;
}

/** `B12` → 1 (0-based column), or -1. */
function columnOf(ref: string): number {
  let col = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i) & ~32; // upper case
    if (c < 65 || c > 90) break;
    col = col * 26 + (c - 64);
  }
  return i === 0 || col > 16384 ? -1 : col - 1;
}

interface SheetContext {
  strings: string[];
  dates: boolean[];
  date1904: boolean;
  problems: Problems;
  cells: CellBudget;
}

function readSheet(wb: Workbook, part: string, name: string, key: string, ctx: SheetContext): Table {
  const table: Table = { header: [], headerRow: 0, rows: [] };
  const { strings, dates, date1904, problems } = ctx;
  let rowNum = 0;
  let cells: Cell[] = [];
  let any = false;
  let inRow = false;
  let col = -1;
  let type = 'n';
  let style = 0;
  let value: string | undefined;
  let capture = false;
  let inInline = false;
  let phonetic = 0;

  const bad = (why: string) => problems.add(`${name}!${columnLetter(col)}${rowNum}`, `row ${rowNum}: the cell holds an error or unsupported value (${why})`);
  const finishCell = (): Cell | null => {
    if (value === undefined) return undefined;
    switch (type) {
      case 's': {
        const idx = Number(value);
        const s = strings[idx];
        if (!Number.isInteger(idx) || s === undefined) {
          bad(`shared string ${JSON.stringify(value.slice(0, 20))} does not exist`);
          return null;
        }
        return s.trim() === '' ? undefined : s;
      }
      case 'str':
      case 'inlineStr':
        return value.trim() === '' ? undefined : value;
      case 'b': {
        const b = value.trim();
        if (b === '1' || b === 'true') return 'true';
        if (b === '0' || b === 'false') return 'false';
        bad(`boolean ${JSON.stringify(b.slice(0, 20))}`);
        return null;
      }
      case 'e':
        bad(value);
        return null;
      case 'd': {
        const d = dateText(new Date(value.trim()));
        if (typeof d === 'object') {
          bad(d.error);
          return null;
        }
        return d;
      }
      default: {
        if (value.trim() === '') return undefined;
        const num = Number(value);
        if (!Number.isFinite(num)) {
          bad(value.slice(0, 20));
          return null;
        }
        if (dates[style]) {
          const d = dateText(excelDate(num, date1904));
          if (typeof d === 'object') {
            bad(d.error);
            return null;
          }
          return d;
        }
        return num;
      }
    }
  };

  wb.scan(part, {
    open(tag, a) {
      const l = localPart(tag);
      if (l === 'c') {
        if (!inRow) return;
        const ref = attr(a, 'r');
        const at = ref === undefined ? -1 : columnOf(ref);
        col = at >= 0 ? at : col + 1;
        type = attr(a, 't') ?? 'n';
        const s = attr(a, 's');
        style = s === undefined ? 0 : Number(s);
        value = undefined;
        inInline = false;
      } else if (l === 'v') {
        if (!inRow) return;
        capture = true;
        value = '';
      } else if (l === 'row') {
        const r = Number(attr(a, 'r'));
        rowNum = Number.isInteger(r) && r > 0 ? r : rowNum + 1;
        inRow = true;
        col = -1;
        cells = [];
        any = false;
      } else if (l === 'is') {
        inInline = true;
        value = '';
      } else if (l === 't') {
        if (inInline && phonetic === 0) capture = true;
      } else if (l === 'rPh') phonetic++;
    },
    close(tag) {
      const l = localPart(tag);
      if (l === 'v' || l === 't') capture = false;
      else if (l === 'c') {
        if (!inRow) return;
        const c = finishCell();
        if (c !== undefined && c !== null) {
          if (col >= BUDGETS.maxColumns) throw unreadable(`${name}!${columnLetter(col)}${rowNum}`, `a cell beyond column ${columnLetter(BUDGETS.maxColumns - 1)} (the most columns a sheet may have)`);
          cells[col] = c;
          any = true;
          ctx.cells.add(1);
        }
        value = undefined;
      } else if (l === 'row') {
        inRow = false;
        if (!any) return;
        if (table.headerRow === 0 && key !== 'network') {
          table.headerRow = rowNum;
          table.header = Array.from(cells, (c) => (c === undefined ? undefined : String(c)));
        } else table.rows.push({ n: rowNum, cells });
      } else if (l === 'is') inInline = false;
      else if (l === 'rPh') phonetic--;
    },
    text(t) {
      if (capture) value += t;
    },
  });
  return table;
}

/**
 * The wanted sheets (keyed by their lower-case trimmed name, first of each name) and the names of all
 * sheets, from the checked parts of a workbook.
 */
export function readWorkbook(parts: Map<string, Uint8Array>, label: string, problems: Problems, wanted: readonly string[]): { sheets: Map<string, Sheet>; names: string[] } {
  const wb = new Workbook(parts, label);
  const notWorkbook = (why: string) => unreadable(label, `the workbook cannot be read (is it a valid .xlsx file?): ${why}`);
  let book: string | undefined;
  for (const r of wb.rels('').values()) if (r.type === 'officeDocument') book ??= r.target;
  book ??= 'xl/workbook.xml';
  const entries: { name: string; rid: string | undefined }[] = [];
  let date1904 = false;
  const found = wb.scan(book, {
    open(name, a) {
      const l = localPart(name);
      if (l === 'sheet') {
        let rid: string | undefined;
        for (let i = 0; i < a.length; i += 2) if (a[i].endsWith(':id')) rid = a[i + 1];
        entries.push({ name: attr(a, 'name') ?? `Sheet${entries.length + 1}`, rid });
      } else if (l === 'workbookPr') {
        const v = attr(a, 'date1904');
        date1904 = v === '1' || v === 'true';
      }
    },
    close() {},
    text() {},
  });
  if (!found) throw notWorkbook(`it has no ${book}`);
  const rels = wb.rels(book);
  let stringsPart: string | undefined;
  let stylesPart: string | undefined;
  for (const r of rels.values()) {
    if (r.type === 'sharedStrings') stringsPart ??= r.target;
    else if (r.type === 'styles') stylesPart ??= r.target;
  }
  const ctx: SheetContext = { strings: sharedStrings(wb, stringsPart), dates: dateStyles(wb, stylesPart), date1904, problems, cells: new CellBudget() };
  const sheets = new Map<string, Sheet>();
  const names: string[] = [];
  for (const e of entries) {
    names.push(e.name);
    const key = e.name.trim().toLowerCase();
    if (!wanted.includes(key) || sheets.has(key)) continue;
    const part = e.rid === undefined ? undefined : rels.get(e.rid)?.target;
    if (part === undefined || wb.data(part) === undefined) throw notWorkbook(`the part of sheet ${JSON.stringify(e.name)} is missing`);
    sheets.set(key, { name: e.name, table: readSheet(wb, part, e.name, key, ctx) });
  }
  return { sheets, names };
}
