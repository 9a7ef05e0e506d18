/**
 * Anti-communities (maximally diverse grouping): balanced partition of the nodes into k groups (sizes
 * differ by at most one) minimising W = number of edges inside groups.
 * Start: nodes dealt round-robin in the given order. Local search: pair swaps u∈P, v∈Q with gain
 * ΔW = e(u,Q) − e(u,P) + e(v,P) − e(v,Q) − 2A_uv; each pass finds, for every node with ties inside its
 * group, its best swap exactly (the best partner in group Q is either the minimiser of e(v,P) − e(v,Q)
 * over Q or a neighbour of u in Q), then applies the candidate swaps best first, re-checking each
 * against the current state (a stale candidate is replaced by u's best swap in the current state, with
 * the pass's minimisers); every applied swap has exact ΔW < 0. Passes repeat until nothing improves. Iterated local search: random
 * perturbation swaps from the best solution, local search, keep the best; `restarts` rounds, at most
 * `maxPasses` local-search passes in all (deterministic work cap), or until `budgetMs` has passed. Sizes never change, and the result is never worse than the start.
 * Input: symmetric CSR without self-loops, sorted rows. Memory n·k counters (caller caps it).
 */
import type { Rng } from './random.ts';

export interface AntiResult {
  group: Int32Array;
  ties: number;
  /** Ties of the round-robin start. */
  startTies: number;
}

export function antiCommunities(
  n: number,
  off: Int32Array,
  adj: Int32Array,
  k: number,
  order: Int32Array,
  opts: { rng: Rng; restarts: number; maxPasses?: number; budgetMs: number; localSearch: boolean; checkpoint: () => void },
): AntiResult {
  const group = new Int32Array(n);
  for (let i = 0; i < n; i++) group[order[i]] = i % k;
  const countTies = (gr: Int32Array) => {
    let w = 0;
    for (let u = 0; u < n; u++) for (let p = off[u]; p < off[u + 1]; p++) if (adj[p] > u && gr[adj[p]] === gr[u]) w++;
    return w;
  };
  let W = countTies(group);
  const startTies = W;
  if (!opts.localSearch || W === 0 || k < 2) return { group, ties: W, startTies };
  const started = Date.now();
  const e = new Int32Array(n * k);
  const fill = () => {
    e.fill(0);
    for (let u = 0; u < n; u++) for (let p = off[u]; p < off[u + 1]; p++) e[u * k + group[adj[p]]]++;
  };
  const adjacent = (u: number, v: number) => {
    let lo = off[u];
    let hi = off[u + 1] - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const x = adj[mid];
      if (x === v) return 1;
      if (x < v) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  };
  const delta = (u: number, v: number) => {
    const P = group[u];
    const Q = group[v];
    return e[u * k + Q] - e[u * k + P] + e[v * k + P] - e[v * k + Q] - 2 * adjacent(u, v);
  };
  const swap = (u: number, v: number) => {
    const P = group[u];
    const Q = group[v];
    for (let p = off[u]; p < off[u + 1]; p++) {
      const x = adj[p] * k;
      e[x + P]--;
      e[x + Q]++;
    }
    for (let p = off[v]; p < off[v + 1]; p++) {
      const x = adj[p] * k;
      e[x + Q]--;
      e[x + P]++;
    }
    group[u] = Q;
    group[v] = P;
  };
  const minD = new Float64Array(k * k);
  const argD = new Int32Array(k * k);
  const candU: number[] = [];
  const candV: number[] = [];
  const candG: number[] = [];
  let passId = 0;
  const maxPasses = opts.maxPasses ?? Infinity;
  const exhausted = () => passId >= maxPasses || Date.now() - started > opts.budgetMs;
  // best swap partner of u (ΔW < 0) from the per-(P,Q) minimisers and u's neighbours; −1 if none
  let bestGain = 0;
  const bestFor = (u: number): number => {
    const P = group[u];
    const eP = e[u * k + P];
    let best = 0;
    let bestV = -1;
    for (let Q = 0; Q < k; Q++) {
      if (Q === P || minD[P * k + Q] === Infinity) continue;
      const v = argD[P * k + Q];
      if (group[v] !== Q) continue;
      const d = e[u * k + Q] - eP + e[v * k + P] - e[v * k + Q] - 2 * adjacent(u, v);
      if (d < best) {
        best = d;
        bestV = v;
      }
    }
    for (let p = off[u]; p < off[u + 1]; p++) {
      const v = adj[p];
      const Q = group[v];
      if (Q === P) continue;
      const d = e[u * k + Q] - eP + e[v * k + P] - e[v * k + Q] - 2;
      if (d < best) {
        best = d;
        bestV = v;
      }
    }
    bestGain = best;
    return bestV;
  };
  const localSearch = () => {
    while (true) {
      opts.checkpoint();
      if (exhausted()) return;
      passId++;
      minD.fill(Infinity);
      for (let v = 0; v < n; v++) {
        const Q = group[v];
        const eQ = e[v * k + Q];
        for (let P = 0; P < k; P++) {
          if (P === Q) continue;
          const d = e[v * k + P] - eQ;
          if (d < minD[P * k + Q]) {
            minD[P * k + Q] = d;
            argD[P * k + Q] = v;
          }
        }
      }
      candU.length = candV.length = candG.length = 0;
      for (let u = 0; u < n; u++) {
        if (e[u * k + group[u]] === 0) continue;
        const v = bestFor(u);
        if (v >= 0) {
          candU.push(u);
          candV.push(v);
          candG.push(bestGain);
        }
      }
      if (candU.length === 0) return;
      const idx = candU.map((_, i) => i).sort((a, b) => candG[a] - candG[b] || candU[a] - candU[b]);
      let applied = 0;
      for (const i of idx) {
        const u = candU[i];
        const v = candV[i];
        if (e[u * k + group[u]] === 0) continue;
        let w = v;
        let d = group[u] === group[w] ? 0 : delta(u, w);
        if (d >= 0) {
          // stale candidate: re-evaluate u against the current state (argmins may be stale, so check exactly)
          w = bestFor(u);
          if (w < 0) continue;
          d = delta(u, w);
          if (d >= 0) continue;
        }
        swap(u, w);
        W += d;
        applied++;
      }
      if (applied === 0) return;
    }
  };
  fill();
  localSearch();
  let bestW = W;
  const best = group.slice();
  const perturb = Math.max(2, Math.round(n * 0.02));
  for (let r = 0; r < opts.restarts && bestW > 0; r++) {
    if (exhausted()) break;
    for (let t = 0; t < perturb; t++) {
      const u = opts.rng.int(n);
      const v = opts.rng.int(n);
      if (group[u] === group[v]) continue;
      W += delta(u, v);
      swap(u, v);
    }
    localSearch();
    if (W < bestW) {
      bestW = W;
      best.set(group);
    } else if (W > bestW) {
      group.set(best);
      W = bestW;
      fill();
    }
  }
  return { group: best, ties: bestW, startTies };
}
