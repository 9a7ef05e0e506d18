/**
 * Problems found while reading an uploaded file (docs/api/import-export.md): every problem is collected
 * with the place it was found (sheet and cell, file and line) so the caller gets them all in one 400.
 * The list is capped at 100 (docs/spec/decisions.md: `errors` is capped) and reading stops there.
 * Warnings (what was converted, dropped or interpreted) are collected alike and go with a 200.
 */
import { DomainError, invalidArgs, type DomainErrorItem } from '../errors.ts';

export const MAX_PROBLEMS = 100;

/**
 * Problems of one file. Reading stops at the 101st (docs/security.md, parsing budgets): a file with
 * millions of bad cells costs the work of 100, and the answer says that reading stopped there instead
 * of counting on ("and 131071999 more").
 */
export class Problems {
  readonly items: DomainErrorItem[] = [];
  count = 0;
  /** What the 400's detail starts with; set by the reader. */
  what: string;

  constructor(what = 'the file has problems') {
    this.what = what;
  }

  add(path: string, message: string): void {
    this.count++;
    if (this.items.length < MAX_PROBLEMS) {
      this.items.push({ path, message });
      return;
    }
    throw invalidArgs(this.items, { lead: this.what, paths: 'place', total: 'stopped' });
  }

  /** Throws 400 INVALID_ARGS listing every problem, when there is any. */
  throwIfAny(what: string = this.what): void {
    if (this.count === 0) return;
    throw invalidArgs(this.items, { lead: what, paths: 'place', total: this.count });
  }
}

/** One warning of an import answer: what was converted, dropped or interpreted, and where. */
export interface ImportWarning {
  /** The first place it happened (file and line, sheet and cell); "" for the file as a whole. */
  path: string;
  message: string;
  /** How many places (cells, lines, elements) it concerns. */
  count: number;
}

const MAX_WARNING_KINDS = 100;
const MAX_PLACES = 10;

/**
 * Warnings of one import, grouped by kind (`INF in column Weight`, `key label read as the node label`):
 * each kind is one entry naming its first places (10 at most, then "and N more") and its count, so a
 * file with a million converted cells gives one line, not a million. At most 100 kinds.
 */
export class Warnings {
  private readonly kinds = new Map<string, { message: string; places: string[]; count: number }>();

  add(kind: string, place: string, message: string): void {
    let k = this.kinds.get(kind);
    if (!k) {
      if (this.kinds.size >= MAX_WARNING_KINDS) return;
      k = { message, places: [], count: 0 };
      this.kinds.set(kind, k);
    }
    k.count++;
    if (k.places.length < MAX_PLACES && place !== '') k.places.push(place);
  }

  get size(): number {
    return this.kinds.size;
  }

  list(): ImportWarning[] {
    return [...this.kinds.values()].map((k) => {
      const more = k.count > k.places.length && k.places.length > 0 ? ` and ${k.count - k.places.length} more` : '';
      const where = k.places.length > 0 ? ` (at ${k.places.join('; ')}${more})` : '';
      return { path: k.places[0] ?? '', message: `${k.message}${where}`, count: k.count };
    });
  }
}

/**
 * Parsing budgets (docs/security.md): what one upload may make a reader do besides its size in bytes.
 * A compressed upload is small; these bound what it unpacks into and what reading it builds.
 */
export const BUDGETS = {
  /** Longest physical line of a CSV (characters). */
  maxLineChars: 1 << 20,
  /** Most columns of a CSV file or a sheet (Excel's own maximum). */
  maxColumns: 16_384,
  /** Most non-empty cells of all the tables of one upload. */
  maxCells: 30_000_000,
  /**
   * Largest unpacked/packed ratio of a zip entry that unpacks to more than `ratioFloorBytes` (real
   * sheets and CSVs pack 3–30×; one line repeated, 1,000×).
   */
  maxRatio: 200,
  ratioFloorBytes: 8 << 20,
} as const;

/** One problem that makes the file unreadable as a whole (not a spreadsheet, not XML, ...). */
export function unreadable(path: string, message: string): DomainError {
  return invalidArgs([{ path, message }], { paths: 'place' });
}

export function tooLarge(message: string): DomainError {
  return new DomainError('PAYLOAD_TOO_LARGE', message);
}

/**
 * A file or workbook part as one string (the XML readers hold their document in memory). Past V8's
 * longest string (~512 M characters; only reachable when an operator raises the upload limits) it is
 * 413, not a crash.
 */
export function textOf(bytes: Uint8Array, what: string): string {
  try {
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_STRING_TOO_LONG') throw tooLarge(`${what} is too large to be read`);
    throw err;
  }
}

/** Counts the non-empty cells read from one upload against BUDGETS.maxCells (413 past it). */
export class CellBudget {
  private cells = 0;
  add(n: number): void {
    this.cells += n;
    if (this.cells > BUDGETS.maxCells) throw tooLarge(`the file has more than ${BUDGETS.maxCells} cells (the most one upload may have)`);
  }
}

/**
 * Throws 400 when a line of `bytes` (a CSV) is longer than BUDGETS.maxLineChars bytes, naming the
 * line: checked before parsing, so one huge line (a header of 250 MiB) is refused without building it.
 * `state` carries a line across chunks of a streamed file.
 */
export function checkLineLengths(bytes: Uint8Array, label: string, state: { line: number; length: number }): void {
  const max = BUDGETS.maxLineChars;
  let from = 0;
  for (;;) {
    const nl = bytes.indexOf(10, from);
    const end = nl < 0 ? bytes.length : nl;
    state.length += end - from;
    if (state.length > max) throw unreadable(`${label} line ${state.line}`, `the line is longer than ${max} bytes (the longest a CSV line may be)`);
    if (nl < 0) return;
    state.line++;
    state.length = 0;
    from = nl + 1;
  }
}
