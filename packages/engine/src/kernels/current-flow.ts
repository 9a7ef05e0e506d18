/**
 * Current-flow closeness (information centrality; Brandes & Fleischer 2005, Stephenson & Zelen 1989)
 * of one connected component of an undirected graph whose edge weights are conductances.
 *
 * value(x) = 1 / Σ_w R(x, w), R = effective resistance. With C the inverse of the Laplacian grounded
 * at a node g (row/column g removed, C_g· = 0): Σ_w R(x,w) = N·C_xx + tr(C) − 2·(C·1)_x, exactly the
 * quantity NetworkX `current_flow_closeness_centrality` accumulates (grounding-invariant).
 *
 * The ground is the node of largest weighted degree (first such; a hub, whose removal saves fill).
 *
 * Solver ('direct', default): sparse LDLᵀ of the grounded Laplacian (minimum-degree order, dense
 * trailing block once the remaining graph is dense; sparse-ldl.ts), then diag(C) by selected inversion
 * (Takahashi recurrences on the factor's pattern) and C·1 by one solve — exact to rounding, costing
 * about one factorization instead of NetworkX's N sparse-LU solves. If the factor would not fit its
 * memory bounds (dense block over MAX_DENSE nodes, sparse part over 2²⁴ entries), or with solver 'cg':
 * Jacobi-preconditioned conjugate gradient per column (relative residual 1e-13), O(N) memory,
 * checkpoint between columns.
 *
 * Progress (`currentFlowClosenessAll`, kernels/progress.ts): units are nodes — a component's nodes count
 * as done when it is solved; with the CG solver each solved column counts as one node on the way.
 *
 * Contract: `nodes` are the component's node indices (connected through arcs of positive weight,
 * each listed once); `out[nodes[i]]` is written for each i. Arcs to nodes outside `nodes`, self-loops
 * and zero-weight arcs are ignored (they carry no current).
 */
import type { Graph } from '../graph/csr.ts';
import type { Progress } from './progress.ts';
import type { Checkpoint } from './progress.ts';
import { componentMembers, weakComponents } from './components.ts';
import { inverseDiagonal, ldlFactor, ldlSolve, type SymMatrix } from './sparse-ldl.ts';

/** Largest dense trailing block (nodes) of the direct solver: 2 r² doubles, 256 MB at 4096. */
export const MAX_DENSE = 4096;

/** 'direct': sparse LDLᵀ + selected inversion (CG only if the factor exceeds its memory bounds); 'cg': CG only. */
export type CfSolver = 'direct' | 'cg';

/** Local CSR of the grounded Laplacian's off-diagonal part plus its diagonal, over local indices. */
interface LocalLaplacian {
  N: number;
  ground: number; // local index of the ground node
  diag: Float64Array; // weighted degree (self-loops excluded)
  off: Int32Array;
  adj: Int32Array;
  w: Float64Array;
}

function localLaplacian(g: Graph, nodes: Int32Array, local: Int32Array): LocalLaplacian {
  const N = nodes.length;
  for (let i = 0; i < N; i++) local[nodes[i]] = i;
  const off = new Int32Array(N + 1);
  for (let i = 0; i < N; i++) {
    const u = nodes[i];
    let c = 0;
    for (let p = g.outOff[u]; p < g.outOff[u + 1]; p++) {
      const v = g.outAdj[p];
      if (v !== u && g.outW[p] > 0 && local[v] >= 0) c++;
    }
    off[i + 1] = off[i] + c;
  }
  const adj = new Int32Array(off[N]);
  const w = new Float64Array(off[N]);
  const diag = new Float64Array(N);
  let ground = 0;
  for (let i = 0; i < N; i++) {
    const u = nodes[i];
    let q = off[i];
    let d = 0;
    for (let p = g.outOff[u]; p < g.outOff[u + 1]; p++) {
      const v = g.outAdj[p];
      const x = g.outW[p];
      if (v !== u && x > 0 && local[v] >= 0) {
        adj[q] = local[v];
        w[q] = x;
        d += x;
        q++;
      }
    }
    diag[i] = d;
    if (d > diag[ground]) ground = i;
  }
  for (let i = 0; i < N; i++) local[nodes[i]] = -1;
  return { N, ground, diag, off, adj, w };
}

