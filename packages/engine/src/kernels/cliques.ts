/**
 * k-clique communities (clique percolation, Palla, Derényi, Farkas & Vicsek 2005, Nature 435:814,
 * doi 10.1038/nature03607) as NetworkX 3.6 `k_clique_communities(G, k)`: the union of maximal cliques of
 * size ≥ k that are connected through overlaps of ≥ k−1 nodes.
 *
 * Input: undirected simple graph as CSR with sorted rows and no self-loops.
 * - k = 2: the communities are the connected components with at least one edge (every edge is a
 *   2-clique, overlapping ones share a node), computed directly.
 * - k ≥ 3: nodes outside the (k−1)-core cannot be in a k-clique and are dropped; maximal cliques of the
 *   rest are enumerated by Bron–Kerbosch with Tomita pivoting in a degeneracy ordering
 *   (Eppstein, Löffler & Strash 2010, doi 10.1007/978-3-642-17517-6_36), pruning branches that cannot
 *   reach k nodes; cliques are joined with a union–find when they share ≥ k−1 nodes (counted per pair
 *   through node→clique lists).
 * Output order: largest community first; equal sizes by their sorted member index lists
 * (lexicographically), so the order is deterministic and independent of enumeration order.
 */
import { coreDecomposition } from './kcore.ts';
import { componentMembers, weakComponents } from './components.ts';

export type Checkpoint = () => void;

export function kCliqueCommunities(n: number, off: Int32Array, adj: Int32Array, k: number, checkpoint: Checkpoint = () => {}): Int32Array[] {
  let communities: Int32Array[];
  if (k <= 2) communities = edgeComponents(n, off, adj);
  else communities = percolate(n, off, adj, k, checkpoint);
  communities.sort(compareCommunities);
  return communities;
}

