/**
 * informalAlignment, informalDistance — how informal ties sit relative to the formal structure.
 *
 * Definition (docs/spec/metrics-extra.md): undirected, weights ignored, self-loops ignored. Formal graph F =
 * edges whose `fiFormalAttribute` value is in `fiFormalValues`; informal graph I = edges whose
 * `fiInformalAttribute` value is in `fiInformalValues` (values compared as strings; one edge may be in
 * both; parallel/reciprocal edges merge). N_I(v) = distinct informal neighbours of v; d_F = hop distance in F.
 * - `Informal Alignment`(v) = share of u ∈ N_I(v) with d_F(v,u) ≤ 1 (i.e. also formal neighbours);
 *   no informal ties: not scored.
 * - `Informal Distance`(v) = mean d_F(v,u) over u ∈ N_I(v) with a formal path; none: not scored.
 * - `Informal Distance - Ranked`(v): over the s scored nodes, rank ascending by distance (ties share
 *   their average rank r, 1-based), value (s − r)/(s − 1); s = 1 gives 1.
 * Organization accounts only (`requiresOrganization`).
 * Implementation: one BFS in F per node with informal ties, stopped once all its informal neighbours
 * are reached. References: no NetworkX function (d_F as `shortest_path_length` on F).
 */
import { Type } from 'typebox';
import { indexNodes } from '../graph/build.ts';
import { arcsToCsr } from '../graph/csr.ts';
import type { NodeMetric, MetricContext } from './types.ts';

const values = (what: string) =>
  Type.Array(Type.Union([Type.String(), Type.Number()]), { minItems: 1, description: `Values of the ${what} attribute that mark an edge as ${what} (at least one).` });
const params = Type.Object(
  {
    fiFormalAttribute: Type.String({ minLength: 1, description: 'EDGE attribute marking the formal structure.' }),
    fiFormalValues: values('formal'),
    fiInformalAttribute: Type.String({ minLength: 1, description: 'EDGE attribute marking informal ties (may equal the formal one).' }),
    fiInformalValues: values('informal'),
  },
  { additionalProperties: false },
);
interface Params {
  fiFormalAttribute: string;
  fiFormalValues: (string | number)[];
  fiInformalAttribute: string;
  fiInformalValues: (string | number)[];
}

interface Csr {
  off: Int32Array;
  adj: Int32Array;
}

function build(ctx: MetricContext<Params>): { n: number; F: Csr; I: Csr } {
  const { index } = indexNodes(ctx.network);
  const n = ctx.network.nodes.length;
  const edges = ctx.network.edges ?? [];
  const fv = new Set(ctx.params.fiFormalValues.map(String));
  const iv = new Set(ctx.params.fiInformalValues.map(String));
  const mk = () => ({ src: new Int32Array(2 * edges.length), dst: new Int32Array(2 * edges.length), w: new Float64Array(2 * edges.length), length: 0 });
  const fa = mk();
  const ia = mk();
  const push = (a: ReturnType<typeof mk>, u: number, v: number) => {
    a.src[a.length] = u;
    a.dst[a.length++] = v;
    a.src[a.length] = v;
    a.dst[a.length++] = u;
  };
  for (const e of edges) {
    const u = index.get(e.source);
    const v = index.get(e.target);
    if (u === undefined || v === undefined || u === v) continue;
    const f = e.attributes?.[ctx.params.fiFormalAttribute];
    const i = e.attributes?.[ctx.params.fiInformalAttribute];
    if (f !== undefined && f !== null && fv.has(String(f))) push(fa, u, v);
    if (i !== undefined && i !== null && iv.has(String(i))) push(ia, u, v);
  }
  const F = arcsToCsr(n, fa, false);
  const I = arcsToCsr(n, ia, false);
  return { n, F, I };
}

