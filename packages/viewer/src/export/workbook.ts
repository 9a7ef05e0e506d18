/**
 * The Excel export of the visible network as rows per sheet (DOM-free; the download page turns them into
 * an .xlsx with exceljs). Same layout the service imports and exports (docs/api/import-export.md):
 * `Nodes` — `Name` (node id), `X`, `Y`, `Image`, then one column per attribute; `Edges` — `Source`,
 * `Target`, `Id`, then attributes; `Network` — Name, Description, Directed. An attribute whose name is a
 * reserved column (e.g. `name`), or a text column that would read as numbers, gets a ` [text]` /
 * ` [number]` suffix so it reads back as it was.
 */
import type { NetworkModel } from '../model.ts';

export type Row = (string | number | boolean | null)[];
export type Sheets = Record<string, Row[]>;

const NODE_RESERVED = ['name', 'x', 'y', 'image'];
const EDGE_RESERVED = ['source', 'target', 'id'];
const SUFFIX = /\s\[(text|number)\]$/i;

function isNumericText(v: string): boolean {
  return v.trim() !== '' && Number.isFinite(Number(v));
}

/** Column header for an attribute: suffixed when it collides with a reserved column or its texts read as numbers. */
export function columnHeader(name: string, reserved: readonly string[], values: unknown[]): string {
  let numbers = 0, texts = 0, numericTexts = 0;
  for (const v of values) {
    if (typeof v === 'number') numbers++;
    else if (typeof v === 'string') {
      texts++;
      if (isNumericText(v)) numericTexts++;
    }
  }
  const numeric = (numbers + numericTexts) * 2 > numbers + texts;
  const collides = reserved.includes(name.trim().toLowerCase()) || SUFFIX.test(name);
  if (texts > 0 && numeric) return `${name} [text]`;
  if (collides) return `${name} [${texts > 0 ? 'text' : 'number'}]`;
  return name;
}

function attributeNames(rows: Record<string, unknown>[]): string[] {
  const names = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) names.add(k);
  return [...names].sort();
}

export function workbookSheets(model: NetworkModel, opts: { hidden: Uint8Array; x: ArrayLike<number>; y: ArrayLike<number>; description?: string; edgeHidden?: Uint8Array }): Sheets {
  const visible = model.ids.map((_, i) => i).filter((i) => !opts.hidden[i]);
  const nodeAttrs = attributeNames(visible.map((i) => model.attributes[i]));
  const hasImage = visible.some((i) => model.images[i]);
  const nodes: Row[] = [[
    'Name', 'X', 'Y', ...(hasImage ? ['Image'] : []),
    ...nodeAttrs.map((k) => columnHeader(k, NODE_RESERVED, visible.map((i) => model.attributes[i][k]))),
  ]];
  for (const i of visible) {
    nodes.push([model.ids[i], opts.x[i], opts.y[i], ...(hasImage ? [model.images[i]] : []), ...nodeAttrs.map((k) => model.attributes[i][k] ?? null)]);
  }
  const edges = model.edges.filter((e, k) => !opts.hidden[e.source] && !opts.hidden[e.target] && !opts.edgeHidden?.[k]);
  const edgeAttrs = attributeNames(edges.map((e) => e.attributes));
  const edgeRows: Row[] = [['Source', 'Target', 'Id', ...edgeAttrs.map((k) => columnHeader(k, EDGE_RESERVED, edges.map((e) => e.attributes[k])))]];
  for (const e of edges) edgeRows.push([model.ids[e.source], model.ids[e.target], e.id, ...edgeAttrs.map((k) => e.attributes[k] ?? null)]);
  return {
    Nodes: nodes,
    Edges: edgeRows,
    Network: [['Name', model.name], ['Description', opts.description ?? ''], ['Directed', model.directed]],
  };
}
