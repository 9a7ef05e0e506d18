/**
 * externalVsInternal — Krackhardt & Stern's E-I index per node.
 *
 * Definition (docs/spec/metrics-extra.md): for node v with value a(v) of node attribute `attribute` (compared as
 * strings), E = ties to nodes with a different value, I = ties to nodes with the same value, counted
 * over `type` `total` (in + out), `in` or `out` of a directed network; undirected networks count all
 * ties. Edges are counted as listed (parallel edges each count, no merging); self-loops and ties to
 * neighbours without a value are skipped. `External` = E/(E+I), `Internal` = I/(E+I),
 * `E-I Index` = (E−I)/(E+I). A node without a value, or with E+I = 0, is not scored.
 * Weights are not used (the endpoint has no `metricEdgeWeights`).
 * References: Krackhardt & Stern (1988), Social Psychology Quarterly 51(2):123–140, doi 10.2307/2786835.
 * No NetworkX function.
 */
import { Type } from 'typebox';
import { indexNodes } from '../graph/build.ts';
import type { NodeMetric } from './types.ts';

const params = Type.Object(
  {
    attribute: Type.String({ minLength: 1, description: 'Node attribute compared (values compared as strings).' }),
    type: Type.Union([Type.Literal('total'), Type.Literal('in'), Type.Literal('out')], {
      default: 'total',
      description: 'Ties counted on directed networks: `total` (in + out), `in` or `out`.',
    }),
  },
  { additionalProperties: false },
);
interface Params {
  attribute: string;
  type: 'total' | 'in' | 'out';
}

/** Node attribute values as strings (undefined = no value), by node index. */
export function nodeValues(nodes: { attributes?: Record<string, string | number> }[], attr: string): (string | undefined)[] {
  return nodes.map((nd) => {
    const v = nd.attributes?.[attr];
    return v === undefined || v === null || v === '' ? undefined : String(v);
  });
}

export const externalVsInternal: NodeMetric<Params> = {
  id: 'externalVsInternal',
  title: 'External vs internal ties',
  kind: 'node',
  summary: "Share of a node's ties to nodes with a different (external) versus the same (internal) attribute value, and the E-I index.",
  params,
  attributes: ['External', 'Internal', 'E-I Index'],
  run(ctx) {
    const { index } = indexNodes(ctx.network);
    const n = ctx.network.nodes.length;
    const val = nodeValues(ctx.network.nodes, ctx.params.attribute);
    const E = new Float64Array(n);
    const I = new Float64Array(n);
    const directed = ctx.networkDirected;
    const countSource = !directed || ctx.params.type !== 'in';
    const countTarget = !directed || ctx.params.type !== 'out';
    for (const e of ctx.network.edges ?? []) {
      const s = index.get(e.source);
      const t = index.get(e.target);
      if (s === undefined || t === undefined || s === t) continue;
      const vs = val[s];
      const vt = val[t];
      if (vs === undefined || vt === undefined) continue;
      const same = vs === vt;
      if (countSource) (same ? I : E)[s]++;
      if (countTarget) (same ? I : E)[t]++;
    }
    const ext: (number | undefined)[] = new Array(n);
    const int: (number | undefined)[] = new Array(n);
    const ei: (number | undefined)[] = new Array(n);
    for (let v = 0; v < n; v++) {
      const tot = E[v] + I[v];
      if (val[v] === undefined || tot === 0) continue;
      ext[v] = E[v] / tot;
      int[v] = I[v] / tot;
      ei[v] = (E[v] - I[v]) / tot;
    }
    return { values: { External: ext, Internal: int, 'E-I Index': ei } };
  },
};
