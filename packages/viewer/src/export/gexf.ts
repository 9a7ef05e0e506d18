/**
 * GEXF of the visible network (graphology-gexf's writer, GEXF 1.3): the visible nodes with their
 * attributes (`_` ones included: GEXF is a data export) and viz color/size/position as drawn, and the
 * edges between them. No DOM.
 */
import { MultiDirectedGraph, MultiGraph } from 'graphology';
import write from 'graphology-gexf/common/writer.js';
import type { NetworkModel } from '../model.ts';

export function toGexf(model: NetworkModel, opts: { hidden: Uint8Array; color?: readonly string[]; size?: ArrayLike<number>; x?: ArrayLike<number>; y?: ArrayLike<number> }): string {
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
    if (opts.color) data.color = opts.color[i];
    g.addNode(model.ids[i], data);
  }
  model.edges.forEach((e) => {
    if (opts.hidden[e.source] || opts.hidden[e.target]) return;
    g.addEdgeWithKey(e.id, model.ids[e.source], model.ids[e.target], { ...e.attributes });
  });
  return write(g, { version: '1.3' });
}
