/**
 * Sparse LDLᵀ factorization of a symmetric positive definite matrix, with the diagonal of its inverse
 * by selected inversion, and solves — all on typed arrays.
 *
 * Ordering: minimum degree on the explicit elimination graph (ties: lowest index first, so the result
 * is deterministic), eliminating numerically at the same time (right-looking; no pivoting is needed for
 * SPD matrices). When the remaining graph becomes dense (its edges ≥ `denseFraction` of a clique on the
 * remaining nodes) the rest is gathered into a dense trailing block, the Schur complement S, which is
 * factored densely (LDLᵀ, row-major, contiguous inner loops).
 *
 * With A = L·D·Lᵀ (L unit lower triangular in elimination order; D diagonal on the sparse part and the
 * block S on the dense part), the inverse Z = A⁻¹ satisfies, for a sparse column j with structure
 * S_j = {i > j : L_ij ≠ 0}, the Takahashi et al. (1973) recurrences
 *     Z_ij = −Σ_{k ∈ S_j} L_kj · Z_ik   (i ∈ S_j),      Z_jj = 1/d_j − Σ_{k ∈ S_j} L_kj · Z_kj,
 * which only read Z on the factor's own pattern (S_j is a clique of the filled graph). The dense block
 * of Z is S⁻¹ (the inverse restricted to the trailing block is the inverse of its Schur complement),
 * computed by the same recurrence on the dense factor. Cost: about the factorization's (Σ_j |S_j|²
 * plus 2r³/3 for a dense block of r nodes) instead of n solves.
 *
 * References: Takahashi, Fagan & Chin 1973 (sparse inverse subset); Erisman & Tinney 1975
 * doi:10.1145/360680.360704; George & Liu 1989 doi:10.1137/1031001 (minimum degree); Lin et al. 2011
 * doi:10.1145/1916461.1916464 (selected inversion).
 */
import type { Checkpoint } from './progress.ts';

/** Symmetric matrix: diagonal plus both triangles of the off-diagonal part as CSR (no duplicates). */
export interface SymMatrix {
  n: number;
  diag: Float64Array;
  off: Int32Array;
  adj: Int32Array;
  val: Float64Array;
}

export interface LdlFactor {
  n: number;
  /** perm[p] = original index eliminated at position p; iperm is its inverse. */
  perm: Int32Array;
  iperm: Int32Array;
  /** Number of sparse (scalar-pivot) columns; positions ns..n−1 form the dense block. */
  ns: number;
  /** d_j of the sparse columns. */
  d: Float64Array;
  /** Sparse column j: row positions rows[colOff[j]..colOff[j+1]) (all > j, unsorted) and L values. */
  colOff: Int32Array;
  rows: Int32Array;
  lval: Float64Array;
  /** Dense block, r = n − ns: row-major r×r; strict upper triangle holds Lᵀ (U[a][b] = L_ba, a < b), diagonal holds d. */
  r: number;
  dense: Float64Array;
}

export interface LdlOptions {
  /** Switch to the dense block once the remaining graph's density reaches this fraction (default 0.3). */
  denseFraction?: number;
  /** Refuse (return null) when the dense block would exceed this many nodes (memory: 16·r² bytes). */
  maxDense?: number;
  /**
   * Refuse (return null) as soon as the sparse factor plus the elimination graph hold more than this many
   * entries (about 20 bytes each with the selected inverse; default 2²⁴ ≈ 16.8M, ~340 MB).
   */
  maxEntries?: number;
}

/** Call the checkpoint after about this much work (entries touched) in the sparse phases. */
const CHECK_WORK = 1 << 22;

/**
 * Factors A (SPD). Returns null when the dense trailing block would exceed `maxDense` nodes or the
 * sparse part `maxEntries` entries (memory bounds; the caller then needs another method).
 * Throws if a non-positive pivot appears (A not positive definite).
 */
