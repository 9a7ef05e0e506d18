/**
 * Core numbers by the Batagelj–Zaversnik bucket algorithm (O(n + m)), as NetworkX 3.6 `core_number`.
 *
 * The graph is given as up to two CSR row sets whose concatenation is each node's neighbour list with
 * multiplicity: undirected graphs pass one (the adjacency), directed graphs pass successors and
 * predecessors, so degree = in + out and a reciprocal pair counts twice — NetworkX's `G.degree` and
 * `all_neighbors` on a DiGraph. Self-loops must have been removed (NetworkX refuses them).
 * Reference: Batagelj & Zaversnik (2003), arXiv cs/0310049.
 */
export type Checkpoint = () => void;

/** Core numbers only (the arguments of coreDecomposition). */
export function coreNumbers(...args: Parameters<typeof coreDecomposition>): Int32Array {
  return coreDecomposition(...args).core;
}

/** Core numbers plus the processing order (a degeneracy ordering: each node has at most core(v) later neighbours). */
export function coreDecomposition(
  n: number,
  offA: Int32Array,
  adjA: Int32Array,
  offB: Int32Array | null,
  adjB: Int32Array | null,
  checkpoint: Checkpoint = () => {},
): { core: Int32Array; order: Int32Array } {
  const deg = new Int32Array(n);
  let md = 0;
  for (let v = 0; v < n; v++) {
    let d = offA[v + 1] - offA[v];
    if (offB) d += offB[v + 1] - offB[v];
    deg[v] = d;
    if (d > md) md = d;
  }
  const bin = new Int32Array(md + 1);
  for (let v = 0; v < n; v++) bin[deg[v]]++;
  let start = 0;
  for (let d = 0; d <= md; d++) {
    const c = bin[d];
    bin[d] = start;
    start += c;
  }
  const pos = new Int32Array(n);
  const vert = new Int32Array(n);
  for (let v = 0; v < n; v++) {
    pos[v] = bin[deg[v]];
    vert[pos[v]] = v;
    bin[deg[v]]++;
  }
  for (let d = md; d >= 1; d--) bin[d] = bin[d - 1];
  bin[0] = 0;
  const visit = (v: number, off: Int32Array, adj: Int32Array) => {
    const dv = deg[v];
    for (let p = off[v], e = off[v + 1]; p < e; p++) {
      const u = adj[p];
      const du = deg[u];
      if (du > dv) {
        const pu = pos[u];
        const pw = bin[du];
        const w = vert[pw];
        if (u !== w) {
          pos[u] = pw;
          vert[pu] = w;
          pos[w] = pu;
          vert[pw] = u;
        }
        bin[du]++;
        deg[u] = du - 1;
      }
    }
  };
  for (let i = 0; i < n; i++) {
    const v = vert[i];
    visit(v, offA, adjA);
    if (offB && adjB) visit(v, offB, adjB);
    if ((i & 4095) === 4095) checkpoint();
  }
  return { core: deg, order: vert };
}
