/**
 * The Explore left menu (DOM). One button per item of `ui.menu` in the viewer's own order (items.ts),
 * one panel open at a time. Everything a panel changes goes through the engine's queue as a viewer task:
 * layers through the very handlers the SDK uses (`engine.viewerCommand`), the rest (label mode,
 * settings, shapes, roll-up, layer visibility, metric results) as viewer tasks that bump the revision,
 * so `state.changed` and `revision` behave as for SDK commands. Hiding an item grants or removes no
 * right: saving still needs Edit (the button says why it is disabled), the service still checks.
 */
import type { Layer, SessionInfo, ViewSummary } from '@netloom/protocol';
import { PATHS, type ViewerApi } from '../api.ts';
import type { SigmaDisplay } from '../display.ts';
import type { ViewerEngine } from '../engine.ts';
import { toWireError } from '../errors.ts';
import type { NetworkModel } from '../model.ts';
import { attributesByType, degrees, numericRange, setNodeAttribute, valueCounts } from './attrs.ts';
import { Drawing, LABEL_MODES, type LabelMode } from './drawing.ts';
import { toGexf } from './gexf.ts';
import { MENU_TITLES, visibleMenuItems, type MenuItem } from './items.ts';
import { LayoutRunner } from './layout.ts';
import { shapeLayer, SHAPES } from './shapes.ts';
import { rollupLayer } from './rollup.ts';
import { edgeTable, nodeTable, sortTable, toCsv, type Table } from './table.ts';
import { templates, type Template } from './templates.ts';
import { toSvg, type SvgNode } from './svg.ts';

export interface MenuContext {
  root: HTMLElement;
  engine: ViewerEngine;
  display: SigmaDisplay;
  model: NetworkModel;
  session: SessionInfo;
  api: ViewerApi;
  /** URL of the layout worker script (same origin as the viewer bundle). */
  layoutWorkerUrl: string | URL;
}

/** Node metrics offered in the menu (run with their default parameters through the viewer API). */
export const MENU_METRICS: { id: string; title: string }[] = [
  { id: 'totalDegree', title: 'Degree' },
  { id: 'pageRank', title: 'PageRank' },
  { id: 'betweennessCentrality', title: 'Betweenness centrality' },
  { id: 'closenessCentrality', title: 'Closeness centrality' },
  { id: 'eigenvectorCentrality', title: 'Eigenvector centrality' },
  { id: 'harmonicCentrality', title: 'Harmonic centrality' },
  { id: 'clustering', title: 'Clustering coefficient' },
  { id: 'coreNumber', title: 'Core number (k-core)' },
  { id: 'connectedComponents', title: 'Connected components' },
  { id: 'communities', title: 'Communities (Louvain)' },
];

type Props = Record<string, string | boolean | number | ((e: Event) => void) | undefined>;

