/**
 * SVG of the drawing: the visible nodes (shape, color, size) and edges at their current positions,
 * labels optional, on the background color. Graph coordinates are fitted into the picture with y up
 * (as sigma draws them). Every text is escaped. No DOM.
 */
import type { Shape } from '../menu/shapes.ts';

export interface SvgNode {
  x: number;
  y: number;
  size: number;
  color: string;
  label: string;
  shape?: Shape;
}

export interface SvgEdge {
  source: number;
  target: number;
  color?: string;
  size?: number;
}

export function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string)
    // eslint-disable-next-line no-control-regex -- XML 1.0 forbids these characters: dropped
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
}

const r2 = (v: number) => Math.round(v * 100) / 100;

function shapeElement(shape: Shape | undefined, x: number, y: number, s: number, fill: string): string {
  const f = `fill="${escapeXml(fill)}"`;
  switch (shape) {
    case 'square':
      return `<rect x="${r2(x - s * 0.88)}" y="${r2(y - s * 0.88)}" width="${r2(s * 1.76)}" height="${r2(s * 1.76)}" ${f}/>`;
    case 'triangle': {
      const h = s * 1.3;
      return `<polygon points="${r2(x)},${r2(y - h)} ${r2(x + h * 0.866)},${r2(y + h / 2)} ${r2(x - h * 0.866)},${r2(y + h / 2)}" ${f}/>`;
    }
    case 'diamond': {
      const d = s * 1.25;
      return `<polygon points="${r2(x)},${r2(y - d)} ${r2(x + d)},${r2(y)} ${r2(x)},${r2(y + d)} ${r2(x - d)},${r2(y)}" ${f}/>`;
    }
    default:
      return `<circle cx="${r2(x)}" cy="${r2(y)}" r="${r2(s)}" ${f}/>`;
  }
}

/**
 * `directed`: each edge ends in an arrowhead at the target's disc (one marker per edge colour, so the
 * head has its edge's colour). `legend`: an SVG group drawn last (export/legend.ts). `guides`: the axes or
 * group names of the layout (guides.ts), drawn over the graph with the picture's own mapping; `padding`
 * is the extra room they need on each side (px).
 */
export function toSvg(opts: { nodes: SvgNode[]; edges: SvgEdge[]; width?: number; height?: number; background?: string; showEdges?: boolean; showLabels?: boolean; labelSize?: number; edgeColor?: string; directed?: boolean; legend?: (height: number) => string; guides?: (vp: (x: number, y: number) => { x: number; y: number }) => string; padding?: { left: number; right: number; top: number; bottom: number } }): string {
  const width = opts.width ?? 1000;
  const height = opts.height ?? 800;
  const pad = 40;
  const room = opts.padding ?? { left: 0, right: 0, top: 0, bottom: 0 };
  const [left, right, top, bottom] = [pad + room.left, pad + room.right, pad + room.top, pad + room.bottom];
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const n of opts.nodes) {
    minX = Math.min(minX, n.x); maxX = Math.max(maxX, n.x);
    minY = Math.min(minY, n.y); maxY = Math.max(maxY, n.y);
  }
  if (!Number.isFinite(minX)) minX = maxX = minY = maxY = 0;
  const innerW = Math.max(width - left - right, 1);
  const innerH = Math.max(height - top - bottom, 1);
  const scale = Math.min(innerW / Math.max(maxX - minX, 1e-9), innerH / Math.max(maxY - minY, 1e-9));
  const k = Number.isFinite(scale) && scale > 0 ? Math.min(scale, 1e6) : 1;
  const cx = (minX + maxX) / 2;
  const cy = (minY + maxY) / 2;
  const px = (x: number) => left + innerW / 2 + (x - cx) * k;
  const py = (y: number) => top + innerH / 2 - (y - cy) * k; // y up
  const out: string[] = [];
  out.push(`<?xml version="1.0" encoding="UTF-8"?>`);
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`);
  out.push(`<rect width="100%" height="100%" fill="${escapeXml(opts.background ?? '#ffffff')}"/>`);
  if (opts.showEdges !== false) {
    const markers = new Map<string, string>();
    const lines: string[] = [];
    for (const e of opts.edges) {
      const s = opts.nodes[e.source];
      const t = opts.nodes[e.target];
      if (!s || !t) continue;
      const color = e.color ?? opts.edgeColor ?? '#c3c8d4';
      let [x2, y2] = [px(t.x), py(t.y)];
      let marker = '';
      if (opts.directed) {
        // The line stops at the target's disc; the arrowhead (markerUnits = strokeWidth) sits there.
        const [x1, y1] = [px(s.x), py(s.y)];
        const len = Math.hypot(x2 - x1, y2 - y1);
        if (len > t.size) {
          x2 -= ((x2 - x1) / len) * t.size;
          y2 -= ((y2 - y1) / len) * t.size;
        }
        if (!markers.has(color)) markers.set(color, `nl-arrow-${markers.size}`);
        marker = ` marker-end="url(#${markers.get(color)})"`;
      }
      lines.push(`<line x1="${r2(px(s.x))}" y1="${r2(py(s.y))}" x2="${r2(x2)}" y2="${r2(y2)}" stroke="${escapeXml(color)}" stroke-width="${r2(e.size ?? 1)}"${marker}/>`);
    }
    if (markers.size) {
      out.push('<defs>');
      for (const [color, id] of markers) out.push(`<marker id="${id}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" markerUnits="strokeWidth" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="${escapeXml(color)}"/></marker>`);
      out.push('</defs>');
    }
    out.push(`<g stroke-linecap="round">`, ...lines, `</g>`);
  }
  out.push(`<g>`);
  for (const n of opts.nodes) out.push(shapeElement(n.shape, px(n.x), py(n.y), n.size, n.color));
  out.push(`</g>`);
  if (opts.showLabels !== false) {
    const size = opts.labelSize ?? 12;
    out.push(`<g font-family="system-ui, sans-serif" font-size="${size}" fill="#1f2430">`);
    for (const n of opts.nodes) if (n.label) out.push(`<text x="${r2(px(n.x) + n.size + 3)}" y="${r2(py(n.y) + size / 3)}">${escapeXml(n.label)}</text>`);
    out.push(`</g>`);
  }
  const guides = opts.guides?.((x, y) => ({ x: px(x), y: py(y) }));
  if (guides) out.push(guides);
  const legend = opts.legend?.(height);
  if (legend) out.push(legend);
  out.push(`</svg>`);
  return out.join('\n') + '\n';
}
