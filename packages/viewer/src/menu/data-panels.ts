/** The Tables panel: sortable, searchable node and edge tables of what is visible. */
import { formatValue } from '../format.ts';
import { button, empty, h, type PanelHost } from './kit.ts';
import { edgeTable, nodeTable, sortTable, type Table } from './table.ts';

const LIMIT = 300;

export class TablesPanel {
  readonly host: PanelHost;
  state: { kind: 'nodes' | 'edges'; column: number; direction: 'asc' | 'desc'; query: string } = { kind: 'nodes', column: 0, direction: 'asc', query: '' };
  /** Called for the CSV download button (the Export panel's CSV). */
  onCsv: () => void = () => undefined;

  constructor(host: PanelHost) {
    this.host = host;
  }

  /** The visible table as shown (sorted; the search narrows only what the panel lists, not the CSV). */
  current(): Table {
    const { model, engine } = this.host.ctx;
    const st = this.state;
    const t = st.kind === 'nodes' ? nodeTable(model, engine.display.hidden) : edgeTable(model, engine.display.hidden);
    return st.column < t.columns.length ? sortTable(t, st.column, st.direction) : t;
  }

  render(b: HTMLElement): void {
    const st = this.state;
    const tabs = h('div', { class: 'nl-tabs', role: 'tablist' });
    for (const kind of ['nodes', 'edges'] as const) {
      tabs.append(h('button', { type: 'button', role: 'tab', 'aria-selected': String(st.kind === kind), class: st.kind === kind ? 'nl-tab nl-active' : 'nl-tab', 'data-table': kind, onclick: () => {
        this.state = { kind, column: 0, direction: 'asc', query: '' };
        this.host.render();
      } }, kind === 'nodes' ? 'Nodes' : 'Edges'));
    }
    const t = this.current();
    b.append(tabs);
    if (t.rows.length === 0) {
      b.append(empty(`No visible ${st.kind}. Remove a filter (Layers) to see some.`));
      return;
    }
    const search = h('input', { type: 'search', class: 'nl-input nl-search', placeholder: `Search ${t.rows.length} ${st.kind}`, 'aria-label': `Search ${st.kind}`, value: st.query });
    const info = h('p', { class: 'nl-hint' });
    // A scroll region the keyboard can reach (axe: scrollable-region-focusable).
    const wrap = h('div', { class: 'nl-table-wrap', tabindex: 0, role: 'region', 'aria-label': `${st.kind === 'nodes' ? 'Node' : 'Edge'} table` });
    const draw = () => {
      const q = st.query.trim().toLowerCase();
      const idx = t.rows.map((_, r) => r).filter((r) => !q || t.rows[r].some((c) => c !== undefined && String(c).toLowerCase().includes(q)));
      const table = h('table', { class: 'nl-table' });
      const head = h('tr');
      t.columns.forEach((c, k) => head.append(h('th', { 'data-column': c, 'aria-sort': st.column === k ? (st.direction === 'asc' ? 'ascending' : 'descending') : 'none', onclick: () => {
        this.state = { ...st, column: k, direction: st.column === k && st.direction === 'asc' ? 'desc' : 'asc' };
        this.host.render();
      } }, c, st.column === k ? (st.direction === 'asc' ? ' ▲' : ' ▼') : '')));
      table.append(h('thead', {}, head));
      const tbody = h('tbody');
      for (const r of idx.slice(0, LIMIT)) {
        const key = t.keys[r];
        tbody.append(h('tr', { onclick: st.kind === 'nodes' ? () => void this.host.ctx.engine.viewerClick(key) : undefined }, ...t.rows[r].map((c) => {
          // Numbers to 4 significant digits on screen (format.ts); the CSV keeps full precision.
          const text = c === undefined ? '' : formatValue(c);
          return h('td', text.length > 24 || (typeof c === 'number' && text !== String(c)) ? { title: String(c) } : {}, text);
        })));
      }
      table.append(tbody);
      wrap.replaceChildren(idx.length ? table : empty(`Nothing matches “${st.query.trim()}”.`));
      info.textContent = `${idx.length}${q ? ` of ${t.rows.length}` : ''} visible ${st.kind}${idx.length > LIMIT ? ` (first ${LIMIT} listed; the CSV has all)` : ''}`;
    };
    search.addEventListener('input', () => {
      st.query = search.value;
      draw();
    });
    draw();
    b.append(h('div', { class: 'nl-search-wrap' }, search), info, wrap, button('Download CSV', { 'data-export': 'csv', onclick: () => this.onCsv() }));
  }
}
