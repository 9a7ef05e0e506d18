/**
 * groups (network report) — the group report of organizational network analysis: per group of a node
 * attribute its size, internal and external ties, density and E-I index, the group × group collaboration
 * matrix and the whole-network E-I index (docs/spec/decisions.md §11 "Group report").
 *
 * Definition. The graph is built as in §4.1 (parallel edges merged — undirected: `u→v` and `v→u` too —
 * weights summed with `metricEdgeWeights`, else every merged edge counts 1) and self-loops are ignored: a
 * tie is a pair of distinct nodes joined by an edge, counted once (directed: an ordered pair). A node's
 * group is the string form of its value of `attribute` (1 and "1" are one group); nodes without a value
 * form the group `(no value)` (a node whose value is the string "(no value)" joins it). For a group g
 * of n_g members:
 *   internal_g = ties with both ends in g;  external_g = ties with exactly one end in g (in or out);
 *   density_g  = internal_g / (n_g(n_g−1)/2)   (directed: / n_g(n_g−1); null when n_g < 2);
 *   ei_g       = (external_g − internal_g) / (external_g + internal_g)   (null when both are 0).
 * Matrix entry (a, b) = ties from a to b (undirected: symmetric, the diagonal holds internal ties); its
 * density divides by n_a·n_b off the diagonal and by the within-group pairs on it (null when there are
 * none). With `metricEdgeWeights` every count above is a sum of tie weights.
 * Whole-network ei = (Σ external − Σ internal) / all ties, each tie once (null without ties).
 *
 * Minimum group size: groups of fewer than `minGroupSize` members merge into one group `Other (< k)`;
 * `suppressed` is the number of their nodes. The merged group is a group like any other for every
 * figure (so the whole-network ei counts a tie between two merged groups as internal to it), but it is
 * reported (in `groups` and `matrix`) only when it has at least k members; otherwise its nodes and ties
 * appear only in the whole-network ei. No group smaller than k is ever reported alone.
 *
 * Order: groups by value in code-point order, then `(no value)`, then `Other (< k)`.
 * Deviation: at most MAX_GROUPS groups are reported (the matrix is groups²): more is 400 naming
 * `attribute`, with the advice to raise `minGroupSize`.
 *
 * References: Krackhardt & Stern (1988), "Informal networks and organizational crises: an experimental
 * simulation", Social Psychology Quarterly 51(2):123–140, doi 10.2307/2786835 (the E-I index);
 * Wasserman & Faust (1994), Social Network Analysis, ch. 10 (densities of within- and between-block ties).
 * No NetworkX function: packages/engine/test/oracle/groups.py is the reference the tests compare with.
 */
import { Type } from 'typebox';
import { GroupReportSchema, type GroupReport, type GroupRow } from '@netloom/protocol/http';
import { buildGraph, weightAttribute } from '../graph/build.ts';
import type { Graph } from '../graph/csr.ts';
import type { NetworkJSON } from '../graph/network-json.ts';
import { EngineError, invalidArgs } from '../errors.ts';
import { metricEdgeWeightsParam } from './params.ts';
import type { ReportMetric } from './types.ts';
import { largestWeightPath } from './weights.ts';

/** The largest number of groups a report holds (the matrix has groups² cells). */
export const MAX_GROUPS = 1000;
export const NO_VALUE = '(no value)';
export const otherGroup = (k: number): string => `Other (< ${k})`;

const params = Type.Object(
  {
    attribute: Type.String({ minLength: 1, description: 'Node attribute whose values are the groups (compared as strings).' }),
    metricEdgeWeights: metricEdgeWeightsParam,
    minGroupSize: Type.Integer({
      minimum: 1,
      default: 1,
      description: 'Groups with fewer members merge into `Other (< k)`, which is reported only when it has at least k members.',
    }),
  },
  { additionalProperties: false },
);
export interface GroupsParams {
  attribute: string;
  metricEdgeWeights?: boolean | string;
  minGroupSize: number;
}

export type { GroupReport, GroupRow };

