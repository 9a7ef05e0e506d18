/**
 * The Groups panel: the group report of the service (`POST /api/v2/embed/viewer/metrics/network/groups`,
 * docs/metrics.md "groups", docs/spec/decisions.md §11) for a node attribute — the group × group
 * collaboration matrix as a heat map (a sequential single-hue scale from white to dark blue, the value
 * written in each cell and on hover), the per-group table (size, internal and external ties, density,
 * E-I index), the whole-network E-I index, and CSV / Excel / PNG downloads through the same download
 * window as the Export panel (export/deliver.ts). `minGroupSize` merges small groups into `Other (< k)`;
 * the service never reports a group below it.
 */
import type { GroupReport, GroupRow } from '@netloom/protocol/http';
import { toWireError } from '../errors.ts';
import { PATHS } from '../api.ts';
import { DownloadWindow, type DownloadPayload } from '../export/deliver.ts';
import { button, empty, field, h, section, select, type PanelHost } from './kit.ts';

export type { GroupReport, GroupRow };

/** Sequential scale (white → #08306b, ColorBrewer "Blues" end points) for t in [0, 1]; text colour that stays readable on it. */
export function heatColor(t: number): { background: string; text: string } {
  const x = Math.max(0, Math.min(1, Number.isFinite(t) ? t : 0));
  const mix = (a: number, b: number) => Math.round(a + (b - a) * x);
  const [r, g, b] = [mix(247, 8), mix(251, 48), mix(255, 107)];
  // relative luminance (WCAG): dark text on light cells, white on dark ones
  const lin = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const lum = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  return { background: `rgb(${r}, ${g}, ${b})`, text: lum > 0.35 ? '#111111' : '#ffffff' };
}

/**
 * Colours set through the CSSOM: the viewer's CSP (`default-src 'self'`) blocks `style` attributes, not
 * style properties set from script.
 */
function painted<E extends HTMLElement>(e: E, background: string, color?: string): E {
  e.style.background = background;
  if (color) e.style.color = color;
  return e;
}

const num = (x: number | null, digits = 3) => (x === null ? '—' : Number.isInteger(x) ? String(x) : x.toFixed(digits));

