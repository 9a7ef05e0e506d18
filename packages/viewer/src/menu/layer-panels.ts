/**
 * Panels that add or list layers: Color, Size, Filter (categorical: a searchable checklist with counts;
 * numeric: a range slider over a histogram), the Layers list, Labels and Templates. Layers go through
 * the same command handlers as the SDK (`host.command`), so revision and state.changed behave alike.
 */
import type { Layer } from '@netloom/protocol';
import type { NetworkModel } from '../model.ts';
import { edgeAttributes } from '../layers.ts';
import { LABEL_MODES, type LabelMode } from './drawing.ts';
import { ALWAYS_LABEL_CAP } from '../label-priority.ts';
import { attributesByType, defaultFilterAttribute, degrees, histogram, isLabelAttribute, numericRange, setNodeAttribute, valueCounts } from './attrs.ts';
import { button, empty, field, h, searchable, section, select, type PanelHost } from './kit.ts';
import { templates, type Template } from './templates.ts';

export function layerText(l: Layer): string {
  if (l.summary) return l.summary;
  const what = `${l.operation}${l.appliedTo === 'edges' ? ' ties' : ''} by ${l.attribute ?? '?'}`;
  if (l.operation === 'Filter') return l.values ? `${what}: ${l.values.join(', ')}` : `${what}: ${l.min} – ${l.max}`;
  return what;
}

export type Target = 'nodes' | 'edges';

/**
 * The model as the attribute helpers (attrs.ts) see it: the nodes', or for ties the edges' attributes
 * and types in their place (those helpers read only `attributes` and `nodeAttributeTypes`).
 */
export function targetModel(model: NetworkModel, target: Target): NetworkModel {
  if (target === 'nodes') return model;
  return { ...model, attributes: edgeAttributes(model) as NetworkModel['attributes'], nodeAttributeTypes: model.edgeAttributeTypes };
}

/** "Apply to: Nodes | Ties" — only when the network's edges have attributes. */
function targetSelect(host: PanelHost, value: Target, onChange: (t: Target) => void): HTMLElement | null {
  if (host.ctx.model.edgeAttributeTypes.size === 0) return null;
  const s = select([{ value: 'nodes', label: 'Nodes' }, { value: 'edges', label: 'Ties (edges)' }], value, { 'aria-label': 'Apply to', 'data-target': '' });
  s.addEventListener('change', () => onChange(s.value as Target));
  return field('Apply to', s);
}

/** A select of the network's attributes (type shown), starting on `value` or the default filter attribute. */
function attributeSelect(host: PanelHost, value: string | null | undefined, props: Record<string, string> = {}, target: Target = 'nodes'): HTMLSelectElement | null {
  const model = targetModel(host.ctx.model, target);
  const { categorical, numeric } = attributesByType(model);
  const names = [...categorical, ...numeric].sort();
  if (names.length === 0) return null;
  const label = (n: string) => `${n} · ${numeric.includes(n) ? 'number' : target === 'nodes' && isLabelAttribute(model, n) ? 'label' : 'text'}`;
  const first = value ?? (target === 'nodes' ? defaultFilterAttribute(model) : numeric[0]) ?? names[0];
  return select(names.map((n) => ({ value: n, label: label(n) })), first, { 'aria-label': 'Attribute', ...props });
}

const targets: Record<string, Target> = {};

const NO_ATTRIBUTES = 'This network has no node attributes yet. Run a metric (Metrics) or a template to add some.';

export function colorSizePanel(host: PanelHost, b: HTMLElement, op: 'color' | 'size'): void {
  const target = targets[op] ?? 'nodes';
  const pick = targetSelect(host, target, (t) => {
    targets[op] = t;
    b.replaceChildren();
    colorSizePanel(host, b, op);
  });
  const s = attributeSelect(host, undefined, {}, target);
  if (!s) return void b.append(...(pick ? [pick] : []), empty(target === 'edges' ? 'The edges have no attributes.' : NO_ATTRIBUTES));
  const hint = target === 'edges'
    ? (op === 'color' ? 'Ties get a color per text value, or a gradient from weak to strong for numbers (with a legend).' : 'Ties are drawn thicker as the number grows; text values by frequency.')
    : (op === 'color' ? 'Text attributes get a color per value (with a legend); numbers a gradient from low to high.' : 'Nodes are drawn larger as the number grows; text values by frequency.');
  const title = target === 'edges' ? (op === 'color' ? 'Color ties' : 'Size ties') : (op === 'color' ? 'Color nodes' : 'Size nodes');
  b.append(
    ...(pick ? [pick] : []),
    h('p', { class: 'nl-hint' }, hint),
    field('Attribute', s),
    button(title, { 'data-action': `apply-${op}`, onclick: () => void host.command(op, `layers.${op}`, { attribute: s.value, ...(target === 'edges' ? { appliedTo: 'edges' } : {}) }) }, 'primary'),
  );
}