function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: (Node | string | null | undefined | false)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined) continue;
    if (typeof v === 'function') e.addEventListener(k.replace(/^on/, '').toLowerCase(), v);
    else if (k === 'class') e.className = String(v);
    else if (typeof v === 'boolean') (e as unknown as Record<string, boolean>)[k] = v;
    else e.setAttribute(k, String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

function select(options: { value: string; label: string }[], value?: string): HTMLSelectElement {
  const s = h('select');
  for (const o of options) s.append(h('option', { value: o.value }, o.label));
  if (value !== undefined) s.value = value;
  return s;
}

function sizeText(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function layerText(l: Layer): string {
  if (l.summary) return l.summary;
  const what = `${l.operation} by ${l.attribute ?? '?'}`;
  if (l.operation === 'Filter') return l.values ? `${what}: ${l.values.join(', ')}` : `${what}: ${l.min} – ${l.max}`;
  return what;
}

export class ExploreMenu {
  readonly ctx: MenuContext;
  readonly drawing: Drawing;
  readonly items: MenuItem[];
  readonly layout: LayoutRunner;
  nav: HTMLElement | null = null;
  panel: HTMLElement | null = null;
  active: MenuItem | null = null;
  #liveKey = '';
  #renderScheduled = false;
  #table: { kind: 'nodes' | 'edges'; column: number; direction: 'asc' | 'desc' } = { kind: 'nodes', column: 0, direction: 'asc' };
  #exports: HTMLElement | null = null;
  #status = new Map<MenuItem, { text: string; error: boolean }>();

  constructor(ctx: MenuContext) {
    this.ctx = ctx;
    this.items = visibleMenuItems(ctx.session.ui?.menu);
    this.drawing = new Drawing(ctx.engine, ctx.display, ctx.model);
    this.layout = new LayoutRunner(ctx.display.graph, ctx.layoutWorkerUrl);
    this.drawing.layout = this.layout;
  }

  mount(): void {
    this.drawing.install();
    this.drawing.onChange = () => this.#scheduleLiveRender();
    this.layout.onProgress = (running) => {
      if (!running) void this.#task('layout.stop', () => undefined);
      if (this.active !== 'layout') return;
      // While running only the counter changes (the buttons stay put); the panel re-renders on stop.
      const status = this.panel?.querySelector<HTMLElement>('[data-layout-status]');
      if (running && status) status.textContent = `Running… ${this.layout.iterations} iterations`;
      else this.render();
    };
    if (this.items.length === 0) return; // `ui.menu: []`: no left menu at all
    const { root } = this.ctx;
    root.classList.add('nl-with-menu');
    this.nav = h('nav', { class: 'nl-menu', 'aria-label': 'Explore' });
    for (const item of this.items) {
      this.nav.append(h('button', { type: 'button', class: 'nl-menu-item', 'data-item': item, title: MENU_TITLES[item], onclick: () => this.open(this.active === item ? null : item) }, MENU_TITLES[item]));
    }
    this.panel = h('section', { class: 'nl-panel', hidden: true });
    root.append(this.nav, this.panel);
  }

  open(item: MenuItem | null): void {
    if (!this.panel || !this.nav) return;
    if (item !== null && !this.items.includes(item)) return;
    this.active = item;
    for (const b of this.nav.querySelectorAll<HTMLElement>('.nl-menu-item')) b.classList.toggle('nl-active', b.dataset.item === item);
    this.panel.hidden = item === null;
    this.panel.dataset.item = item ?? '';
    this.render();
  }

  /** Re-renders panels that show live state, when that state changed (not on camera moves). */
  #scheduleLiveRender(): void {
    if (this.#renderScheduled || !this.active || !['layers', 'labels', 'tables', 'settings', 'shapes', 'rollup', 'open'].includes(this.active)) return;
    const e = this.ctx.engine;
    const key = `${this.active}|${e.layers.map((l) => `${l.id}:${l.hidden}`).join()}|${JSON.stringify(e.displaySettings)}|${e.display.visibleCount}|${e.viewId}|${this.ctx.model.nodeAttributeTypes.size}`;
    if (key === this.#liveKey) return;
    this.#liveKey = key;
    this.#renderScheduled = true;
    queueMicrotask(() => {
      this.#renderScheduled = false;
      // Do not disturb a form being typed into.
      if (this.panel?.contains(document.activeElement) && document.activeElement instanceof HTMLInputElement && document.activeElement.type === 'text') return;
      this.render();
    });
  }

  render(): void {
    const p = this.panel;
    if (!p || !this.active) return;
    const item = this.active;
    p.replaceChildren(h('h3', {}, MENU_TITLES[item]));
    const body = h('div', { class: 'nl-panel-body' });
    p.append(body);
    const renderers: Record<MenuItem, (b: HTMLElement) => void> = {
      layout: (b) => this.#layoutPanel(b), open: (b) => this.#openPanel(b), save: (b) => this.#savePanel(b), templates: (b) => this.#templatesPanel(b),
      labels: (b) => this.#labelsPanel(b), layers: (b) => this.#layersPanel(b), tables: (b) => this.#tablesPanel(b), metrics: (b) => this.#metricsPanel(b),
      color: (b) => this.#layerPanel(b, 'color'), size: (b) => this.#layerPanel(b, 'size'), filter: (b) => this.#filterPanel(b), shapes: (b) => this.#shapesPanel(b),
      rollup: (b) => this.#rollupPanel(b), export: (b) => this.#exportPanel(b), settings: (b) => this.#settingsPanel(b),
    };
    renderers[item](body);
    const st = this.#status.get(item);
    p.append(h('p', { class: `nl-note${st?.error ? ' nl-error' : ''}`, role: 'status' }, st?.text ?? ''));
  }

  #say(item: MenuItem, text: string, error = false): void {
    this.#status.set(item, { text, error });
    if (this.active === item && this.panel) {
      const n = this.panel.querySelector<HTMLElement>(':scope > .nl-note');
      if (n) {
        n.textContent = text;
        n.classList.toggle('nl-error', error);
      }
    }
  }

  /** Runs a protocol command as the viewer; reports its error in the panel. */
  async #command(item: MenuItem, command: Parameters<ViewerEngine['viewerCommand']>[0], args: Record<string, unknown> = {}): Promise<unknown> {
    try {
      const r = await this.ctx.engine.viewerCommand(command, args);
      this.#say(item, '');
      return r;
    } catch (err) {
      this.#say(item, toWireError(err).message, true);
      return undefined;
    }
  }

  /** A viewer change outside the protocol's commands: queued like a click, bumps the revision. */
  #task(reason: string, change: () => { layersChanged?: boolean } | void): Promise<void> {
    const e = this.ctx.engine;
    return e.queue.enqueue({
      id: `viewer-${reason}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`,
      source: 'viewer',
      run: () => {
        const r = change() ?? {};
        e.bump(reason, undefined, { layersChanged: r.layersChanged });
      },
    });
  }

  #attributeSelect(kind: 'all' | 'categorical' | 'numeric', value?: string): HTMLSelectElement {
    const { categorical, numeric } = attributesByType(this.ctx.model);
    const names = kind === 'categorical' ? categorical : kind === 'numeric' ? numeric : [...categorical, ...numeric].sort();
    return select(names.map((n) => ({ value: n, label: `${n}${kind === 'all' ? (numeric.includes(n) ? ' (number)' : ' (category)') : ''}` })), value);
  }

  // --- layout --------------------------------------------------------------------------------------

  #layoutPanel(b: HTMLElement): void {
    const r = this.layout;
    b.append(
      h('p', {}, 'ForceAtlas2, computed in a background worker. Positions stay for this session (saved views keep the camera, not positions).'),
      h('button', { type: 'button', 'data-action': r.running ? 'stop' : 'start', onclick: () => (r.running ? r.stop() : this.#startLayout()) }, r.running ? 'Stop layout' : 'Run layout'),
      h('p', { class: 'nl-muted', 'data-layout-status': r.running ? 'running' : 'stopped' }, r.running ? `Running… ${r.iterations} iterations` : r.iterations ? `Stopped after ${r.iterations} iterations` : ''),
    );
  }

  #startLayout(): void {
    void this.#task('layout.start', () => {
      this.layout.start();
    }).then(() => this.render());
  }

  // --- views ---------------------------------------------------------------------------------------

  #openPanel(b: HTMLElement): void {
    const list = h('ul', { class: 'nl-list' }, h('li', { class: 'nl-muted' }, 'Loading…'));
    b.append(list);
    void (this.ctx.engine.viewerCommand('views.list') as Promise<ViewSummary[]>).then((views) => {
      list.replaceChildren();
      if (views.length === 0) list.append(h('li', { class: 'nl-muted' }, 'No saved views yet.'));
      for (const v of views) {
        this.drawing.rememberViewName(v.id, v.name);
        const current = v.id === this.ctx.engine.viewId;
        list.append(h('li', {}, h('button', { type: 'button', class: current ? 'nl-link nl-current' : 'nl-link', 'data-view-id': v.id, title: v.description, onclick: () => void this.#command('open', 'views.open', { viewId: v.id }) }, v.name), current ? ' (open)' : ''));
      }
    }, (err) => this.#say('open', toWireError(err).message, true));
  }

  #savePanel(b: HTMLElement): void {
    const e = this.ctx.engine;
    const canEdit = this.ctx.session.capabilities.edit === true;
    const name = h('input', { type: 'text', placeholder: 'View name', maxlength: 200, 'aria-label': 'View name' });
    const description = h('input', { type: 'text', placeholder: 'Description (optional)', maxlength: 2000, 'aria-label': 'Description' });
    const reason = h('p', { class: 'nl-muted nl-reason' });
    const saveNew = h('button', { type: 'button', 'data-action': 'save', disabled: true }, 'Save as new view');
    const update = h('button', { type: 'button', 'data-action': 'update', disabled: true }, 'Update open view');
    b.append(name, description, h('div', { class: 'nl-row' }, saveNew, update), reason);
    if (!canEdit) {
      name.disabled = description.disabled = true;
      reason.textContent = 'Saving views needs Edit access to this network; you have View access.';
      return;
    }
    update.disabled = e.viewId === null;
    if (e.viewId === null) update.title = 'No view is open';
    saveNew.addEventListener('click', () => {
      if (!name.value.trim()) return this.#say('save', 'Give the view a name.', true);
      void this.#command('save', 'views.save', { name: name.value.trim(), description: description.value }).then((v) => {
        if (v) {
          const view = v as { id: string; name: string };
          this.drawing.rememberViewName(view.id, view.name);
          this.#say('save', `Saved “${view.name}”.`);
          this.render();
        }
      });
    });
    update.addEventListener('click', () => void this.#command('save', 'views.update').then((v) => v && this.#say('save', 'View updated.')));
    // The view limit (billing.maxViews): saving a new view is disabled once it is reached.
    reason.textContent = 'Checking the view limit…';
    void Promise.all([this.ctx.api.request<{ billing?: { maxViews?: number } }>(PATHS.network), e.viewerCommand('views.list') as Promise<ViewSummary[]>]).then(([net, views]) => {
      const max = net.billing?.maxViews;
      if (typeof max === 'number' && views.length >= max) {
        saveNew.disabled = true;
        reason.textContent = `The view limit of this network is reached (${views.length} of ${max}); update the open view or ask the owner for more.`;
      } else {
        saveNew.disabled = false;
        reason.textContent = typeof max === 'number' ? `${views.length} of ${max} views used.` : '';
      }
    }, () => {
      saveNew.disabled = false;
      reason.textContent = '';
    });
  }

  // --- templates -----------------------------------------------------------------------------------

  #templatesPanel(b: HTMLElement): void {
    const list = h('ul', { class: 'nl-list' });
    for (const t of templates(this.ctx.model)) {
      list.append(h('li', {}, h('button', { type: 'button', class: 'nl-link', 'data-template': t.id, onclick: () => void this.applyTemplate(t) }, t.title), h('div', { class: 'nl-muted' }, t.description)));
    }
    b.append(list);
  }

  async applyTemplate(t: Template): Promise<void> {
    for (const step of t.steps) {
      if ('compute' in step) {
        if (!this.ctx.model.nodeAttributeTypes.has(step.attribute)) await this.#task('attributes.degree', () => void setNodeAttribute(this.ctx.model, step.attribute, degrees(this.ctx.model)));
      } else if ((await this.#command('templates', step.command, step.args)) === undefined) return;
    }
    this.#say('templates', `Applied “${t.title}”.`);
  }

  // --- labels, layers ------------------------------------------------------------------------------

  #labelsPanel(b: HTMLElement): void {
    const current = this.drawing.labelMode;
    const titles: Record<LabelMode, string> = { always: 'Always', hover: 'On hover', none: 'None' };
    for (const m of LABEL_MODES) {
      const input = h('input', { type: 'radio', name: 'nl-label-mode', value: m, checked: m === current, onchange: () => void this.setLabelMode(m) });
      b.append(h('label', { class: 'nl-radio' }, input, ` ${titles[m]}`));
    }
  }

  setLabelMode(mode: LabelMode): Promise<void> {
    return this.#task('display.labels', () => {
      this.ctx.engine.displaySettings = { ...this.ctx.engine.displaySettings, showLabels: mode };
    });
  }

  #layersPanel(b: HTMLElement): void {
    const e = this.ctx.engine;
    if (e.layers.length === 0) {
      b.append(h('p', { class: 'nl-muted' }, 'No layers. Add some with Color, Size, Filter, Shapes, Roll-up or Templates.'));
      return;
    }
    const list = h('ul', { class: 'nl-list nl-layers' });
    for (const l of e.layers) {
      const toggle = h('input', { type: 'checkbox', checked: !l.hidden, title: l.hidden ? 'Show' : 'Hide', 'aria-label': 'Visible', onchange: () => void this.#task('layers.toggle', () => {
        e.layers = e.layers.map((x) => (x.id === l.id ? { ...x, hidden: !x.hidden } : x));
        return { layersChanged: true };
      }) });
      const remove = h('button', { type: 'button', class: 'nl-icon', title: 'Remove', 'aria-label': 'Remove layer', onclick: () => void (l.readOnly
        ? this.#task('layers.remove', () => {
          e.layers = e.layers.filter((x) => x.id !== l.id);
          return { layersChanged: true };
        })
        : this.#command('layers', 'layers.remove', { layerId: l.id })) }, '×');
      list.append(h('li', { 'data-layer-id': l.id, class: l.hidden ? 'nl-off' : '' }, toggle, h('span', { class: 'nl-layer-text' }, layerText(l)), l.readOnly ? h('span', { class: 'nl-badge', title: 'Added in the viewer; code cannot change it' }, 'read-only') : null, remove));
    }
    b.append(list, h('button', { type: 'button', onclick: () => void this.#command('layers', 'layers.clear') }, 'Remove all (read-only layers stay)'));
  }

  // --- tables --------------------------------------------------------------------------------------

  currentTable(): Table {
    const { model, engine } = this.ctx;
    const t = this.#table.kind === 'nodes' ? nodeTable(model, engine.display.hidden) : edgeTable(model, engine.display.hidden);
    return this.#table.column < t.columns.length ? sortTable(t, this.#table.column, this.#table.direction) : t;
  }

  #tablesPanel(b: HTMLElement): void {
    const st = this.#table;
    const tabs = h('div', { class: 'nl-row' });
    for (const kind of ['nodes', 'edges'] as const) {
      tabs.append(h('button', { type: 'button', class: st.kind === kind ? 'nl-tab nl-active' : 'nl-tab', 'data-table': kind, onclick: () => {
        this.#table = { kind, column: 0, direction: 'asc' };
        this.render();
      } }, kind === 'nodes' ? 'Nodes' : 'Edges'));
    }
    const t = this.currentTable();
    const LIMIT = 300;
    const table = h('table', { class: 'nl-table' });
    const head = h('tr');
    t.columns.forEach((c, k) => head.append(h('th', { 'data-column': c, 'aria-sort': st.column === k ? (st.direction === 'asc' ? 'ascending' : 'descending') : 'none', onclick: () => {
      this.#table = { ...st, column: k, direction: st.column === k && st.direction === 'asc' ? 'desc' : 'asc' };
      this.render();
    } }, c, st.column === k ? (st.direction === 'asc' ? ' ▲' : ' ▼') : '')));
    table.append(h('thead', {}, head));
    const tbody = h('tbody');
    t.rows.slice(0, LIMIT).forEach((row, r) => {
      const key = t.keys[r];
      tbody.append(h('tr', { onclick: st.kind === 'nodes' ? () => void this.ctx.engine.viewerClick(key) : undefined }, ...row.map((c) => h('td', {}, c === undefined ? '' : String(c)))));
    });
    table.append(tbody);
    b.append(tabs, h('p', { class: 'nl-muted' }, `${t.rows.length} visible ${st.kind}${t.rows.length > LIMIT ? ` (first ${LIMIT} shown; the CSV has all)` : ''}`), h('div', { class: 'nl-table-wrap' }, table),
      h('button', { type: 'button', 'data-export': 'csv', onclick: () => this.exportCsv() }, 'Download CSV'), this.#exportList());
  }

  // --- metrics -------------------------------------------------------------------------------------

  #metricsPanel(b: HTMLElement): void {
    const s = select(MENU_METRICS.map((m) => ({ value: m.id, label: m.title })));
    const run = h('button', { type: 'button', 'data-action': 'run-metric' }, 'Run');
    run.addEventListener('click', () => {
      run.disabled = true;
      void this.runMetric(s.value).finally(() => (run.disabled = false));
    });
    b.append(h('p', { class: 'nl-muted' }, 'Computed by the service on this network; the result becomes a node attribute for this session, usable in Color, Size and Filter. The network itself is not changed.'), s, run);
  }

  async runMetric(metricId: string): Promise<string[]> {
    this.#say('metrics', 'Computing…');
    try {
      const r = await this.ctx.api.request<{ values?: Record<string, Record<string, unknown>> } | number>(`/api/v2/embed/viewer/metrics/nodes/${encodeURIComponent(metricId)}`, { method: 'POST', body: {} });
      const values = typeof r === 'object' && r !== null && r.values ? r.values : null;
      if (!values) throw new Error('the service returned no node values');
      const names = Object.keys(values);
      await this.#task('metrics.result', () => {
        for (const name of names) {
          setNodeAttribute(this.ctx.model, name, values[name]);
          this.ctx.engine.layers = [...this.ctx.engine.layers, { id: `calc-${Date.now().toString(36)}-${name.replace(/\W+/g, '-')}`, operation: 'Calculate', attribute: name, hidden: false, readOnly: true, summary: `Metric ${metricId}: ${name}` }];
        }
        return { layersChanged: true };
      });
      this.#say('metrics', `Added ${names.join(', ')}. Use it in Color, Size or Filter.`);
      return names;
    } catch (err) {
      this.#say('metrics', toWireError(err).message, true);
      return [];
    }
  }

  // --- color, size, filter -------------------------------------------------------------------------

  #layerPanel(b: HTMLElement, op: 'color' | 'size'): void {
    const s = this.#attributeSelect('all');
    b.append(s, h('button', { type: 'button', 'data-action': `apply-${op}`, onclick: () => void this.#command(op, `layers.${op}`, { attribute: s.value }) }, op === 'color' ? 'Color' : 'Size'));
  }

  #filterPanel(b: HTMLElement): void {
    const s = this.#attributeSelect('all');
    const form = h('div', { class: 'nl-filter-form' });
    const draw = () => {
      form.replaceChildren();
      const attr = s.value;
      if (!attr) return;
      if (this.ctx.model.nodeAttributeTypes.get(attr) === 'number') {
        const range = numericRange(this.ctx.model, attr) ?? [0, 0];
        const min = h('input', { type: 'number', value: range[0], step: 'any', 'aria-label': 'Minimum' });
        const max = h('input', { type: 'number', value: range[1], step: 'any', 'aria-label': 'Maximum' });
        form.append(h('label', {}, 'Min ', min), h('label', {}, 'Max ', max), h('button', { type: 'button', 'data-action': 'apply-filter', onclick: () => void this.#command('filter', 'layers.filter', { attribute: attr, min: Number(min.value), max: Number(max.value) }) }, 'Filter'));
      } else {
        const values = valueCounts(this.ctx.model, attr).slice(0, 100);
        const boxes = values.map((v) => h('input', { type: 'checkbox', value: v.value }));
        form.append(h('div', { class: 'nl-values' }, ...values.map((v, k) => h('label', { class: 'nl-check' }, boxes[k], ` ${v.value} (${v.count})`))),
          h('button', { type: 'button', 'data-action': 'apply-filter', onclick: () => {
            const chosen = boxes.filter((x) => x.checked).map((x) => x.value);
            if (chosen.length === 0) return this.#say('filter', 'Choose at least one value to keep.', true);
            void this.#command('filter', 'layers.filter', { attribute: attr, values: chosen });
          } }, 'Keep these'));
      }
    };
    s.addEventListener('change', draw);
    b.append(s, form);
    draw();
  }

  // --- shapes, roll-up -----------------------------------------------------------------------------

  #shapesPanel(b: HTMLElement): void {
    const s = this.#attributeSelect('categorical', this.drawing.shapes?.attribute);
    b.append(h('p', { class: 'nl-muted' }, `The most frequent values get ${SHAPES.join(', ')}; others stay circles. Nodes with an image keep it.`), s,
      h('button', { type: 'button', 'data-action': 'apply-shapes', onclick: () => void this.setShapes(s.value) }, 'Apply'),
      this.drawing.shapes ? h('button', { type: 'button', onclick: () => void this.setShapes(null) }, 'Back to circles') : '');
    if (this.drawing.shapes) b.append(h('ul', { class: 'nl-list' }, ...this.drawing.shapes.legend.map((l) => h('li', {}, `${l.shape}: ${l.value}`))));
  }

  setShapes(attribute: string | null): Promise<void> {
    return this.#task('layers.shapes', () => {
      const e = this.ctx.engine;
      e.layers = [...e.layers.filter((l) => l.operation !== 'Shape'), ...(attribute ? [shapeLayer(attribute)] : [])];
      return { layersChanged: true };
    });
  }

  #rollupPanel(b: HTMLElement): void {
    const r = this.drawing.rollup;
    const s = this.#attributeSelect('categorical', r?.attribute);
    b.append(h('p', { class: 'nl-muted' }, 'Collapses the nodes sharing a value into one group node; edges between groups are summed.'), s,
      h('button', { type: 'button', 'data-action': 'rollup', onclick: () => void this.setRollup(s.value) }, 'Roll up'),
      r ? h('button', { type: 'button', 'data-action': 'expand', onclick: () => void this.setRollup(null) }, 'Expand') : '');
    if (r) b.append(h('p', { class: 'nl-muted' }, `${r.groups.length} groups, ${r.edges.length} summed edges.`));
  }

  setRollup(attribute: string | null): Promise<void> {
    return this.#task(attribute ? 'layers.rollup' : 'layers.expand', () => {
      const e = this.ctx.engine;
      e.layers = [...e.layers.filter((l) => l.operation !== 'Rollup'), ...(attribute ? [rollupLayer(attribute)] : [])];
      return { layersChanged: true };
    });
  }

  // --- export --------------------------------------------------------------------------------------

  #exportList(): HTMLElement {
    this.#exports ??= h('ul', { class: 'nl-list nl-exports' });
    return this.#exports;
  }

  #exportPanel(b: HTMLElement): void {
    b.append(
      h('div', { class: 'nl-row' },
        h('button', { type: 'button', 'data-export': 'png', onclick: () => void this.exportPng() }, 'PNG'),
        h('button', { type: 'button', 'data-export': 'svg', onclick: () => this.exportSvg() }, 'SVG'),
        h('button', { type: 'button', 'data-export': 'csv', onclick: () => this.exportCsv() }, 'CSV'),
        h('button', { type: 'button', 'data-export': 'gexf', onclick: () => this.exportGexf() }, 'GEXF')),
      h('p', { class: 'nl-muted' }, 'CSV: the visible nodes table (edges when the Tables panel shows edges). Files appear below; open one to save it.'),
      this.#exportList(),
    );
  }

  #fileName(ext: string): string {
    const base = (this.ctx.model.name || 'network').replace(/[^\w.-]+/g, '_').slice(0, 80) || 'network';
    return `${base}.${ext}`;
  }

  /** Offers a generated file as a link (a sandboxed iframe without `allow-downloads` cannot start a download itself). */
  deliver(blob: Blob, filename: string): HTMLAnchorElement {
    const url = URL.createObjectURL(blob);
    const a = h('a', { href: url, download: filename, target: '_blank', rel: 'noopener', class: 'nl-download', 'data-type': blob.type, 'data-size': blob.size }, `${filename} (${sizeText(blob.size)})`);
    (a as HTMLAnchorElement & { netloomBlob?: Blob }).netloomBlob = blob;
    const list = this.#exportList();
    list.prepend(h('li', {}, a));
    while (list.children.length > 8) {
      const last = list.lastElementChild as HTMLElement;
      const link = last.querySelector('a');
      if (link) URL.revokeObjectURL(link.href);
      last.remove();
    }
    return a;
  }

  async exportPng(): Promise<HTMLAnchorElement | null> {
    const r = this.ctx.display.renderer;
    // Draw now, without re-processing (an empty partial refresh renders at once): WebGL buffers are only
    // readable in the task that drew them.
    r.refresh({ partialGraph: { nodes: [] }, skipIndexation: true });
    const canvases = r.getCanvases();
    const first = Object.values(canvases)[0];
    if (!first) return null;
    const out = document.createElement('canvas');
    out.width = first.width;
    out.height = first.height;
    const g = out.getContext('2d');
    if (!g) return null;
    g.fillStyle = this.ctx.engine.displaySettings.backgroundColor || '#ffffff';
    g.fillRect(0, 0, out.width, out.height);
    for (const k of ['edges', 'nodes', 'edgeLabels', 'labels']) if (canvases[k]) g.drawImage(canvases[k], 0, 0);
    const blob = await new Promise<Blob | null>((res) => out.toBlob(res, 'image/png'));
    if (!blob) return null;
    return this.deliver(blob, this.#fileName('png'));
  }

  svgText(): string {
    const { model, engine, display } = this.ctx;
    const graph = display.graph;
    const nodes: SvgNode[] = [];
    const at = new Map<string, number>();
    graph.forEachNode((node) => {
      const d = display.renderer.getNodeDisplayData(node);
      const data = display.renderer.getGraph().getNodeAttributes(node);
      if (!d || d.hidden) return;
      const i = model.index.get(node);
      const shape = i !== undefined ? this.drawing.shapes?.shapes[i] : undefined;
      at.set(node, nodes.length);
      nodes.push({ x: data.x as number, y: data.y as number, size: d.size, color: d.color, label: this.drawing.labelMode === 'none' ? '' : String(d.label ?? ''), shape });
    });
    const edges: { source: number; target: number; color?: string; size?: number }[] = [];
    graph.forEachEdge((edge, _a, s, t) => {
      const d = display.renderer.getEdgeDisplayData(edge);
      const si = at.get(s);
      const ti = at.get(t);
      if (!d || d.hidden || si === undefined || ti === undefined) return;
      edges.push({ source: si, target: ti, color: d.color, size: d.size });
    });
    return toSvg({ nodes, edges, background: engine.displaySettings.backgroundColor, showEdges: engine.displaySettings.showEdges, showLabels: this.drawing.labelMode !== 'none', labelSize: this.drawing.labelSize });
  }

  exportSvg(): HTMLAnchorElement {
    return this.deliver(new Blob([this.svgText()], { type: 'image/svg+xml' }), this.#fileName('svg'));
  }

  exportCsv(): HTMLAnchorElement {
    return this.deliver(new Blob([toCsv(this.currentTable())], { type: 'text/csv' }), this.#fileName(this.#table.kind === 'nodes' ? 'nodes.csv' : 'edges.csv'));
  }

  exportGexf(): HTMLAnchorElement {
    const { model, engine, display } = this.ctx;
    const x = model.ids.map((id) => display.graph.getNodeAttribute(id, 'x') as number);
    const y = model.ids.map((id) => display.graph.getNodeAttribute(id, 'y') as number);
    const text = toGexf(model, { hidden: engine.display.hidden, color: engine.display.color, size: engine.display.size, x, y });
    return this.deliver(new Blob([text], { type: 'application/xml' }), this.#fileName('gexf'));
  }

  // --- settings ------------------------------------------------------------------------------------

  #settingsPanel(b: HTMLElement): void {
    const e = this.ctx.engine;
    const bg = h('input', { type: 'color', value: /^#[0-9a-f]{6}$/i.test(e.displaySettings.backgroundColor) ? e.displaySettings.backgroundColor : '#ffffff', 'aria-label': 'Background color' });
    bg.addEventListener('change', () => void this.setSettings({ backgroundColor: bg.value }));
    const edges = h('input', { type: 'checkbox', checked: e.displaySettings.showEdges !== false, 'aria-label': 'Show edges', onchange: () => void this.setSettings({ showEdges: edges.checked }) });
    const size = h('input', { type: 'range', min: 8, max: 24, value: this.drawing.labelSize, 'aria-label': 'Label size' });
    size.addEventListener('change', () => void this.#task('display.labelSize', () => {
      this.drawing.labelSize = Number(size.value);
    }));
    b.append(h('label', { class: 'nl-field' }, 'Background ', bg), h('label', { class: 'nl-field' }, edges, ' Show edges'), h('label', { class: 'nl-field' }, 'Label size ', size));
  }

  setSettings(change: Partial<{ backgroundColor: string; showEdges: boolean }>): Promise<void> {
    return this.#task('display.settings', () => {
      this.ctx.engine.displaySettings = { ...this.ctx.engine.displaySettings, ...change };
    });
  }
}

/** Builds the drawing hooks and (unless `ui.menu` is `[]`) the left menu. */
export function mountMenu(ctx: MenuContext): ExploreMenu {
  const menu = new ExploreMenu(ctx);
  menu.mount();
  return menu;
}
