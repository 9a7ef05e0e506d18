/**
 * Louvain community detection (Blondel et al. 2008, doi 10.1088/1742-5468/2008/10/P10008) with the
 * semantics of NetworkX 3.6 `louvain_partitions(G, weight, resolution, threshold, seed)`:
 * - one level = passes over the nodes in a random order (reshuffled per level), each node moving to the
 *   neighbouring community of largest positive gain
 *   `gain = -w(u,own)/m + γ·Stot(own\u)·d_u/(2m²) + w(u,c)/m − γ·Stot(c)·d_u/(2m²)`, until a pass moves nothing;
 * - self-loops count in a node's degree (twice) but never as a neighbour, as in NetworkX;
 * - after a level the partition is recorded; the run stops when the level raised modularity by at most
 *   `threshold`, otherwise communities are aggregated (internal weight becomes a self-loop) and the next
 *   level runs; a level that moves nothing ends the run without being recorded.
 * Speed-up (deviation): after the first pass of a level only nodes with a neighbour that moved (or that
 *   moved themselves) are re-examined ("pruning", Ozaki, Tezuka & Inaba 2016); the level still ends when a
 *   pass moves nothing. Quality is unchanged in practice (see test/communities.test.ts).
 * Extra: `maxSize` > 0 forbids any move that would make a community hold more than `maxSize` original nodes.
 * Input: symmetric CSR (off/adj/w) of an undirected graph, a self-loop once in its row.
 * Output: the recorded levels, each mapping original node -> community index 0..K-1.
 */
import { createRng } from './random.ts';

export interface LouvainOptions {
  resolution: number;
  /** 0 = no cap. */
  maxSize: number;
  threshold: number;
  seed: number;
  checkpoint?: () => void;
}

export interface LouvainResult {
  /** levels[l][i] = community of original node i at level l (l = 0 is the finest). */
  levels: Int32Array[];
  /** Number of communities of each level. */
  counts: number[];
}

interface LevelGraph {
  n: number;
  off: Int32Array;
  adj: Int32Array;
  w: Float64Array;
  loop: Float64Array;
  size: Int32Array;
}

export function louvain(n: number, off: Int32Array, adj: Int32Array, w: Float64Array, opts: LouvainOptions): LouvainResult {
  const check = opts.checkpoint ?? (() => {});
  const rng = createRng(opts.seed);
  const res = opts.resolution;
  // level-0 graph: split self-loops off the rows
  const off0 = new Int32Array(n + 1);
  const adj0 = new Int32Array(adj.length);
  const w0 = new Float64Array(adj.length);
  const loop0 = new Float64Array(n);
  let k = 0;
  for (let u = 0; u < n; u++) {
    off0[u] = k;
    for (let p = off[u]; p < off[u + 1]; p++) {
      const v = adj[p];
      if (v === u) loop0[u] += w[p];
      else {
        adj0[k] = v;
        w0[k] = w[p];
        k++;
      }
    }
  }
  off0[n] = k;
  let g: LevelGraph = { n, off: off0, adj: adj0, w: w0, loop: loop0, size: new Int32Array(n).fill(1) };
  let deg = degrees(g);
  let m = 0;
  for (let u = 0; u < n; u++) m += deg[u];
  m /= 2;
  const identity = new Int32Array(n);
  for (let i = 0; i < n; i++) identity[i] = i;
  if (m === 0) return { levels: [identity], counts: [n] };

  // scratch shared by all levels (sized for level 0, the largest)
  const node2com = new Int32Array(n);
  const stot = new Float64Array(n);
  const csize = new Int32Array(n);
  const neighW = new Float64Array(n);
  const neighList = new Int32Array(n);
  const mark = new Int32Array(n).fill(-1);
  const order = new Int32Array(n);
  const active = new Uint8Array(n);
  const label = new Int32Array(n);

  const orig2node = identity.slice();
  const levels: Int32Array[] = [];
  const counts: number[] = [];
  let mod = modularity(g, identity, deg, m, res, neighW);
  let first = true;
  while (true) {
    const improvement = oneLevel(g, deg, m, res, opts.maxSize, rng, check, node2com, stot, csize, neighW, neighList, mark, order, active);
    if (!first && !improvement) break;
    first = false;
    // compact labels in increasing community id
    label.fill(-1, 0, g.n);
    let K = 0;
    for (let c = 0; c < g.n; c++) if (csize[c] > 0) label[c] = K++;
    // also catch communities of size-0 nodes (never: sizes are ≥ 1)
    const lv = new Int32Array(n);
    for (let i = 0; i < n; i++) lv[i] = label[node2com[orig2node[i]]];
    levels.push(lv);
    counts.push(K);
    const newMod = modularity(g, node2com, deg, m, res, neighW);
    if (newMod - mod <= opts.threshold) break;
    mod = newMod;
    for (let i = 0; i < n; i++) orig2node[i] = lv[i];
    g = aggregate(g, node2com, label, K, neighW, neighList, mark);
    deg = degrees(g);
    check();
  }
  return { levels, counts };
}

function degrees(g: LevelGraph): Float64Array {
  const d = new Float64Array(g.n);
  for (let u = 0; u < g.n; u++) {
    let s = 2 * g.loop[u];
    for (let p = g.off[u]; p < g.off[u + 1]; p++) s += g.w[p];
    d[u] = s;
  }
  return d;
}

