/**
 * Core–periphery kernels on a symmetric CSR without self-loops (unweighted).
 *
 * rombach: ordering maximising Q = Σ_ij A_ij C_i C_j with the Rombach et al. (2017) coreness profile
 *   C(rank) (see metrics/corePeriphery.ts). Each run: start ordering (run 0 = ascending degree, ties by
 *   index; the others random), then alternate (a) "sort by neighbour sums" moves (assign the largest C
 *   to the largest s_i = Σ_j A_ij C_j; accepted only if Q rises) and (b) label switching: for each node
 *   i the best rank swap with a node j (ΔQ = 2(C_j − C_i)(s_i − s_j) − 2A_ij(C_j − C_i)²), applied
 *   when ΔQ > 0, until a round improves nothing (at most 30 rounds, 5 sort moves each). Candidates j: all nodes when n ≤ 1000, else the nodes
 *   within a rank window (half-width ⌊10⁶/n⌋, at least 16). Best of `runs` runs.
 * kmConfig: Kojaku & Masuda (2018) core–periphery pairs, label switching on the configuration-model
 *   quality Q = (1/2M) Σ_c [2(E_cc + E_cp) − (D_c² + 2 D_c D_p)/(2M)] (c's core/periphery edge counts
 *   and degree sums): each node moves, as core or periphery, to its own, a neighbour's or a new pair
 *   when that raises Q; random order, until no move (at most 100 passes); best of `runs` runs.
 */
import type { Rng } from './random.ts';

export function rombachProfile(n: number, alpha: number, beta: number): Float64Array {
  const nb = Math.floor(beta * n);
  const c = new Float64Array(n);
  for (let k = 1; k <= n; k++) {
    c[k - 1] = k <= nb ? (k * (1 - alpha)) / (2 * nb) : ((k - nb) * (1 - alpha)) / (2 * (n - nb)) + (1 + alpha) / 2;
  }
  return c;
}

export function rombachQuality(n: number, off: Int32Array, adj: Int32Array, C: Float64Array): number {
  let q = 0;
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let p = off[i]; p < off[i + 1]; p++) s += C[adj[p]];
    q += C[i] * s;
  }
  return q;
}

/** Returns coreness C per node (the best ordering's profile values) and its Q. */
export function rombach(
  n: number,
  off: Int32Array,
  adj: Int32Array,
  alpha: number,
  beta: number,
  runs: number,
  rng: Rng,
  checkpoint: () => void,
): { coreness: Float64Array; quality: number } {
  const prof = rombachProfile(n, alpha, beta);
  const rankOf = new Int32Array(n); // node -> 0-based rank
  const nodeAt = new Int32Array(n); // rank -> node
  const C = new Float64Array(n);
  const s = new Float64Array(n);
  const mark = new Int32Array(n).fill(-1);
  const tmp = new Int32Array(n);
  const visit = new Int32Array(n);
  const half = n <= 1000 ? n : Math.max(16, Math.floor(1e6 / n));
  let best = new Float64Array(n);
  let bestQ = -Infinity;
  const deg = (u: number) => off[u + 1] - off[u];
  const setFromOrder = () => {
    for (let r = 0; r < n; r++) {
      rankOf[nodeAt[r]] = r;
      C[nodeAt[r]] = prof[r];
    }
    for (let i = 0; i < n; i++) {
      let x = 0;
      for (let p = off[i]; p < off[i + 1]; p++) x += C[adj[p]];
      s[i] = x;
    }
  };
  const quality = () => {
    let q = 0;
    for (let i = 0; i < n; i++) q += C[i] * s[i];
    return q;
  };
  for (let run = 0; run < runs; run++) {
    checkpoint();
    for (let i = 0; i < n; i++) nodeAt[i] = i;
    if (run === 0) {
      const a = Array.from(nodeAt).sort((x, y) => deg(x) - deg(y) || x - y);
      nodeAt.set(a);
    } else rng.shuffle(nodeAt);
    setFromOrder();
    let Q = quality();
    for (let round = 0; round < 30; round++) {
      let improved = false;
      // (a) sort by neighbour sums
      for (let it = 0; it < 5; it++) {
        tmp.set(nodeAt);
        const sorted = Array.from(nodeAt).sort((x, y) => s[x] - s[y] || rankOf[x] - rankOf[y]);
        nodeAt.set(sorted);
        setFromOrder();
        const q2 = quality();
        if (q2 > Q + 1e-12 * Math.abs(Q)) {
          Q = q2;
          improved = true;
        } else {
          nodeAt.set(tmp);
          setFromOrder();
          break;
        }
      }
      // (b) label switching
      for (let i = 0; i < n; i++) visit[i] = i;
      rng.shuffle(visit);
      let moved = false;
      for (let t = 0; t < n; t++) {
        const i = visit[t];
        for (let p = off[i]; p < off[i + 1]; p++) mark[adj[p]] = i;
        const ci = C[i];
        const si = s[i];
        const ri = rankOf[i];
        const lo = Math.max(0, ri - half);
        const hi = Math.min(n - 1, ri + half);
        let bestD = 1e-12 * Math.max(1, Math.abs(Q));
        let bestJ = -1;
        for (let r = lo; r <= hi; r++) {
          const j = nodeAt[r];
          if (j === i) continue;
          const dc = C[j] - ci;
          let d = 2 * dc * (si - s[j]);
          if (mark[j] === i) d -= 2 * dc * dc;
          if (d > bestD) {
            bestD = d;
            bestJ = j;
          }
        }
        if (bestJ < 0) continue;
        const j = bestJ;
        const cj = C[j];
        const rj = rankOf[j];
        C[i] = cj;
        C[j] = ci;
        rankOf[i] = rj;
        rankOf[j] = ri;
        nodeAt[ri] = j;
        nodeAt[rj] = i;
        for (let p = off[i]; p < off[i + 1]; p++) s[adj[p]] += cj - ci;
        for (let p = off[j]; p < off[j + 1]; p++) s[adj[p]] += ci - cj;
        Q += bestD;
        moved = true;
      }
      if (moved) {
        Q = quality();
        improved = true;
      }
      checkpoint();
      if (!improved) break;
    }
    Q = quality();
    if (Q > bestQ) {
      bestQ = Q;
      best = C.slice();
    }
  }
  return { coreness: best, quality: bestQ === -Infinity ? 0 : bestQ };
}

