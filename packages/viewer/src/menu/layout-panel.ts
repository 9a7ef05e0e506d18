/**
 * The Layout panel: ForceAtlas2 (optionally weighted by edge weight), "Distribute nodes" (noverlap),
 * circle, circle by attribute, "Plot nodes" — each computed in the layout worker (layout/runner.ts)
 * with progress and Stop; ForceAtlas2 stops by itself once converged. Starting and ending a run are
 * viewer tasks (revision bumps, `state.changed` reasons `layout.start` / `layout.stop`). Positions stay for
 * the session; with Edit, "Keep these positions" writes them to the stored network (docs/embedding.md).
 */
import { toWireError } from '../errors.ts';
import { attributesByType, defaultFilterAttribute } from './attrs.ts';
import { button, empty, field, h, section, select, type PanelHost } from './kit.ts';
import { edgeWeights, likelyManagerEnd, type LayoutOptions, type LayoutRunner, type LayoutState, type ReportingLines } from '../layout/runner.ts';
import type { NetworkModel } from '../model.ts';
import { FA2_CONVERGED_BELOW } from '../layout/protocol.ts';

/** Networks opened without stored positions run ForceAtlas2 by themselves from this many nodes. */
export const AUTO_LAYOUT_FROM = 10;

const TITLES: Record<string, string> = {
  forceAtlas2: 'ForceAtlas2', noverlap: 'Distribute nodes', circle: 'Circle', circleByAttribute: 'Circle by attribute', plot: 'Plot nodes', hierarchy: 'Hierarchy',
};

/** Edge attribute values offered as "which edges are reporting lines" (text attributes with at most this many values). */
const MAX_LINE_VALUES = 20;

/** `attribute=value` choices for the reporting lines: text edge attributes with few values. */
export function reportingLineChoices(model: NetworkModel): { value: string; label: string }[] {
  const out: { value: string; label: string }[] = [];
  for (const [name, type] of model.edgeAttributeTypes) {
    if (type === 'number') continue;
    const values = new Set<string>();
    for (const e of model.edges) {
      const v = e.attributes[name];
      if (v !== undefined && v !== null && v !== '') values.add(String(v));
      if (values.size > MAX_LINE_VALUES) break;
    }
    if (values.size === 0 || values.size > MAX_LINE_VALUES) continue;
    for (const v of [...values].sort()) out.push({ value: JSON.stringify([name, v]), label: `${name} = ${v}` });
  }
  return out;
}

export function layoutStatusText(s: LayoutState): string {
  if (!s.kind) return '';
  const what = TITLES[s.kind] ?? s.kind;
  const secs = `${(s.ms / 1000).toFixed(1)} s`;
  if (s.running) return s.kind === 'forceAtlas2' || s.kind === 'noverlap' ? `${what}: running… ${s.iterations} iterations` : `${what}: computing…`;
  switch (s.outcome) {
    case 'converged': return s.kind === 'forceAtlas2' ? `${what} converged after ${s.iterations} iterations (${secs}).` : `${what} done.`;
    case 'limit': return `${what} stopped at its limit of ${s.iterations} iterations (${secs}).`;
    case 'stopped': return `${what} stopped after ${s.iterations} iterations.`;
    case 'error': return `${what} failed: ${s.error ?? 'unknown error'}`;
    default: return '';
  }
}

/**
 * How far an iterative run has settled, 0–1 (null for one-pass arrangements): the drop of the nodes'
 * movement per iteration from its first batch towards the convergence threshold, on a log scale
 * (ForceAtlas2's movement falls roughly geometrically; layout/jobs.ts). Never 1 before the run ends.
 */
export function layoutProgress(s: LayoutState): number | null {
  if (s.kind !== 'forceAtlas2' && s.kind !== 'noverlap') return null;
  if (!s.firstMovement || !s.movement || s.kind === 'noverlap') return s.kind === 'noverlap' ? null : 0;
  const span = Math.log(s.firstMovement / FA2_CONVERGED_BELOW);
  if (!(span > 0)) return 0.99;
  return Math.min(0.99, Math.max(0, Math.log(s.firstMovement / s.movement) / span));
}