const BINS = 24;

/** Numeric filter: a histogram of the values with a two-handle range slider under it, and exact bounds. */
function numericFilter(host: PanelHost, form: HTMLElement, attr: string, target: Target): void {
  const model = targetModel(host.ctx.model, target);
  const noun = target === 'edges' ? 'edges' : 'nodes';
  const range = numericRange(model, attr);
  if (!range) return void form.append(empty(`No ${noun === 'edges' ? 'edge' : 'node'} has a number in ${attr}.`));
  const [lo, hi] = range;
  const hist = histogram(model, attr, BINS);
  const max = Math.max(1, ...hist.counts);
  const bars = hist.counts.map((c) => h('span', { class: 'nl-bar', title: `${c} nodes` }));
  bars.forEach((bar, k) => (bar.style.height = `${Math.max(c0(hist.counts[k]), (hist.counts[k] / max) * 100)}%`));
  const step = hi > lo ? (hi - lo) / 1000 : 1;
  const from = h('input', { type: 'range', class: 'nl-range', min: lo, max: hi, step, value: lo, 'aria-label': 'From', 'data-range': 'min' });
  const to = h('input', { type: 'range', class: 'nl-range', min: lo, max: hi, step, value: hi, 'aria-label': 'To', 'data-range': 'max' });
  const minIn = h('input', { type: 'number', class: 'nl-input nl-num', value: lo, step: 'any', 'aria-label': 'Minimum' });
  const maxIn = h('input', { type: 'number', class: 'nl-input nl-num', value: hi, step: 'any', 'aria-label': 'Maximum' });
  const count = h('p', { class: 'nl-hint', 'data-filter-count': '' });
  const values = model.attributes.map((a) => a[attr]).filter((v): v is number => typeof v === 'number');
  const update = (source: 'slider' | 'input') => {
    let a = source === 'slider' ? Number(from.value) : Number(minIn.value);
    let z = source === 'slider' ? Number(to.value) : Number(maxIn.value);
    if (a > z) [a, z] = [z, a];
    if (source === 'slider') {
      minIn.value = String(+a.toPrecision(6));
      maxIn.value = String(+z.toPrecision(6));
    } else {
      from.value = String(a);
      to.value = String(z);
    }
    const span = hi - lo || 1;
    bars.forEach((bar, k) => {
      const b0 = lo + (span * k) / BINS;
      const b1 = lo + (span * (k + 1)) / BINS;
      bar.classList.toggle('nl-bar-out', b1 < a || b0 > z);
    });
    count.textContent = `${values.filter((v) => v >= a && v <= z).length} of ${values.length} ${noun} with a value in range`;
  };
  from.addEventListener('input', () => update('slider'));
  to.addEventListener('input', () => update('slider'));
  minIn.addEventListener('change', () => update('input'));
  maxIn.addEventListener('change', () => update('input'));
  form.append(
    h('div', { class: 'nl-histogram', 'aria-hidden': 'true' }, ...bars),
    h('div', { class: 'nl-range-pair' }, from, to),
    h('div', { class: 'nl-row nl-bounds' }, field('From', minIn), field('To', maxIn)),
    count,
    button('Filter', { 'data-action': 'apply-filter', onclick: () => {
      const a = Math.min(Number(minIn.value), Number(maxIn.value));
      const z = Math.max(Number(minIn.value), Number(maxIn.value));
      void host.command('filter', 'layers.filter', { attribute: attr, min: a, max: z, ...(target === 'edges' ? { appliedTo: 'edges' } : {}) });
    } }, 'primary'),
  );
  update('input');
}

function c0(count: number): number {
  return count > 0 ? 4 : 0;
}

