/**
 * A small, strict XML tokenizer for documents held in memory as one string (the parts of an xlsx
 * workbook, already inflated by zip.ts). It exists for speed: a workbook of 300k rows is tens of
 * millions of elements, and a general SAX parser (saxes) spends most of its time checking each
 * character; this one jumps from `<` to `<` with `indexOf` and hands out attribute pairs in one reused
 * array (no object per element).
 *
 * It is a well-formedness checker for what it reads: tags must nest and match, attributes must be
 * quoted and unique, only the five predefined entities and character references are expanded (no DTD:
 * a `<!DOCTYPE` is refused, so there are no entity bombs or external entities), and text or elements
 * outside the single root element are refused. Line ends are normalised (`\r\n` → `\n`) and, in
 * attribute values, whitespace characters become spaces, as XML prescribes. It does not check the
 * characters of names or namespaces (callers match local names). Any violation throws XmlScanError with
 * the line and column.
 */

export class XmlScanError extends Error {
  readonly line: number;
  readonly column: number;
  constructor(message: string, line: number, column: number) {
    super(message);
    this.name = 'XmlScanError';
    this.line = line;
    this.column = column;
  }
}

export interface ScanHandlers {
  /**
   * A start tag (also for `<a/>`, which is followed by `close`). `attrs` holds name/value pairs flat —
   * `[name0, value0, name1, value1, …]`, values decoded — and is reused: copy what you keep. `at` is
   * the offset of the tag's `<` (lineAt turns it into a line number).
   */
  open(name: string, attrs: readonly string[], at: number): void;
  close(name: string): void;
  /** Character data (text and CDATA) inside the root element, decoded; may arrive in several pieces. */
  text(text: string): void;
}

/** Local name of a (possibly prefixed) name: `x:row` → `row`. */
export function localPart(name: string): string {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
}

/** The value of attribute `name` (exact, prefix included) in a scanner's `attrs`, or undefined. */
export function attr(attrs: readonly string[], name: string): string | undefined {
  for (let i = 0; i < attrs.length; i += 2) if (attrs[i] === name) return attrs[i + 1];
  return undefined;
}

/**
 * Offset → 1-based line number of a document; the index of line starts is built on the first question
 * (a file read without problems never needs one).
 */
export function lineIndex(s: string): (offset: number) => number {
  let starts: number[] | undefined;
  return (offset) => {
    if (!starts) {
      starts = [0];
      for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) starts.push(i + 1);
    }
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

const isSpace = (c: number) => c === 32 || c === 10 || c === 9 || c === 13;

function fail(s: string, offset: number, message: string): never {
  let line = 1;
  let lineStart = 0;
  for (let i = s.indexOf('\n'); i >= 0 && i < offset; i = s.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  throw new XmlScanError(message, line, offset - lineStart + 1);
}

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Expands entity and character references in `raw` (found at `offset` of `s`, for errors). */
function expand(s: string, raw: string, offset: number): string {
  let out = '';
  let from = 0;
  for (let amp = raw.indexOf('&'); amp >= 0; amp = raw.indexOf('&', from)) {
    const semi = raw.indexOf(';', amp + 1);
    if (semi < 0) fail(s, offset + amp, "an '&' that starts no reference (write &amp;)");
    const ref = raw.slice(amp + 1, semi);
    let ch: string | undefined;
    if (ref.charCodeAt(0) === 35 /* # */) {
      const hex = ref.charCodeAt(1) === 120; /* x */
      const digits = ref.slice(hex ? 2 : 1);
      const cp = (hex ? /^[0-9a-fA-F]{1,6}$/ : /^[0-9]{1,7}$/).test(digits) ? parseInt(digits, hex ? 16 : 10) : -1;
      if (cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff)) ch = String.fromCodePoint(cp);
    } else ch = PREDEFINED[ref];
    if (ch === undefined) fail(s, offset + amp, `unknown or invalid reference &${ref.slice(0, 20)};`);
    out += raw.slice(from, amp) + ch;
    from = semi + 1;
  }
  return out + raw.slice(from);
}

function textValue(s: string, raw: string, offset: number): string {
  let t = raw;
  if (t.indexOf('\r') >= 0) t = t.replace(/\r\n?/g, '\n');
  return t.indexOf('&') >= 0 ? expand(s, t, offset) : t;
}

function attrValue(s: string, raw: string, offset: number): string {
  let t = raw;
  if (/[\t\n\r]/.test(t)) t = t.replace(/\r\n|[\t\n\r]/g, ' ');
  return t.indexOf('&') >= 0 ? expand(s, t, offset) : t;
}

function isBlank(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpace(s.charCodeAt(i))) return false;
  return true;
}

