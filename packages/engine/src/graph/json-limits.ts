/**
 * Limits on JSON request bodies shared by the server's body parser and the metric workers.
 *
 * Nesting: the nesting limit of JSON request bodies (docs/security.md, "Input at the edge"): JSON.parse copes
 * with any depth, but code that later walks or serialises the value recursively (validation,
 * JSON.stringify) overflows the stack on a body nested 100,000 deep. Both the server's body parser and
 * the metric workers (which parse big bodies off the event loop) check the text with this one loop
 * before parsing; it never recurses and skips strings with indexOf.
 */

/** Deepest nesting of arrays and objects a body may have (a network body needs 5). */
export const MAX_JSON_DEPTH = 512;

/** True when `text` nests arrays/objects deeper than `limit` (outside strings). One pass, no recursion. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      let j = text.indexOf('"', i + 1);
      // a quote preceded by an odd number of backslashes is escaped: look further
      for (;;) {
        if (j < 0) return false; // unterminated string: JSON.parse reports it
        let k = j - 1;
        while (text.charCodeAt(k) === 92 /* \ */) k--;
        if ((j - 1 - k) % 2 === 0) break;
        j = text.indexOf('"', j + 1);
      }
      i = j;
    } else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > limit) return true;
    } else if (c === 93 /* ] */ || c === 125 /* } */) {
      depth--;
    }
  }
  return false;
}

/**
 * U+0000: PostgreSQL text cannot hold it, so requests carrying it are refused (docs/security.md).
 * The JSON pointer of the first string value or key of `value` containing U+0000, or null. Iterative.
 */
export function findNul(value: unknown): string | null {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return path;
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}/${i}`]);
      continue;
    }
    const keys = Object.keys(v);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      if (key.includes('\u0000')) return `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      stack.push([(v as Record<string, unknown>)[key], `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`]);
    }
  }
  return null;
}
