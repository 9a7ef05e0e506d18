/**
 * Arrangements computed in one pass (DOM-free; run in the layout worker, unit-tested in layout.test.ts):
 * the circle, the circle by attribute (one arc per group, largest group first, a gap between groups) and
 * "Plot nodes" (x and y from two attributes). Positions are graph coordinates; sigma fits them to the
 * canvas. Rules in docs/embedding.md ("Layouts").
 */

/** Radius of the circle arrangements: proportional to the node count, so the spacing stays the same. */
export function circleRadius(n: number): number {
  return Math.max(1, n) * 2;
}

/** Position k of n equally spread on the circle (the default when a network has no positions). */
export function circlePoint(k: number, n: number): [number, number] {
  const r = circleRadius(n);
  const a = (2 * Math.PI * k) / Math.max(1, n);
  return [r * Math.cos(a), r * Math.sin(a)];
}

/** Every node equally spread on a circle, in the given order. */
export function circle(n: number): Float32Array {
  const out = new Float32Array(2 * n);
  for (let k = 0; k < n; k++) [out[2 * k], out[2 * k + 1]] = circlePoint(k, n);
  return out;
}

/**
 * One arc per group around one circle: `group[i]` is node i's group index (-1: no value, placed last as a
 * group of its own). Groups follow each other by decreasing size (ties: lower index first) with a gap of
 * two node slots between them; within a group nodes keep their order.
 */
export function circleByGroups(group: Int32Array): Float32Array {
  const n = group.length;
  const members = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const g = group[i];
    let list = members.get(g);
    if (!list) members.set(g, (list = []));
    list.push(i);
  }
  const order = [...members.keys()].sort((a, b) => (a === -1 ? 1 : b === -1 ? -1 : (members.get(b)?.length ?? 0) - (members.get(a)?.length ?? 0) || a - b));
  const GAP = 2;
  const slots = n + GAP * order.length;
  const r = circleRadius(slots);
  const out = new Float32Array(2 * n);
  let slot = 0;
  for (const g of order) {
    for (const i of members.get(g) ?? []) {
      const a = (2 * Math.PI * slot++) / slots;
      out[2 * i] = r * Math.cos(a);
      out[2 * i + 1] = r * Math.sin(a);
    }
    slot += GAP;
  }
  return out;
}

/** One axis of "Plot nodes": numeric values, or categories (string values) in an order. */
export type PlotAxis =
  | { kind: 'number'; values: (number | undefined)[] }
  | { kind: 'category'; values: (string | undefined)[]; order: 'count' | 'alphabetical' };

/** Side of the square the plot fills, in graph units. */
export const PLOT_SIDE = 1000;

/** Categories of an axis in display order: by decreasing count (ties alphabetical) or alphabetically. */
export function categoryOrder(values: (string | undefined)[], order: 'count' | 'alphabetical'): string[] {
  const counts = new Map<string, number>();
  for (const v of values) if (v !== undefined) counts.set(v, (counts.get(v) ?? 0) + 1);
  const cmp = (a: string, b: string) => a.localeCompare(b, undefined, { numeric: true });
  return [...counts.keys()].sort(order === 'count' ? (a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0) || cmp(a, b) : cmp);
}

/**
 * Axis positions in [0, PLOT_SIDE]. Numbers: linear from the minimum to the maximum. Categories: one band
 * per category; nodes of a band spread evenly across its middle 60 % (so they do not sit on each other).
 * Nodes without a value go to a band before the first (at -10 % of the side).
 */
function axisPositions(axis: PlotAxis): Float32Array {
  const n = axis.values.length;
  const out = new Float32Array(n);
  const missing = -0.1 * PLOT_SIDE;
  if (axis.kind === 'number') {
    let lo = Infinity, hi = -Infinity;
    for (const v of axis.values) if (v !== undefined && Number.isFinite(v)) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    const span = hi > lo ? hi - lo : 1;
    axis.values.forEach((v, i) => {
      out[i] = v !== undefined && Number.isFinite(v) ? (hi > lo ? ((v - lo) / span) * PLOT_SIDE : PLOT_SIDE / 2) : missing;
    });
    return out;
  }
  const cats = categoryOrder(axis.values, axis.order);
  const band = new Map(cats.map((c, k) => [c, k]));
  const width = PLOT_SIDE / Math.max(1, cats.length);
  const seen = new Int32Array(cats.length + 1);
  const size = new Int32Array(cats.length + 1);
  for (const v of axis.values) size[v === undefined ? cats.length : (band.get(v) as number)]++;
  axis.values.forEach((v, i) => {
    const b = v === undefined ? cats.length : (band.get(v) as number);
    const k = seen[b]++;
    const within = size[b] > 1 ? (k / (size[b] - 1) - 0.5) * 0.6 : 0;
    out[i] = v === undefined ? missing + within * width : (b + 0.5 + within) * width;
  });
  return out;
}

