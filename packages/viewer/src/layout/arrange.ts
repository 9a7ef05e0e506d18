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
