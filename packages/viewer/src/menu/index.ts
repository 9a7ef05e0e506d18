/**
 * The Explore left menu (DOM): one button per item of `ui.menu` in the viewer's own order (items.ts),
 * one panel open at a time, each panel in its own module (layout-panel, views-panels, layer-panels,
 * data-panels, drawing-panels, export-panel). Everything a panel changes goes through the engine's
 * queue as a viewer task: layers through the very handlers the SDK uses (`command`), the rest (label
 * mode, settings, shapes, roll-up, layer visibility, metric results, layouts) as viewer tasks that bump
 * the revision, so `state.changed` and `revision` behave as for SDK commands. Hiding an item grants or
 * removes no right: the service still checks. A session that may not save views has no "Save view" item.
 * While a panel is open the legend moves beside it (viewer.css `.nl-panel-open`), never under it.
 */
import type { ViewerEngine } from '../engine.ts';
import { toWireError } from '../errors.ts';
import { LayoutRunner } from '../layout/runner.ts';
import { GuideOverlay } from '../guides.ts';
import { TablesPanel } from './data-panels.ts';
import { MetricsPanel } from './metrics-panel.ts';
import { GroupsPanel } from './groups-panel.ts';
import { Drawing } from './drawing.ts';
import { rollupPanel, settingsPanel, shapesPanel } from './drawing-panels.ts';
import { ExportPanel } from './export-panel.ts';
import { icon } from './icons.ts';
import { MENU_TITLES, visibleMenuItems, type MenuItem } from './items.ts';
import { h, type MenuContext, type PanelHost } from './kit.ts';
import { colorSizePanel, FilterPanel, labelsPanel, layersPanel, templatesPanel } from './layer-panels.ts';
import { AUTO_LAYOUT_FROM, LayoutPanel, layoutProgress, layoutStatusText } from './layout-panel.ts';
import { openPanel, savePanel } from './views-panels.ts';

export type { MenuContext } from './kit.ts';
export { layerText } from './layer-panels.ts';

export class ExploreMenu implements PanelHost {
  readonly ctx: MenuContext;
  readonly drawing: Drawing;
  readonly items: MenuItem[];
  readonly layout: LayoutRunner;
  readonly layoutPanel: LayoutPanel;
  readonly tables: TablesPanel;
  readonly filter: FilterPanel;
  readonly exports: ExportPanel;
  readonly metrics: MetricsPanel;
  readonly groups: GroupsPanel;
  nav: HTMLElement | null = null;
  panel: HTMLElement | null = null;
  active: MenuItem | null = null;
  #liveKey = '';
  #renderScheduled = false;
  #status = new Map<MenuItem, { text: string; error: boolean }>();

  constructor(ctx: MenuContext) {
    this.ctx = ctx;
    // Read-only sessions (no Edit, no saving of views) get no "Save view": an action they cannot take is
    // not offered (Open view says why; the service refuses views.save anyway).
    const canSave = ctx.session.capabilities.edit === true || ctx.session.capabilities.saveViews === true;
    this.items = visibleMenuItems(ctx.session.ui?.menu).filter((item) => item !== 'save' || canSave);
    this.drawing = new Drawing(ctx.engine, ctx.display, ctx.model);
    this.layout = new LayoutRunner({ graph: ctx.display.graph, renderer: ctx.display.renderer, model: ctx.model, workerUrl: ctx.layoutWorkerUrl });
    this.drawing.layout = this.layout;
    this.layout.guides = new GuideOverlay(ctx.display.renderer);
    this.layoutPanel = new LayoutPanel(this, this.layout);
    this.tables = new TablesPanel(this);
    this.metrics = new MetricsPanel(this);
    this.groups = new GroupsPanel(this);
    this.filter = new FilterPanel(this);
    this.exports = new ExportPanel(this, ctx.downloadPageUrl, () => ({ table: this.tables.current(), kind: this.tables.state.kind }), () => this.layout.guides);
    this.tables.onCsv = () => this.exports.start('csv');
  }

  mount(): void {
    this.drawing.install();
    this.drawing.onChange = () => this.#scheduleLiveRender();
    this.layout.onProgress = (state) => {
      this.layoutPanel.progress(state);
      if (this.active !== 'layout') return;
      // While running only the status line changes (the buttons stay put); the panel re-renders at the end.
      const status = this.panel?.querySelector<HTMLElement>('[data-layout-status]');
      if (state.running && status?.dataset.layoutStatus === 'running') {
        status.textContent = layoutStatusText(state);
        const bar = this.panel?.querySelector<HTMLProgressElement>('[data-layout-progress]');
        const settled = layoutProgress(state);
        if (bar && settled !== null) bar.value = Math.round(settled * 100);
      } else this.render();
    };
    if (this.items.length === 0) return; // `ui.menu: []`: no left menu at all
    const { root } = this.ctx;
    root.classList.add('nl-with-menu');
    this.nav = h('nav', { class: 'nl-menu', 'aria-label': 'Explore' });
    for (const item of this.items) {
      this.nav.append(h('button', { type: 'button', class: 'nl-menu-item', 'data-item': item, title: MENU_TITLES[item], onclick: () => this.open(this.active === item ? null : item) }, icon(item), h('span', {}, MENU_TITLES[item])));
    }
    this.panel = h('section', { class: 'nl-panel', hidden: true, 'aria-live': 'polite' });
    root.append(this.nav, this.panel);
  }

