/** Test graphs generated from a seed (small: speed belongs in bench/). */

export type Net = { nodes: { id: string | number; attributes?: Record<string, string | number> }[]; edges: { id: string | number; source: string | number; target: string | number; attributes?: Record<string, string | number> }[] };

export function mulberry32(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
/** A Barabási–Albert-like network (preferential attachment, m edges per new node). */
export function baNetwork(n: number, m: number, seed = 7): Net {
  const r = mulberry32(seed);
  const nodes = Array.from({ length: n }, (_, i) => ({ id: `n${i}` }));
  const edges: Net['edges'] = [];
  const ends: number[] = [];
  for (let v = 1; v < n; v++) {
    const k = Math.min(m, v);
    const chosen = new Set<number>();
    while (chosen.size < k) chosen.add(ends.length && r() < 0.8 ? ends[Math.floor(r() * ends.length)] : Math.floor(r() * v));
    for (const u of chosen) {
      edges.push({ id: edges.length, source: `n${v}`, target: `n${u}` });
      ends.push(u, v);
    }
  }
  return { nodes, edges };
}


/** Two teams of 6 (each a clique) joined by one bridge edge, plus a score. */
export function teamNetwork() {
  const nodes = Array.from({ length: 12 }, (_, i) => ({ id: `n${i}`, attributes: { name: i === 5 ? 'Bridget' : `P${i}`, team: i < 6 ? 'Sales' : 'Eng', score: i } }));
  const edges: { id: number; source: string; target: string }[] = [];
  for (const base of [0, 6]) for (let a = 0; a < 6; a++) for (let b = a + 1; b < 6; b++) edges.push({ id: edges.length, source: `n${base + a}`, target: `n${base + b}` });
  edges.push({ id: edges.length, source: 'n5', target: 'n6' });
  return { nodes, edges };
}
