/**
 * Network JSON -> CSR graph, following docs/spec/decisions.md §4.1:
 * - node order = order of `nodes`; ids compared by string form;
 * - directed iff the network is directed and the metric keeps direction;
 * - parallel (and, undirected, reciprocal) edges merge; with weights their weights are summed,
 *   without weights a merged edge counts once;
 * - weight from edge attribute `weight` (`metricEdgeWeights: true`) or a named attribute; a missing value
 *   counts as 1; a non-numeric or negative value is 400 naming the edge, and so are parallel edges whose
 *   summed weight exceeds the largest Number (1e308 + 1e308);
 * - self-loops kept or dropped as the metric needs.
 */
import { type Graph, type ArcList, arcsToCsr } from './csr.ts';
import type { NetworkJSON } from './network-json.ts';
import { IdIndex } from './ids.ts';
import { invalidArgs, invalidArgsOf } from '../errors.ts';

export interface BuildOptions {
  directed: boolean;
  /** Edge attribute holding weights, or null for an unweighted graph. */
  weight: string | null;
  /** Keep self-loops (default true). */
  selfLoops?: boolean;
}

/** Resolves `metricEdgeWeights` (true | attribute name | absent/false) to an attribute name or null. */
export function weightAttribute(metricEdgeWeights: unknown): string | null {
  if (metricEdgeWeights === true || metricEdgeWeights === 'true') return 'weight';
  if (typeof metricEdgeWeights === 'string' && metricEdgeWeights !== '' && metricEdgeWeights !== 'false') return metricEdgeWeights;
  return null;
}

/** Node index by id (string form; see ids.ts), last one winning for a repeated id (validation refuses those). */
export interface NodeIndex {
  /** Index of a node id, or undefined. Any value: it is compared by its string form. */
  get(id: unknown): number | undefined;
}

/** Maps node id string forms to indices. */
export function indexNodes(network: NetworkJSON): { ids: string[]; index: NodeIndex } {
  const index = internNodes(network.nodes);
  return {
    ids: nodeIds(network.nodes),
    index: {
      get(id: unknown) {
        const i = index.get(id);
        return i < 0 ? undefined : i;
      },
    },
  };
}

function internNodes(nodes: NetworkJSON['nodes']): IdIndex {
  const index = new IdIndex(nodes.length);
  for (let i = 0; i < nodes.length; i++) index.set(nodes[i].id, i);
  return index;
}

/** The string forms of the node ids, in node order. */
function nodeIds(nodes: NetworkJSON['nodes']): string[] {
  const ids = new Array<string>(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    const id = nodes[i].id;
    ids[i] = typeof id === 'string' ? id : String(id);
  }
  return ids;
}

/**
 * Builds the CSR graph of a (validated) network. `ids` of the result is computed on first use from the
 * network's `nodes` array (most metrics never need it; a million String() calls are not free).
 */
export function buildGraph(network: NetworkJSON, opts: BuildOptions): Graph {
  const nodes = network.nodes;
  const index = internNodes(nodes);
  const n = nodes.length;
  const edges = network.edges ?? [];
  const keepLoops = opts.selfLoops !== false;
  const weighted = opts.weight !== null;
  const cap = opts.directed ? edges.length : edges.length * 2;
  const src = new Int32Array(cap);
  const dst = new Int32Array(cap);
  // unweighted: arcsToCsr does not read weights
  const w = new Float64Array(weighted ? cap : 0);
  let len = 0;
  const problems: { path: string; message: string }[] = [];
  for (let e = 0; e < edges.length; e++) {
    const edge = edges[e];
    const u = index.get(edge.source);
    const v = index.get(edge.target);
    if (u < 0 || v < 0) {
      problems.push({ path: `/networkJSON/edges/${e}`, message: 'edge endpoint is not a node' });
      continue;
    }
    let x = 1;
    if (weighted) {
      const raw = edge.attributes?.[opts.weight as string];
      if (raw !== undefined && raw !== null && raw !== '') {
        if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < 0) {
          if (problems.length < 100) {
            problems.push({
              path: `/networkJSON/edges/${e}/attributes/${opts.weight}`,
              message: `edge ${JSON.stringify(String(edge.id))}: weight must be a non-negative number, got ${JSON.stringify(raw)}`,
            });
          }
          continue;
        }
        x = raw;
      }
    }
    if (u === v && !keepLoops) continue;
    src[len] = u;
    dst[len] = v;
    if (weighted) w[len] = x;
    len++;
    if (!opts.directed && u !== v) {
      src[len] = v;
      dst[len] = u;
      if (weighted) w[len] = x;
      len++;
    }
  }
  if (problems.length > 0) {
    throw invalidArgsOf(problems);
  }
  const arcs: ArcList = { src, dst, w, length: len };
  const out = arcsToCsr(n, arcs, weighted);
  if (weighted) refuseInfiniteSums(network, index, out, opts.weight as string);
  let selfLoops = 0;
  if (keepLoops) {
    for (let u = 0; u < n; u++) {
      for (let p = out.off[u]; p < out.off[u + 1]; p++) if (out.adj[p] === u) selfLoops++;
    }
  }
  let inn = out;
  if (opts.directed) {
    const rev: ArcList = { src: dst, dst: src, w, length: len };
    inn = arcsToCsr(n, rev, weighted);
  }
  const m = opts.directed ? out.adj.length : (out.adj.length - selfLoops) / 2 + selfLoops;
  let ids: string[] | null = null;
  return {
    n,
    directed: opts.directed,
    weighted,
    m,
    selfLoops,
    get ids() {
      return (ids ??= nodeIds(nodes));
    },
    outOff: out.off,
    outAdj: out.adj,
    outW: out.w,
    inOff: inn.off,
    inAdj: inn.adj,
    inW: inn.w,
  };
}

/** Merged parallel edges whose weights sum to Infinity: 400 naming one of them. */
function refuseInfiniteSums(network: NetworkJSON, index: IdIndex, csr: { off: Int32Array; adj: Int32Array; w: Float64Array }, attr: string): void {
  for (let u = 0; u + 1 < csr.off.length; u++) {
    for (let p = csr.off[u]; p < csr.off[u + 1]; p++) {
      if (Number.isFinite(csr.w[p])) continue;
      const v = csr.adj[p];
      const edges = network.edges ?? [];
      let e = edges.findIndex((x) => (index.get(x.source) === u && index.get(x.target) === v) || (index.get(x.source) === v && index.get(x.target) === u));
      if (e < 0) e = 0;
      const path = `/networkJSON/edges/${e}/attributes/${attr}`;
      const message = `edge ${JSON.stringify(String(edges[e]?.id))}: the weights of the parallel edges between its endpoints sum to more than the largest Number (about 1.8e308); scale the weights down`;
      throw invalidArgs(path, message);
    }
  }
}
