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
import { resolveWeightAttribute, runMetric, getMetric, resolveParams } from '../metrics/run.ts';
import { groupOfNodes, groupReportOf, refuseInfiniteSums, type GroupRow } from '../metrics/groups.ts';
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

/** Index of each node of `from` in `to` (by id string form), -1 when absent. */
function mapNodes(from: string[], toIndex: Map<string, number>): Int32Array {
  const out = new Int32Array(from.length);
  for (let i = 0; i < from.length; i++) out[i] = toIndex.get(from[i]) ?? -1;
  return out;
}

/** Position of v in u's sorted row of g, or -1 (rows are sorted by neighbour index: csr.ts). */
function findArc(g: Graph, u: number, v: number): number {
  let lo = g.outOff[u];
  let hi = g.outOff[u + 1] - 1;
  const adj = g.outAdj;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const x = adj[mid];
    if (x === v) return mid;
    if (x < v) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Calls f(u, v, p) once per tie of g (undirected: u < v by index; self-loops skipped). */
function eachTie(g: Graph, f: (u: number, v: number, p: number) => void): void {
  for (let u = 0; u < g.n; u++) {
    for (let p = g.outOff[u]; p < g.outOff[u + 1]; p++) {
      const v = g.outAdj[p];
      if (v === u || (!g.directed && v < u)) continue;
      f(u, v, p);
    }
  }
}

export function compareNetworks(a: CompareSide, b: CompareSide, params: CompareParams, checkpoint: () => void = () => {}): CompareResult {
  const directed = a.directed && b.directed;
  const mew = params.metricEdgeWeights ?? true;
  const weightOf = (net: NetworkJSON) => (mew === false ? null : resolveWeightAttribute(mew, net));
  const wa = weightOf(a.network);
  const wb = weightOf(b.network);
  const ga = buildGraph(a.network, { directed, weight: wa, selfLoops: false });
  checkpoint();
  const gb = buildGraph(b.network, { directed, weight: wb, selfLoops: false });
  checkpoint();
  const idsA = ga.ids;
  const idsB = gb.ids;
  const indexA = new Map<string, number>();
  for (let i = 0; i < idsA.length; i++) indexA.set(idsA[i], i);
  const indexB = new Map<string, number>();
  for (let i = 0; i < idsB.length; i++) indexB.set(idsB[i], i);
  const aToB = mapNodes(idsA, indexB);
  const bToA = mapNodes(idsB, indexA);
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
  eachTie(ga, (u, v, p) => {
    const bu = aToB[u];
    const bv = aToB[v];
    const q = bu >= 0 && bv >= 0 ? findArc(gb, bu, bv) : -1;
    if (q < 0) {
      removed.push(pair(idsA[u], idsA[v]));
      return;
    }
    tiesKept++;
    const before = ga.outW[p];
    const after = gb.outW[q];
    if (before !== after) {
      const [x, y] = pair(idsA[u], idsA[v]);
      weightChanged.push([x, y, before, after]);
    }
  });
  checkpoint();
  const added: [string, string][] = [];
  eachTie(gb, (u, v) => {
    const au = bToA[u];
    const av = bToA[v];
    if (au < 0 || av < 0 || findArc(ga, au, av) < 0) added.push(pair(idsB[u], idsB[v]));
  });
  checkpoint();
  const result: CompareResult = { directed, nodes: { joined, left, kept }, ties: { added, removed, kept: tiesKept, weightChanged } };

  if (params.metrics && params.metrics.length > 0) {
    checkCompareMetrics(params.metrics);
    const out: NonNullable<CompareResult['metrics']> = {};
    for (const id of params.metrics) {
      const first = (side: CompareSide) => {
        const run = runMetric({ metric: id, network: side.network, networkDirected: side.directed, params: {} });
        checkpoint();
        if (run.kind !== 'node') return {};
        const attrs = Object.keys(run.values);
        const metric = getMetric(id);
        const name = metric.kind === 'node' && metric.attributes.length > 0 && run.values[metric.attributes[0]] ? metric.attributes[0] : attrs[0];
        return name === undefined ? {} : run.values[name];
      };
      const va = first(a);
      const vb = first(b);
      const perNode: Record<string, { a: number | string | null; b: number | string | null; delta: number | null }> = Object.create(null) as Record<string, never>;
      const put = (id2: string) => {
        if (Object.hasOwn(perNode, id2)) return;
        const x = Object.hasOwn(va, id2) ? va[id2] : null;
        const y = Object.hasOwn(vb, id2) ? vb[id2] : null;
        const entry = { a: x, b: y, delta: typeof x === 'number' && typeof y === 'number' ? y - x : null };
        Object.defineProperty(perNode, id2, { value: entry, enumerable: true, writable: true, configurable: true });
      };
      for (const id2 of idsA) put(id2);
      for (const id2 of idsB) put(id2);
      out[id] = perNode;
    }
    result.metrics = out;
  }

  if (params.attribute !== undefined) {
    const k = params.minGroupSize ?? 1;
    const report = (side: CompareSide, g: Graph) => {
      const { names, of } = groupOfNodes(side.network, params.attribute as string);
      return refuseInfiniteSums(groupReportOf(g, params.attribute as string, names, of, k), side.network, side === a ? wa : wb);
    };
    const ra = report(a, ga);
    const rb = report(b, gb);
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