export function scanXml(s: string, h: ScanHandlers): void {
  const n = s.length;
  const stack: string[] = [];
  const attrs: string[] = [];
  let sawRoot = false;
  let i = s.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < n) {
    const lt = s.indexOf('<', i);
    const end = lt < 0 ? n : lt;
    if (end > i) {
      if (stack.length > 0) h.text(textValue(s, s.slice(i, end), i));
      else if (!isBlank(s, i, end)) fail(s, i, sawRoot ? 'text after the root element' : 'text before the root element');
    }
    if (lt < 0) break;
    const c = s.charCodeAt(lt + 1);
    if (c === 47 /* / */) {
      // compared in place with the open element's name (no string made per end tag)
      const open = stack.pop() ?? '';
      let e = lt + 2 + open.length;
      if (open === '' || !s.startsWith(open, lt + 2)) e = -1;
      else while (e < n && isSpace(s.charCodeAt(e))) e++;
      if (e < 0 || s.charCodeAt(e) !== 62) {
        const gt = s.indexOf('>', lt + 2);
        if (gt < 0) fail(s, lt, 'an end tag is not terminated');
        const name = s.slice(lt + 2, gt).trim().slice(0, 40);
        fail(s, lt, open === '' ? `</${name}> closes nothing` : `</${name}> does not close <${open}>`);
      }
      h.close(open);
      i = e + 1;
    } else if (c === 63 /* ? */) {
      const e = s.indexOf('?>', lt + 2);
      if (e < 0) fail(s, lt, 'a processing instruction is not terminated');
      i = e + 2;
    } else if (c === 33 /* ! */) {
      if (s.startsWith('!--', lt + 1)) {
        const e = s.indexOf('-->', lt + 4);
        if (e < 0) fail(s, lt, 'a comment is not terminated');
        i = e + 3;
      } else if (s.startsWith('![CDATA[', lt + 1)) {
        const e = s.indexOf(']]>', lt + 9);
        if (e < 0) fail(s, lt, 'a CDATA section is not terminated');
        if (stack.length === 0) fail(s, lt, 'CDATA outside the root element');
        h.text(s.slice(lt + 9, e).replace(/\r\n?/g, '\n'));
        i = e + 3;
      } else if (s.startsWith('!DOCTYPE', lt + 1)) {
        fail(s, lt, 'a <!DOCTYPE> is not allowed (DTDs and entity declarations are refused)');
      } else fail(s, lt, "malformed markup after '<!'");
    } else {
      // a start tag: its name, then name="value" pairs, then > or />
      let p = lt + 1;
      for (; p < n; p++) {
        const ch = s.charCodeAt(p);
        if (isSpace(ch) || ch === 47 || ch === 62) break;
        if (ch === 60 || ch === 61 || ch === 34 || ch === 39 || ch === 38) fail(s, p, 'malformed tag name');
      }
      if (p === lt + 1) fail(s, lt, "a '<' that starts no tag (write &lt;)");
      const name = s.slice(lt + 1, p);
      if (sawRoot && stack.length === 0) fail(s, lt, 'a second root element');
      attrs.length = 0;
      let selfClosing = false;
      for (;;) {
        const before = p;
        while (p < n && isSpace(s.charCodeAt(p))) p++;
        if (p >= n) fail(s, lt, `the tag <${name.slice(0, 40)}> is not terminated`);
        const ch = s.charCodeAt(p);
        if (ch === 62 /* > */) {
          p++;
          break;
        }
        if (ch === 47 /* / */) {
          if (s.charCodeAt(p + 1) !== 62) fail(s, p, "'/' inside a tag");
          selfClosing = true;
          p += 2;
          break;
        }
        if (p === before) fail(s, p, 'attributes must be separated by whitespace');
        const a0 = p;
        for (; p < n; p++) {
          const cc = s.charCodeAt(p);
          if (cc === 61 || isSpace(cc) || cc === 62 || cc === 47 || cc === 60 || cc === 34 || cc === 39) break;
        }
        const an = s.slice(a0, p);
        while (p < n && isSpace(s.charCodeAt(p))) p++;
        if (p === a0 || s.charCodeAt(p) !== 61) fail(s, a0, `malformed attribute in <${name.slice(0, 40)}>`);
        p++;
        while (p < n && isSpace(s.charCodeAt(p))) p++;
        const q = s.charCodeAt(p);
        if (q !== 34 && q !== 39) fail(s, p, `the value of attribute ${an.slice(0, 40)} is not quoted`);
        const ve = s.indexOf(q === 34 ? '"' : "'", p + 1);
        if (ve < 0) fail(s, p, `the value of attribute ${an.slice(0, 40)} is not terminated`);
        // one pass over the value: '<' is refused; references and whitespace characters need work
        let special = false;
        for (let k = p + 1; k < ve; k++) {
          const cc = s.charCodeAt(k);
          if (cc === 60) fail(s, k, `'<' in the value of attribute ${an.slice(0, 40)}`);
          if (cc === 38 || cc === 9 || cc === 10 || cc === 13) special = true;
        }
        for (let k = 0; k < attrs.length; k += 2) if (attrs[k] === an) fail(s, a0, `attribute ${an.slice(0, 40)} appears twice`);
        const raw = s.slice(p + 1, ve);
        attrs.push(an, special ? attrValue(s, raw, p + 1) : raw);
        p = ve + 1;
      }
      sawRoot = true;
      if (!selfClosing) stack.push(name);
      h.open(name, attrs, lt);
      if (selfClosing) h.close(name);
      i = p;
    }
  }
  if (stack.length > 0) fail(s, n, `<${stack[stack.length - 1]}> is not closed`);
  if (!sawRoot) fail(s, n, 'no root element');
}