function compareCommunities(a: Int32Array, b: Int32Array): number {
  if (a.length !== b.length) return b.length - a.length;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** Connected components that have an edge (a node with no arc is no 2-clique), members in node order. */
function edgeComponents(n: number, off: Int32Array, adj: Int32Array): Int32Array[] {
  const components = weakComponents({ n, directed: false, outOff: off, outAdj: adj, inOff: off, inAdj: adj });
  const members = componentMembers(components);
  const out: Int32Array[] = [];
  for (let c = 0; c < components.count; c++) {
    const list = members.nodes.subarray(members.off[c], members.off[c + 1]);
    if (list.length === 1 && off[list[0] + 1] === off[list[0]]) continue;
    out.push(list.slice());
  }
  return out;
}

/** Maximal cliques of size ≥ k, flattened: members[cliqueOff[c] .. cliqueOff[c+1]). */
export function maximalCliques(
  n: number,
  off: Int32Array,
  adj: Int32Array,
  k: number,
  checkpoint: Checkpoint = () => {},
): { cliqueOff: number[]; members: number[] } {
  // restrict to the (k-1)-core
  const { core } = coreDecomposition(n, off, adj, null, null, checkpoint);
  const keep = new Uint8Array(n);
  for (let v = 0; v < n; v++) keep[v] = core[v] >= k - 1 ? 1 : 0;
  const soff = new Int32Array(n + 1);
  for (let v = 0; v < n; v++) {
    let c = 0;
    if (keep[v]) for (let p = off[v]; p < off[v + 1]; p++) if (keep[adj[p]]) c++;
    soff[v + 1] = soff[v] + c;
  }
  const sadj = new Int32Array(soff[n]);
  for (let v = 0, q = 0; v < n; v++) {
    if (keep[v]) for (let p = off[v]; p < off[v + 1]; p++) if (keep[adj[p]]) sadj[q++] = adj[p];
  }
  const { order } = coreDecomposition(n, soff, sadj, null, null, checkpoint);
  const rankOf = new Int32Array(n);
  for (let i = 0; i < n; i++) rankOf[order[i]] = i;

  const cliqueOff: number[] = [0];
  const members: number[] = [];
  const R = new Int32Array(n + 1);
  let stack = new Int32Array(1024);
  let top = 0;
  const ensure = (extra: number) => {
    if (top + extra > stack.length) {
      let len = stack.length * 2;
      while (len < top + extra) len *= 2;
      const s2 = new Int32Array(len);
      s2.set(stack.subarray(0, top));
      stack = s2;
    }
  };
  const markN = new Int32Array(n); // token stamps for N(v)
  const markP = new Int32Array(n); // token stamps for P ∪ X membership
  const pcount = new Int32Array(n); // |P ∩ N(u)| for pivot selection
  let token = 0;
  let calls = 0;

  // P at [ps, ps+pl), X at [xs, xs+xl) (capacity for appending pl more).
  const bk = (r: number, ps: number, pl: number, xs: number, xl: number): void => {
    if (pl === 0) {
      if (xl === 0 && r >= k) {
        for (let i = 0; i < r; i++) members.push(R[i]);
        cliqueOff.push(members.length);
      }
      return;
    }
    if (r + pl < k) return;
    if ((++calls & 4095) === 0) checkpoint();
    // pivot: u in P ∪ X maximising |P ∩ N(u)|, counted from the (small) P side: Σ_{p∈P} deg(p)
    const tp = ++token;
    for (let i = 0; i < pl; i++) {
      markP[stack[ps + i]] = tp;
      pcount[stack[ps + i]] = 0;
    }
    for (let i = 0; i < xl; i++) {
      markP[stack[xs + i]] = tp;
      pcount[stack[xs + i]] = 0;
    }
    for (let i = 0; i < pl; i++) {
      const p0 = stack[ps + i];
      for (let p = soff[p0]; p < soff[p0 + 1]; p++) if (markP[sadj[p]] === tp) pcount[sadj[p]]++;
    }
    let pivot = -1;
    let best = -1;
    for (let i = 0; i < pl + xl; i++) {
      const u = i < pl ? stack[ps + i] : stack[xs + i - pl];
      if (pcount[u] > best) {
        best = pcount[u];
        pivot = u;
      }
    }
    // candidates: P \ N(pivot)
    const tn = ++token;
    for (let p = soff[pivot]; p < soff[pivot + 1]; p++) markN[sadj[p]] = tn;
    ensure(pl);
    const cs = top;
    let cl = 0;
    for (let i = 0; i < pl; i++) {
      const v = stack[ps + i];
      if (markN[v] !== tn) stack[cs + cl++] = v;
    }
    top += cl;
    for (let c = 0; c < cl; c++) {
      const v = stack[cs + c];
      const t = ++token;
      for (let p = soff[v]; p < soff[v + 1]; p++) markN[sadj[p]] = t;
      ensure(pl + xl + pl);
      const nps = top;
      let npl = 0;
      for (let i = 0; i < pl; i++) {
        const w = stack[ps + i];
        if (markN[w] === t) stack[nps + npl++] = w;
      }
      const nxs = nps + npl;
      let nxl = 0;
      for (let i = 0; i < xl; i++) {
        const w = stack[xs + i];
        if (markN[w] === t) stack[nxs + nxl++] = w;
      }
      const saved = top;
      top = nxs + nxl + npl;
      R[r] = v;
      bk(r + 1, nps, npl, nxs, nxl);
      top = saved;
      // move v from P to X
      for (let i = 0; i < pl; i++) {
        if (stack[ps + i] === v) {
          stack[ps + i] = stack[ps + pl - 1];
          pl--;
          break;
        }
      }
      stack[xs + xl++] = v;
    }
    top = cs;
  };

  for (let i = 0; i < n; i++) {
    const v = order[i];
    if (!keep[v]) continue;
    const rv = rankOf[v];
    const deg = soff[v + 1] - soff[v];
    top = 0;
    ensure(2 * deg + 1);
    let pl = 0;
    for (let p = soff[v]; p < soff[v + 1]; p++) if (rankOf[sadj[p]] > rv) stack[pl++] = sadj[p];
    const xs = pl;
    let xl = 0;
    for (let p = soff[v]; p < soff[v + 1]; p++) if (rankOf[sadj[p]] < rv) stack[xs + xl++] = sadj[p];
    top = xs + xl + pl;
    R[0] = v;
    bk(1, 0, pl, xs, xl);
    if ((i & 255) === 255) checkpoint();
  }
  return { cliqueOff, members };
}

function percolate(n: number, off: Int32Array, adj: Int32Array, k: number, checkpoint: Checkpoint): Int32Array[] {
  const { cliqueOff, members } = maximalCliques(n, off, adj, k, checkpoint);
  const C = cliqueOff.length - 1;
  if (C === 0) return [];
  // node -> cliques
  const noff = new Int32Array(n + 1);
  for (const v of members) noff[v + 1]++;
  for (let v = 0; v < n; v++) noff[v + 1] += noff[v];
  const fill = noff.slice(0, n);
  const ncl = new Int32Array(members.length);
  for (let c = 0; c < C; c++) for (let p = cliqueOff[c]; p < cliqueOff[c + 1]; p++) ncl[fill[members[p]]++] = c;
  const parent = new Int32Array(C);
  for (let c = 0; c < C; c++) parent[c] = c;
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  };
  const stamp = new Int32Array(C).fill(-1);
  const cnt = new Int32Array(C);
  for (let c = 0; c < C; c++) {
    for (let p = cliqueOff[c]; p < cliqueOff[c + 1]; p++) {
      const v = members[p];
      for (let q = noff[v]; q < noff[v + 1]; q++) {
        const d = ncl[q];
        if (d <= c) continue;
        if (stamp[d] !== c) {
          stamp[d] = c;
          cnt[d] = 0;
        }
        if (++cnt[d] === k - 1) {
          const a = find(c);
          const b = find(d);
          if (a !== b) parent[a < b ? b : a] = a < b ? a : b;
        }
      }
    }
    if ((c & 1023) === 1023) checkpoint();
  }
  // gather members per root
  const rootIndex = new Int32Array(C).fill(-1);
  const groups: number[][] = [];
  const seen = new Int32Array(n).fill(-1);
  for (let c = 0; c < C; c++) {
    const r = find(c);
    if (rootIndex[r] === -1) {
      rootIndex[r] = groups.length;
      groups.push([]);
    }
    const g = rootIndex[r];
    for (let p = cliqueOff[c]; p < cliqueOff[c + 1]; p++) {
      const v = members[p];
      if (seen[v] !== g) {
        seen[v] = g;
        groups[g].push(v);
      }
    }
  }
  // `seen` per group id is only valid while a group's cliques are consecutive; dedupe again to be safe
  return groups.map((g) => Int32Array.from(new Set(g)).sort());
}
