/**
 * Weighted triangle sums on a symmetric simple graph (no self-loops) given as CSR with a value per
 * stored entry (val[p] for the entry u→adj[p] equals the value stored for adj[p]→u).
 *
 * out[i] = Σ over triangles {i,j,k} of s_ij·s_jk·s_ki. With s ≡ 1 this is the triangle count; the
 * clustering metrics build s for their variant (unweighted, geometric-mean weighted, directed).
 *
 * Algorithm: "forward" triangle listing — edges oriented from lower to higher (degree, index) rank,
 * each triangle found exactly once from its lowest-ranked vertex with a stamped dense marker array,
 * O(m^1.5) time, no allocation inside the loops.
 */
export type Checkpoint = () => void;

export function triangleSums(
  n: number,
  off: Int32Array,
  adj: Int32Array,
  val: Float64Array,
  out: Float64Array,
  checkpoint: Checkpoint = () => {},
): void {
  // rank by (degree, index)
  const deg = new Int32Array(n);
  let maxDeg = 0;
  for (let u = 0; u < n; u++) {
    deg[u] = off[u + 1] - off[u];
    if (deg[u] > maxDeg) maxDeg = deg[u];
  }
  const cnt = new Int32Array(maxDeg + 2);
  for (let u = 0; u < n; u++) cnt[deg[u] + 1]++;
  for (let d = 0; d <= maxDeg; d++) cnt[d + 1] += cnt[d];
  const rank = new Int32Array(n);
  for (let u = 0; u < n; u++) rank[u] = cnt[deg[u]]++;
  // forward adjacency: neighbours of higher rank
  const foff = new Int32Array(n + 1);
  for (let u = 0; u < n; u++) {
    let c = 0;
    const ru = rank[u];
    for (let p = off[u], e = off[u + 1]; p < e; p++) if (rank[adj[p]] > ru) c++;
    foff[u + 1] = foff[u] + c;
  }
  const fadj = new Int32Array(foff[n]);
  const fval = new Float64Array(foff[n]);
  for (let u = 0; u < n; u++) {
    let q = foff[u];
    const ru = rank[u];
    for (let p = off[u], e = off[u + 1]; p < e; p++) {
      if (rank[adj[p]] > ru) {
        fadj[q] = adj[p];
        fval[q] = val[p];
        q++;
      }
    }
  }
  const stamp = new Int32Array(n).fill(-1);
  const mark = new Float64Array(n);
  out.fill(0);
  for (let u = 0; u < n; u++) {
    const a = foff[u];
    const b = foff[u + 1];
    if (b - a < 2) continue;
    for (let p = a; p < b; p++) {
      stamp[fadj[p]] = u;
      mark[fadj[p]] = fval[p];
    }
    for (let p = a; p < b; p++) {
      const v = fadj[p];
      const suv = fval[p];
      for (let q = foff[v], e = foff[v + 1]; q < e; q++) {
        const w = fadj[q];
        if (stamp[w] === u) {
          const t = suv * fval[q] * mark[w];
          out[u] += t;
          out[v] += t;
          out[w] += t;
        }
      }
    }
    if ((u & 1023) === 1023) checkpoint();
  }
}