export function ldlFactor(A: SymMatrix, checkpoint?: Checkpoint, opts: LdlOptions = {}): LdlFactor | null {
  const n = A.n;
  const denseFraction = opts.denseFraction ?? 0.3;
  const maxDense = opts.maxDense ?? Infinity;
  const maxEntries = opts.maxEntries ?? 1 << 24;
  // elimination graph: per node a growable neighbour list with values
  const nbr: Int32Array[] = new Array(n);
  const nval: Float64Array[] = new Array(n);
  const cnt = new Int32Array(n);
  const diag = Float64Array.from(A.diag);
  let edges2 = 0; // Σ cnt over remaining nodes
  for (let u = 0; u < n; u++) {
    const c = A.off[u + 1] - A.off[u];
    const cap = Math.max(4, c + (c >> 1));
    nbr[u] = new Int32Array(cap);
    nval[u] = new Float64Array(cap);
    nbr[u].set(A.adj.subarray(A.off[u], A.off[u + 1]));
    nval[u].set(A.val.subarray(A.off[u], A.off[u + 1]));
    cnt[u] = c;
    edges2 += c;
  }
  // degree buckets (doubly linked), min-degree first, lowest index first within a bucket
  const head = new Int32Array(n + 1).fill(-1);
  const next = new Int32Array(n).fill(-1);
  const prev = new Int32Array(n).fill(-1);
  const bdeg = new Int32Array(n);
  const insert = (u: number, dg: number): void => {
    bdeg[u] = dg;
    const h = head[dg];
    next[u] = h;
    prev[u] = -1;
    if (h >= 0) prev[h] = u;
    head[dg] = u;
  };
  const remove = (u: number): void => {
    const p = prev[u];
    const q = next[u];
    if (p >= 0) next[p] = q;
    else head[bdeg[u]] = q;
    if (q >= 0) prev[q] = p;
  };
  for (let u = n - 1; u >= 0; u--) insert(u, cnt[u]);

  const perm = new Int32Array(n);
  const iperm = new Int32Array(n).fill(-1);
  const d = new Float64Array(n);
  // sparse columns, rows as original indices until the end
  let colOff = new Int32Array(n + 1);
  let rows = new Int32Array(Math.max(16, edges2));
  let lval = new Float64Array(rows.length);
  let nnz = 0;
  const posV = new Int32Array(n).fill(-1); // index in the pivot's neighbour list
  let hitBuf = new Uint8Array(64);

  let pos = 0;
  let minDeg = 0;
  let work = CHECK_WORK + 1; // check once at the start
  while (pos < n) {
    const remaining = n - pos;
    if (remaining > 1 && edges2 >= denseFraction * remaining * (remaining - 1)) break;
    if (nnz + edges2 > maxEntries) return null;
    while (head[minDeg] < 0) minDeg++;
    const v = head[minDeg];
    remove(v);
    if (work > CHECK_WORK) {
      work = 0;
      if (checkpoint) checkpoint();
    }
    const dv = diag[v];
    if (!(dv > 0)) throw new Error('ldlFactor: matrix is not positive definite');
    const inv = 1 / dv;
    const c = cnt[v];
    const Nv = nbr[v];
    const Vv = nval[v];
    perm[pos] = v;
    iperm[v] = pos;
    d[pos] = dv;
    if (nnz + c > rows.length) {
      const cap = Math.max(nnz + c, rows.length * 2);
      const r2 = new Int32Array(cap);
      r2.set(rows.subarray(0, nnz));
      rows = r2;
      const l2 = new Float64Array(cap);
      l2.set(lval.subarray(0, nnz));
      lval = l2;
    }
    for (let t = 0; t < c; t++) {
      rows[nnz + t] = Nv[t];
      lval[nnz + t] = Vv[t] * inv;
      posV[Nv[t]] = t;
    }
    nnz += c;
    colOff[pos + 1] = nnz;
    if (hitBuf.length < c) hitBuf = new Uint8Array(2 * c);
    edges2 -= c; // v's own list
    for (let t = 0; t < c; t++) {
      const u = Nv[t];
      const au = Vv[t];
      diag[u] -= au * au * inv;
      // walk u's list: drop v, update existing entries of N_v, note which are present
      hitBuf.fill(0, 0, c);
      hitBuf[t] = 1;
      const Nu = nbr[u];
      const Vu = nval[u];
      let cu = cnt[u];
      work += cu + c;
      let q = 0;
      while (q < cu) {
        const x = Nu[q];
        if (x === v) {
          cu--;
          Nu[q] = Nu[cu];
          Vu[q] = Vu[cu];
          continue;
        }
        const s = posV[x];
        if (s >= 0) {
          Vu[q] -= au * Vv[s] * inv;
          hitBuf[s] = 1;
        }
        q++;
      }
      // append fill
      let add = 0;
      for (let s = 0; s < c; s++) if (hitBuf[s] === 0) add++;
      if (cu + add > Nu.length) {
        const cap = Math.max(cu + add, Nu.length * 2);
        const a2 = new Int32Array(cap);
        a2.set(Nu.subarray(0, cu));
        const v2 = new Float64Array(cap);
        v2.set(Vu.subarray(0, cu));
        nbr[u] = a2;
        nval[u] = v2;
      }
      if (add > 0) {
        const Na = nbr[u];
        const Va = nval[u];
        for (let s = 0; s < c; s++) {
          if (hitBuf[s] === 0) {
            Na[cu] = Nv[s];
            Va[cu] = -(au * Vv[s] * inv);
            cu++;
          }
        }
      }
      edges2 += cu - cnt[u];
      cnt[u] = cu;
    }
    for (let t = 0; t < c; t++) {
      const u = Nv[t];
      posV[u] = -1;
      remove(u);
      insert(u, cnt[u]);
      if (cnt[u] < minDeg) minDeg = cnt[u];
    }
    nbr[v] = EMPTY_I;
    nval[v] = EMPTY_F;
    pos++;
  }
  const ns = pos;
  const r = n - ns;
  if (r > maxDense) return null;
  // dense block: remaining nodes in index order
  for (let u = 0, p = ns; u < n; u++) if (iperm[u] < 0) {
    perm[p] = u;
    iperm[u] = p++;
  }
  const dense = new Float64Array(r * r);
  for (let a = 0; a < r; a++) {
    const u = perm[ns + a];
    dense[a * r + a] = diag[u];
    const Nu = nbr[u];
    const Vu = nval[u];
    for (let q = 0; q < cnt[u]; q++) {
      const b = iperm[Nu[q]] - ns;
      if (b > a) dense[a * r + b] = Vu[q];
    }
  }
  denseLdl(dense, r, checkpoint);
  // rows to positions
  for (let q = 0; q < nnz; q++) rows[q] = iperm[rows[q]];
  if (colOff.length !== ns + 1) colOff = colOff.slice(0, ns + 1);
  return { n, perm, iperm, ns, d: d.subarray(0, ns), colOff, rows: rows.subarray(0, nnz), lval: lval.subarray(0, nnz), r, dense };
}

