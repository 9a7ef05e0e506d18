/**
 * The breadth-first shortest-path DAG of one source, built and walked for the Brandes-style source
 * loops of brandes.ts (betweenness and load, unweighted). One implementation of the forward pass and of
 * the backward walk, shared by both metrics (docs/metrics.md: betweennessCentrality, loadCentrality).
 *
 * Forward pass — level-synchronous and direction-optimising (Beamer, Asanović & Patterson 2012): level
 * d+1 is found either top-down (scan the out-arcs of the level-d nodes; arcs to level d+1 are recorded
 * as SUCCESSOR lists of the level-d nodes) or bottom-up (scan the in-arcs of the still unreached nodes;
 * the ones with an in-neighbour on level d join level d+1 and record those in-neighbours as their
 * PREDECESSOR lists), whichever scans fewer arcs: bottom-up wins on the big middle levels of
 * small-world graphs, where most arcs of the frontier lead back to reached nodes. Unlike a plain BFS,
 * bottom-up cannot stop at the first parent (every predecessor counts), so it is chosen by arc counts
 * alone: out-arcs of the frontier vs in-arcs of the unreached nodes (+ one per unreached node), and the
 * direction may change at every level.
 * Along the way `sigma` gets σ (number of shortest paths; `counts` mode: the number of DAG
 * predecessors, which load needs), final for a level before the next one is found.
 *
 * Levels are stored as one byte per node: 0 = unreached, else (level mod 255) + 1. That is enough: a
 * neighbour of a level-d node lies on level d−1, d or d+1 (distinct labels), and an unreached node's
 * reached in-neighbours all lie on the current frontier level.
 *
 * Backward walk (`accumulate`): nodes in reverse BFS order, level by level; a node's sum over its DAG
 * successors w of c(w) is pulled from its successor list (top-down levels) or was pushed to it by its
 * successors' predecessor lists (bottom-up levels). Exact float ties are not an issue here: levels
 * are integers; σ values are integers (exact below 2⁵³), so only the order of the δ sums differs
 * from NetworkX's (rounding, ~1e-16 relative).
 *
 * Memory: O(n + arcs), allocated once per kernel call (`new BfsDag(g)`); per source only the reached
 * nodes' entries are touched and reset.
 */
import type { Graph } from '../graph/csr.ts';

/** The adjacency a breadth-first search reads (undirected graphs: in-arrays are the out-arrays). */
export type Adjacency = Pick<Graph, 'n' | 'outOff' | 'outAdj' | 'inOff' | 'inAdj'>;

/**
 * `g` with node i of the result = node order[i] of `g` (rows sorted): with `order` from
 * `localityOrder` (sources.ts), nodes close in the graph get close indices, so a search touches fewer cache
 * lines (BA(30000, 5) betweenness: ~20 % less time than the generator's order, ~30 % less than a
 * random one). Undirected graphs keep sharing one array pair.
 */
export function relabeled(g: Adjacency, order: Int32Array): Adjacency {
  const n = g.n;
  const id = new Int32Array(n);
  for (let i = 0; i < n; i++) id[order[i]] = i;
  const rows = (off: Int32Array, adj: Int32Array): [Int32Array, Int32Array] => {
    const o = new Int32Array(n + 1);
    const a = new Int32Array(adj.length);
    for (let i = 0; i < n; i++) {
      const v = order[i];
      const start = o[i];
      let q = start;
      for (let p = off[v], e = off[v + 1]; p < e; p++) a[q++] = id[adj[p]];
      o[i + 1] = q;
      a.subarray(start, q).sort();
    }
    return [o, a];
  };
  const [outOff, outAdj] = rows(g.outOff, g.outAdj);
  const [inOff, inAdj] = g.inAdj === g.outAdj && g.inOff === g.outOff ? [outOff, outAdj] : rows(g.inOff, g.inAdj);
  return { n, outOff, outAdj, inOff, inAdj };
}