/** Categorical filter: a checklist of values with counts, searchable when long; All / None. */
function categoricalFilter(host: PanelHost, form: HTMLElement, attr: string, target: Target): void {
  const values = valueCounts(targetModel(host.ctx.model, target), attr);
  if (values.length === 0) return void form.append(empty(`No ${target === 'edges' ? 'edge' : 'node'} has a value in ${attr}.`));
  const chosen = new Set<string>();
  const count = h('p', { class: 'nl-hint', 'data-filter-count': '' });
  const say = () => (count.textContent = chosen.size ? `${chosen.size} of ${values.length} values chosen` : `${values.length} values — choose the ones to keep`);
  const boxes = new Map<string, HTMLInputElement>();
  const list = searchable(values, (v) => v.value, (v) => {
    let box = boxes.get(v.value);
    if (!box) {
      const b2 = h('input', { type: 'checkbox', value: v.value });
      b2.addEventListener('change', () => {
        if (b2.checked) chosen.add(v.value);
        else chosen.delete(v.value);
        say();
      });
      boxes.set(v.value, b2);
      box = b2;
    }
    box.checked = chosen.has(v.value);
    return h('li', {}, h('label', { class: 'nl-check' }, box, h('span', { class: 'nl-check-text' }, v.value), h('span', { class: 'nl-count' }, String(v.count))));
  }, { searchFrom: 10, placeholder: `Search ${values.length} values`, listClass: 'nl-values' });
  const all = (on: boolean) => {
    for (const v of values) {
      if (on) chosen.add(v.value);
      else chosen.delete(v.value);
    }
    for (const b of boxes.values()) b.checked = on;
    say();
  };
  form.append(
    h('div', { class: 'nl-row nl-row-between' }, count, h('span', {}, button('All', { onclick: () => all(true) }, 'quiet'), button('None', { onclick: () => all(false) }, 'quiet'))),
    list,
    button('Keep these', { 'data-action': 'apply-filter', onclick: () => {
      if (chosen.size === 0) return host.say('filter', 'Choose at least one value to keep.', true);
      void host.command('filter', 'layers.filter', { attribute: attr, values: [...chosen], ...(target === 'edges' ? { appliedTo: 'edges' } : {}) });
    } }, 'primary'),
  );
  say();
}

export class FilterPanel {
  readonly host: PanelHost;
  attribute: string | null = null;
  target: Target = 'nodes';
  constructor(host: PanelHost) {
    this.host = host;
  }
  render(b: HTMLElement): void {
    const pick = targetSelect(this.host, this.target, (t) => {
      this.target = t;
      this.attribute = null;
      b.replaceChildren();
      this.render(b);
    });
    const target = this.target;
    const s = attributeSelect(this.host, this.attribute, {}, target);
    if (!s) return void b.append(...(pick ? [pick] : []), empty(target === 'edges' ? 'The edges have no attributes.' : NO_ATTRIBUTES));
    const form = h('div', { class: 'nl-filter-form' });
    const types = target === 'edges' ? this.host.ctx.model.edgeAttributeTypes : this.host.ctx.model.nodeAttributeTypes;
    const draw = () => {
      this.attribute = s.value;
      form.replaceChildren();
      if (types.get(s.value) === 'number') numericFilter(this.host, form, s.value, target);
      else categoricalFilter(this.host, form, s.value, target);
    };
    s.addEventListener('change', draw);
    b.append(...(pick ? [pick] : []), field('Attribute', s), form);
    draw();
  }
}

export function layersPanel(host: PanelHost, b: HTMLElement): void {
  const e = host.ctx.engine;
  if (e.layers.length === 0) return void b.append(empty('No layers yet. Color, Size, Filter, Shapes, Roll-up and Templates add them.'));
  const list = h('ul', { class: 'nl-list nl-layers' });
  for (const l of e.layers) {
    const toggle = h('input', { type: 'checkbox', checked: !l.hidden, title: l.hidden ? 'Show' : 'Hide', 'aria-label': 'Visible', onchange: () => void host.task('layers.toggle', () => {
      e.layers = e.layers.map((x) => (x.id === l.id ? { ...x, hidden: !x.hidden } : x));
      return { layersChanged: true };
    }) });
    const remove = h('button', { type: 'button', class: 'nl-icon-btn', title: 'Remove', 'aria-label': 'Remove layer', onclick: () => void (l.readOnly
      ? host.task('layers.remove', () => {
        e.layers = e.layers.filter((x) => x.id !== l.id);
        return { layersChanged: true };
      })
      : host.command('layers', 'layers.remove', { layerId: l.id })) }, '×');
    list.append(h('li', { 'data-layer-id': l.id, class: l.hidden ? 'nl-item nl-off' : 'nl-item' }, toggle, h('span', { class: 'nl-layer-text' }, layerText(l)), l.readOnly ? h('span', { class: 'nl-badge', title: 'Added in the viewer; code cannot change it' }, 'read-only') : null, remove));
  }
  b.append(list, button('Remove all', { title: 'Read-only layers stay', onclick: () => void host.command('layers', 'layers.clear') }, 'quiet'));
}

