/**
 * Inline GitHub-flavoured Markdown for attribute names and values in the details panel: **bold**,
 * *italic* / _italic_, ~~strike~~, `code`, [text](url), bare https:// links, line breaks. Parsed to a
 * token tree that the DOM side turns into elements with textContent only — never innerHTML — so no
 * markup in the data can run or inject anything. Links keep http(s) and mailto URLs only. Also the block
 * Markdown of chat answers (parseBlocks): paragraphs, `-`/`*` and `1.` lists, `|` tables, `#` headings,
 * fenced code. No DOM; markdown-dom.ts is the one renderer of both.
 */
export type MdNode =
  | { type: 'text'; text: string }
  | { type: 'br' }
  | { type: 'code'; text: string }
  | { type: 'strong' | 'em' | 'del'; children: MdNode[] }
  | { type: 'link'; href: string; children: MdNode[] };

export function safeHref(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === 'mailto:' ? u.href : null;
  } catch {
    return null;
  }
}

const DELIMS: [string, 'strong' | 'em' | 'del'][] = [['**', 'strong'], ['__', 'strong'], ['~~', 'del'], ['*', 'em'], ['_', 'em']];

export function parseInline(src: string, depth = 0): MdNode[] {
  const out: MdNode[] = [];
  let text = '';
  const flush = () => {
    if (text) out.push({ type: 'text', text });
    text = '';
  };
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === '\\' && i + 1 < src.length && /[\\`*_~[\]()]/.test(src[i + 1])) {
      text += src[i + 1];
      i += 2;
      continue;
    }
    if (c === '\n') {
      flush();
      out.push({ type: 'br' });
      i++;
      continue;
    }
    if (c === '`') {
      const end = src.indexOf('`', i + 1);
      if (end > i) {
        flush();
        out.push({ type: 'code', text: src.slice(i + 1, end) });
        i = end + 1;
        continue;
      }
    }
    if (c === '[' && depth < 4) {
      const close = src.indexOf('](', i + 1);
      const end = close > 0 ? src.indexOf(')', close + 2) : -1;
      if (close > i && end > close) {
        const href = safeHref(src.slice(close + 2, end).trim());
        flush();
        const children = parseInline(src.slice(i + 1, close), depth + 1);
        out.push(href ? { type: 'link', href, children } : { type: 'text', text: src.slice(i + 1, close) });
        i = end + 1;
        continue;
      }
    }
    if ((src.startsWith('https://', i) || src.startsWith('http://', i)) && (i === 0 || /\s|\(/.test(src[i - 1]))) {
      const m = /^https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"]/.exec(src.slice(i));
      const href = m ? safeHref(m[0]) : null;
      if (m && href) {
        flush();
        out.push({ type: 'link', href, children: [{ type: 'text', text: m[0] }] });
        i += m[0].length;
        continue;
      }
    }
    let matched = false;
    if (depth < 4) {
      for (const [d, type] of DELIMS) {
        if (!src.startsWith(d, i) || /\s/.test(src[i + d.length] ?? ' ')) continue;
        // `_` only at word boundaries (snake_case stays text), as in GFM.
        if (d[0] === '_' && i > 0 && /\w/.test(src[i - 1])) continue;
        let end = src.indexOf(d, i + d.length + 1);
        while (end > 0 && (/\s/.test(src[end - 1]) || (d[0] === '_' && /\w/.test(src[end + d.length] ?? ' ')))) end = src.indexOf(d, end + 1);
        if (end < 0) continue;
        flush();
        out.push({ type, children: parseInline(src.slice(i + d.length, end), depth + 1) });
        i = end + d.length;
        matched = true;
        break;
      }
    }
    if (matched) continue;
    text += c;
    i++;
  }
  flush();
  return out;
}

export function plainText(nodes: MdNode[]): string {
  return nodes.map((n) => (n.type === 'text' || n.type === 'code' ? n.text : n.type === 'br' ? '\n' : plainText(n.children))).join('');
}

export type MdBlock =
  | { type: 'p'; children: MdNode[] }
  | { type: 'h'; children: MdNode[] }
  | { type: 'ul' | 'ol'; items: MdNode[][] }
  | { type: 'table'; head: MdNode[][]; rows: MdNode[][][] }
  | { type: 'pre'; text: string };

function cells(line: string): string[] {
  const t = line.trim().replace(/^\|/, '').replace(/(?<!\\)\|$/, '');
  return t.split(/(?<!\\)\|/).map((c) => c.trim().replaceAll('\\|', '|'));
}

export function parseBlocks(src: string): MdBlock[] {
  const lines = src.replace(/\r\n?/g, '\n').split('\n');
  const out: MdBlock[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length) out.push({ type: 'p', children: parseInline(para.join('\n')) });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*```/.test(line)) {
      flush();
      const body: string[] = [];
      for (i++; i < lines.length && !/^\s*```/.test(lines[i]); i++) body.push(lines[i]);
      out.push({ type: 'pre', text: body.join('\n') });
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    const h = /^\s*#{1,6}\s+(.*)$/.exec(line);
    if (h) {
      flush();
      out.push({ type: 'h', children: parseInline(h[1]) });
      continue;
    }
    if (/^\s*\|/.test(line) && i + 1 < lines.length && /^\s*\|?\s*:?-{2,}/.test(lines[i + 1])) {
      flush();
      const head = cells(line).map((c) => parseInline(c));
      const rows: MdNode[][][] = [];
      for (i += 2; i < lines.length && /^\s*\|/.test(lines[i]); i++) rows.push(cells(lines[i]).map((c) => parseInline(c)));
      i--;
      out.push({ type: 'table', head, rows });
      continue;
    }
    const li = /^\s*(?:([-*+])|(\d+)[.)])\s+(.*)$/.exec(line);
    if (li) {
      flush();
      const type = li[1] ? 'ul' : 'ol';
      const last = out[out.length - 1];
      if (last && last.type === type) last.items.push(parseInline(li[3]));
      else out.push({ type, items: [parseInline(li[3])] });
      continue;
    }
    para.push(line);
  }
  flush();
  return out;
}
