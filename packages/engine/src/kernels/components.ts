/**
 * Weakly connected components, labelled by rank: component 0 is the largest, ties broken by the
 * smallest node index in the component (i.e. by order of first appearance in the input).
 * The graph is one or two CSR row sets (successors and predecessors for directed graphs).
 */
export function rankedComponents(
  n: number,
  offA: Int32Array,
  adjA: Int32Array,
  offB: Int32Array | null,
  adjB: Int32Array | null,
): { comp: Int32Array; count: number; sizes: Int32Array } {
  const comp = new Int32Array(n).fill(-1);
  const queue = new Int32Array(n);
  const sizesByFirst: number[] = [];
  let count = 0;
  for (let s = 0; s < n; s++) {
    if (comp[s] !== -1) continue;
    let head = 0;
    let tail = 0;
    queue[tail++] = s;
    comp[s] = count;
    while (head < tail) {
      const u = queue[head++];
      for (let p = offA[u], e = offA[u + 1]; p < e; p++) {
        const v = adjA[p];
        if (comp[v] === -1) {
          comp[v] = count;
          queue[tail++] = v;
        }
      }
      if (offB && adjB) {
        for (let p = offB[u], e = offB[u + 1]; p < e; p++) {
          const v = adjB[p];
          if (comp[v] === -1) {
            comp[v] = count;
            queue[tail++] = v;
          }
        }
      }
    }
    sizesByFirst.push(tail);
    count++;
  }
  // rank: size desc, then first-appearance order (stable)
  const order = Array.from({ length: count }, (_, i) => i);
  order.sort((a, b) => sizesByFirst[b] - sizesByFirst[a] || a - b);
  const rankOf = new Int32Array(count);
  const sizes = new Int32Array(count);
  for (let r = 0; r < count; r++) {
    rankOf[order[r]] = r;
    sizes[r] = sizesByFirst[order[r]];
  }
  for (let v = 0; v < n; v++) comp[v] = rankOf[comp[v]];
  return { comp, count, sizes };
}