/** KM_config: pair index per node (compact 0..K-1) and core flag (1/0), plus Q. */
export function kmConfig(
  n: number,
  off: Int32Array,
  adj: Int32Array,
  runs: number,
  rng: Rng,
  checkpoint: () => void,
): { pair: Int32Array; core: Uint8Array; quality: number } {
  const d = new Float64Array(n);
  let M2 = 0;
  for (let i = 0; i < n; i++) {
    d[i] = off[i + 1] - off[i];
    M2 += d[i];
  }
  const com = new Int32Array(n);
  const x = new Uint8Array(n);
  const Dc = new Float64Array(n);
  const Dp = new Float64Array(n);
  const members = new Int32Array(n);
  const eCore = new Float64Array(n);
  const ePer = new Float64Array(n);
  const mark = new Int32Array(n).fill(-1);
  const list = new Int32Array(n);
  const order = new Int32Array(n);
  const free: number[] = [];
  let bestCom = new Int32Array(n);
  let bestX = new Uint8Array(n);
  let bestQ = -Infinity;
  const quality = () => {
    if (M2 === 0) return 0;
    let inner = 0;
    for (let i = 0; i < n; i++) {
      for (let p = off[i]; p < off[i + 1]; p++) {
        const j = adj[p];
        if (com[j] === com[i] && (x[i] || x[j])) inner++;
      }
    }
    let pen = 0;
    for (let c = 0; c < n; c++) pen += Dc[c] * Dc[c] + 2 * Dc[c] * Dp[c];
    return (inner - pen / M2) / M2;
  };
  for (let run = 0; run < runs; run++) {
    checkpoint();
    free.length = 0;
    for (let i = 0; i < n; i++) {
      com[i] = i;
      x[i] = 1;
      Dc[i] = d[i];
      Dp[i] = 0;
      members[i] = 1;
      order[i] = i;
    }
    if (M2 === 0) break;
    for (let pass = 0; pass < 100; pass++) {
      rng.shuffle(order);
      let moves = 0;
      for (let t = 0; t < n; t++) {
        const i = order[t];
        const di = d[i];
        if (di === 0) continue;
        let cnt = 0;
        for (let p = off[i]; p < off[i + 1]; p++) {
          const j = adj[p];
          const c = com[j];
          if (mark[c] !== i) {
            mark[c] = i;
            eCore[c] = 0;
            ePer[c] = 0;
            list[cnt++] = c;
          }
          if (x[j]) eCore[c]++;
          else ePer[c]++;
        }
        const own = com[i];
        if (mark[own] !== i) {
          mark[own] = i;
          eCore[own] = 0;
          ePer[own] = 0;
          list[cnt++] = own;
        }
        // remove i
        if (x[i]) Dc[own] -= di;
        else Dp[own] -= di;
        members[own]--;
        const asCore = (c: number) => 2 * (eCore[c] + ePer[c] - (di * (Dc[c] + Dp[c])) / M2) - (di * di) / M2;
        const asPer = (c: number) => 2 * (eCore[c] - (di * Dc[c]) / M2);
        const cur = x[i] ? asCore(own) : asPer(own);
        let bestG = cur;
        let bestC = own;
        let bestRole = x[i];
        for (let q = 0; q < cnt; q++) {
          const c = list[q];
          const gc = asCore(c);
          if (gc > bestG + 1e-12) {
            bestG = gc;
            bestC = c;
            bestRole = 1;
          }
          const gp = asPer(c);
          if (gp > bestG + 1e-12) {
            bestG = gp;
            bestC = c;
            bestRole = 0;
          }
        }
        // a new pair of its own: periphery alone is worth 0
        if (0 > bestG + 1e-12 && members[own] > 0) {
          bestC = free.length > 0 ? (free.pop() as number) : -1;
          bestRole = 0;
        }
        if (bestC === -1) bestC = own; // cannot happen: an emptied pair id is always free
        if (bestC !== own || bestRole !== x[i]) moves++;
        com[i] = bestC;
        x[i] = bestRole;
        if (bestRole) Dc[bestC] += di;
        else Dp[bestC] += di;
        members[bestC]++;
        if (members[own] === 0 && bestC !== own) free.push(own);
      }
      checkpoint();
      if (moves === 0) break;
    }
    const q = quality();
    if (q > bestQ) {
      bestQ = q;
      bestCom = com.slice();
      bestX = x.slice();
    }
  }
  if (bestQ === -Infinity) {
    bestCom = com.slice();
    bestX = x.slice();
    bestQ = 0;
  }
  // compact pair ids
  const lab = new Int32Array(n).fill(-1);
  let K = 0;
  const pair = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const c = bestCom[i];
    if (lab[c] < 0) lab[c] = K++;
    pair[i] = lab[c];
  }
  return { pair, core: bestX, quality: bestQ };
}
