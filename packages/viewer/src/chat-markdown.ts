/**
 * Block Markdown of chat answers, on top of the inline parser of markdown.ts: paragraphs, `-`/`*` and
 * `1.` lists, `|` tables, `#` headings, fenced code. A token tree for the DOM side (textContent only,
 * never innerHTML). No DOM.
 */
import { parseInline, type MdNode } from './markdown.ts';

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