export class LayoutPanel {
  readonly host: PanelHost;
  readonly runner: LayoutRunner;
  weighted = false;
  #plot = { x: '', y: '', order: 'count' as 'count' | 'alphabetical' };
  #groupBy = '';
  #lines: { which: string; managerEnd: '' | 'source' | 'target' } = { which: '', managerEnd: '' };
  /** Set once the viewer is ready: before that an automatic run bumps no revision. */
  ready = false;

  constructor(host: PanelHost, runner: LayoutRunner) {
    this.host = host;
    this.runner = runner;
  }

  /** Starts a layout as a viewer task; the end of the run is a viewer task too. */
  run(options: LayoutOptions): Promise<void> {
    let finished: Promise<unknown> = Promise.resolve();
    return this.host.task('layout.start', () => {
      finished = options.kind === 'noverlap' ? this.runner.distribute() : this.runner.start(options);
    }).then(() => finished).then(() => undefined);
  }

  /** Called by the runner after each batch and at the end of a run. */
  progress(s: LayoutState): void {
    if (!s.running && this.ready) void this.host.task('layout.stop', () => undefined);
  }

  render(b: HTMLElement): void {
    const r = this.runner;
    const s = r.state;
    const model = this.host.ctx.model;
    const busy = r.running;
    const stop = button('Stop', { 'data-action': 'stop', onclick: () => r.stop() }, 'secondary');
    const status = h('p', { class: 'nl-status-line', 'data-layout-status': busy ? 'running' : 'stopped', 'data-layout-kind': s.kind ?? '', 'data-layout-outcome': s.outcome ?? '' }, layoutStatusText(s));
    if (busy) {
      const settled = layoutProgress(s);
      b.append(h('div', { class: 'nl-progress-box' },
        h('div', { class: 'nl-row nl-progress-row' }, h('span', { class: 'nl-spinner', 'aria-hidden': 'true' }), status, stop),
        settled === null ? null : h('progress', { class: 'nl-progress', max: 100, value: Math.round(settled * 100), 'aria-label': 'How far the layout has settled', 'data-layout-progress': 'true' })));
    } else b.append(status);

    // ForceAtlas2
    const weights = edgeWeights(model) !== null;
    const weighted = h('input', { type: 'checkbox', checked: this.weighted && weights, disabled: !weights, 'data-option': 'weighted', onchange: () => (this.weighted = weighted.checked) });
    b.append(section('Force-directed',
      h('p', { class: 'nl-hint' }, 'ForceAtlas2 pulls linked nodes together and pushes the others apart; it stops by itself once the drawing has settled.'),
      h('label', { class: 'nl-check' }, weighted, weights ? ' Weighted by edge weight' : ' Weighted by edge weight (no edge has a weight)'),
      h('div', { class: 'nl-row' },
        button('Run layout', { 'data-action': 'start', disabled: busy, onclick: () => void this.run({ kind: 'forceAtlas2', weighted: this.weighted }) }, 'primary'),
        button('Distribute nodes', { 'data-action': 'distribute', disabled: busy, title: 'Move nodes apart until no two overlap', onclick: () => void this.run({ kind: 'noverlap' }) })),
    ));

    // Circles
    const { categorical, numeric } = attributesByType(model);
    const all = [...categorical, ...numeric].sort();
    const preferred = defaultFilterAttribute(model);
    const groupBy = select(categorical.map((n) => ({ value: n, label: n })), this.#groupBy || (preferred && categorical.includes(preferred) ? preferred : categorical[0]), { 'aria-label': 'Group by' });
    groupBy.addEventListener('change', () => (this.#groupBy = groupBy.value));
    b.append(section('Circle',
      h('div', { class: 'nl-row' },
        button('Circle', { 'data-action': 'circle', disabled: busy, onclick: () => void this.run({ kind: 'circle' }) }),
      ),
      categorical.length
        ? h('div', { class: 'nl-row' }, groupBy, button('Circle by attribute', { 'data-action': 'circle-by-attribute', disabled: busy, onclick: () => void this.run({ kind: 'circleByAttribute', attribute: groupBy.value }) }))
        : empty('Circle by attribute needs a text attribute.'),
    ));

    // Plot nodes
    if (all.length === 0) b.append(section('Plot nodes', empty('Plot nodes needs node attributes; run a metric to add some.')));
    else {
      const label = (n: string) => `${n}${numeric.includes(n) ? ' (number)' : ''}`;
      const px = select(all.map((n) => ({ value: n, label: label(n) })), this.#plot.x || numeric[0] || all[0], { 'data-plot': 'x' });
      const py = select(all.map((n) => ({ value: n, label: label(n) })), this.#plot.y || numeric[1] || numeric[0] || all[0], { 'data-plot': 'y' });
      const order = select([{ value: 'count', label: 'Most frequent first' }, { value: 'alphabetical', label: 'Alphabetical' }], this.#plot.order, { 'data-plot': 'order' });
      const keep = () => (this.#plot = { x: px.value, y: py.value, order: order.value as 'count' | 'alphabetical' });
      for (const s of [px, py, order]) s.addEventListener('change', keep);
      b.append(section('Plot nodes',
        field('Horizontal axis', px), field('Vertical axis', py), field('Text values in order', order),
        button('Plot nodes', { 'data-action': 'plot', disabled: busy, onclick: () => {
          keep();
          void this.run({ kind: 'plot', x: px.value, y: py.value, categoryOrder: this.#plot.order });
        } }),
      ));
    }
    b.append(this.#hierarchySection(busy));
    b.append(this.#keepSection());
  }

  /** Hierarchy: which edges are reporting lines and which way they point; managers above their reports. */
  #hierarchySection(busy: boolean): HTMLElement {
    const model = this.host.ctx.model;
    if (model.edges.length === 0) return section('Hierarchy', empty('Hierarchy needs edges (reporting lines).'));
    const which = select([{ value: '', label: 'Every edge' }, ...reportingLineChoices(model)], this.#lines.which, { 'data-option': 'lines' });
    const lines = (): Omit<ReportingLines, 'managerEnd'> => {
      if (!which.value) return {};
      const [attribute, value] = JSON.parse(which.value) as [string, string];
      return { attribute, value };
    };
    const end = select([
      { value: 'source', label: 'From the manager to the report' },
      { value: 'target', label: 'From a person to their manager ("reports to")' },
    ], this.#lines.managerEnd || likelyManagerEnd(model, lines()), { 'data-option': 'manager-end' });
    const keep = () => (this.#lines = { which: which.value, managerEnd: end.value as 'source' | 'target' });
    which.addEventListener('change', () => {
      this.#lines = { which: which.value, managerEnd: '' };
      end.value = likelyManagerEnd(model, lines());
    });
    end.addEventListener('change', keep);
    return section('Hierarchy',
      h('p', { class: 'nl-hint' }, 'Layers of reporting lines: each manager above the people who report to them; people without a reporting line in the last row.'),
      field('Reporting lines', which), field('Edges point', end),
      button('Hierarchy', { 'data-action': 'hierarchy', disabled: busy, onclick: () => {
        keep();
        void this.run({ kind: 'hierarchy', managerEnd: end.value as 'source' | 'target', ...lines() });
      } }),
    );
  }

  #keepSection(): HTMLElement {
    const { session, api } = this.host.ctx;
    if (session.capabilities.edit !== true) {
      return section('Positions', h('p', { class: 'nl-hint' }, 'Positions stay for this session; keeping them in the network needs Edit access.'));
    }
    const keep = button('Keep these positions', { 'data-action': 'keep-positions', disabled: this.runner.running }, 'secondary');
    keep.addEventListener('click', () => {
      keep.disabled = true;
      const m = this.host.ctx.model;
      const p = this.runner.positions();
      const x = Array.from({ length: m.ids.length }, (_, i) => p[2 * i]);
      const y = Array.from({ length: m.ids.length }, (_, i) => p[2 * i + 1]);
      this.host.say('layout', 'Saving positions…');
      api.savePositions({ nodeIds: m.ids, x, y }).then((r) => {
        this.host.say('layout', `Positions kept in the network (version ${r.networkUUID.slice(0, 8)}).`);
      }, (err) => this.host.say('layout', toWireError(err).message, true)).finally(() => (keep.disabled = false));
    });
    return section('Positions', h('p', { class: 'nl-hint' }, 'Positions stay for this session unless you keep them in the network (everyone who opens it then sees them).'), keep);
  }
}