/** "Plot nodes": x from one attribute, y from another (sigma draws larger y higher up). */
export function plot(x: PlotAxis, y: PlotAxis): Float32Array {
  const xs = axisPositions(x);
  const ys = axisPositions(y);
  const out = new Float32Array(2 * xs.length);
  for (let i = 0; i < xs.length; i++) {
    out[2 * i] = xs[i];
    out[2 * i + 1] = ys[i];
  }
  return out;
}

/**
 * Turns a drawing (in place, about its centre) so its long axis (principal component) lies along the
 * canvas' long side: a force-directed result has no preferred orientation, and a tall drawing on a wide
 * canvas would use half of it.
 */
export function orient(p: Float32Array, landscape: boolean): Float32Array {
  const n = p.length / 2;
  if (n < 2) return p;
  let cx = 0, cy = 0;
  for (let i = 0; i < n; i++) {
    cx += p[2 * i];
    cy += p[2 * i + 1];
  }
  cx /= n;
  cy /= n;
  let sxx = 0, syy = 0, sxy = 0;
  for (let i = 0; i < n; i++) {
    const dx = p[2 * i] - cx;
    const dy = p[2 * i + 1] - cy;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  // Angle of the principal axis; turn it onto x (landscape) or y (portrait).
  const axis = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  const turn = (landscape ? 0 : Math.PI / 2) - axis;
  const c = Math.cos(turn);
  const s = Math.sin(turn);
  for (let i = 0; i < n; i++) {
    const dx = p[2 * i] - cx;
    const dy = p[2 * i + 1] - cy;
    p[2 * i] = cx + dx * c - dy * s;
    p[2 * i + 1] = cy + dx * s + dy * c;
  }
  return p;
}

/** Graph units between two neighbouring nodes of one layer of the hierarchy. */
export const HIERARCHY_SLOT = 10;

/**
 * The hierarchical (layered, Sugiyama-style) layout for reporting lines. `edges` holds (parent, child)
 * index pairs. Our own few steps rather than a library: reporting lines are close to a forest, for which
 * the tidy-tree placement below is exact and crossing-free, and the general layered libraries (dagre,
 * elkjs) would add 60–1500 kB to the viewer for a case it does not need (docs/embedding.md, "Layouts").
 *  1. Cycles are broken by dropping the edges a depth-first search finds going back up.
 *  2. Layer of a node = its longest path from a root (a node without parent), so a parent is always at
 *     least one layer above each of its children.
 *  3. Order and x: the spanning forest (each node under its first parent in depth-first order) is laid
 *     out as a tidy tree — leaves on consecutive slots, a parent centred over its children; then within
 *     each layer nodes keep that order at least one slot apart (no two nodes overlap) and the layer is
 *     shifted back to where its nodes wanted to be on average.
 *  4. Nodes without any reporting line form the last row.
 * Layers are drawn top-down (sigma draws larger y higher up); their distance grows with the width so the
 * drawing is not a flat strip. Returns positions and the layer of every node (-1: no reporting line).
 */
export function hierarchy(n: number, edges: Uint32Array): { positions: Float32Array; layer: Int32Array } {
  const children: number[][] = Array.from({ length: n }, () => []);
  const parents: number[][] = Array.from({ length: n }, () => []);
  const seen = new Set<number>();
  for (let k = 0; k + 1 < edges.length; k += 2) {
    const p = edges[k], c = edges[k + 1];
    if (p === c || p >= n || c >= n) continue;
    const key = p * n + c;
    if (seen.has(key)) continue;
    seen.add(key);
    children[p].push(c);
  }
  // 1. Break cycles: iterative DFS (white 0, on stack 1, done 2); an edge to a node on the stack goes back up.
  const state = new Uint8Array(n);
  const kept: number[][] = Array.from({ length: n }, () => []);
  const visit = (start: number): void => {
    const stack: [number, number][] = [[start, 0]];
    state[start] = 1;
    while (stack.length) {
      const top = stack[stack.length - 1];
      const [v, k] = top;
      if (k < children[v].length) {
        top[1]++;
        const c = children[v][k];
        if (state[c] === 1) continue; // back edge: dropped
        kept[v].push(c);
        if (state[c] === 0) {
          state[c] = 1;
          stack.push([c, 0]);
        }
      } else {
        state[v] = 2;
        stack.pop();
      }
    }
  };
  const linked = new Uint8Array(n);
  for (let v = 0; v < n; v++) for (const c of children[v]) linked[v] = linked[c] = 1;
  // roots first (nodes nobody reports to... that have reports), so the search follows the lines top-down
  const hasParent = new Uint8Array(n);
  for (let v = 0; v < n; v++) for (const c of children[v]) hasParent[c] = 1;
  for (let v = 0; v < n; v++) if (linked[v] && !hasParent[v] && state[v] === 0) visit(v);
  for (let v = 0; v < n; v++) if (linked[v] && state[v] === 0) visit(v); // cycles without a root
  for (let v = 0; v < n; v++) for (const c of kept[v]) parents[c].push(v);
  // 2. Longest-path layering over the DAG (Kahn's order).
  const layer = new Int32Array(n).fill(-1);
  const indegree = new Int32Array(n);
  for (let v = 0; v < n; v++) indegree[v] = parents[v].length;
  const queue: number[] = [];
  for (let v = 0; v < n; v++) if (linked[v] && indegree[v] === 0) {
    queue.push(v);
    layer[v] = 0;
  }
  for (let q = 0; q < queue.length; q++) {
    const v = queue[q];
    for (const c of kept[v]) {
      layer[c] = Math.max(layer[c], layer[v] + 1);
      if (--indegree[c] === 0) queue.push(c);
    }
  }
  // 3. Tidy tree over the spanning forest: each node under the first parent that reached it.
  const treeChildren: number[][] = Array.from({ length: n }, () => []);
  const placed = new Uint8Array(n);
  const roots: number[] = [];
  for (const v of queue) {
    if (parents[v].length === 0) roots.push(v);
  }
  const order: number[] = [];
  const want = new Float64Array(n);
  let nextLeaf = 0;
  // post-order without recursion: leaves take the next slot, a parent sits at the middle of its children
  for (const root of roots) {
    const stack: [number, number][] = [[root, 0]];
    placed[root] = 1;
    while (stack.length) {
      const top = stack[stack.length - 1];
      const v = top[0];
      if (top[1] === 0) {
        order.push(v);
        for (const c of kept[v]) if (!placed[c]) {
          placed[c] = 1;
          treeChildren[v].push(c);
        }
      }
      if (top[1] < treeChildren[v].length) stack.push([treeChildren[v][top[1]++], 0]);
      else {
        const tc = treeChildren[v];
        want[v] = tc.length ? (want[tc[0]] + want[tc[tc.length - 1]]) / 2 : nextLeaf++;
        stack.pop();
      }
    }
  }
  // 4. The last row: nodes without a reporting line, after the deepest layer.
  let deepest = 0;
  for (let v = 0; v < n; v++) if (layer[v] > deepest) deepest = layer[v];
  const rows = new Map<number, number[]>();
  const rowOf = (v: number) => (layer[v] < 0 ? deepest + 1 : layer[v]);
  for (const v of order) {
    const r = rowOf(v);
    let list = rows.get(r);
    if (!list) rows.set(r, (list = []));
    list.push(v);
  }
  const loose: number[] = [];
  for (let v = 0; v < n; v++) if (layer[v] < 0) loose.push(v);
  if (loose.length) rows.set(deepest + 1, loose.map((v, k) => ((want[v] = k), v)));
  const x = new Float64Array(n);
  let widest = 1;
  for (const list of rows.values()) {
    list.sort((a, b) => want[a] - want[b]);
    let prev = -Infinity;
    let shift = 0;
    for (const v of list) {
      x[v] = Math.max(want[v], prev + 1);
      prev = x[v];
      shift += x[v] - want[v];
    }
    shift /= list.length;
    for (const v of list) x[v] -= shift;
    widest = Math.max(widest, x[list[list.length - 1]] - x[list[0]] + 1);
  }
  const rowCount = rows.size;
  const rowGap = Math.min(12, Math.max(2, (0.6 * widest) / Math.max(1, rowCount - 1)));
  const positions = new Float32Array(2 * n);
  for (const [r, list] of rows) for (const v of list) {
    positions[2 * v] = x[v] * HIERARCHY_SLOT;
    positions[2 * v + 1] = -r * rowGap * HIERARCHY_SLOT;
  }
  return { positions, layer };
}

/** An axis of "Plot nodes" as drawn: ticks (numbers) or category headers, at positions in graph units. */
export interface AxisGuide {
  title: string;
  kind: 'number' | 'category';
  /** Tick marks or category centres: the text and where it sits along the axis (graph units). */
  ticks: { text: string; at: number }[];
  /** Category bands' borders (graph units), for light separators. */
  borders: number[];
}

/** Round tick values (1, 2, 5 × 10^k) covering [lo, hi], about `count` of them. */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!(hi > lo)) return Number.isFinite(lo) ? [lo] : [];
  const raw = (hi - lo) / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : Number(v.toPrecision(12)));
  return out;
}