const EMPTY_I = new Int32Array(0);
const EMPTY_F = new Float64Array(0);

/**
 * In-place dense LDLᵀ of the symmetric r×r matrix whose upper triangle (row-major) is in `a`:
 * afterwards a[j][j] = d_j and a[j][k] = L_kj for k > j. Right-looking in panels of 4 pivots: the panel
 * rows are factored among themselves, then the trailing rows get one rank-4 update (one pass over the
 * trailing matrix per panel instead of per pivot), rows contiguous.
 */
function denseLdl(a: Float64Array, r: number, checkpoint?: Checkpoint): void {
  const dinv = new Float64Array(4);
  for (let j0 = 0; j0 < r; j0 += 4) {
    if ((j0 & 31) === 0 && checkpoint) checkpoint();
    const j1 = Math.min(j0 + 4, r);
    // panel rows among themselves (full rows, so they hold the Schur complement's rows j0..j1−1)
    for (let j = j0; j < j1; j++) {
      const rj = j * r;
      const dj = a[rj + j];
      if (!(dj > 0)) throw new Error('ldlFactor: matrix is not positive definite');
      const inv = 1 / dj;
      dinv[j - j0] = inv;
      for (let i = j + 1; i < j1; i++) {
        const f = a[rj + i] * inv;
        if (f === 0) continue;
        const ri = i * r;
        for (let k = i; k < r; k++) a[ri + k] -= f * a[rj + k];
      }
    }
    // trailing rows: a[i][k] −= Σ_j a[j][i]·a[j][k]/d_j, k ≥ i
    if (j1 - j0 === 4) {
      const r0 = j0 * r;
      const r1 = r0 + r;
      const r2 = r1 + r;
      const r3 = r2 + r;
      const d0 = dinv[0];
      const d1 = dinv[1];
      const d2 = dinv[2];
      const d3 = dinv[3];
      let i = j1;
      for (; i + 1 < r; i += 2) {
        // rows i and i+1 at once (the panel values loaded once for both)
        const f0 = a[r0 + i] * d0;
        const f1 = a[r1 + i] * d1;
        const f2 = a[r2 + i] * d2;
        const f3 = a[r3 + i] * d3;
        const g0 = a[r0 + i + 1] * d0;
        const g1 = a[r1 + i + 1] * d1;
        const g2 = a[r2 + i + 1] * d2;
        const g3 = a[r3 + i + 1] * d3;
        const ri = i * r;
        const rk = ri + r;
        a[ri + i] -= f0 * a[r0 + i] + f1 * a[r1 + i] + f2 * a[r2 + i] + f3 * a[r3 + i];
        for (let k = i + 1; k < r; k++) {
          const p0 = a[r0 + k];
          const p1 = a[r1 + k];
          const p2 = a[r2 + k];
          const p3 = a[r3 + k];
          a[ri + k] -= f0 * p0 + f1 * p1 + f2 * p2 + f3 * p3;
          a[rk + k] -= g0 * p0 + g1 * p1 + g2 * p2 + g3 * p3;
        }
      }
      if (i < r) {
        const f0 = a[r0 + i] * d0;
        const f1 = a[r1 + i] * d1;
        const f2 = a[r2 + i] * d2;
        const f3 = a[r3 + i] * d3;
        const ri = i * r;
        for (let k = i; k < r; k++) a[ri + k] -= f0 * a[r0 + k] + f1 * a[r1 + k] + f2 * a[r2 + k] + f3 * a[r3 + k];
      }
    } else {
      for (let j = j0; j < j1; j++) {
        const rj = j * r;
        for (let i = j1; i < r; i++) {
          const f = a[rj + i] * dinv[j - j0];
          if (f === 0) continue;
          const ri = i * r;
          for (let k = i; k < r; k++) a[ri + k] -= f * a[rj + k];
        }
      }
    }
    for (let j = j0; j < j1; j++) {
      const rj = j * r;
      const inv = dinv[j - j0];
      for (let k = j + 1; k < r; k++) a[rj + k] *= inv;
    }
  }
}

