/**
 * The one "first problem → detail" rule of every 400 INVALID_ARGS (docs/errors.md): a problem answer lists
 * what is wrong in `errors` (`{ path, message }`, a JSON pointer or a place in a file) and its `detail` names
 * the first one. The engine (`EngineError`) and the server (`DomainError`, `HttpProblem`, the importers)
 * build every such detail here, so they read alike: `networkJSON.edges.3.target: must be a string`.
 * Plain functions: no Node, no DOM.
 */

/** One problem of a request: a JSON pointer (`/networkJSON/edges/3/target`, `/query/limit`) or a place in a file, and what is wrong. */
export interface ProblemItem {
  path: string;
  message: string;
}

/** A JSON pointer as a field name for messages: `/networkJSON/edges/3` → `networkJSON.edges.3` (U+0000 shown escaped). */
export function fieldOf(pointer: string): string {
  return pointer.replace(/^\//, '').replaceAll('/', '.').replaceAll('\u0000', '\\u0000');
}

export interface ProblemDetailOptions {
  /** What the root (path `""`) is called: `body` (default), `parameters`; `''` shows its message alone. */
  whole?: string;
  /** What the paths are: JSON pointers, shown as fields (default); places in a file (`nodes.csv line 4`), shown as they are; or not shown (the message names the place). */
  paths?: 'pointer' | 'place' | 'none';
  /** Words the detail starts with (`the file has problems`). */
  lead?: string;
  /** How many problems there are in all, when the detail says so: `(and 2 more problems)`; `'stopped'`: reading stopped at the ones listed. */
  total?: number | 'stopped';
}

/** The `detail` of an INVALID_ARGS problem: its first problem as `field: message` (see the header). A string option is `whole`. */
export function problemDetail(problems: readonly ProblemItem[], options: string | ProblemDetailOptions = {}): string {
  const o = typeof options === 'string' ? { whole: options } : options;
  const whole = o.whole ?? 'body';
  const first = problems[0];
  let text: string;
  if (!first) text = `${whole}: is invalid`;
  else {
    const where = o.paths === 'none' ? '' : o.paths === 'place' ? first.path : fieldOf(first.path) || whole;
    text = where ? `${where}: ${first.message}` : first.message;
  }
  const more =
    o.total === 'stopped' ? ` (and more: reading stopped after ${problems.length} problems)` : o.total !== undefined && o.total > 1 ? ` (and ${o.total - 1} more problem${o.total > 2 ? 's' : ''})` : '';
  return `${o.lead ? `${o.lead}: ` : ''}${text}${more}`;
}
