/**
 * Source sets of the source-loop kernels, and how they are split across worker threads and ordered
 * for locality: every node, strided shards (`shardSources`), shards of whole 32-source blocks for the
 * bit-parallel BFS (`shardBlocks`), and breadth-first discovery order (`localityOrder`).
 *
 * Definition: shard i of c holds the sources at positions ≡ i (mod c) (or the blocks at block
 * positions ≡ i); the shards of one list are disjoint and together are the list, so additive kernel
 * outputs of all shards sum to one run over every source (docs/metrics.md, parallel runs).
 * Deviations: none (no metric value depends on these beyond float summation order).
 * References: packages/engine/src/pool/README.md (splitting source loops).
 */
import type { Graph } from '../graph/csr.ts';

/** The sources of shard `index` of `count`: every count-th one (strided, so costly nodes spread out). */
export function shardSources(sources: Int32Array, index: number, count: number): Int32Array {
  if (count <= 1) return sources;
  const out = new Int32Array(Math.max(0, Math.ceil((sources.length - index) / count)));
  for (let i = index, j = 0; i < sources.length; i += count, j++) out[j] = sources[i];
  return out;
}

/**
 * Shard `index` of `count` of an ordered source list in whole blocks of `block` consecutive sources,
 * blocks dealt round-robin: keeps the batches of the bit-parallel BFS (32 neighbouring sources) intact.
 */
export function shardBlocks(sources: Int32Array, index: number, count: number, block = 32): Int32Array {
  if (count <= 1) return sources;
  const parts: Int32Array[] = [];
  let len = 0;
  for (let b = index * block; b < sources.length; b += count * block) {
    const part = sources.subarray(b, Math.min(sources.length, b + block));
    parts.push(part);
    len += part.length;
  }
  const out = new Int32Array(len);
  let k = 0;
  for (const part of parts) {
    out.set(part, k);
    k += part.length;
  }
  return out;
}

/** All node indices 0..n-1 as an Int32Array (the "every source" subset). */
export function allNodes(n: number): Int32Array {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}

/**
 * Orders nodes by breadth-first discovery (out- and in-arcs, roots in index order), so that batches of
 * consecutive sources are close to each other and share frontier work in `bitBfsTargetSums`.
 */
export function localityOrder(g: Graph, nodes: Int32Array): Int32Array {
  const n = g.n;
  const want = new Uint8Array(n);
  for (const v of nodes) want[v] = 1;
  const seen = new Uint8Array(n);
  const queue = new Int32Array(n);
  const res = new Int32Array(nodes.length);
  let k = 0;
  for (const r of nodes) {
    if (seen[r]) continue;
    seen[r] = 1;
    let head = 0;
    let tail = 0;
    queue[tail++] = r;
    while (head < tail) {
      const v = queue[head++];
      if (want[v]) res[k++] = v;
      for (let p = g.outOff[v]; p < g.outOff[v + 1]; p++) {
        const w = g.outAdj[p];
        if (!seen[w]) {
          seen[w] = 1;
          queue[tail++] = w;
        }
      }
      if (g.directed) {
        for (let p = g.inOff[v]; p < g.inOff[v + 1]; p++) {
          const w = g.inAdj[p];
          if (!seen[w]) {
            seen[w] = 1;
            queue[tail++] = w;
          }
        }
      }
    }
  }
  return res;
}
