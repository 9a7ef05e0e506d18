/**
 * The Export panel: PNG (at 1×, 2× or 4×), SVG, CSV of the visible table, GEXF and Excel of the visible
 * network. Each click opens the download window (export/deliver.ts: a popup that escapes the iframe's
 * sandbox) in the click itself, builds the file, and hands it over; the window saves it and closes.
 */
import { toWireError } from '../errors.ts';
import { DownloadWindow, type DownloadPayload } from '../export/deliver.ts';
import { toGexf } from '../export/gexf.ts';
import { renderPng } from '../export/png.ts';
import { toSvg, type SvgNode } from '../export/svg.ts';
import { workbookSheets } from '../export/workbook.ts';
import { drawLegend, legendRows, svgLegend } from '../export/legend.ts';
import type { GuideOverlay } from '../guides.ts';
import { button, h, section, select, type PanelHost } from './kit.ts';
import { toCsv, type Table } from './table.ts';

export type ExportKind = 'png' | 'svg' | 'csv' | 'gexf' | 'xlsx';

export class ExportPanel {
  readonly host: PanelHost;
  readonly pageUrl: string | URL;
  /** The table the CSV holds (the Tables panel's current one). */
  readonly table: () => { table: Table; kind: 'nodes' | 'edges' };
  scale = 2;
  /** PNG and SVG include the legend (on by default). */
  legend = true;
  /** The layout's axes or group names (guides.ts): PNG and SVG draw them as the screen shows them. */
  readonly guides: () => GuideOverlay | null;

  constructor(host: PanelHost, pageUrl: string | URL, table: () => { table: Table; kind: 'nodes' | 'edges' }, guides: () => GuideOverlay | null = () => null) {
    this.host = host;
    this.pageUrl = pageUrl;
    this.table = table;
    this.guides = guides;
  }

  fileName(ext: string): string {
    const base = (this.host.ctx.model.name || 'network').replace(/[^\w.-]+/g, '_').slice(0, 80) || 'network';
    return `${base}.${ext}`;
  }

  /** The file of one export kind, built from what is on screen now. */
  async build(kind: ExportKind): Promise<DownloadPayload> {
    const { display, engine, model } = this.host.ctx;
    switch (kind) {
      case 'png': {
        const rows = this.#legendRows();
        const guides = (await this.guides()?.image()) ?? null;
        const overlay = (g: CanvasRenderingContext2D, size: { width: number; height: number }, k: number) => {
          if (guides) g.drawImage(guides, 0, 0, size.width, size.height);
          if (rows.length) drawLegend(g, rows, size, k);
        };
        const blob = await renderPng(display.renderer, { scale: this.scale, background: engine.displaySettings.backgroundColor || '#ffffff', overlay: rows.length || guides ? overlay : undefined });
        if (!blob) throw new Error('the canvas could not be read');
        return { filename: this.fileName(this.scale === 1 ? 'png' : `${this.scale}x.png`), blob };
      }
      case 'svg':
        return { filename: this.fileName('svg'), blob: new Blob([this.svgText()], { type: 'image/svg+xml' }) };
      case 'csv': {
        const t = this.table();
        return { filename: this.fileName(`${t.kind}.csv`), blob: new Blob([toCsv(t.table)], { type: 'text/csv' }) };
      }
      case 'gexf': {
        const { x, y } = this.#positions();
        const text = toGexf(model, { hidden: engine.display.hidden, color: engine.display.color, size: engine.display.size, x, y, edgeHidden: engine.display.edgeHidden, edgeColor: engine.display.edgeColor });
        return { filename: this.fileName('gexf'), blob: new Blob([text], { type: 'application/xml' }) };
      }
      case 'xlsx': {
        const { x, y } = this.#positions();
        return { filename: this.fileName('xlsx'), sheets: workbookSheets(model, { hidden: engine.display.hidden, x, y, edgeHidden: engine.display.edgeHidden }) };
      }
    }
  }

