/**
 * Network JSON -> CSR graph, following DECISIONS.md §4.1:
 * - node order = order of `nodes`; ids compared by string form;
 * - directed iff the network is directed and the metric keeps direction;
 * - parallel (and, undirected, reciprocal) edges merge; with weights their weights are summed,
 *   without weights a merged edge counts once;
 * - weight from edge attribute `weight` (`metricEdgeWeights: true`) or a named attribute; a missing value
 *   counts as 1; a non-numeric or negative value is 400 naming the edge;
 * - self-loops kept or dropped as the metric needs.
 */
import { type Graph, type ArcList, arcsToCsr } from './csr.ts';
import type { NetworkJSON } from './network-json.ts';
import { EngineError } from '../errors.ts';

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

/** Maps node id string forms to indices. Throws on an unknown id (validation normally prevents it). */
export function indexNodes(network: NetworkJSON): { ids: string[]; index: Map<string, number> } {
  const ids = new Array<string>(network.nodes.length);
  const index = new Map<string, number>();
  for (let i = 0; i < network.nodes.length; i++) {
    const s = String(network.nodes[i].id);
    ids[i] = s;
    index.set(s, i);
  }
  return { ids, index };
}

export function buildGraph(network: NetworkJSON, opts: BuildOptions): Graph {
  const { ids, index } = indexNodes(network);
  const n = ids.length;
  const edges = network.edges ?? [];
  const keepLoops = opts.selfLoops !== false;
  const weighted = opts.weight !== null;
  const cap = opts.directed ? edges.length : edges.length * 2;
  const src = new Int32Array(cap);
  const dst = new Int32Array(cap);
  const w = new Float64Array(cap);
  let len = 0;
  const problems: { path: string; message: string }[] = [];
  for (let e = 0; e < edges.length; e++) {
    const edge = edges[e];
    const u = index.get(String(edge.source));
    const v = index.get(String(edge.target));
    if (u === undefined || v === undefined) {
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
    w[len] = x;
    len++;
    if (!opts.directed && u !== v) {
      src[len] = v;
      dst[len] = u;
      w[len] = x;
      len++;
    }
  }
  if (problems.length > 0) {
    throw new EngineError('INVALID_ARGS', problems[0].path.slice(1).replaceAll('/', '.') + ': ' + problems[0].message, problems);
  }
  const arcs: ArcList = { src, dst, w, length: len };
  const out = arcsToCsr(n, arcs, weighted);
  let selfLoops = 0;
  for (let u = 0; u < n; u++) {
    for (let p = out.off[u]; p < out.off[u + 1]; p++) if (out.adj[p] === u) selfLoops++;
  }
  let inn = out;
  if (opts.directed) {
    const rev: ArcList = { src: dst, dst: src, w, length: len };
    inn = arcsToCsr(n, rev, weighted);
  }
  const m = opts.directed ? out.adj.length : (out.adj.length - selfLoops) / 2 + selfLoops;
  return {
    n,
    directed: opts.directed,
    weighted,
    m,
    selfLoops,
    ids,
    outOff: out.off,
    outAdj: out.adj,
    outW: out.w,
    inOff: inn.off,
    inAdj: inn.adj,
    inW: inn.w,
  };
}