/** The report as CSV: the group table, a blank line, then the count and density matrices (RFC 4180 quoting). */
export function reportCsv(r: GroupReport): string {
  const q = (v: string | number | null) => {
    const s = v === null ? '' : String(v);
    return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  const line = (cells: (string | number | null)[]) => cells.map(q).join(',');
  const out = [line(['Group', 'Size', 'Internal ties', 'External ties', 'Density', 'E-I index'])];
  for (const g of r.groups) out.push(line([g.value, g.size, g.internal, g.external, g.density, g.ei]));
  out.push('', line([`Ties from \\ to (${r.attribute})`, ...r.matrix.values]));
  r.matrix.counts.forEach((row, i) => out.push(line([r.matrix.values[i], ...row])));
  out.push('', line([`Density from \\ to (${r.attribute})`, ...r.matrix.values]));
  r.matrix.densities.forEach((row, i) => out.push(line([r.matrix.values[i], ...row])));
  out.push('', line(['Whole-network E-I index', r.ei]), line(['Nodes in groups below the minimum size', r.suppressed]));
  return out.join('\r\n') + '\r\n';
}

/** The report as workbook sheets (export/workbook.ts `Sheets`: the download window writes the .xlsx). */
export function reportSheets(r: GroupReport): Record<string, (string | number | boolean | null)[][]> {
  return {
    Groups: [['Group', 'Size', 'Internal ties', 'External ties', 'Density', 'E-I index'], ...r.groups.map((g) => [g.value, g.size, g.internal, g.external, g.density, g.ei])],
    Ties: [[`from \\ to (${r.attribute})`, ...r.matrix.values], ...r.matrix.counts.map((row, i) => [r.matrix.values[i], ...row])],
    Densities: [[`from \\ to (${r.attribute})`, ...r.matrix.values], ...r.matrix.densities.map((row, i) => [r.matrix.values[i], ...row])],
    Network: [['Attribute', r.attribute], ['Directed', r.directed], ['Ties', r.ties], ['Whole-network E-I index', r.ei], ['Nodes in groups below the minimum size', r.suppressed]],
  };
}

export class GroupsPanel {
  readonly host: PanelHost;
  attribute = '';
  minGroupSize = 1;
  weighted = false;
  show: 'densities' | 'counts' = 'densities';
  report: GroupReport | null = null;
  #busy = false;

  constructor(host: PanelHost) {
    this.host = host;
  }

  #attributes(): string[] {
    return [...this.host.ctx.model.nodeAttributeTypes.keys()];
  }

  render(b: HTMLElement): void {
    const attrs = this.#attributes();
    if (attrs.length === 0) {
      b.append(empty('The nodes have no attributes to group them by.'));
      return;
    }
    if (!attrs.includes(this.attribute)) this.attribute = attrs.includes('department') ? 'department' : attrs[0];
    const attr = select(attrs.map((a) => ({ value: a, label: a })), this.attribute, { 'data-option': 'groups-attribute', 'aria-label': 'Group by' });
    attr.addEventListener('change', () => (this.attribute = attr.value));
    const k = h('input', { type: 'number', min: '1', step: '1', value: String(this.minGroupSize), class: 'nl-input', 'data-option': 'groups-min-size', 'aria-label': 'Minimum group size' });
    k.addEventListener('change', () => (this.minGroupSize = Math.max(1, Math.floor(Number(k.value) || 1))));
    const w = h('input', { type: 'checkbox', checked: this.weighted, 'data-option': 'groups-weighted' });
    w.addEventListener('change', () => (this.weighted = w.checked));
    b.append(
      h('p', { class: 'nl-hint' }, 'Which groups work together and which keep to themselves: ties within and between the groups of a node attribute, with the E-I index (−1: all ties inside the group, +1: all outside).'),
      field('Group by', attr),
      field('Minimum group size', k, 'Smaller groups are merged into “Other”; no group below it is shown.'),
      h('label', { class: 'nl-check' }, w, ' Use edge weights'),
      button(this.#busy ? 'Computing…' : 'Show groups', { 'data-action': 'run-groups', disabled: this.#busy, onclick: () => void this.run() }, 'primary'),
    );
    if (this.report) this.#renderReport(b, this.report);
  }

  /** Asks the service for the report; resolves when it is shown (or the error is). */
  async run(): Promise<void> {
    if (this.#busy) return;
    this.#busy = true;
    this.host.say('groups', 'Computing the group report…');
    this.host.render();
    try {
      const body = { attribute: this.attribute, minGroupSize: this.minGroupSize, ...(this.weighted ? { metricEdgeWeights: true } : {}) };
      this.report = await this.host.ctx.api.request<GroupReport>(PATHS.metric('network', 'groups'), { method: 'POST', body });
      this.host.say('groups', '');
    } catch (err) {
      this.host.say('groups', toWireError(err).message, true);
    } finally {
      this.#busy = false;
      this.host.render();
    }
  }

  #renderReport(b: HTMLElement, r: GroupReport): void {
    const matrix = this.show === 'densities' ? r.matrix.densities : r.matrix.counts;
    let max = 0;
    for (const row of matrix) for (const x of row) if (x !== null && x > max) max = x;
    const toggle = select([{ value: 'densities', label: 'Density' }, { value: 'counts', label: r.ties % 1 === 0 && !this.weighted ? 'Number of ties' : 'Sum of tie weights' }], this.show, { 'data-option': 'groups-show', 'aria-label': 'Cells show' });
    toggle.addEventListener('change', () => {
      this.show = toggle.value as 'densities' | 'counts';
      this.host.render();
    });
    const head = h('tr', {}, h('th', { scope: 'col' }, `${r.directed ? 'from \\ to' : ''}`), ...r.matrix.values.map((v) => h('th', { scope: 'col', title: v }, v)));
    const rows = r.matrix.values.map((from, i) =>
      h('tr', {}, h('th', { scope: 'row', title: from }, from), ...r.matrix.values.map((to, j) => {
        const x = matrix[i][j];
        const c = heatColor(max > 0 && x !== null ? x / max : 0);
        const tip = `${from} ${r.directed ? '→' : '–'} ${to}: ${num(r.matrix.counts[i][j])} ${r.ties % 1 === 0 && !this.weighted ? 'ties' : 'tie weight'}, density ${num(r.matrix.densities[i][j])}`;
        return painted(h('td', { class: 'nl-heat-cell', title: tip, 'data-cell': `${i},${j}` }, num(x, 2)), c.background, c.text);
      })),
    );
    const groupRows = r.groups.map((g) => h('tr', {}, h('th', { scope: 'row' }, g.value), h('td', {}, String(g.size)), h('td', {}, num(g.internal)), h('td', {}, num(g.external)), h('td', {}, num(g.density)), h('td', {}, num(g.ei))));
    b.append(
      section('Collaboration matrix',
        field('Cells show', toggle),
        r.groups.length === 0
          ? empty(`Every group has fewer than ${this.minGroupSize} members: nothing can be shown.`)
          : h('div', { class: 'nl-heat-wrap' }, h('table', { class: 'nl-heat', 'data-groups-matrix': 'true' }, h('caption', {}, `${this.show === 'densities' ? 'Density' : 'Ties'} between groups of ${r.attribute}; darker = more`), h('thead', {}, head), h('tbody', {}, ...rows))),
        h('div', { class: 'nl-heat-legend', 'aria-hidden': 'true' }, h('span', {}, '0'), painted(h('span', { class: 'nl-heat-ramp' }), `linear-gradient(90deg, ${heatColor(0).background}, ${heatColor(0.5).background}, ${heatColor(1).background})`), h('span', {}, num(max, 2)))),
      section('Groups',
        h('table', { class: 'nl-table nl-groups-table', 'data-groups-table': 'true' },
          h('thead', {}, h('tr', {}, ...['Group', 'Size', 'Internal', 'External', 'Density', 'E-I'].map((t) => h('th', { scope: 'col' }, t)))),
          h('tbody', {}, ...groupRows)),
        h('p', { class: 'nl-hint', 'data-groups-summary': 'true' }, `Whole network: E-I index ${num(r.ei)} over ${num(r.ties)} ${this.weighted ? 'tie weight' : 'ties'}${r.suppressed ? `; ${r.suppressed} nodes are in groups below ${this.minGroupSize} members` : ''}.`)),
      section('Download',
        h('div', { class: 'nl-row' },
          button('CSV', { 'data-groups-export': 'csv', onclick: () => this.download('csv') }),
          button('Excel', { 'data-groups-export': 'xlsx', onclick: () => this.download('xlsx') }),
          button('PNG', { 'data-groups-export': 'png', onclick: () => this.download('png') }))),
    );
  }

  #fileName(ext: string): string {
    const base = `${this.host.ctx.model.name || 'network'} groups by ${this.report?.attribute ?? ''}`.replace(/[^\w.-]+/g, '_').slice(0, 80);
    return `${base}.${ext}`;
  }

  /** The file of one download, from the report on screen. */
  async build(kind: 'csv' | 'xlsx' | 'png'): Promise<DownloadPayload> {
    const r = this.report;
    if (!r) throw new Error('show the groups first');
    if (kind === 'csv') return { filename: this.#fileName('csv'), blob: new Blob([reportCsv(r)], { type: 'text/csv' }) };
    if (kind === 'xlsx') return { filename: this.#fileName('xlsx'), sheets: reportSheets(r) };
    return { filename: this.#fileName('png'), blob: await this.#png(r) };
  }

  /** The heat map drawn on a canvas (labels, values, the scale), as PNG. */
  async #png(r: GroupReport): Promise<Blob> {
    const matrix = this.show === 'densities' ? r.matrix.densities : r.matrix.counts;
    let max = 0;
    for (const row of matrix) for (const x of row) if (x !== null && x > max) max = x;
    const n = r.matrix.values.length;
    const cell = 56;
    const label = 140;
    const scale = 2;
    const canvas = document.createElement('canvas');
    canvas.width = (label + n * cell + 20) * scale;
    canvas.height = (label + n * cell + 60) * scale;
    const g = canvas.getContext('2d');
    if (!g) throw new Error('the canvas could not be drawn');
    g.scale(scale, scale);
    g.fillStyle = '#ffffff';
    g.fillRect(0, 0, canvas.width, canvas.height);
    g.font = '12px system-ui, sans-serif';
    g.fillStyle = '#111111';
    g.fillText(`${this.show === 'densities' ? 'Density' : 'Ties'} between groups of ${r.attribute}${r.directed ? ' (row → column)' : ''}`, 8, 18);
    const short = (s: string) => (s.length > 18 ? `${s.slice(0, 17)}…` : s);
    r.matrix.values.forEach((v, i) => {
      g.fillStyle = '#111111';
      g.textAlign = 'right';
      g.textBaseline = 'middle';
      g.fillText(short(v), label - 6, label + i * cell + cell / 2);
      g.save();
      g.translate(label + i * cell + cell / 2, label - 6);
      g.rotate(-Math.PI / 4);
      g.textAlign = 'left';
      g.fillText(short(v), 0, 0);
      g.restore();
      for (let j = 0; j < n; j++) {
        const x = matrix[i][j];
        const c = heatColor(max > 0 && x !== null ? x / max : 0);
        g.fillStyle = c.background;
        g.fillRect(label + j * cell, label + i * cell, cell - 1, cell - 1);
        g.fillStyle = c.text;
        g.textAlign = 'center';
        g.fillText(num(x, 2), label + j * cell + cell / 2, label + i * cell + cell / 2);
      }
    });
    g.textAlign = 'left';
    g.fillStyle = '#111111';
    g.fillText(`Whole-network E-I index ${num(r.ei)}; darker = more (0 … ${num(max, 2)})`, 8, label + n * cell + 30);
    return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the canvas could not be read'))), 'image/png'));
  }

  /** A download from a click: the download window opens in the click itself, then gets the file. */
  download(kind: 'csv' | 'xlsx' | 'png'): void {
    const win = DownloadWindow.open(this.host.ctx.downloadPageUrl);
    if (!win) {
      this.host.say('groups', 'Your browser blocked the download window: allow pop-ups for this page and try again.', true);
      return;
    }
    void this.build(kind).then((file) => win.send(file)).then(() => this.host.say('groups', 'The file is on its way (a small window saves it and closes).'), (err) => {
      win.close();
      this.host.say('groups', toWireError(err).message, true);
    });
  }
}