/**
 * Full inverse Z = S⁻¹ (row-major, symmetric) from the dense LDLᵀ of `denseLdl`, by the Takahashi
 * recurrence Z_ij = −Σ_{k>j} Z_ik·L_kj, Z_jj = 1/d_j − Σ_{k>j} L_kj·Z_kj, in blocks of 4 columns: the
 * contribution of the already-known trailing block is one pass over it for the 4 columns.
 */
function denseInverse(U: Float64Array, r: number, checkpoint?: Checkpoint): Float64Array {
  const Z = new Float64Array(r * r);
  const top = r - (r & 3); // blocks [j0, j0+4) for j0 < top, then a partial block at the end first
  const blocks: number[] = [];
  for (let j0 = 0; j0 < top; j0 += 4) blocks.push(j0);
  if (top < r) blocks.push(top);
  for (let bi = blocks.length - 1; bi >= 0; bi--) {
    if (checkpoint && (bi & 7) === 0) checkpoint();
    const j0 = blocks[bi];
    const j1 = Math.min(j0 + 4, r);
    // (A) trailing rows i ≥ j1: Z_ij = −Σ_{k ≥ j1} Z_ik·U_jk for the block's columns
    if (j1 - j0 === 4) {
      const u0 = j0 * r;
      const u1 = u0 + r;
      const u2 = u1 + r;
      const u3 = u2 + r;
      let i = j1;
      for (; i + 1 < r; i += 2) {
        // two rows at once: 6 loads per 8 multiply-adds
        const ri = i * r;
        const rk = ri + r;
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        let t0 = 0;
        let t1 = 0;
        let t2 = 0;
        let t3 = 0;
        for (let k = j1; k < r; k++) {
          const z = Z[ri + k];
          const y = Z[rk + k];
          const v0 = U[u0 + k];
          const v1 = U[u1 + k];
          const v2 = U[u2 + k];
          const v3 = U[u3 + k];
          s0 += z * v0;
          s1 += z * v1;
          s2 += z * v2;
          s3 += z * v3;
          t0 += y * v0;
          t1 += y * v1;
          t2 += y * v2;
          t3 += y * v3;
        }
        Z[ri + j0] = -s0;
        Z[ri + j0 + 1] = -s1;
        Z[ri + j0 + 2] = -s2;
        Z[ri + j0 + 3] = -s3;
        Z[rk + j0] = -t0;
        Z[rk + j0 + 1] = -t1;
        Z[rk + j0 + 2] = -t2;
        Z[rk + j0 + 3] = -t3;
      }
      if (i < r) {
        const ri = i * r;
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        for (let k = j1; k < r; k++) {
          const z = Z[ri + k];
          s0 += z * U[u0 + k];
          s1 += z * U[u1 + k];
          s2 += z * U[u2 + k];
          s3 += z * U[u3 + k];
        }
        Z[ri + j0] = -s0;
        Z[ri + j0 + 1] = -s1;
        Z[ri + j0 + 2] = -s2;
        Z[ri + j0 + 3] = -s3;
      }
    } else {
      for (let i = j1; i < r; i++) {
        const ri = i * r;
        for (let j = j0; j < j1; j++) {
          const uj = j * r;
          let s = 0;
          for (let k = j1; k < r; k++) s += Z[ri + k] * U[uj + k];
          Z[ri + j] = -s;
        }
      }
    }
    // (B) within the block, last column first: the block's own rows k ∈ (j, j1), then mirror
    for (let j = j1 - 1; j >= j0; j--) {
      const uj = j * r;
      for (let i = j1; i < r; i++) {
        const ri = i * r;
        let s = Z[ri + j];
        for (let k = j + 1; k < j1; k++) s -= Z[ri + k] * U[uj + k];
        Z[ri + j] = s;
        Z[uj + i] = s;
      }
      for (let i = j1 - 1; i > j; i--) {
        const ri = i * r;
        let s = 0;
        for (let k = j + 1; k < r; k++) s -= Z[ri + k] * U[uj + k];
        Z[ri + j] = s;
        Z[uj + i] = s;
      }
      let s = 1 / U[uj + j];
      for (let k = j + 1; k < r; k++) s -= U[uj + k] * Z[uj + k];
      Z[uj + j] = s;
    }
  }
  return Z;
}