function tickText(v: number): string {
  return Math.abs(v) >= 1e5 || (v !== 0 && Math.abs(v) < 1e-3) ? v.toExponential(1) : String(Number(v.toPrecision(4)));
}

/** What to draw along one axis of "Plot nodes" (the same mapping as the positions, axisPositions above). */
export function axisGuide(title: string, axis: PlotAxis): AxisGuide {
  const missing = axis.values.some((v) => v === undefined || (typeof v === 'number' && !Number.isFinite(v)));
  if (axis.kind === 'number') {
    let lo = Infinity, hi = -Infinity;
    for (const v of axis.values) if (v !== undefined && Number.isFinite(v)) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    const ticks = lo > hi ? [] : hi > lo
      ? niceTicks(lo, hi).map((v) => ({ text: tickText(v), at: ((v - lo) / (hi - lo)) * PLOT_SIDE }))
      : [{ text: tickText(lo), at: PLOT_SIDE / 2 }];
    if (missing) ticks.unshift({ text: 'no value', at: -0.1 * PLOT_SIDE });
    return { title, kind: 'number', ticks, borders: [] };
  }
  const cats = categoryOrder(axis.values, axis.order);
  const width = PLOT_SIDE / Math.max(1, cats.length);
  const ticks = cats.map((c, k) => ({ text: c, at: (k + 0.5) * width }));
  if (missing) ticks.unshift({ text: 'no value', at: -0.1 * PLOT_SIDE });
  return { title, kind: 'category', ticks, borders: cats.length > 1 ? cats.slice(1).map((_, k) => (k + 1) * width) : [] };
}

