/**
 * Network compare (docs/spec/decisions.md §11 "Compare"): what changed from network `a` to network `b`
 * (two waves of a survey, before and after a reorganization).
 *
 * - Nodes match by id (string form): `joined` = in b only (b's node order), `left` = in a only (a's
 *   order), `kept` = in both (a count).
 * - Ties as in the group report (metrics/groups.ts): the graph of §4.1 (parallel edges merged, self-loops
 *   ignored), a tie is a pair of distinct nodes. Ties are directed when both networks are directed,
 *   otherwise both are read as undirected; an undirected tie is written `[u, v]` with u < v in
 *   code-point (string) order. `added` = ties of b not in a (b's node order), `removed` = ties of a not
 *   in b (a's order), `kept` = ties in both (a count), `weightChanged` = kept ties whose weight differs,
 *   `[u, v, before, after]`.
 * - Weights: `metricEdgeWeights` (default true here, so weight changes are seen) reads each network's
 *   weights as every metric does (§4.1: `weight`, else `Weight`; a String names the attribute; a merged
 *   tie weighs the sum; missing = 1). `false`: every tie weighs 1 and nothing is `weightChanged`.
 * - `metrics`: node-metric ids of the registry, run with their default parameters on each network (as
 *   its own `isDirected` says, exactly as `POST /metrics/nodes/<id>` with `networkJSON` would). Per node
 *   of either network the metric's first attribute (e.g. `Hubs` for HITS): `{ a, b, delta }`, `delta` =
 *   b − a when both are numbers, else null; a side without the node or without a value is null.
 * - `attribute`: the group report of each network (unweighted unless `metricEdgeWeights`, at
 *   `minGroupSize`), per group value of either: `{ value, a, b, densityChange, eiChange }` (a/b = the
 *   group's row or null; changes null unless both sides have a number), and `ei` = the whole-network E-I
 *   of both and its change. Small groups merge into `Other (< k)` in each network alone, so the minimum
 *   group size holds for both (§11).
 */
import { buildGraph } from '../graph/build.ts';
import type { Graph } from '../graph/csr.ts';
import type { NetworkJSON } from '../graph/network-json.ts';
import { resolveWeightAttribute, prepareRun, getMetric, resolveParams } from '../metrics/run.ts';
import type { NodeValues } from '../metrics/types.ts';
import { groupOfNodes, groupReportOf, refuseInfiniteSums, type GroupReport, type GroupRow } from '../metrics/groups.ts';
import { invalidArgsOf, type ProblemItem } from '../errors.ts';

export interface CompareParams {
  metrics?: string[];
  attribute?: string;
  minGroupSize?: number;
  metricEdgeWeights?: boolean | string;
}

export interface CompareSide {
  network: NetworkJSON;
  directed: boolean;
}

export interface GroupChange {
  value: string;
  a: GroupRow | null;
  b: GroupRow | null;
  densityChange: number | null;
  eiChange: number | null;
}

export interface CompareResult {
  directed: boolean;
  nodes: { joined: string[]; left: string[]; kept: number };
  ties: { added: [string, string][]; removed: [string, string][]; kept: number; weightChanged: [string, string, number, number][] };
  metrics?: Record<string, Record<string, { a: number | string | null; b: number | string | null; delta: number | null }>>;
  groups?: GroupChange[];
  ei?: { a: number | null; b: number | null; change: number | null };
  suppressed?: { a: number; b: number };
}

/** Checks the metric ids of a compare (node metrics whose parameters all have defaults); every problem at once. */
export function checkCompareMetrics(ids: string[]): void {
  const problems: ProblemItem[] = [];
  ids.forEach((id, i) => {
    let metric;
    try {
      metric = getMetric(id);
    } catch {
      problems.push({ path: `/metrics/${i}`, message: `unknown metric ${JSON.stringify(id)}` });
      return;
    }
    if (metric.kind !== 'node') {
      problems.push({ path: `/metrics/${i}`, message: `${id} is not a node metric (compare reports per-node changes)` });
      return;
    }
    try {
      resolveParams(metric, {});
    } catch {
      problems.push({ path: `/metrics/${i}`, message: `${id} needs parameters; compare runs metrics with their defaults only` });
    }
  });
  if (new Set(ids).size !== ids.length) problems.push({ path: '/metrics', message: 'names a metric twice' });
  if (problems.length) throw invalidArgsOf(problems);
}

const sub = (a: number | null | undefined, b: number | null | undefined) => (typeof a === 'number' && typeof b === 'number' ? b - a : null);

/** A node metric's value per node of one side (node order), null where the metric gave none. */
export type SideValues = (number | string | null)[];

/**
 * One side of a compare, prepared on its own (so the two sides can be prepared on two threads at once:
 * pool/pool.ts): the node ids, the merged ties as sorted CSR rows (compare's graph: directed when both
 * networks are, self-loops dropped, weights as `metricEdgeWeights` says), the first attribute of each
 * requested metric per node, and the side's group report. Plain data and typed arrays only.
 *
 * `failure`: the side's first error, with the stage it came from (0 the graph, 1 + i metric i, then the
 * group report); the side stops there. `compareDigests` throws the error of the earliest stage, side a
 * before side b, which is the error the one-pass order (graph a, graph b, metrics, group reports) meets first.
 */