/** Solves A x = b in place (b in original indices). */
export function ldlSolve(F: LdlFactor, b: Float64Array): void {
  const { n, perm, ns, d, colOff, rows, lval, r, dense } = F;
  const y = new Float64Array(n);
  for (let p = 0; p < n; p++) y[p] = b[perm[p]];
  // forward: L y = b (sparse columns)
  for (let j = 0; j < ns; j++) {
    const yj = y[j];
    if (yj !== 0) for (let q = colOff[j]; q < colOff[j + 1]; q++) y[rows[q]] -= lval[q] * yj;
  }
  // dense block: forward with unit L, scale by d, backward with Lᵀ
  for (let a = 0; a < r; a++) {
    const ya = y[ns + a];
    const ra = a * r;
    if (ya !== 0) for (let c = a + 1; c < r; c++) y[ns + c] -= dense[ra + c] * ya;
  }
  for (let a = 0; a < r; a++) y[ns + a] /= dense[a * r + a];
  for (let a = r - 1; a >= 0; a--) {
    const ra = a * r;
    let s = y[ns + a];
    for (let c = a + 1; c < r; c++) s -= dense[ra + c] * y[ns + c];
    y[ns + a] = s;
  }
  // sparse: scale and backward
  for (let j = ns - 1; j >= 0; j--) {
    let s = y[j] / d[j];
    for (let q = colOff[j]; q < colOff[j + 1]; q++) s -= lval[q] * y[rows[q]];
    y[j] = s;
  }
  for (let p = 0; p < n; p++) b[perm[p]] = y[p];
}

