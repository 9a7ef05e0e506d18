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

/** Which array made the count stop, and its limit. */
export interface NetworkElementsOver {
  what: 'nodes' | 'edges';
  limit: number;
}

const COUNT_DEPTH = 1024;

/**
 * The node and edge limits on a JSON text before it is parsed (issue 19, Low: a 10M-node body was parsed
 * — +1 GiB, 2.2 s with the event loop held — before its nodes were counted). Counts the elements of the
 * arrays under the keys `nodes` and `edges` of the root object or of its `networkJSON` object (the shapes
 * of every network body and file: `{ networkJSON: { nodes, edges } }` or `{ nodes, edges }`) and stops at
 * the first element over a limit, so refusing a 10M-node body costs reading its first `max` elements.
 *
 * Streaming: `feed` takes the UTF-8 bytes in chunks of any size (the server counts a body while it
 * arrives, http/json-body.ts); structural characters are ASCII and never part of a multi-byte sequence,
 * so bytes are scanned as they come. No recursion, no allocation per value; strings are skipped with
 * indexOf; keys with escapes are decoded (`"node\u0073"` counts). Duplicate keys are each counted. Text
 * that is not valid JSON is counted as far as it goes (JSON.parse reports it afterwards); nesting deeper
 * than 1,024 stops the count (the depth check refuses it).
 */
export class NetworkElementCounter {
  readonly #max: { maxNodes: number; maxEdges: number };
  // one frame per open container: kind 0 = object, 1 = array; `role`: for objects 1 when it is the
  // root's `networkJSON`, for arrays what they count (0 nothing, 1 nodes, 2 edges); `count`: elements
  // seen (arrays), -1 = none yet
  readonly #kind = new Uint8Array(COUNT_DEPTH);
  readonly #role = new Uint8Array(COUNT_DEPTH);
  readonly #count = new Float64Array(COUNT_DEPTH);
  #top = -1;
  #expectKey = false;
  /** The last key read in the root object or its `networkJSON` (0 other, 1 nodes, 2 edges, 3 networkJSON). */
  #key = 0;
  #inString = false;
  #escaped = false;
  /** The bytes of the key being read, when it is one that matters (root or networkJSON) and short. */
  #keyBytes: number[] | null = null;
  #stringIsKey = false;
  #done = false;

  constructor(max: { maxNodes: number; maxEdges: number }) {
    this.#max = max;
  }

