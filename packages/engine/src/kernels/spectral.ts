/**
 * Spectral kernels: power iterations that reproduce NetworkX 3.6's iteration schemes step for step
 * (start vector, shift, normalisation, convergence test), so converged values agree with NetworkX to
 * rounding, and a run NetworkX would abandon (PowerIterationFailedConvergence) is abandoned here too.
 *
 * All kernels take a CSR `Graph` and work on typed arrays; they return `null` when the iteration does
 * not converge within `maxIter`, or diverges first (the metric layer turns that into NOT_CONVERGED);
 * eigenvector, Katz, HITS and PageRank run one loop, `iterate`, with their own step. The iterative ones take
 * an optional `progress(iteration, maxIter)` (kernels/progress.ts), called after each iteration and with
 * (maxIter, maxIter) on convergence.
 * "Pull" products use the in-rows: (Aᵀx)_v = Σ_{u→v} w_uv x_u (undirected graphs share out/in rows).
 */
import type { Graph } from '../graph/csr.ts';
import type { Progress } from './progress.ts';

export type Checkpoint = () => void;
const noop: Checkpoint = () => {};

/**
 * One step of a power iteration: writes the next iterate of `x` into `y` (every entry) and returns the
 * error the scheme tests, ‖y − x‖₁ in NetworkX's schemes; a non-finite error abandons the iteration.
 */
type Step = (x: Float64Array, y: Float64Array) => number;

/**
 * The loop every iterative kernel here shares, as NetworkX runs it: from `x0`, up to `maxIter` steps
 * (two buffers, swapped); converged when the step's error is below `threshold` → the iterate (after
 * `progress(maxIter, maxIter)`); else `checkpoint()` and `progress(it + 1, maxIter)` and the next step.
 * Returns null when `maxIter` steps do not converge, or at once on a non-finite error (NaN or ±∞: the
 * iterate has diverged, or the step found no direction, and no later step can converge).
 */
function iterate(x0: Float64Array, step: Step, maxIter: number, threshold: number, checkpoint: Checkpoint, progress: Progress | undefined): Float64Array | null {
  let x = x0;
  let y: Float64Array = new Float64Array(x0.length);
  for (let it = 0; it < maxIter; it++) {
    const err = step(x, y);
    const t = x;
    x = y;
    y = t;
    if (err < threshold) {
      if (progress) progress(maxIter, maxIter);
      return x;
    }
    if (!Number.isFinite(err)) return null;
    checkpoint();
    if (progress) progress(it + 1, maxIter);
  }
  return null;
}

/**
 * NetworkX `eigenvector_centrality(G, max_iter, tol, weight)`: x₀ = 1/n; x ← (x + Aᵀx) / ‖x + Aᵀx‖₂;
 * stop when ‖x − x_last‖₁ < n·tol. Left eigenvector on directed graphs (in-edges count).
 */
export function eigenvectorCentrality(g: Graph, maxIter: number, tol: number, checkpoint: Checkpoint = noop, progress?: Progress): Float64Array | null {
  const n = g.n;
  const { inOff, inAdj, inW } = g;
  const step: Step = (x, y) => {
    let sq = 0;
    for (let v = 0; v < n; v++) {
      let s = x[v];
      for (let p = inOff[v], e = inOff[v + 1]; p < e; p++) s += x[inAdj[p]] * inW[p];
      y[v] = s;
      sq += s * s;
    }
    const norm = Math.sqrt(sq) || 1;
    let err = 0;
    for (let v = 0; v < n; v++) {
      const z = y[v] / norm;
      err += Math.abs(z - x[v]);
      y[v] = z;
    }
    return err;
  };
  return iterate(new Float64Array(n).fill(1 / n), step, maxIter, n * tol, checkpoint, progress);
}

/**
 * NetworkX `katz_centrality(G, alpha, beta, max_iter, tol, normalized, weight)`: x₀ = 0;
 * x ← α·Aᵀx + β; stop when ‖x − x_last‖₁ < n·tol; normalized: x / ‖x‖₂.
 * A diverging iteration (non-finite error) stops early: NetworkX could not converge either.
 */
