/**
 * The one Markdown → DOM renderer (details panel: inline; chat answers: blocks): token trees from
 * markdown.ts become elements with textContent only — never innerHTML — links open in a new tab without
 * referrer or opener.
 */
import { el } from './dom.ts';
import { parseBlocks, type MdBlock, type MdNode } from './markdown.ts';

export function renderInline(nodes: MdNode[], parent: HTMLElement): HTMLElement {
  for (const n of nodes) {
    if (n.type === 'text') parent.append(document.createTextNode(n.text));
    else if (n.type === 'br') parent.append(el('br'));
    else if (n.type === 'code') parent.append(el('code', undefined, n.text));
    else if (n.type === 'link') {
      const a = el('a');
      a.href = n.href;
      a.target = '_blank';
      a.rel = 'noopener noreferrer';
      parent.append(renderInline(n.children, a));
    } else parent.append(renderInline(n.children, el(n.type === 'strong' ? 'strong' : n.type === 'em' ? 'em' : 'del')));
  }
  return parent;
}

/** Chat Markdown → elements (textContent only). */
export function renderMarkdown(src: string, parent: HTMLElement): HTMLElement {
  for (const b of parseBlocks(src) as MdBlock[]) {
    if (b.type === 'p') parent.append(renderInline(b.children, el('p')));
    else if (b.type === 'h') parent.append(renderInline(b.children, el('h4')));
    else if (b.type === 'pre') parent.append(el('pre', undefined, b.text));
    else if (b.type === 'table') {
      const t = el('table');
      const hr = el('tr');
      for (const c of b.head) hr.append(renderInline(c, el('th')));
      t.append(hr);
      for (const r of b.rows) {
        const tr = el('tr');
        for (const c of r) tr.append(renderInline(c, el('td')));
        t.append(tr);
      }
      parent.append(t);
    } else {
      const list = el(b.type);
      for (const it of b.items) list.append(renderInline(it, el('li')));
      parent.append(list);
    }
  }
  return parent;
}

