// graphology-gexf's writer module alone (its browser entry also loads a DOMParser-based parser at import).
declare module 'graphology-gexf/common/writer.js' {
  import type Graph from 'graphology-types';
  import type { GexfWriterOptions } from 'graphology-gexf/common/types';
  export default function write(graph: Graph, options?: GexfWriterOptions): string;
}

// The layouts' single iterations (CommonJS, no declarations of their own); layout/jobs.ts drives them.
declare module 'graphology-layout-forceatlas2/iterate.js' {
  export default function iterate(settings: object, nodes: Float32Array, edges: Float32Array): object;
}
declare module 'graphology-layout-noverlap/iterate.js' {
  export default function iterate(settings: object, nodes: Float32Array): { converged: boolean };
}