/** NetworkX `modularity(G, partition, resolution)` of a level graph; `scratch` (length ≥ g.n) is left zeroed. */
function modularity(g: LevelGraph, com: Int32Array, deg: Float64Array, m: number, res: number, scratch: Float64Array): number {
  let internal = 0;
  for (let u = 0; u < g.n; u++) {
    internal += g.loop[u];
    const cu = com[u];
    for (let p = g.off[u]; p < g.off[u + 1]; p++) if (com[g.adj[p]] === cu) internal += g.w[p] / 2;
    scratch[cu] += deg[u];
  }
  let q = internal / m;
  const norm = 1 / (4 * m * m);
  for (let c = 0; c < g.n; c++) {
    const s = scratch[c];
    if (s !== 0) {
      q -= res * s * s * norm;
      scratch[c] = 0;
    }
  }
  return q;
}

function oneLevel(
  g: LevelGraph,
  deg: Float64Array,
  m: number,
  res: number,
  maxSize: number,
  rng: ReturnType<typeof createRng>,
  check: () => void,
  node2com: Int32Array,
  stot: Float64Array,
  csize: Int32Array,
  neighW: Float64Array,
  neighList: Int32Array,
  mark: Int32Array,
  order: Int32Array,
  active: Uint8Array,
): boolean {
  const N = g.n;
  const { off, adj, w, size } = g;
  for (let u = 0; u < N; u++) {
    node2com[u] = u;
    stot[u] = deg[u];
    csize[u] = size[u];
    order[u] = u;
  }
  rng.shuffle(order, N);
  active.fill(1, 0, N);
  const invM = 1 / m;
  const k2 = res / (2 * m * m);
  const capped = maxSize > 0;
  let improvement = false;
  let moves = 1;
  while (moves > 0) {
    moves = 0;
    for (let t = 0; t < N; t++) {
      const u = order[t];
      if (active[u] === 0) continue;
      active[u] = 0;
      const cu = node2com[u];
      const d = deg[u];
      let cnt = 0;
      for (let p = off[u]; p < off[u + 1]; p++) {
        const c = node2com[adj[p]];
        if (mark[c] !== u) {
          mark[c] = u;
          neighW[c] = w[p];
          neighList[cnt++] = c;
        } else neighW[c] += w[p];
      }
      stot[cu] -= d;
      const wOwn = mark[cu] === u ? neighW[cu] : 0;
      const removeCost = -wOwn * invM + k2 * stot[cu] * d;
      let best = 0;
      let bestC = cu;
      const su = size[u];
      for (let i = 0; i < cnt; i++) {
        const c = neighList[i];
        const gain = removeCost + neighW[c] * invM - k2 * stot[c] * d;
        if (gain > best) {
          if (capped && c !== cu && csize[c] + su > maxSize) continue;
          best = gain;
          bestC = c;
        }
      }
      stot[bestC] += d;
      if (bestC !== cu) {
        csize[cu] -= su;
        csize[bestC] += su;
        node2com[u] = bestC;
        improvement = true;
        moves++;
        for (let p = off[u]; p < off[u + 1]; p++) active[adj[p]] = 1;
      }
      for (let i = 0; i < cnt; i++) mark[neighList[i]] = -1;
    }
    check();
  }
  return improvement;
}

function aggregate(
  g: LevelGraph,
  node2com: Int32Array,
  label: Int32Array,
  K: number,
  acc: Float64Array,
  list: Int32Array,
  mark: Int32Array,
): LevelGraph {
  const N = g.n;
  // members grouped by new community (counting sort)
  const start = new Int32Array(K + 1);
  for (let u = 0; u < N; u++) start[label[node2com[u]] + 1]++;
  for (let c = 0; c < K; c++) start[c + 1] += start[c];
  const pos = start.slice(0, K);
  const members = new Int32Array(N);
  for (let u = 0; u < N; u++) members[pos[label[node2com[u]]]++] = u;
  const off = new Int32Array(K + 1);
  const adj = new Int32Array(g.adj.length);
  const w = new Float64Array(g.adj.length);
  const loop = new Float64Array(K);
  const size = new Int32Array(K);
  let k = 0;
  for (let c = 0; c < K; c++) {
    off[c] = k;
    let cnt = 0;
    let lw = 0;
    let sz = 0;
    for (let q = start[c]; q < start[c + 1]; q++) {
      const u = members[q];
      lw += g.loop[u];
      sz += g.size[u];
      for (let p = g.off[u]; p < g.off[u + 1]; p++) {
        const c2 = label[node2com[g.adj[p]]];
        if (c2 === c) lw += g.w[p] / 2;
        else if (mark[c2] !== c) {
          mark[c2] = c;
          acc[c2] = g.w[p];
          list[cnt++] = c2;
        } else acc[c2] += g.w[p];
      }
    }
    for (let i = 0; i < cnt; i++) {
      const c2 = list[i];
      adj[k] = c2;
      w[k] = acc[c2];
      acc[c2] = 0;
      mark[c2] = -1;
      k++;
    }
    loop[c] = lw;
    size[c] = sz;
  }
  off[K] = k;
  return { n: K, off, adj: adj.slice(0, k), w: w.slice(0, k), loop, size };
}