/**
 * Writes current-flow closeness of the component `nodes` into `out`. `local` is an Int32Array(g.n)
 * filled with -1 (scratch, restored on return).
 */
export function currentFlowCloseness(
  g: Graph,
  nodes: Int32Array,
  out: Float64Array,
  local: Int32Array,
  checkpoint?: Checkpoint,
  solver: CfSolver = 'direct',
  maxDense = MAX_DENSE,
  column?: (solved: number) => void,
): void {
  const N = nodes.length;
  if (N < 2) return;
  const L = localLaplacian(g, nodes, local);
  const Cxx = new Float64Array(N); // diagonal of the grounded inverse (0 at the ground)
  const C1 = new Float64Array(N); // row sums of the grounded inverse (0 at the ground)
  if (solver === 'cg' || !directSolve(L, Cxx, C1, checkpoint, maxDense)) cgSolve(L, Cxx, C1, checkpoint, column);
  let tr = 0;
  for (let i = 0; i < N; i++) tr += Cxx[i];
  for (let i = 0; i < N; i++) {
    const x = 1 / (N * Cxx[i] + tr - 2 * C1[i]);
    // a positive definite system gives positive finite values; anything else means the conductances
    // spanned more than double precision can resolve (the caller refuses such weights)
    if (!(x > 0 && x < Infinity)) throw new RangeError('current-flow closeness: the grounded Laplacian is numerically singular');
    out[nodes[i]] = x;
  }
}

/** The grounded Laplacian (ground row/column removed) as a SymMatrix over reduced indices. */
function groundedMatrix(L: LocalLaplacian): SymMatrix {
  const { N, ground } = L;
  const M = N - 1;
  const red = (i: number): number => (i < ground ? i : i - 1);
  const diag = new Float64Array(M);
  const off = new Int32Array(M + 1);
  for (let i = 0; i < N; i++) {
    if (i === ground) continue;
    let c = 0;
    for (let p = L.off[i]; p < L.off[i + 1]; p++) if (L.adj[p] !== ground) c++;
    off[red(i) + 1] = c;
  }
  for (let r = 0; r < M; r++) off[r + 1] += off[r];
  const adj = new Int32Array(off[M]);
  const val = new Float64Array(off[M]);
  for (let i = 0; i < N; i++) {
    if (i === ground) continue;
    const r = red(i);
    diag[r] = L.diag[i];
    let q = off[r];
    for (let p = L.off[i]; p < L.off[i + 1]; p++) {
      const j = L.adj[p];
      if (j === ground) continue;
      adj[q] = red(j);
      val[q++] = -L.w[p];
    }
  }
  return { n: M, diag, off, adj, val };
}

/**
 * Sparse LDLᵀ of the grounded Laplacian (minimum degree, dense trailing block) with selected inversion
 * for its diagonal and one solve for C·1. Returns false (nothing written) when the dense block would
 * exceed `maxDense` nodes.
 */
function directSolve(L: LocalLaplacian, Cxx: Float64Array, C1: Float64Array, checkpoint: Checkpoint | undefined, maxDense: number): boolean {
  const { N, ground } = L;
  const F = ldlFactor(groundedMatrix(L), checkpoint, { maxDense });
  if (!F) return false;
  const z = inverseDiagonal(F, checkpoint);
  const y = new Float64Array(N - 1).fill(1);
  ldlSolve(F, y);
  for (let r = 0; r < N - 1; r++) {
    const i = r < ground ? r : r + 1;
    Cxx[i] = z[r];
    C1[i] = y[r];
  }
  Cxx[ground] = 0;
  C1[ground] = 0;
  return true;
}