  #limit(role: number): number {
    return role === 1 ? this.#max.maxNodes : this.#max.maxEdges;
  }

  #over(role: number): NetworkElementsOver {
    this.#done = true;
    return { what: role === 1 ? 'nodes' : 'edges', limit: this.#limit(role) };
  }

  #endKey(): void {
    const bytes = this.#keyBytes;
    this.#keyBytes = null;
    this.#key = 0;
    if (!bytes) return;
    let key: string;
    if (!bytes.includes(92)) key = String.fromCharCode(...bytes);
    else {
      try {
        key = JSON.parse(`"${new TextDecoder().decode(new Uint8Array(bytes))}"`) as string;
      } catch {
        key = '';
      }
    }
    this.#key = key === 'nodes' ? 1 : key === 'edges' ? 2 : key === 'networkJSON' && this.#top === 0 ? 3 : 0;
  }

  /** Counts the next bytes; the first limit exceeded (then nothing more is counted), else null. */
  feed(b: Uint8Array): NetworkElementsOver | null {
    if (this.#done) return null;
    // the state in locals for the loop (private fields cost several times as much per byte)
    const kind = this.#kind;
    const role = this.#role;
    const count = this.#count;
    const maxNodes = this.#max.maxNodes;
    const maxEdges = this.#max.maxEdges;
    let top = this.#top;
    let expectKey = this.#expectKey;
    let inString = this.#inString;
    let escaped = this.#escaped;
    const n = b.length;
    let i = 0;
    let result: NetworkElementsOver | null = null;
    for (; i < n; i++) {
      let c = b[i];
      if (inString) {
        if (escaped) {
          escaped = false;
          if (this.#keyBytes) this.#keyBytes.push(c);
          continue;
        }
        if (this.#keyBytes) {
          // a key that matters: byte by byte (short)
          if (c === 34) {
            inString = false;
            this.#top = top;
            this.#endKey();
          } else {
            if (c === 92) escaped = true;
            this.#keyBytes.push(c);
            if (this.#keyBytes.length > 64 * 6) this.#keyBytes = null;
          }
          continue;
        }
        // skip to the closing quote or a backslash (never reading past the end: that deoptimises the loop)
        while (c !== 34 && c !== 92) {
          if (++i >= n) break;
          c = b[i];
        }
        if (i >= n) break; // the string goes on in the next chunk
        if (c === 92) escaped = true; // the next byte is escaped
        else {
          inString = false;
          if (this.#stringIsKey) this.#key = 0;
        }
        continue;
      }
      if (c === 32 || c === 10 || c === 13 || c === 9 || c === 58 /* : */) continue;
      // a value begins here (anything but `,` `]` `}` and keys): the first element of an array counts
      if (top >= 0 && kind[top] === 1 && count[top] < 0 && c !== 44 && c !== 93 && c !== 125) {
        count[top] = 1;
        const r = role[top];
        if (r !== 0 && 1 > (r === 1 ? maxNodes : maxEdges)) {
          result = this.#over(r);
          break;
        }
      }
      if (c === 34 /* " */) {
        inString = true;
        this.#stringIsKey = expectKey;
        if (expectKey) {
          expectKey = false;
          this.#key = 0;
          this.#keyBytes = top === 0 || (top === 1 && role[1] === 1) ? [] : null;
        }
        continue;
      }
      if (c === 123 /* { */ || c === 91 /* [ */) {
        if (top + 1 >= COUNT_DEPTH) {
          this.#done = true; // the depth check refuses it
          break;
        }
        const parentKey = top >= 0 && kind[top] === 0 ? this.#key : 0;
        const parentCounts = top === 0 || (top === 1 && role[1] === 1);
        top++;
        kind[top] = c === 123 ? 0 : 1;
        role[top] = c === 123 ? (top === 1 && kind[0] === 0 && parentKey === 3 ? 1 : 0) : parentCounts && (parentKey === 1 || parentKey === 2) ? parentKey : 0;
        count[top] = -1;
        expectKey = c === 123;
        this.#key = 0;
        continue;
      }
      if (c === 125 /* } */ || c === 93 /* ] */) {
        if (top >= 0) top--;
        expectKey = false;
        continue;
      }
      if (c === 44 /* , */ && top >= 0) {
        if (kind[top] === 0) expectKey = true;
        else if (role[top] !== 0 && ++count[top] > (role[top] === 1 ? maxNodes : maxEdges)) {
          result = this.#over(role[top]);
          break;
        }
      }
    }
    this.#top = top;
    this.#expectKey = expectKey;
    this.#inString = inString;
    this.#escaped = escaped;
    return result;
  }
}

/** NetworkElementCounter on a whole text (a string is encoded first). */
export function networkElementsOver(text: string | Uint8Array, max: { maxNodes: number; maxEdges: number }): NetworkElementsOver | null {
  return new NetworkElementCounter(max).feed(typeof text === 'string' ? new TextEncoder().encode(text) : text);
}

/** The 413 message of a count over a limit. */
export function elementsOverMessage(o: NetworkElementsOver): string {
  return `the network has more than ${o.limit} ${o.what}; at most ${o.limit} are allowed (counted before parsing)`;
}

/**
 * Whether a text of this many bytes could hold more elements than the limits at all (an element takes
 * at least 2 bytes, `1,`), so that shorter texts skip the count.
 */
export function mayExceedElements(length: number, max: { maxNodes: number; maxEdges: number }): boolean {
  return length > 2 * Math.min(max.maxNodes, max.maxEdges);
}