/** Informal Alignment by node index (undefined = not scored). */
function alignment(n: number, F: Csr, I: Csr): (number | undefined)[] {
  const out: (number | undefined)[] = new Array(n);
  const mark = new Int32Array(n).fill(-1);
  for (let v = 0; v < n; v++) {
    const deg = I.off[v + 1] - I.off[v];
    if (deg === 0) continue;
    for (let p = F.off[v]; p < F.off[v + 1]; p++) mark[F.adj[p]] = v;
    let k = 0;
    for (let p = I.off[v]; p < I.off[v + 1]; p++) if (mark[I.adj[p]] === v) k++;
    out[v] = k / deg;
  }
  return out;
}

/** Mean formal distance to informal neighbours (undefined = not scored). */
function distance(n: number, F: Csr, I: Csr, checkpoint: () => void): (number | undefined)[] {
  const out: (number | undefined)[] = new Array(n);
  const dist = new Int32Array(n).fill(-1);
  const want = new Int32Array(n).fill(-1);
  const queue = new Int32Array(n);
  for (let v = 0; v < n; v++) {
    const deg = I.off[v + 1] - I.off[v];
    if (deg === 0) continue;
    if ((v & 255) === 0) checkpoint();
    for (let p = I.off[v]; p < I.off[v + 1]; p++) want[I.adj[p]] = v;
    let remaining = deg;
    let sum = 0;
    let found = 0;
    let head = 0;
    let tail = 0;
    queue[tail++] = v;
    dist[v] = 0;
    while (head < tail && remaining > 0) {
      const x = queue[head++];
      const dx = dist[x] + 1;
      for (let p = F.off[x]; p < F.off[x + 1]; p++) {
        const y = F.adj[p];
        if (dist[y] >= 0) continue;
        dist[y] = dx;
        queue[tail++] = y;
        if (want[y] === v) {
          sum += dx;
          found++;
          remaining--;
        }
      }
    }
    for (let i = 0; i < tail; i++) dist[queue[i]] = -1;
    if (found > 0) out[v] = sum / found;
  }
  return out;
}

/** (s − r)/(s − 1) with r the average 1-based ascending rank; s = 1 gives 1. */
export function rankedAscending(vals: (number | undefined)[]): (number | undefined)[] {
  const idx: number[] = [];
  vals.forEach((x, i) => {
    if (x !== undefined) idx.push(i);
  });
  idx.sort((a, b) => (vals[a] as number) - (vals[b] as number) || a - b);
  const s = idx.length;
  const out: (number | undefined)[] = new Array(vals.length);
  for (let i = 0; i < s; ) {
    let j = i;
    while (j + 1 < s && vals[idx[j + 1]] === vals[idx[i]]) j++;
    const r = (i + 1 + (j + 1)) / 2;
    for (let k = i; k <= j; k++) out[idx[k]] = s === 1 ? 1 : (s - r) / (s - 1);
    i = j + 1;
  }
  return out;
}

export const informalAlignment: NodeMetric<Params> = {
  id: 'informalAlignment',
  title: 'Informal alignment',
  kind: 'node',
  summary: 'Share of a node’s informal ties that are also within its formal neighbourhood (0 = none, 1 = all).',
  params,
  requiresOrganization: true,
  attributes: ['Informal Alignment'],
  run(ctx) {
    const { n, F, I } = build(ctx);
    return { values: { 'Informal Alignment': alignment(n, F, I) } };
  },
};

export const informalDistance: NodeMetric<Params> = {
  id: 'informalDistance',
  title: 'Informal distance',
  kind: 'node',
  summary: 'Mean formal-structure distance over a node’s informal ties, and its 0..1 rank (shortest highest).',
  params,
  requiresOrganization: true,
  attributes: ['Informal Distance', 'Informal Distance - Ranked'],
  run(ctx) {
    const { n, F, I } = build(ctx);
    const d = distance(n, F, I, ctx.checkpoint);
    return { values: { 'Informal Distance': d, 'Informal Distance - Ranked': rankedAscending(d) } };
  },
};