const LABEL_TITLES: Record<LabelMode, string> = { auto: 'Auto', always: 'Always', hover: 'On hover', none: 'None' };
const LABEL_HINTS: Record<LabelMode, string> = {
  auto: 'The biggest and best-connected nodes are labelled first; zoom in for more.',
  always: 'Every visible node is labelled; where labels overlap, the bigger or better-connected node\'s label is on top.',
  hover: 'Only the node under the pointer and the selected nodes are labelled.',
  none: 'No labels on the canvas.',
};

export function labelsPanel(host: PanelHost, b: HTMLElement): void {
  const current = host.drawing.labelMode;
  const group = h('div', { class: 'nl-segmented', role: 'radiogroup', 'aria-label': 'Labels' });
  for (const m of LABEL_MODES) {
    const input = h('input', { type: 'radio', name: 'nl-label-mode', value: m, checked: m === current, onchange: () => void setLabelMode(host, m) });
    group.append(h('label', { class: 'nl-radio' }, input, h('span', {}, LABEL_TITLES[m])));
  }
  const lp = host.ctx.display.labelPriority;
  const capped = current === 'always' && lp.overflow > 0
    ? h('p', { class: 'nl-hint', 'data-label-overflow': String(lp.overflow) }, `Labels are drawn for the ${ALWAYS_LABEL_CAP.toLocaleString('en')} highest-ranked nodes; ${lp.overflow.toLocaleString('en')} more are left unlabelled.`)
    : null;
  b.append(h('p', { class: 'nl-hint' }, 'When node names are drawn on the canvas. Saved with the view.'), group, h('p', { class: 'nl-hint', 'data-label-hint': current }, LABEL_HINTS[current]), ...(capped ? [capped] : []), labelSizeField(host));
}

/** The label size (px) of the canvas labels; this session only (EmbedView v1 has no field for it). */
export function labelSizeField(host: PanelHost): HTMLElement {
  const size = h('input', { type: 'range', class: 'nl-range-single', min: 8, max: 24, value: host.drawing.labelSize, 'aria-label': 'Label size', 'data-label-size': '' });
  const out = h('span', { class: 'nl-hint' }, `${host.drawing.labelSize} px`);
  size.addEventListener('input', () => (out.textContent = `${size.value} px`));
  size.addEventListener('change', () => void host.task('display.labelSize', () => {
    host.drawing.labelSize = Number(size.value);
  }));
  return field('Label size', h('div', { class: 'nl-row' }, size, out), 'This session only.');
}

export function setLabelMode(host: PanelHost, mode: LabelMode): Promise<void> {
  return host.task('display.labels', () => {
    host.ctx.engine.displaySettings = { ...host.ctx.engine.displaySettings, showLabels: mode };
  });
}

export function templatesPanel(host: PanelHost, b: HTMLElement): void {
  const list = templates(host.ctx.model);
  if (list.length === 0) return void b.append(empty('No template fits this network.'));
  b.append(section('One-click layer sets', h('ul', { class: 'nl-list nl-cards' }, ...list.map((t) => h('li', {},
    h('button', { type: 'button', class: 'nl-card', 'data-template': t.id, onclick: () => void applyTemplate(host, t) }, h('strong', {}, t.title), h('span', { class: 'nl-hint' }, t.description)))))));
}

export async function applyTemplate(host: PanelHost, t: Template): Promise<void> {
  const model = host.ctx.model;
  for (const step of t.steps) {
    if ('compute' in step) {
      if (!model.nodeAttributeTypes.has(step.attribute)) await host.task('attributes.degree', () => void setNodeAttribute(model, step.attribute, degrees(model)));
    } else if ((await host.command('templates', step.command, step.args)) === undefined) return;
  }
  host.say('templates', `Applied “${t.title}”.`);
}