export interface CompareDigest<E = unknown> {
  ids: string[];
  /** The network's own node and edge counts (the answer's `meta`). */
  nodeCount: number;
  edgeCount: number;
  off: Int32Array;
  adj: Int32Array;
  w: Float64Array;
  metrics: SideValues[];
  report: GroupReport | null;
  failure: { stage: number; error: E } | null;
}

/**
 * A node metric run with its default parameters on the network as its own `isDirected` says, exactly as
 * `POST /metrics/nodes/<id>` with `networkJSON` would (runMetric): the values of its first attribute
 * (`Hubs` for HITS) in node order, or null when it gives none. The values stay in node order instead of
 * runMetric's object by id (100,000 keys cost more than the metric itself).
 */
function firstAttribute(id: string, network: NetworkJSON, directed: boolean): NodeValues | null {
  const run = prepareRun(id, network, directed, {}, Infinity);
  if (run.metric.kind !== 'node') return null;
  const values = run.metric.run(run.ctx).values;
  const attrs = Object.keys(values);
  const name = run.metric.attributes.length > 0 && values[run.metric.attributes[0]] ? run.metric.attributes[0] : attrs[0];
  return name === undefined ? null : values[name];
}

/** Prepares one side (see CompareDigest); `directed` is the compare's (both networks directed). */
export function digestSide(side: CompareSide, directed: boolean, params: CompareParams, checkpoint: () => void = () => {}): CompareDigest {
  const network = side.network;
  const empty = new Int32Array(0);
  const digest: CompareDigest = { ids: [], nodeCount: network.nodes.length, edgeCount: network.edges?.length ?? 0, off: empty, adj: empty, w: new Float64Array(0), metrics: [], report: null, failure: null };
  const mew = params.metricEdgeWeights ?? true;
  let g: Graph;
  let weight: string | null;
  try {
    weight = mew === false ? null : resolveWeightAttribute(mew, network);
    g = buildGraph(network, { directed, weight, selfLoops: false });
  } catch (error) {
    digest.failure = { stage: 0, error };
    return digest;
  }
  checkpoint();
  const ids = g.ids;
  Object.assign(digest, { ids, off: g.outOff, adj: g.outAdj, w: g.outW });
  const metrics = params.metrics ?? [];
  for (let i = 0; i < metrics.length; i++) {
    const id = metrics[i];
    let values: NodeValues | null;
    try {
      if (i === 0) checkCompareMetrics(metrics);
      values = firstAttribute(id, network, side.directed);
    } catch (error) {
      digest.failure = { stage: 1 + i, error };
      return digest;
    }
    checkpoint();
    const out: SideValues = new Array<number | string | null>(ids.length);
    for (let v = 0; v < ids.length; v++) {
      const x = values === null ? null : values[v];
      // as runMetric's answer by id (mapToIds): no value, null and non-finite numbers are absent
      out[v] = x === undefined || x === null || (typeof x === 'number' && !Number.isFinite(x)) ? null : x;
    }
    digest.metrics.push(out);
  }
  if (params.attribute !== undefined) {
    try {
      const { names, of } = groupOfNodes(network, params.attribute);
      digest.report = refuseInfiniteSums(groupReportOf(g, params.attribute, names, of, params.minGroupSize ?? 1), network, weight);
    } catch (error) {
      digest.failure = { stage: 1 + metrics.length, error };
      return digest;
    }
  }
  return digest;
}

/** The error a compare of these two sides fails with (earliest stage, side a first), or null. */
export function firstFailure<E>(a: CompareDigest<E>, b: CompareDigest<E>): E | null {
  const fa = a.failure;
  const fb = b.failure;
  if (fa && (!fb || fa.stage <= fb.stage)) return fa.error;
  return fb ? fb.error : null;
}

/** Index of each node of `from` in `to` (by id string form), -1 when absent. */
function mapNodes(from: string[], toIndex: Map<string, number>): Int32Array {
  const out = new Int32Array(from.length);
  for (let i = 0; i < from.length; i++) out[i] = toIndex.get(from[i]) ?? -1;
  return out;
}

function indexOf(ids: string[]): Map<string, number> {
  const index = new Map<string, number>();
  for (let i = 0; i < ids.length; i++) index.set(ids[i], i);
  return index;
}