export class BfsDag {
  private readonly n: number;
  private readonly outOff: Int32Array;
  private readonly outAdj: Int32Array;
  private readonly inOff: Int32Array;
  private readonly inAdj: Int32Array;
  private readonly totalInArcs: number;
  /** 0 = unreached, else (level mod 255) + 1. */
  private readonly label: Uint8Array;
  /** σ, or the DAG in-degree in `counts` mode. */
  private readonly sigma: Float64Array;
  /**
   * Backward walk, one slot per node used twice: first the successor sum pushed to it through
   * predecessor lists, then (once the node is processed — nothing is pushed to it after) its c(v).
   */
  private readonly coef: Float64Array;
  /** Reached nodes in BFS order; level d occupies queue[levelStart[d] .. levelStart[d+1]). */
  private readonly queue: Int32Array;
  private readonly levelStart: Int32Array;
  /** bottomUp[d] = 1: level d+1 was found bottom-up (its arcs from level d are predecessor lists). */
  private readonly bottomUp: Uint8Array;
  /** DAG arcs, successor lists (by queue position: succStart[i]..succStart[i+1]) and predecessor lists (predStart). */
  private readonly arcs: Int32Array;
  private readonly succStart: Int32Array;
  private readonly predStart: Int32Array;
  /** Unreached nodes (a superset while valid; filtered in each bottom-up step). */
  private readonly unreached: Int32Array;
  /** Nodes reached by the last `build`. */
  private reached = 0;
  private levels = 0;

  constructor(g: Adjacency) {
    const n = g.n;
    this.n = n;
    this.outOff = g.outOff;
    this.outAdj = g.outAdj;
    this.inOff = g.inOff;
    this.inAdj = g.inAdj;
    this.totalInArcs = g.inAdj.length;
    this.label = new Uint8Array(n);
    this.sigma = new Float64Array(n);
    this.coef = new Float64Array(n);
    this.queue = new Int32Array(n);
    this.levelStart = new Int32Array(n + 2);
    this.bottomUp = new Uint8Array(n + 1);
    this.arcs = new Int32Array(Math.max(g.outAdj.length, g.inAdj.length));
    this.succStart = new Int32Array(n + 1);
    this.predStart = new Int32Array(n + 1);
    this.unreached = new Int32Array(n);
  }