  /** The legend rows of a picture, or none when the legend is switched off. */
  #legendRows(): ReturnType<typeof legendRows> {
    const { engine, model } = this.host.ctx;
    return this.legend ? legendRows(engine.display, { nodes: model.ids.length, edges: model.edges.length }) : [];
  }

  #positions(): { x: number[]; y: number[] } {
    const { model, display } = this.host.ctx;
    return {
      x: model.ids.map((id) => display.graph.getNodeAttribute(id, 'x') as number),
      y: model.ids.map((id) => display.graph.getNodeAttribute(id, 'y') as number),
    };
  }

  svgText(): string {
    const { model, engine, display } = this.host.ctx;
    const drawing = this.host.drawing;
    const graph = display.graph;
    const nodes: SvgNode[] = [];
    const at = new Map<string, number>();
    graph.forEachNode((node) => {
      const d = display.renderer.getNodeDisplayData(node);
      const data = graph.getNodeAttributes(node);
      if (!d || d.hidden) return;
      const i = model.index.get(node);
      const shape = i !== undefined ? drawing.shapes?.shapes[i] : undefined;
      at.set(node, nodes.length);
      nodes.push({ x: data.x as number, y: data.y as number, size: d.size, color: d.color, label: drawing.labelMode === 'none' ? '' : String(d.label ?? ''), shape });
    });
    const edges: { source: number; target: number; color?: string; size?: number }[] = [];
    graph.forEachEdge((edge, _a, s, t) => {
      const d = display.renderer.getEdgeDisplayData(edge);
      const si = at.get(s);
      const ti = at.get(t);
      if (!d || d.hidden || si === undefined || ti === undefined) return;
      edges.push({ source: si, target: ti, color: d.color, size: d.size });
    });
    const rows = this.#legendRows();
    const guides = this.guides();
    return toSvg({ nodes, edges, background: engine.displaySettings.backgroundColor, showEdges: engine.displaySettings.showEdges, showLabels: drawing.labelMode !== 'none', labelSize: drawing.labelSize, directed: model.directed, legend: (height) => svgLegend(rows, height), guides: guides?.current ? (vp) => guides.markup(vp) : undefined, padding: guides?.padding() });
  }

  /** Runs one export from a click: the download window opens first (it needs the click), then gets the file. */
  start(kind: ExportKind): void {
    const win = DownloadWindow.open(this.pageUrl);
    if (!win) {
      this.host.say('export', 'Your browser blocked the download window: allow pop-ups for this page and try again.', true);
      return;
    }
    this.host.say('export', 'Preparing the file…');
    void this.build(kind).then((file) => win.send(file)).then(() => this.host.say('export', 'The file is on its way (a small window saves it and closes).'), (err) => {
      win.close();
      this.host.say('export', toWireError(err).message, true);
    });
  }

  render(b: HTMLElement): void {
    const scale = select([{ value: '1', label: '1× (as on screen)' }, { value: '2', label: '2×' }, { value: '4', label: '4×' }], String(this.scale), { 'aria-label': 'PNG scale', 'data-option': 'png-scale' });
    scale.addEventListener('change', () => (this.scale = Number(scale.value)));
    const t = this.table();
    const legend = h('input', { type: 'checkbox', checked: this.legend, 'data-option': 'legend', onchange: () => (this.legend = legend.checked) });
    b.append(
      section('Picture',
        h('label', { class: 'nl-check' }, legend, h('span', {}, 'Include the legend (colours, ties, filters)')),
        h('div', { class: 'nl-row' }, scale, button('PNG', { 'data-export': 'png', onclick: () => this.start('png') }, 'primary')),
        h('div', { class: 'nl-row' }, button('SVG', { 'data-export': 'svg', onclick: () => this.start('svg') }), h('span', { class: 'nl-hint' }, 'Vector drawing, for print and editing.'))),
      section('Data',
        h('div', { class: 'nl-row' },
          button(`CSV (${t.kind})`, { 'data-export': 'csv', onclick: () => this.start('csv') }),
          button('GEXF', { 'data-export': 'gexf', onclick: () => this.start('gexf') }),
          button('Excel', { 'data-export': 'xlsx', onclick: () => this.start('xlsx') })),
        h('p', { class: 'nl-hint' }, `CSV: the ${t.kind} table as the Tables panel shows it (${t.table.rows.length} visible rows). GEXF and Excel: the visible nodes and the edges between them, with attributes and positions.`)),
      h('p', { class: 'nl-hint' }, 'Each file opens a small window that saves it and closes by itself. If your browser asks, allow pop-ups for this page.'),
    );
  }
}
