/**
 * Problems found while reading an uploaded file (docs/api/import-export.md): every problem is collected
 * with the place it was found (sheet and cell, file and line) so the caller gets them all in one 400.
 * The list is capped at 100 (docs/spec/decisions.md: `errors` is capped); the count keeps going.
 */
import { DomainError, type DomainErrorItem } from '../errors.ts';

export const MAX_PROBLEMS = 100;

export class Problems {
  readonly items: DomainErrorItem[] = [];
  count = 0;

  add(path: string, message: string): void {
    this.count++;
    if (this.items.length < MAX_PROBLEMS) this.items.push({ path, message });
  }

  /** Throws 400 INVALID_ARGS listing every problem, when there is any. */
  throwIfAny(what: string): void {
    if (this.count === 0) return;
    const first = this.items[0];
    const more = this.count > 1 ? ` (and ${this.count - 1} more problem${this.count > 2 ? 's' : ''})` : '';
    throw new DomainError('INVALID_ARGS', `${what}: ${first.path}: ${first.message}${more}`, this.items);
  }
}

/** One problem that makes the file unreadable as a whole (not a spreadsheet, not XML, ...). */
export function unreadable(path: string, message: string): DomainError {
  return new DomainError('INVALID_ARGS', `${path}: ${message}`, [{ path, message }]);
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