export function katzCentrality(
  g: Graph,
  alpha: number,
  beta: number,
  maxIter: number,
  tol: number,
  normalized: boolean,
  checkpoint: Checkpoint = noop,
  progress?: Progress,
): Float64Array | null {
  const n = g.n;
  const { inOff, inAdj, inW } = g;
  const step: Step = (x, y) => {
    let err = 0;
    for (let v = 0; v < n; v++) {
      let s = 0;
      for (let p = inOff[v], e = inOff[v + 1]; p < e; p++) s += x[inAdj[p]] * inW[p];
      const z = alpha * s + beta;
      err += Math.abs(z - x[v]);
      y[v] = z;
    }
    return err;
  };
  const x = iterate(new Float64Array(n), step, maxIter, n * tol, checkpoint, progress);
  if (x && normalized) {
    let sq = 0;
    for (let v = 0; v < n; v++) sq += x[v] * x[v];
    const s = sq === 0 ? 1 : 1 / Math.sqrt(sq);
    for (let v = 0; v < n; v++) x[v] *= s;
  }
  return x;
}

export interface SpectralRadiusEstimate {
  /** Rigorous lower bound on λmax (Collatz–Wielandt on the support of the iterate). */
  lower: number;
  /** Heuristic upper estimate (max ratio over nodes still carrying weight). */
  upper: number;
  iterations: number;
}

/**
 * Estimates the spectral radius λmax of the (weighted) adjacency matrix by power iteration on A + I
 * (the shift makes every block aperiodic without changing the Perron root beyond +1).
 *
 * Lower bound: for x ≥ 0 supported on S, if (A_S x_S)_i ≥ c·x_i for every i ∈ S then λmax(A) ≥ c
 * (Collatz–Wielandt; principal submatrices of a non-negative matrix have smaller spectral radius), so
 * `lower` never exceeds the true λmax. S = nodes whose iterate is at least 1e-9 of the maximum.
 * `stop(lower, upper)` may end the iteration early (e.g. once a decision is certain and precise enough).
 */
export function spectralRadius(
  g: Graph,
  maxIter: number,
  relTol: number,
  stop: (lower: number, upper: number) => boolean = () => false,
  checkpoint: Checkpoint = noop,
): SpectralRadiusEstimate {
  const n = g.n;
  const { inOff, inAdj, inW } = g;
  let x = new Float64Array(n).fill(1);
  let y = new Float64Array(n);
  let lower = 0;
  let upper = Infinity;
  let it = 0;
  if (n === 0) return { lower: 0, upper: 0, iterations: 0 };
  for (; it < maxIter; it++) {
    let xmax = 0;
    for (let v = 0; v < n; v++) if (x[v] > xmax) xmax = x[v];
    const thr = xmax * 1e-9;
    let lo = Infinity;
    let hi = 0;
    let ymax = 0;
    for (let v = 0; v < n; v++) {
      let full = 0;
      let restricted = 0;
      for (let p = inOff[v], e = inOff[v + 1]; p < e; p++) {
        const xu = x[inAdj[p]];
        const c = xu * inW[p];
        full += c;
        if (xu >= thr) restricted += c;
      }
      const xv = x[v];
      if (xv >= thr) {
        const r = restricted / xv;
        if (r < lo) lo = r;
      }
      if (xv > 0) {
        const r = full / xv;
        if (r > hi) hi = r;
      }
      const z = xv + full;
      y[v] = z;
      if (z > ymax) ymax = z;
    }
    if (lo === Infinity) lo = 0;
    if (lo > lower) lower = lo;
    if (hi < upper) upper = hi;
    if (upper < lower) upper = lower;
    if (ymax === 0) break;
    for (let v = 0; v < n; v++) y[v] /= ymax;
    const t = x;
    x = y;
    y = t;
    if (upper - lower <= relTol * Math.max(upper, 1e-300) || stop(lower, upper)) {
      it++;
      break;
    }
    checkpoint();
  }
  return { lower, upper, iterations: it };
}

/**
 * HITS as NetworkX 3.6 `hits` computes it: a = the dominant right singular vector of A (unit ℓ2 norm,
 * sign made non-negative), h = A·a. NetworkX takes a from `scipy.sparse.linalg.svds(A, k=1)`; here it is
 * found by power iteration on AᵀA from the uniform vector, to a much tighter tolerance, which gives the
 * same vector whenever the top singular value is simple. normalized: h/Σh and a/Σa.
 * Returns null when the iteration does not settle within `maxIter` or the graph has no edge.
 */
