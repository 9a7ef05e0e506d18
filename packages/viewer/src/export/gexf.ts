/**
 * GEXF of the visible network (graphology-gexf's writer, GEXF 1.3): the visible nodes with their
 * attributes (`_` ones included: GEXF is a data export) and viz color/size/position as drawn, and the
 * edges drawn between them (edge filters apply; tie colours as viz color). No DOM.
 */
import { MultiDirectedGraph, MultiGraph } from 'graphology';
import write from 'graphology-gexf/common/writer.js';
import type { NetworkModel } from '../model.ts';

/**
 * A colour for the writer: `#rrggbb` as `rgba(r,g,b,1)`, so the file has `<viz:color r g b a>` — the
 * form GEXF 1.2 and 1.3 readers all take (NetworkX 3.6 fails on the `hex` attribute the writer would
 * otherwise put; Gephi reads both).
 */
export function gexfColor(c: string): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(c);
  return m ? `rgba(${parseInt(m[1], 16)},${parseInt(m[2], 16)},${parseInt(m[3], 16)},1)` : c;
}

export function toGexf(model: NetworkModel, opts: { hidden: Uint8Array; color?: readonly string[]; size?: ArrayLike<number>; x?: ArrayLike<number>; y?: ArrayLike<number>; edgeHidden?: Uint8Array; edgeColor?: readonly string[] | null }): string {
  const g = model.directed ? new MultiDirectedGraph() : new MultiGraph({ type: 'undirected' });
  g.setAttribute('name', model.name);
  for (let i = 0; i < model.ids.length; i++) {
    if (opts.hidden[i]) continue;
    // `label`, `x`, `y`, `size`, `color` become the node label and its viz data; a data attribute
    // with one of those names is kept under a prefixed name.
    const data: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(model.attributes[i])) data[['label', 'x', 'y', 'z', 'size', 'color', 'shape', 'thickness'].includes(k) ? `attr_${k}` : k] = v;
    data.label = model.labels[i];
    data.x = (opts.x ?? model.x)[i];
    data.y = (opts.y ?? model.y)[i];
    if (opts.size) data.size = opts.size[i];
    if (opts.color) data.color = gexfColor(opts.color[i]);
    g.addNode(model.ids[i], data);
  }
  model.edges.forEach((e, k) => {
    if (opts.hidden[e.source] || opts.hidden[e.target] || opts.edgeHidden?.[k]) return;
    const data: Record<string, unknown> = {};
    for (const [a, v] of Object.entries(e.attributes)) data[['label', 'color', 'thickness', 'shape', 'size'].includes(a) ? `attr_${a}` : a] = v;
    if (opts.edgeColor) data.color = gexfColor(opts.edgeColor[k]);
    g.addEdgeWithKey(e.id, model.ids[e.source], model.ids[e.target], data);
  });
  return write(g, { version: '1.3' });
}
