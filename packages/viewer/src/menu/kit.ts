/**
 * The small DOM kit every Explore panel is built with (one visual language: the classes are styled in
 * viewer.css): `h()` elements, labelled fields, selects, buttons, empty states; and `PanelHost`, what a
 * panel may ask of the menu (queue a viewer task, report a status line, re-render).
 */
import type { SessionInfo } from '@netloom/protocol';
import type { ViewerApi } from '../api.ts';
import type { SigmaDisplay } from '../display.ts';
import type { ViewerEngine } from '../engine.ts';
import type { NetworkModel } from '../model.ts';
import type { Drawing } from './drawing.ts';
import type { MenuItem } from './items.ts';

export type Props = Record<string, string | boolean | number | ((e: Event) => void) | undefined>;
export type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
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

export function select(options: { value: string; label: string }[], value?: string, props: Props = {}): HTMLSelectElement {
  const s = h('select', { class: 'nl-input', ...props });
  for (const o of options) s.append(h('option', { value: o.value }, o.label));
  if (value !== undefined && options.some((o) => o.value === value)) s.value = value;
  return s;
}

/** A labelled control: the label text above the control. */
export function field(label: string, control: HTMLElement, hint?: string): HTMLElement {
  return h('label', { class: 'nl-field' }, h('span', { class: 'nl-field-label' }, label), control, hint ? h('span', { class: 'nl-hint' }, hint) : null);
}

export function button(text: string, props: Props = {}, kind: 'primary' | 'secondary' | 'quiet' = 'secondary'): HTMLButtonElement {
  return h('button', { type: 'button', class: `nl-btn nl-btn-${kind}`, ...props }, text);
}

/** A titled group of controls inside a panel. */
export function section(title: string, ...children: Child[]): HTMLElement {
  return h('section', { class: 'nl-section' }, h('h4', { class: 'nl-section-title' }, title), ...children);
}

/** The empty state of a panel or list: what is missing and how to get it. */
export function empty(text: string): HTMLElement {
  return h('div', { class: 'nl-empty', 'data-empty': 'true' }, text);
}

export interface MenuContext {
  root: HTMLElement;
  engine: ViewerEngine;
  display: SigmaDisplay;
  model: NetworkModel;
  session: SessionInfo;
  api: ViewerApi;
  /** URL of the layout worker script (same origin as the viewer bundle). */
  layoutWorkerUrl: string | URL;
  /** URL of the download page exports are handed to (export/deliver.ts). */
  downloadPageUrl: string | URL;
}

/** What a panel may ask of the menu. */
export interface PanelHost {
  readonly ctx: MenuContext;
  readonly drawing: Drawing;
  /** A viewer change outside the protocol's commands: queued like a click, bumps the revision. */
  task(reason: string, change: () => { layersChanged?: boolean } | void): Promise<void>;
  /** The status line under a panel. */
  say(item: MenuItem, text: string, error?: boolean): void;
  /** Re-renders the open panel. */
  render(): void;
  /** Runs a protocol command as the viewer (same handlers as the SDK); reports its error under the panel. */
  command(item: MenuItem, command: Parameters<ViewerEngine['viewerCommand']>[0], args?: Record<string, unknown>): Promise<unknown>;
}

/**
 * A list with a search box once it is long (more than `searchFrom` entries): typing keeps the entries
 * whose text contains the query (case-insensitive); says so when none does.
 */
export function searchable<T>(items: T[], text: (item: T) => string, row: (item: T) => HTMLElement, opts: { searchFrom?: number; placeholder?: string; listClass?: string; limit?: number } = {}): HTMLElement {
  const list = h('ul', { class: `nl-list ${opts.listClass ?? ''}`.trim() });
  const limit = opts.limit ?? 500;
  const box = h('div', { class: 'nl-searchable' });
  const draw = (q: string) => {
    const needle = q.trim().toLowerCase();
    const hits = needle ? items.filter((it) => text(it).toLowerCase().includes(needle)) : items;
    list.replaceChildren(...hits.slice(0, limit).map(row));
    if (hits.length === 0) list.append(h('li', { class: 'nl-empty-row' }, `Nothing matches “${q.trim()}”.`));
    else if (hits.length > limit) list.append(h('li', { class: 'nl-hint' }, `${hits.length - limit} more — refine the search.`));
  };
  if (items.length > (opts.searchFrom ?? 8)) {
    const input = h('input', { type: 'search', class: 'nl-input nl-search', placeholder: opts.placeholder ?? 'Search…', 'aria-label': opts.placeholder ?? 'Search' });
    input.addEventListener('input', () => draw(input.value));
    box.append(h('div', { class: 'nl-search-wrap' }, input));
  }
  draw('');
  box.append(list);
  return box;
}