export function hits(
  g: Graph,
  maxIter: number,
  tol: number,
  normalized: boolean,
  checkpoint: Checkpoint = noop,
  progress?: Progress,
): { hubs: Float64Array; authorities: Float64Array } | null {
  const n = g.n;
  const { outOff, outAdj, outW, inOff, inAdj, inW } = g;
  const h = new Float64Array(n);
  const matvecA = (src: Float64Array, dst: Float64Array) => {
    for (let u = 0; u < n; u++) {
      let s = 0;
      for (let p = outOff[u], e = outOff[u + 1]; p < e; p++) s += outW[p] * src[outAdj[p]];
      dst[u] = s;
    }
  };
  // b ← AᵀA·a / ‖AᵀA·a‖₂ (h = A·a on the way); AᵀA·a = 0 (no direction left) abandons the iteration
  const step: Step = (a, b) => {
    matvecA(a, h);
    let sq = 0;
    for (let v = 0; v < n; v++) {
      let s = 0;
      for (let p = inOff[v], e = inOff[v + 1]; p < e; p++) s += inW[p] * h[inAdj[p]];
      b[v] = s;
      sq += s * s;
    }
    if (sq === 0) return NaN;
    const inv = 1 / Math.sqrt(sq);
    let err = 0;
    for (let v = 0; v < n; v++) {
      const z = b[v] * inv;
      err += Math.abs(z - a[v]);
      b[v] = z;
    }
    return err;
  };
  const a = iterate(new Float64Array(n).fill(1 / Math.sqrt(n)), step, maxIter, tol, checkpoint, progress);
  if (!a) return null;
  // sign: the Perron vector of AᵀA is non-negative
  let sum = 0;
  for (let v = 0; v < n; v++) sum += a[v];
  if (sum < 0) for (let v = 0; v < n; v++) a[v] = -a[v];
  matvecA(a, h);
  if (normalized) {
    let sa = 0;
    let sh = 0;
    for (let v = 0; v < n; v++) {
      sa += a[v];
      sh += h[v];
    }
    for (let v = 0; v < n; v++) {
      a[v] /= sa;
      h[v] /= sh;
    }
  }
  return { hubs: h, authorities: a };
}

/**
 * NetworkX 3.6 `pagerank` (its scipy implementation): P = row-normalised weighted adjacency,
 * x₀ = 1/n, x ← α(xP + Σ_dangling x · 1/n) + (1−α)/n, dangling = rows of weight sum 0;
 * stop when ‖x − x_last‖₁ < n·tol.
 */
export function pagerank(g: Graph, alpha: number, maxIter: number, tol: number, checkpoint: Checkpoint = noop, progress?: Progress): Float64Array | null {
  const n = g.n;
  const { outOff, outW, inOff, inAdj, inW } = g;
  const invS = new Float64Array(n);
  for (let u = 0; u < n; u++) {
    let s = 0;
    for (let p = outOff[u], e = outOff[u + 1]; p < e; p++) s += outW[p];
    invS[u] = s !== 0 ? 1 / s : 0;
  }
  const xs = new Float64Array(n);
  const pers = 1 / n;
  const teleport = (1 - alpha) * pers;
  const step: Step = (x, y) => {
    let dangling = 0;
    for (let u = 0; u < n; u++) {
      if (invS[u] === 0) dangling += x[u];
      xs[u] = x[u] * invS[u];
    }
    // α(xP + dangling/n) + (1−α)/n, its node-independent products computed once per step
    const spread = dangling * pers;
    let err = 0;
    for (let v = 0; v < n; v++) {
      let s = 0;
      for (let p = inOff[v], e = inOff[v + 1]; p < e; p++) s += xs[inAdj[p]] * inW[p];
      const z = alpha * (s + spread) + teleport;
      err += Math.abs(z - x[v]);
      y[v] = z;
    }
    return err;
  };
  return iterate(new Float64Array(n).fill(1 / n), step, maxIter, n * tol, checkpoint, progress);
}
