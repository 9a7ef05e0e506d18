// graphology-gexf's writer module alone (its browser entry also loads a DOMParser-based parser at import).
declare module 'graphology-gexf/common/writer.js' {
  import type Graph from 'graphology-types';
  import type { GexfWriterOptions } from 'graphology-gexf/common/types';
  export default function write(graph: Graph, options?: GexfWriterOptions): string;
}

// graphology-layout-forceatlas2's worker body and helpers (CommonJS, no declarations of their own).
declare module 'graphology-layout-forceatlas2/webworker.js' {
  export default function worker(): void;
}
declare module 'graphology-layout-forceatlas2/helpers.js' {
  import type Graph from 'graphology-types';
  export function graphToByteArrays(graph: Graph, getEdgeWeight: (...a: unknown[]) => number): { nodes: Float32Array; edges: Float32Array };
  export function assignLayoutChanges(graph: Graph, nodes: Float32Array, outputReducer: null): void;
}
