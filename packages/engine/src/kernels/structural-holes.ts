/**
 * Burt's structural-holes measures exactly as NetworkX 3.6 computes them for all nodes (its sparse
 * matrix path in `networkx.algorithms.structuralholes`), on the mutual-weight matrix M = A + Aᵀ given
 * as a symmetric CSR (self-loops included, M_uu = 2·w_uu):
 *
 *   s_u = Σ_v M_uv,  p_uv = M_uv / s_u,  m_vw = M_vw / max_x M_wx
 *   constraint(u)     = Σ_{v: p_uv > 0} (p_uv + Σ_w p_uw p_wv)²           NaN when s_u − 2·p_uu = 0
 *   effectiveSize(u)  = Σ_{v: p_uv > 0} (1 − Σ_w p_uw m_vw)                NaN when Σ_v p_uv − p_uu = 0
 *
 * Note m: NetworkX divides the mutual-weight matrix by `M.max(axis=1).toarray()`, a 1-D array that
 * broadcasts over columns, so entry (v,w) is scaled by the largest tie of w (not of v, as in Burt's
 * text). We reproduce that; it only matters when weights differ or on directed graphs.
 *
 * (The sums over w and v include u itself when u has a self-loop, exactly as the matrix products do;
 * the "isolated" tests are NetworkX's own expressions.)
 *
 * The inner products are accumulated by scattering along the two-step paths u→w→v into a dense
 * accumulator restricted to N(u) (stamped marker array): O(Σ_w deg(w)²), no allocation in the loops.
 */
export type Checkpoint = () => void;

export function structuralHoles(
  n: number,
  off: Int32Array,
  adj: Int32Array,
  M: Float64Array,
  constraintOut: Float64Array | null,
  esizeOut: Float64Array | null,
  checkpoint: Checkpoint = () => {},
): void {
  const s = new Float64Array(n);
  const rmax = new Float64Array(n);
  for (let u = 0; u < n; u++) {
    let sum = 0;
    let mx = 0;
    let any = false;
    for (let p = off[u], e = off[u + 1]; p < e; p++) {
      const x = M[p];
      sum += x;
      if (!any || x > mx) mx = x;
      any = true;
    }
    s[u] = sum;
    rmax[u] = mx;
  }
  const stamp = new Int32Array(n).fill(-1);
  const accC = new Float64Array(n); // Σ_w p_uw p_wv
  const accE = new Float64Array(n); // Σ_w p_uw M_wv / max(row w)
  for (let u = 0; u < n; u++) {
    const a = off[u];
    const b = off[u + 1];
    const su = s[u];
    let puu = 0;
    let rowSumP = 0;
    for (let p = a; p < b; p++) {
      const v = adj[p];
      stamp[v] = u;
      accC[v] = 0;
      accE[v] = 0;
      const puv = M[p] / su;
      rowSumP += puv;
      if (v === u) puu = puv;
    }
    for (let p = a; p < b; p++) {
      const w = adj[p];
      const puw = M[p] / su;
      const cw = puw / s[w];
      const ew = puw / rmax[w];
      if (cw < Infinity && ew < Infinity) {
        for (let q = off[w], e = off[w + 1]; q < e; q++) {
          const v = adj[q];
          if (stamp[v] === u) {
            accC[v] += cw * M[q];
            accE[v] += ew * M[q];
          }
        }
      } else {
        // w's ties are so weak (sums near 5e-324) that 1/s_w overflows: form the ratios first
        for (let q = off[w], e = off[w + 1]; q < e; q++) {
          const v = adj[q];
          if (stamp[v] === u) {
            accC[v] += puw * (M[q] / s[w]);
            accE[v] += puw * (M[q] / rmax[w]);
          }
        }
      }
    }
    if (constraintOut) {
      if (su - 2 * puu === 0) {
        constraintOut[u] = NaN;
      } else {
        let c = 0;
        for (let p = a; p < b; p++) {
          const puv = M[p] / su;
          if (puv > 0) {
            const t = puv + accC[adj[p]];
            c += t * t;
          }
        }
        constraintOut[u] = c;
      }
    }
    if (esizeOut) {
      if (rowSumP - puu === 0 || b === a) {
        esizeOut[u] = NaN;
      } else {
        let es = 0;
        for (let p = a; p < b; p++) {
          const v = adj[p];
          if (M[p] / su > 0) es += 1 - accE[v];
        }
        esizeOut[u] = es;
      }
    }
    if ((u & 1023) === 1023) checkpoint();
  }
}