/** Where "Circle by attribute" puts each group's label: the middle of its arc (same order as circleByGroups). */
export function circleGroupGuides(group: Int32Array, names: string[], labels: readonly string[] = []): { text: string; count: number; x: number; y: number; angle: number; longest: string }[] {
  const n = group.length;
  const counts = new Map<number, number>();
  const longest = new Map<number, string>();
  for (let i = 0; i < n; i++) {
    counts.set(group[i], (counts.get(group[i]) ?? 0) + 1);
    const l = labels[i] ?? '';
    if (l.length > (longest.get(group[i]) ?? '').length) longest.set(group[i], l);
  }
  const order = [...counts.keys()].sort((a, b) => (a === -1 ? 1 : b === -1 ? -1 : (counts.get(b) ?? 0) - (counts.get(a) ?? 0) || a - b));
  const GAP = 2;
  const slots = n + GAP * order.length;
  const r = circleRadius(slots);
  let slot = 0;
  return order.map((g) => {
    const c = counts.get(g) ?? 0;
    const mid = slot + (c - 1) / 2;
    slot += c + GAP;
    const a = (2 * Math.PI * mid) / slots;
    return { text: g === -1 ? 'no value' : names[g] ?? String(g), count: c, x: r * Math.cos(a), y: r * Math.sin(a), angle: a, longest: longest.get(g) ?? '' };
  });
}