/** Diagonal of A⁻¹ (original indices) by selected inversion of the factor. */
export function inverseDiagonal(F: LdlFactor, checkpoint?: Checkpoint): Float64Array {
  const { n, perm, ns, d, colOff, rows, lval, r, dense } = F;
  // dense block: Z = S⁻¹ (full, row-major)
  const Z = denseInverse(dense, r, checkpoint);
  const zdiag = new Float64Array(n);
  for (let a = 0; a < r; a++) zdiag[ns + a] = Z[a * r + a];
  // sparse columns, last to first
  const zval = new Float64Array(rows.length);
  const mark = new Int32Array(n).fill(-1);
  let denseT = new Int32Array(16);
  let work = CHECK_WORK + 1;
  for (let j = ns - 1; j >= 0; j--) {
    if (work > CHECK_WORK) {
      work = 0;
      if (checkpoint) checkpoint();
    }
    const q0 = colOff[j];
    const c = colOff[j + 1] - q0;
    if (denseT.length < c) denseT = new Int32Array(2 * c);
    let nd = 0;
    for (let t = 0; t < c; t++) {
      const k = rows[q0 + t];
      mark[k] = t;
      zval[q0 + t] = 0;
      if (k >= ns) denseT[nd++] = t;
    }
    for (let t = 0; t < c; t++) {
      const k = rows[q0 + t];
      if (k >= ns) continue;
      const lk = lval[q0 + t];
      zval[q0 + t] -= zdiag[k] * lk;
      work += colOff[k + 1] - colOff[k];
      for (let q = colOff[k], e = colOff[k + 1]; q < e; q++) {
        const s = mark[rows[q]];
        if (s >= 0) {
          const zik = zval[q];
          zval[q0 + s] -= zik * lk;
          zval[q0 + t] -= zik * lval[q0 + s];
        }
      }
    }
    work += c + nd * nd;
    for (let x = 0; x < nd; x++) {
      const ta = denseT[x];
      const ra = (rows[q0 + ta] - ns) * r;
      let s = 0;
      for (let y = 0; y < nd; y++) {
        const tb = denseT[y];
        s += Z[ra + rows[q0 + tb] - ns] * lval[q0 + tb];
      }
      zval[q0 + ta] -= s;
    }
    let zjj = 1 / d[j];
    for (let t = 0; t < c; t++) {
      zjj -= lval[q0 + t] * zval[q0 + t];
      mark[rows[q0 + t]] = -1;
    }
    zdiag[j] = zjj;
  }
  const out = new Float64Array(n);
  for (let p = 0; p < n; p++) out[perm[p]] = zdiag[p];
  return out;
}