  /**
   * Forward pass from `s`: levels, DAG arcs and σ (`counts`: DAG in-degrees instead). Returns the
   * number of nodes reached.
   */
  build(s: number, counts: boolean): number {
    const { n, outOff, outAdj, inOff, inAdj, label, sigma, queue, levelStart, bottomUp, arcs, succStart, predStart, unreached } = this;
    label[s] = 1;
    sigma[s] = counts ? 0 : 1;
    queue[0] = s;
    levelStart[0] = 0;
    levelStart[1] = 1;
    let tail = 1;
    let k = 0;
    // arc counts deciding the direction of each step
    let frontierOut = outOff[s + 1] - outOff[s];
    let unreachedIn = this.totalInArcs - (inOff[s + 1] - inOff[s]);
    let unreachedCount = n - 1;
    let listValid = false;
    let nUnreached = 0;
    let d = 0;
    for (;;) {
      const lo = levelStart[d];
      const hi = levelStart[d + 1];
      if (lo === hi) break;
      const cur = (d % 255) + 1;
      const nxt = ((d + 1) % 255) + 1;
      // bottom-up pays its in-arcs, one check per unreached node and (first time) building the list;
      // an arc costs it less than top-down (a byte read, no write unless on the DAG): weight 0.6
      // (measured on BA(10000, 5) and BA(30000, 5); 0.4–1 are within noise of each other)
      const buCost = unreachedIn + unreachedCount + (listValid ? 0 : n >>> 3);
      if (buCost * 0.6 < frontierOut) {
        bottomUp[d] = 1;
        if (!listValid) {
          nUnreached = 0;
          for (let u = 0; u < n; u++) if (label[u] === 0) unreached[nUnreached++] = u;
          listValid = true;
        }
        let keep = 0;
        for (let j = 0; j < nUnreached; j++) {
          const u = unreached[j];
          if (label[u] !== 0) continue; // reached by an earlier top-down step
          const start = k;
          let sum = 0;
          for (let p = inOff[u], e = inOff[u + 1]; p < e; p++) {
            const v = inAdj[p];
            if (label[v] === cur) {
              arcs[k++] = v;
              sum += counts ? 1 : sigma[v];
            }
          }
          if (k > start) {
            label[u] = nxt;
            sigma[u] = sum;
            predStart[tail] = start;
            queue[tail++] = u;
          } else unreached[keep++] = u;
        }
        nUnreached = keep;
        predStart[tail] = k;
      } else {
        bottomUp[d] = 0;
        for (let i = lo; i < hi; i++) {
          succStart[i] = k;
          const v = queue[i];
          const start = k;
          for (let p = outOff[v], e = outOff[v + 1]; p < e; p++) {
            const w = outAdj[p];
            let lw = label[w];
            if (lw === 0) {
              label[w] = lw = nxt;
              queue[tail++] = w;
            }
            // branch-free: a DAG arc iff w is on the next level (this test is a coin flip for the CPU)
            arcs[k] = w;
            k += lw === nxt ? 1 : 0;
          }
          const sv = counts ? 1 : sigma[v];
          for (let p = start; p < k; p++) sigma[arcs[p]] += sv;
        }
        succStart[hi] = k;
      }
      // the new level's arc counts
      let out = 0;
      for (let i = hi; i < tail; i++) {
        const w = queue[i];
        out += outOff[w + 1] - outOff[w];
        unreachedIn -= inOff[w + 1] - inOff[w];
      }
      unreachedCount -= tail - hi;
      frontierOut = out;
      d++;
      levelStart[d + 1] = tail;
    }
    this.reached = tail;
    this.levels = d;
    return tail;
  }

  /**
   * Backward walk over the DAG of the last `build`, with `a` = Σ c(w) over a node's DAG successors w;
   * ADDS each node's dependency into `out`, then resets every touched entry:
   * - betweenness (`load` false; built with σ): δ(v) = σ(v)·a, out[v] += δ(v), c(v) = (1 + δ(v)) / σ(v);
   *   the source gets nothing;
   * - load (`load` true; built in counts mode), NetworkX `_node_betweenness`: out[v] += θ(v) − 1 = a for
   *   every reached node, the source too; c(v) = (1 + a) / |pred(v)|, except 0 on level 1 (their only
   *   predecessor is the source, and NetworkX's walk hands nothing on from them).
   */
  accumulate(out: Float64Array, load: boolean): void {
    const { label, sigma, coef, queue, levelStart, bottomUp, arcs, succStart, predStart } = this;
    for (let d = this.levels - 1; d >= 0; d--) {
      const pull = bottomUp[d] === 0;
      const push = d > 0 && bottomUp[d - 1] === 1;
      const lo = levelStart[d];
      for (let i = levelStart[d + 1] - 1; i >= lo; i--) {
        const v = queue[i];
        let a: number;
        if (pull) {
          a = 0;
          for (let p = succStart[i], e = succStart[i + 1]; p < e; p++) a += coef[arcs[p]];
        } else a = coef[v];
        let c: number;
        if (!load) {
          if (d === 0) break; // the source: no dependency of its own
          const delta = sigma[v] * a;
          out[v] += delta;
          c = (1 + delta) / sigma[v];
        } else {
          out[v] += a;
          c = d <= 1 ? 0 : (1 + a) / sigma[v];
        }
        coef[v] = c;
        if (push) for (let p = predStart[i], e = predStart[i + 1]; p < e; p++) coef[arcs[p]] += c;
      }
    }
    for (let i = 0, t = this.reached; i < t; i++) {
      const v = queue[i];
      label[v] = 0;
      sigma[v] = 0;
      coef[v] = 0;
    }
  }
}
