/** Panels that change how nodes are drawn: Shapes, Roll-up and Settings (read-only layers or display settings, as viewer tasks). */
import { attributesByType, defaultFilterAttribute, isLabelAttribute } from './attrs.ts';
import { button, empty, field, h, select, type PanelHost } from './kit.ts';
import { labelSizeField } from './layer-panels.ts';
import { rollupLayer } from './rollup.ts';
import { shapeLayer, SHAPES } from './shapes.ts';

function categoricalSelect(host: PanelHost, value: string | undefined): HTMLSelectElement | null {
  const names = attributesByType(host.ctx.model).categorical;
  if (names.length === 0) return null;
  const first = value ?? names.find((n) => n === defaultFilterAttribute(host.ctx.model)) ?? names.find((n) => !isLabelAttribute(host.ctx.model, n)) ?? names[0];
  return select(names.map((n) => ({ value: n, label: n })), first, { 'aria-label': 'Attribute' });
}

const NO_TEXT = 'This needs a text attribute (such as a team or a type); this network has none.';

export function shapesPanel(host: PanelHost, b: HTMLElement): void {
  const shapes = host.drawing.shapes;
  const s = categoricalSelect(host, shapes?.attribute);
  if (!s) return void b.append(empty(NO_TEXT));
  b.append(h('p', { class: 'nl-hint' }, `The most frequent values get ${SHAPES.join(', ')}; others stay circles. Nodes with an image keep it.`), field('Attribute', s),
    h('div', { class: 'nl-row' }, button('Apply', { 'data-action': 'apply-shapes', onclick: () => void setShapes(host, s.value) }, 'primary'),
      shapes ? button('Back to circles', { onclick: () => void setShapes(host, null) }) : ''));
  if (shapes) b.append(h('ul', { class: 'nl-list' }, ...shapes.legend.map((l) => h('li', { class: 'nl-item' }, `${l.shape}: ${l.value}`))));
}

export function setShapes(host: PanelHost, attribute: string | null): Promise<void> {
  return host.task('layers.shapes', () => {
    const e = host.ctx.engine;
    e.layers = [...e.layers.filter((l) => l.operation !== 'Shape'), ...(attribute ? [shapeLayer(attribute)] : [])];
    return { layersChanged: true };
  });
}

export function rollupPanel(host: PanelHost, b: HTMLElement): void {
  const r = host.drawing.rollup;
  const s = categoricalSelect(host, r?.attribute);
  if (!s) return void b.append(empty(NO_TEXT));
  b.append(h('p', { class: 'nl-hint' }, 'Collapses the nodes sharing a value into one group node; edges between groups are summed.'), field('Group by', s),
    h('div', { class: 'nl-row' }, button('Roll up', { 'data-action': 'rollup', onclick: () => void setRollup(host, s.value) }, 'primary'),
      r ? button('Expand', { 'data-action': 'expand', onclick: () => void setRollup(host, null) }) : ''));
  if (r) b.append(h('p', { class: 'nl-hint' }, `${r.groups.length} groups, ${r.edges.length} summed edges.`));
}

export function setRollup(host: PanelHost, attribute: string | null): Promise<void> {
  return host.task(attribute ? 'layers.rollup' : 'layers.expand', () => {
    const e = host.ctx.engine;
    e.layers = [...e.layers.filter((l) => l.operation !== 'Rollup'), ...(attribute ? [rollupLayer(attribute)] : [])];
    return { layersChanged: true };
  });
}

export function settingsPanel(host: PanelHost, b: HTMLElement): void {
  const e = host.ctx.engine;
  const bg = h('input', { type: 'color', class: 'nl-color', value: /^#[0-9a-f]{6}$/i.test(e.displaySettings.backgroundColor) ? e.displaySettings.backgroundColor : '#ffffff', 'aria-label': 'Background color' });
  bg.addEventListener('change', () => void setSettings(host, { backgroundColor: bg.value }));
  const edges = h('input', { type: 'checkbox', checked: e.displaySettings.showEdges !== false, 'aria-label': 'Show edges', onchange: () => void setSettings(host, { showEdges: edges.checked }) });
  b.append(field('Background', bg), h('label', { class: 'nl-check' }, edges, h('span', {}, 'Show edges')), labelSizeField(host));
}

export function setSettings(host: PanelHost, change: Partial<{ backgroundColor: string; showEdges: boolean }>): Promise<void> {
  return host.task('display.settings', () => {
    host.ctx.engine.displaySettings = { ...host.ctx.engine.displaySettings, ...change };
  });
}
