/**
 * Node shapes by attribute: the most frequent values get circle, square, triangle, diamond (in that
 * order); further values and nodes without the attribute stay circles. Stored as a read-only `Shape`
 * layer (`{ operation: 'Shape', attribute, summary, readOnly: true }`), so it is saved with views and
 * listed by state.get, but code cannot edit it. No DOM.
 */
import type { Layer } from '@netloom/protocol';
import type { NetworkModel } from '../model.ts';
import { valueCounts } from './attrs.ts';

export const SHAPES = ['circle', 'square', 'triangle', 'diamond'] as const;
export type Shape = (typeof SHAPES)[number];

export interface ShapeAssignment {
  attribute: string;
  /** Per node index. */
  shapes: Shape[];
  legend: { value: string; shape: Shape }[];
}

export function assignShapes(model: NetworkModel, attribute: string): ShapeAssignment {
  const values = valueCounts(model, attribute);
  const byValue = new Map(values.slice(0, SHAPES.length).map((v, k) => [v.value, SHAPES[k]]));
  const shapes = model.attributes.map((a) => (a[attribute] === undefined ? 'circle' : (byValue.get(String(a[attribute])) ?? 'circle')));
  const legend = [...byValue].map(([value, shape]) => ({ value, shape }));
  if (values.length > SHAPES.length) legend.push({ value: 'other', shape: 'circle' });
  return { attribute, shapes, legend };
}

/** The shape layer in force: the last one that is not switched off. */
export function activeLayer(layers: readonly Layer[], operation: string): Layer | undefined {
  return layers.filter((l) => l.operation === operation && !l.hidden && typeof l.attribute === 'string').at(-1);
}

let counter = 0;
export function shapeLayer(attribute: string): Layer {
  return { id: `shape-${Date.now().toString(36)}-${++counter}`, operation: 'Shape', attribute, hidden: false, readOnly: true, summary: `Shapes by ${attribute}` };
}
