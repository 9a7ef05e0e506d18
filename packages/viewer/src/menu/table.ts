/**
 * The node and edge tables of the visible items: rows, sorting (numbers numerically; text in a fixed
 * locale's order, numbers inside text compared as numbers; empty cells last in both directions) and CSV
 * (RFC 4180 quoting; text cells that a spreadsheet would run as a formula get a leading apostrophe). `_` attributes are left out, as in the
 * details panel. No DOM.
 */
import type { AttributeValue } from '@netloom/protocol';
import type { NetworkModel } from '../model.ts';

export type Cell = AttributeValue | undefined;

export interface Table {
  columns: string[];
  rows: Cell[][];
  /** Node index (node table) or edge index (edge table) of each row. */
  keys: number[];
}

function attributeColumns(list: readonly Record<string, AttributeValue>[]): string[] {
  const names = new Set<string>();
  for (const a of list) for (const k of Object.keys(a)) if (!k.startsWith('_') && k !== 'name') names.add(k);
  return [...names].sort();
}

export function nodeTable(model: NetworkModel, hidden: Uint8Array): Table {
  const keys: number[] = [];
  for (let i = 0; i < model.ids.length; i++) if (!hidden[i]) keys.push(i);
  const attrs = attributeColumns(keys.map((i) => model.attributes[i]));
  return {
    columns: ['label', 'id', ...attrs],
    rows: keys.map((i) => [model.labels[i], model.ids[i], ...attrs.map((k) => model.attributes[i][k])]),
    keys,
  };
}

export function edgeTable(model: NetworkModel, hidden: Uint8Array): Table {
  const keys: number[] = [];
  model.edges.forEach((e, k) => {
    if (!hidden[e.source] && !hidden[e.target]) keys.push(k);
  });
  const attrs = attributeColumns(keys.map((k) => model.edges[k].attributes));
  return {
    columns: ['source', 'target', 'id', ...attrs],
    rows: keys.map((k) => {
      const e = model.edges[k];
      return [model.labels[e.source], model.labels[e.target], e.id, ...attrs.map((a) => e.attributes[a])];
    }),
    keys,
  };
}

/** Text order: numbers inside text compare as numbers ("Person 2" before "Person 10"), a fixed locale. */
const TEXT_ORDER = new Intl.Collator('en', { numeric: true });

export function compareCells(a: Cell, b: Cell): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const sa = String(a);
  const sb = String(b);
  return TEXT_ORDER.compare(sa, sb) || (sa < sb ? -1 : sa > sb ? 1 : 0);
}

/** A sorted copy (stable): by `column`, ascending or descending; empty cells always last. */
export function sortTable(table: Table, column: number, direction: 'asc' | 'desc'): Table {
  const order = table.rows.map((_, k) => k);
  const sign = direction === 'asc' ? 1 : -1;
  order.sort((p, q) => {
    const a = table.rows[p][column];
    const b = table.rows[q][column];
    if (a === undefined || b === undefined) return a === b ? p - q : a === undefined ? 1 : -1;
    return sign * compareCells(a, b) || p - q;
  });
  return { columns: table.columns, rows: order.map((k) => table.rows[k]), keys: order.map((k) => table.keys[k]) };
}

function csvCell(v: Cell): string {
  if (v === undefined) return '';
  let s = String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(table: Table): string {
  return [table.columns, ...table.rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
