/**
 * Id interning for node and edge ids. Ids are compared by their string form (docs/spec/decisions.md §4.1):
 * the Number 7 and the String "7" are the same id, 1.5 is "1.5", 1e21 is "1e+21".
 *
 * Speed matters here: a 1M-node / 5M-edge network resolves 10M endpoints, and `Map.get(String(id))`
 * allocates and hashes a fresh string per lookup. Ids whose string form is a whole number in
 * [0, 2^31) — the Numbers 0, 1, 2, … and the Strings "0", "1", "2", … (canonical: no sign, no leading
 * zero, no exponent) — are looked up without any string: in a dense Int32Array while they are below a
 * bound proportional to the expected count, in a Map keyed by the number above it. Every other id is
 * looked up by its string form in a Map. The two sets of keys are disjoint, so each string form has
 * exactly one home.
 */

/** Largest key + 1 of the integer fast path (2^31: small integers; String(k) is all digits). */
const INT_LIMIT = 2 ** 31;

/** The integer key of an id, or -1 when the id's string form is not a canonical whole number < 2^31. */
export function intKey(id: unknown): number {
  if (typeof id === 'number') {
    // -0 counts as 0 (String(-0) is "0"); non-integers and out-of-range integers go by string
    return id >= 0 && id < INT_LIMIT && Math.floor(id) === id ? id | 0 : -1;
  }
  if (typeof id !== 'string') return -1;
  const len = id.length;
  if (len === 0 || len > 10) return -1;
  let c = id.charCodeAt(0) - 48;
  if (c < 0 || c > 9 || (c === 0 && len > 1)) return -1;
  let k = c;
  for (let i = 1; i < len; i++) {
    c = id.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    k = k * 10 + c;
  }
  return k < INT_LIMIT ? k : -1;
}

/** A map from id (by string form) to a non-negative integer value (an index). */
export class IdIndex {
  private dense: Int32Array;
  private readonly denseLimit: number;
  private big: Map<number, number> | null = null;
  private strings: Map<string, number> | null = null;

  /** `expected`: about how many ids will be added (sizes the dense table). */
  constructor(expected: number) {
    this.denseLimit = Math.min(INT_LIMIT, 2 * expected + 1024);
    this.dense = new Int32Array(Math.min(this.denseLimit, 1024)).fill(-1);
  }

  /** The value of an id (compared by string form, so any value works), or -1 when absent. */
  get(id: unknown): number {
    const k = intKey(id);
    if (k >= 0) {
      if (k < this.denseLimit) return k < this.dense.length ? this.dense[k] : -1;
      return this.big?.get(k) ?? -1;
    }
    return this.strings?.get(typeof id === 'string' ? id : String(id)) ?? -1;
  }

  /** Sets the value of an id; `onlyNew`: keep an existing value and return false. Returns true when set. */
  set(id: unknown, value: number, onlyNew = false): boolean {
    const k = intKey(id);
    if (k >= 0) {
      if (k < this.denseLimit) {
        if (k >= this.dense.length) this.grow(k);
        if (onlyNew && this.dense[k] !== -1) return false;
        this.dense[k] = value;
        return true;
      }
      this.big ??= new Map();
      if (onlyNew && this.big.has(k)) return false;
      this.big.set(k, value);
      return true;
    }
    this.strings ??= new Map();
    const s = typeof id === 'string' ? id : String(id);
    if (onlyNew && this.strings.has(s)) return false;
    this.strings.set(s, value);
    return true;
  }

  /** Adds an id if absent (value kept); false when it was already there. */
  add(id: unknown, value = 0): boolean {
    return this.set(id, value, true);
  }

  private grow(k: number): void {
    let size = this.dense.length;
    while (size <= k) size *= 2;
    const next = new Int32Array(Math.min(size, this.denseLimit)).fill(-1);
    next.set(this.dense);
    this.dense = next;
  }
}