/** Node groups: the string form of each node's value of `attribute`, `(no value)` when it has none. */
export function groupOfNodes(network: NetworkJSON, attribute: string): { names: string[]; of: Int32Array } {
  const n = network.nodes.length;
  const of = new Int32Array(n);
  const index = new Map<string, number>();
  const names: string[] = [];
  for (let v = 0; v < n; v++) {
    const raw = network.nodes[v].attributes?.[attribute];
    const key = raw === undefined || raw === null || raw === '' ? NO_VALUE : String(raw);
    let g = index.get(key);
    if (g === undefined) {
      g = names.length;
      index.set(key, g);
      names.push(key);
    }
    of[v] = g;
  }
  return { names, of };
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The report on a built graph (self-loops, if any, are skipped here) and the node groups. Exported for
 * network compare, which reports the groups of two networks.
 */
export function groupReportOf(g: Graph, attribute: string, names: string[], of: Int32Array, minGroupSize: number): GroupReport {
  const n = g.n;
  const sizes = new Int32Array(names.length);
  for (let v = 0; v < n; v++) sizes[of[v]]++;
  // final groups: reported values in order, then Other (< k) last
  const k = minGroupSize;
  const kept = names.map((_, i) => i).filter((i) => sizes[i] >= k);
  kept.sort((a, b) => (names[a] === NO_VALUE ? 1 : names[b] === NO_VALUE ? -1 : byCodePoint(names[a], names[b])));
  const OTHER = kept.length;
  const G = kept.length + 1;
  const finalOf = new Int32Array(names.length).fill(OTHER);
  kept.forEach((orig, i) => (finalOf[orig] = i));
  let suppressed = 0;
  for (let i = 0; i < names.length; i++) if (sizes[i] < k) suppressed += sizes[i];
  const showOther = suppressed >= k && suppressed > 0;
  const reported = kept.length + (showOther ? 1 : 0);
  if (reported > MAX_GROUPS) {
    throw new EngineError('INVALID_ARGS', `attribute: ${JSON.stringify(attribute)} has ${reported} groups; a group report holds at most ${MAX_GROUPS} (raise minGroupSize to merge small groups)`, [
      { path: '/attribute', message: `has ${reported} groups (at most ${MAX_GROUPS}; raise minGroupSize)` },
    ]);
  }
  const size = new Float64Array(G);
  for (let i = 0; i < names.length; i++) size[finalOf[i]] += sizes[i];
  const node = new Int32Array(n);
  for (let v = 0; v < n; v++) node[v] = finalOf[of[v]];

  // counts[a·G + b]: ties from a to b (undirected: both cells off the diagonal)
  const M = new Float64Array(G * G);
  let ties = 0;
  const { outOff, outAdj, outW } = g;
  for (let u = 0; u < n; u++) {
    const gu = node[u];
    const row = gu * G;
    for (let p = outOff[u]; p < outOff[u + 1]; p++) {
      const v = outAdj[p];
      if (v === u || (!g.directed && v < u)) continue;
      const w = outW[p];
      const gv = node[v];
      M[row + gv] += w;
      if (!g.directed && gv !== gu) M[gv * G + gu] += w;
      ties += w;
    }
  }
  const internal = new Float64Array(G);
  const external = new Float64Array(G);
  let internalAll = 0;
  for (let a = 0; a < G; a++) {
    internal[a] = M[a * G + a];
    internalAll += internal[a];
    let ext = 0;
    for (let b = 0; b < G; b++) {
      if (b === a) continue;
      ext += M[a * G + b];
      if (g.directed) ext += M[b * G + a];
    }
    external[a] = ext;
  }
  const pairsWithin = (s: number) => (g.directed ? s * (s - 1) : (s * (s - 1)) / 2);
  const order = showOther ? [...kept.keys(), OTHER] : [...kept.keys()];
  const values = order.map((i) => (i === OTHER ? otherGroup(k) : names[kept[i]]));
  const groups: GroupRow[] = order.map((a, i) => {
    const s = size[a];
    const pairs = pairsWithin(s);
    const tot = internal[a] + external[a];
    return { value: values[i], size: s, internal: internal[a], external: external[a], density: pairs > 0 ? internal[a] / pairs : null, ei: tot > 0 ? (external[a] - internal[a]) / tot : null };
  });
  const counts = order.map((a) => order.map((b) => M[a * G + b]));
  const densities = order.map((a) =>
    order.map((b) => {
      const possible = a === b ? pairsWithin(size[a]) : size[a] * size[b];
      return possible > 0 ? M[a * G + b] / possible : null;
    }),
  );
  const externalAll = ties - internalAll;
  return { attribute, groups, matrix: { values, counts, densities }, ei: ties > 0 ? (externalAll - internalAll) / ties : null, suppressed, directed: g.directed, ties };
}

/** The group report of a network (the registry entry's run, and network compare's per-group figures). */
export function groupReport(network: NetworkJSON, directed: boolean, p: { attribute: string; weight: string | null; minGroupSize: number }): GroupReport {
  const g = buildGraph(network, { directed, weight: p.weight, selfLoops: false });
  const { names, of } = groupOfNodes(network, p.attribute);
  return refuseInfiniteSums(groupReportOf(g, p.attribute, names, of, p.minGroupSize), network, p.weight);
}

/** Sums of weights beyond the largest Number are 400 naming the largest weight (as the degree metrics). */
export function refuseInfiniteSums(report: GroupReport, network: NetworkJSON, weight: string | null): GroupReport {
  if (Number.isFinite(report.ties)) return report;
  const path = largestWeightPath(network, weight);
  const message = 'edge weights too large: the sum of tie weights exceeds the largest Number (about 1.8e308); scale the weights down';
  throw invalidArgs(path, message);
}

export const groups: ReportMetric<GroupsParams> = {
  id: 'groups',
  title: 'Group report',
  kind: 'report',
  summary: 'Group report: per group of a node attribute its size, internal and external ties, density and E-I index, the group × group collaboration matrix and the whole-network E-I index.',
  params,
  response: GroupReportSchema,
  definition: [
    'Answer: `{ attribute, groups: [{ value, size, internal, external, density, ei }], matrix: { values, counts, densities }, ei, suppressed, directed, ties, meta }`',
    '(docs/spec/decisions.md §11). Never written to the network, also with `networkId` (read access is enough).',
    '',
    '- **Ties.** The graph is built as for every metric (parallel edges merged; undirected networks also merge `u→v` with `v→u`; with',
    '  `metricEdgeWeights` the merged weights are summed) and self-loops are ignored: a tie is a pair of distinct nodes, counted once',
    '  (directed networks: an ordered pair). With `metricEdgeWeights` every count below is a sum of tie weights.',
    '- **Groups.** A node\'s group is the string form of its value of `attribute`; nodes without a value form `(no value)`.',
    '  For group g of n_g members: `internal` = ties with both ends in g; `external` = ties with exactly one end in g;',
    '  `density` = internal ÷ (n_g(n_g−1)/2) (directed: ÷ n_g(n_g−1); null when n_g < 2);',
    '  `ei` = (external − internal) ÷ (external + internal), the E-I index of Krackhardt & Stern (1988) (null when both are 0).',
    '- **Matrix.** `counts[a][b]` = ties from group a to group b (undirected: symmetric, the diagonal holds internal ties);',
    '  `densities[a][b]` divides by n_a·n_b off the diagonal and by the within-group pairs on it (null when none are possible).',
    '- **Whole network.** `ei` = (Σ external − Σ internal) ÷ all ties, each tie once; `ties` = all ties.',
    '- **Minimum group size.** Groups with fewer than `minGroupSize` members merge into `Other (< k)` (`suppressed` = their nodes).',
    '  It counts as one group for every figure, but it is listed in `groups` and `matrix` only when it has at least k members;',
    '  otherwise its nodes count in the whole-network `ei` only. No group smaller than k is ever reported.',
    '  A network generated from a survey (`POST /surveys/:id/networks`) carries the survey\'s `minGroupSize` (default 5) as a floor:',
    '  a stored survey network is never reported with a smaller k (the API, the viewer\'s Groups panel, jobs and compare alike),',
    '  so no field — sensitive ones included — defines a reported group smaller than the survey allows.',
    `- **Order.** Groups by value in code-point order, then \`(no value)\`, then \`Other (< k)\`. At most ${MAX_GROUPS} groups (400 naming \`attribute\` beyond: raise \`minGroupSize\`).`,
    '',
    'References: Krackhardt & Stern (1988), Social Psychology Quarterly 51(2):123–140, doi 10.2307/2786835; Wasserman & Faust (1994),',
    '*Social Network Analysis*, ch. 10 (block densities). Tested against a NetworkX reference (packages/engine/test/oracle/groups.py).',
  ].join('\n'),
  run: (ctx) => groupReport(ctx.network, ctx.networkDirected, { attribute: ctx.params.attribute, weight: weightAttribute(ctx.params.metricEdgeWeights), minGroupSize: ctx.params.minGroupSize }) as unknown as Record<string, unknown>,
};