/** Position of v in u's sorted row, or -1 (rows are sorted by neighbour index: csr.ts). */
function findArc(off: Int32Array, adj: Int32Array, u: number, v: number): number {
  let lo = off[u];
  let hi = off[u + 1] - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const x = adj[mid];
    if (x === v) return mid;
    if (x < v) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * The comparison of two prepared sides (digestSide with the same `directed` and params). Throws the
 * first failure of the sides (firstFailure) before anything else.
 */
export function compareDigests(a: CompareDigest, b: CompareDigest, directed: boolean, params: CompareParams, checkpoint: () => void = () => {}): CompareResult {
  const failure = firstFailure(a, b);
  if (failure !== null) throw failure;
  const idsA = a.ids;
  const idsB = b.ids;
  const aToB = mapNodes(idsA, indexOf(idsB));
  const bToA = mapNodes(idsB, indexOf(idsA));
  const left: string[] = [];
  let kept = 0;
  for (let i = 0; i < idsA.length; i++) {
    if (aToB[i] < 0) left.push(idsA[i]);
    else kept++;
  }
  const joined: string[] = [];
  for (let i = 0; i < idsB.length; i++) if (bToA[i] < 0) joined.push(idsB[i]);

  const pair = (x: string, y: string): [string, string] => (directed || x < y ? [x, y] : [y, x]);
  const removed: [string, string][] = [];
  const weightChanged: [string, string, number, number][] = [];
  let tiesKept = 0;
  // every tie once (undirected: u < v by index; self-loops are not in the rows)
  for (let u = 0; u < idsA.length; u++) {
    const bu = aToB[u];
    for (let p = a.off[u]; p < a.off[u + 1]; p++) {
      const v = a.adj[p];
      if (v === u || (!directed && v < u)) continue;
      const bv = aToB[v];
      const q = bu >= 0 && bv >= 0 ? findArc(b.off, b.adj, bu, bv) : -1;
      if (q < 0) {
        removed.push(pair(idsA[u], idsA[v]));
        continue;
      }
      tiesKept++;
      const before = a.w[p];
      const after = b.w[q];
      if (before !== after) {
        const [x, y] = pair(idsA[u], idsA[v]);
        weightChanged.push([x, y, before, after]);
      }
    }
  }
  checkpoint();
  const added: [string, string][] = [];
  for (let u = 0; u < idsB.length; u++) {
    const au = bToA[u];
    for (let p = b.off[u]; p < b.off[u + 1]; p++) {
      const v = b.adj[p];
      if (v === u || (!directed && v < u)) continue;
      const av = bToA[v];
      if (au < 0 || av < 0 || findArc(a.off, a.adj, au, av) < 0) added.push(pair(idsB[u], idsB[v]));
    }
  }
  checkpoint();
  const result: CompareResult = { directed, nodes: { joined, left, kept }, ties: { added, removed, kept: tiesKept, weightChanged } };

  const metrics = params.metrics ?? [];
  if (metrics.length > 0) {
    const out: NonNullable<CompareResult['metrics']> = {};
    metrics.forEach((id, m) => {
      const va = a.metrics[m];
      const vb = b.metrics[m];
      const perNode: Record<string, { a: number | string | null; b: number | string | null; delta: number | null }> = Object.create(null) as Record<string, never>;
      const put = (id2: string, x: number | string | null, y: number | string | null) => {
        if (Object.hasOwn(perNode, id2)) return;
        const entry = { a: x, b: y, delta: typeof x === 'number' && typeof y === 'number' ? y - x : null };
        Object.defineProperty(perNode, id2, { value: entry, enumerable: true, writable: true, configurable: true });
      };
      for (let i = 0; i < idsA.length; i++) put(idsA[i], va[i], aToB[i] >= 0 ? vb[aToB[i]] : null);
      for (let j = 0; j < idsB.length; j++) put(idsB[j], bToA[j] >= 0 ? va[bToA[j]] : null, vb[j]);
      out[id] = perNode;
    });
    result.metrics = out;
  }

  if (params.attribute !== undefined) {
    const ra = a.report as GroupReport;
    const rb = b.report as GroupReport;
    const rowsA = new Map(ra.groups.map((r) => [r.value, r]));
    const rowsB = new Map(rb.groups.map((r) => [r.value, r]));
    const values = [...ra.groups.map((r) => r.value), ...rb.groups.map((r) => r.value).filter((v) => !rowsA.has(v))];
    result.groups = values.map((value) => {
      const x = rowsA.get(value) ?? null;
      const y = rowsB.get(value) ?? null;
      return { value, a: x, b: y, densityChange: sub(x?.density, y?.density), eiChange: sub(x?.ei, y?.ei) };
    });
    result.ei = { a: ra.ei, b: rb.ei, change: sub(ra.ei, rb.ei) };
    result.suppressed = { a: ra.suppressed, b: rb.suppressed };
  }
  return result;
}

/** The whole compare on one thread: both sides prepared, then compared (the definition the tests hold). */
export function compareNetworks(a: CompareSide, b: CompareSide, params: CompareParams, checkpoint: () => void = () => {}): CompareResult {
  const directed = a.directed && b.directed;
  const da = digestSide(a, directed, params, checkpoint);
  const db = digestSide(b, directed, params, checkpoint);
  return compareDigests(da, db, directed, params, checkpoint);
}