  /**
   * A network opened without stored positions starts on the circle; from AUTO_LAYOUT_FROM nodes it then
   * runs ForceAtlas2 by itself. Resolves when that run ends (null: no automatic run).
   */
  autoLayout(): Promise<void> | null {
    const m = this.ctx.model;
    if (m.positioned || m.ids.length < AUTO_LAYOUT_FROM || m.edges.length === 0) return null;
    return this.layout.start({ kind: 'forceAtlas2' }).then(() => undefined);
  }

  open(item: MenuItem | null): void {
    if (!this.panel || !this.nav) return;
    if (item !== null && !this.items.includes(item)) return;
    this.active = item;
    for (const b of this.nav.querySelectorAll<HTMLElement>('.nl-menu-item')) {
      b.classList.toggle('nl-active', b.dataset.item === item);
      b.setAttribute('aria-pressed', String(b.dataset.item === item));
    }
    this.panel.hidden = item === null;
    this.panel.dataset.item = item ?? '';
    this.ctx.root.classList.toggle('nl-panel-open', item !== null);
    this.render();
  }

  /** Re-renders panels that show live state, when that state changed (not on camera moves). */
  #scheduleLiveRender(): void {
    if (this.#renderScheduled || !this.active || !['layers', 'labels', 'tables', 'settings', 'shapes', 'rollup', 'open', 'export'].includes(this.active)) return;
    const e = this.ctx.engine;
    const key = `${this.active}|${e.layers.map((l) => `${l.id}:${l.hidden}`).join()}|${JSON.stringify(e.displaySettings)}|${e.display.visibleCount}|${e.viewId}|${this.ctx.model.nodeAttributeTypes.size}`;
    if (key === this.#liveKey) return;
    this.#liveKey = key;
    this.#renderScheduled = true;
    queueMicrotask(() => {
      this.#renderScheduled = false;
      // Do not disturb a form being typed into.
      const a = document.activeElement;
      if (this.panel?.contains(a) && a instanceof HTMLInputElement && (a.type === 'text' || a.type === 'search')) return;
      this.render();
    });
  }

  render(): void {
    const p = this.panel;
    if (!p || !this.active) return;
    const item = this.active;
    const close = h('button', { type: 'button', class: 'nl-icon-btn nl-panel-close', title: 'Close', 'aria-label': 'Close panel', onclick: () => this.open(null) }, icon('close'));
    p.replaceChildren(h('header', { class: 'nl-panel-head' }, h('h3', {}, MENU_TITLES[item]), close));
    const body = h('div', { class: 'nl-panel-body' });
    p.append(body);
    const renderers: Record<MenuItem, (b: HTMLElement) => void> = {
      layout: (b) => this.layoutPanel.render(b), open: (b) => openPanel(this, b), save: (b) => savePanel(this, b), templates: (b) => templatesPanel(this, b),
      labels: (b) => labelsPanel(this, b), layers: (b) => layersPanel(this, b), tables: (b) => this.tables.render(b), metrics: (b) => this.metrics.render(b), groups: (b) => this.groups.render(b),
      color: (b) => colorSizePanel(this, b, 'color'), size: (b) => colorSizePanel(this, b, 'size'), filter: (b) => this.filter.render(b), shapes: (b) => shapesPanel(this, b),
      rollup: (b) => rollupPanel(this, b), export: (b) => this.exports.render(b), settings: (b) => settingsPanel(this, b),
    };
    renderers[item](body);
    const st = this.#status.get(item);
    p.append(h('p', { class: `nl-note${st?.error ? ' nl-error' : ''}`, role: 'status' }, st?.text ?? ''));
  }

  say(item: MenuItem, text: string, error = false): void {
    this.#status.set(item, { text, error });
    if (this.active === item && this.panel) {
      const n = this.panel.querySelector<HTMLElement>(':scope > .nl-note');
      if (n) {
        n.textContent = text;
        n.classList.toggle('nl-error', error);
      }
    }
  }

  async command(item: MenuItem, command: Parameters<ViewerEngine['viewerCommand']>[0], args: Record<string, unknown> = {}): Promise<unknown> {
    try {
      const r = await this.ctx.engine.viewerCommand(command, args);
      this.say(item, '');
      return r;
    } catch (err) {
      this.say(item, toWireError(err).message, true);
      return undefined;
    }
  }

  task(reason: string, change: () => { layersChanged?: boolean } | void): Promise<void> {
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
}

/** Builds the drawing hooks and (unless `ui.menu` is `[]`) the left menu. */
export function mountMenu(ctx: MenuContext): ExploreMenu {
  const menu = new ExploreMenu(ctx);
  menu.mount();
  return menu;
}
