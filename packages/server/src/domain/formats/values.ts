/**
 * Value rules shared by the file formats (docs/api/import-export.md, "Values"):
 * - ids read from text (GEXF, GraphML, CSV) become Numbers when they are the canonical form of a finite
 *   number, as JavaScript prints it ("3", "-2.5", "1e+21"; not "03", "3.0", "1e3"), else Strings — so numeric ids survive a
 *   round trip and every id compares equal by its string form, as the API compares ids;
 * - a text cell is numeric when it looks like a plain decimal number (leading zeros only before a
 *   point: "007" stays text, a zip code is not a number);
 * - attribute columns of column formats (Excel, CSV) may carry a type suffix in their header,
 *   `Zip [text]` / `Score [number]`; such a header always names an attribute (so an attribute called
 *   `Name` or `Source` is written `Name [text]`), and the exporter adds the suffix only where it is
 *   needed to read the file back exactly.
 */
import type { Id } from '@netloom/engine';

const CANONICAL_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?(e[+-]\d+)?$/;
const NUMERIC_TEXT = /^[+-]?((0|[1-9]\d*)(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** An id read from text: a Number when `String(Number(s)) === s` (canonical), else the String. */
export function idFromText(s: string): Id {
  if (s.length <= 25 && CANONICAL_NUMBER.test(s)) {
    const n = Number(s);
    if (Number.isFinite(n) && String(n) === s) return n;
  }
  return s;
}

/** The number a numeric-looking text stands for, or undefined (long integers included: see losesDigits). */
export function numberFromText(s: string): number | undefined {
  const t = s.trim();
  if (t.length === 0 || t.length > 400 || !NUMERIC_TEXT.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

const INTEGER_TEXT = /^[+-]?\d+$/;

/**
 * Whether a numeric text is an integer that a Number (a double) cannot hold exactly, such as a
 * 54-digit identifier: such a column is read as text (docs/api/import-export.md, "Values").
 */
export function losesDigits(s: string): boolean {
  const t = s.trim();
  if (t.length < 16 || !INTEGER_TEXT.test(t)) return false;
  const n = Number(t);
  if (!Number.isFinite(n)) return true;
  return BigInt(n) !== BigInt(t);
}

/** Whether a numeric text is an integer beyond ±2^53 (kept as a Number only when nothing is lost). */
export function isLargeInteger(s: string): boolean {
  const t = s.trim();
  return t.length >= 16 && INTEGER_TEXT.test(t) && !Number.isSafeInteger(Number(t));
}

const NOT_A_VALUE = /^[+-]?(inf|infinity|nan)$|^null$/i;

/**
 * `INF`, `-INF`, `Infinity`, `NaN` and `null` as Gephi, Java and pandas write them in numeric columns:
 * read as absent values, with a warning listing where (JSON has no such numbers).
 */
export function isNotANumberToken(s: string): boolean {
  const t = s.trim();
  return t.length <= 9 && NOT_A_VALUE.test(t);
}

/** An XML Schema boolean (`true`, `false`, `1`, `0`, surrounding whitespace allowed) → "true"/"false". */
export function xsdBoolean(s: string): 'true' | 'false' | undefined {
  const v = s.trim().toLowerCase();
  if (v === 'true' || v === '1') return 'true';
  if (v === 'false' || v === '0') return 'false';
  return undefined;
}

export type ColumnType = 'text' | 'number';
const SUFFIX = /^(.*\S)\s+\[(text|number)\]$/;

/** Splits `Zip [text]` into its attribute name and forced type. */
export function parseHeader(header: string): { name: string; forced: ColumnType | undefined } {
  const m = SUFFIX.exec(header);
  if (m) return { name: m[1], forced: m[2] as ColumnType };
  return { name: header, forced: undefined };
}

/**
 * The header an exporter writes for attribute `name` whose values have `kinds`: plain when reading it
 * back gives the same name and values, else with a suffix. A column read without suffix is numeric
 * when most of its values are numbers or numeric texts (then a numeric text becomes a Number and any
 * other text is a problem); `[text]` keeps every value as it is (Excel cells keep their type; CSV
 * values are texts).
 */
export function headerFor(name: string, reserved: readonly string[], kinds: { numbers: number; texts: number; numericTexts: number }): string {
  const collides = reserved.some((r) => r.toLowerCase() === name.trim().toLowerCase()) || SUFFIX.test(name);
  let suffix: ColumnType | undefined;
  if (kinds.texts > 0 && isNumericColumn(kinds)) suffix = 'text';
  if (!suffix && collides) suffix = kinds.texts > 0 ? 'text' : 'number';
  return suffix ? `${name} [${suffix}]` : name;
}

/** The reading rule of a column without suffix: numeric when numbers and numeric texts are the majority. */
export function isNumericColumn(kinds: { numbers: number; texts: number; numericTexts: number }): boolean {
  return (kinds.numbers + kinds.numericTexts) * 2 > kinds.numbers + kinds.texts;
}

/** Counts the value kinds of one attribute over elements (for headerFor). */
export function countKinds(values: Iterable<unknown>): { numbers: number; texts: number; numericTexts: number } {
  let numbers = 0;
  let texts = 0;
  let numericTexts = 0;
  for (const v of values) {
    if (typeof v === 'number') numbers++;
    else if (typeof v === 'string') {
      texts++;
      if (numberFromText(v) !== undefined) numericTexts++;
    }
  }
  return { numbers, texts, numericTexts };
}

/** Attribute names in order of first appearance over the given attribute objects. */
export function attributeNames(objs: Iterable<Record<string, unknown> | undefined>): string[] {
  const seen = new Set<string>();
  for (const a of objs) if (a) for (const k of Object.keys(a)) seen.add(k);
  return [...seen];
}

/**
 * The cells an export of a network writes (docs/api/import-export.md "Export limits"): every node times
 * its table's columns (id, X, Y, Image when any node has them, one per node attribute) plus every edge
 * times its table's (source, target, id, one per edge attribute). The same measure for every format: it
 * is the work and memory an export takes.
 */
export function exportCells(net: { nodes: { x?: unknown; y?: unknown; image?: unknown; attributes?: Record<string, unknown> }[]; edges?: { attributes?: Record<string, unknown> }[] }): number {
  const nodes = net.nodes;
  const edges = net.edges ?? [];
  let x = 0;
  let y = 0;
  let image = 0;
  for (const n of nodes) {
    if (n.x !== undefined) x = 1;
    if (n.y !== undefined) y = 1;
    if (n.image !== undefined) image = 1;
  }
  const nodeColumns = 1 + x + y + image + attributeNames(nodes.map((n) => n.attributes)).length;
  const edgeColumns = 3 + attributeNames(edges.map((e) => e.attributes)).length;
  return nodes.length * nodeColumns + edges.length * edgeColumns;
}

/** `#rrggbb` (or `#rgb`) → normalized lower-case `#rrggbb`, else undefined. */
export function hexColor(s: unknown): string | undefined {
  if (typeof s !== 'string') return undefined;
  const m = /^#([0-9a-f]{6}|[0-9a-f]{3})$/i.exec(s.trim());
  if (!m) return undefined;
  const h = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
  return `#${h.toLowerCase()}`;
}

/** A safe file name for Content-Disposition (ASCII fallback). */
export function fileBaseName(name: string): string {
  const ascii = name.normalize('NFKD').replace(/[^\w.\- ]+/g, '').trim().replace(/\s+/g, '-');
  return ascii.slice(0, 80) || 'network';
}