/** y = L_g x over local indices (x[ground] is kept 0 and y[ground] set to 0). */
function matvec(L: LocalLaplacian, x: Float64Array, y: Float64Array): void {
  const { N, off, adj, w, diag, ground } = L;
  for (let i = 0; i < N; i++) {
    let s = diag[i] * x[i];
    for (let p = off[i], e = off[i + 1]; p < e; p++) s -= w[p] * x[adj[p]];
    y[i] = s;
  }
  y[ground] = 0;
}

function cgSolve(L: LocalLaplacian, Cxx: Float64Array, C1: Float64Array, checkpoint?: Checkpoint, column?: (solved: number) => void): void {
  const { N, ground, diag } = L;
  const x = new Float64Array(N);
  const r = new Float64Array(N);
  const z = new Float64Array(N);
  const p = new Float64Array(N);
  const q = new Float64Array(N);
  const b = new Float64Array(N);
  const invD = new Float64Array(N);
  for (let i = 0; i < N; i++) invD[i] = i === ground ? 0 : 1 / diag[i];
  const solve = (): void => {
    // x = 0, r = b
    let bnorm = 0;
    for (let i = 0; i < N; i++) {
      x[i] = 0;
      r[i] = b[i];
      bnorm += b[i] * b[i];
    }
    const tol2 = bnorm * 1e-26;
    let rz = 0;
    for (let i = 0; i < N; i++) {
      z[i] = r[i] * invD[i];
      p[i] = z[i];
      rz += r[i] * z[i];
    }
    const maxIter = 10 * N + 100;
    for (let it = 0; it < maxIter; it++) {
      matvec(L, p, q);
      let pq = 0;
      for (let i = 0; i < N; i++) pq += p[i] * q[i];
      const alpha = rz / pq;
      let rr = 0;
      for (let i = 0; i < N; i++) {
        x[i] += alpha * p[i];
        r[i] -= alpha * q[i];
        rr += r[i] * r[i];
      }
      if (rr <= tol2) break;
      let rzNew = 0;
      for (let i = 0; i < N; i++) {
        z[i] = r[i] * invD[i];
        rzNew += r[i] * z[i];
      }
      const beta = rzNew / rz;
      rz = rzNew;
      for (let i = 0; i < N; i++) p[i] = z[i] + beta * p[i];
    }
  };
  // row sums: L_g c = 1 (off the ground)
  for (let i = 0; i < N; i++) b[i] = i === ground ? 0 : 1;
  solve();
  C1.set(x);
  for (let j = 0; j < N; j++) {
    if (j === ground) continue;
    if (checkpoint) checkpoint();
    if (column) column(j);
    b.fill(0);
    b[j] = 1;
    solve();
    Cxx[j] = x[j];
  }
  Cxx[ground] = 0;
  C1[ground] = 0;
}

/**
 * Current-flow closeness of every node of an undirected graph, per connected component (through arcs
 * of positive weight) with at least 2 nodes; nodes of smaller components get NaN (not scored).
 */
export function currentFlowClosenessAll(
  g: Graph,
  out: Float64Array,
  checkpoint?: Checkpoint,
  solver: CfSolver = 'direct',
  maxDense = MAX_DENSE,
  progress?: Progress,
): void {
  const n = g.n;
  out.fill(NaN);
  const local = new Int32Array(n).fill(-1);
  // components through arcs of positive conductance, members in increasing node order
  const components = weakComponents(g, g.outW);
  const { off, nodes } = componentMembers(components);
  let done = 0; // nodes of finished components (progress units)
  if (progress) progress(0, n);
  for (let c = 0; c < components.count; c++) {
    const size = off[c + 1] - off[c];
    if (size >= 2) {
      currentFlowCloseness(g, nodes.slice(off[c], off[c + 1]), out, local, checkpoint, solver, maxDense, progress && ((j: number) => progress(done + j, n)));
    }
    done += size;
    if (progress) progress(done, n);
  }
}
