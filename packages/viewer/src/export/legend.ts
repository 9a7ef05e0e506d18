/**
 * The legend as it goes into a picture export (PNG and SVG; the Export panel's "Include the legend",
 * on by default): the same rows as the on-screen legend (display.ts) — node colours, tie colours and
 * thickness, filters and what they leave shown — as a list of rows, drawn by `drawLegend` on a canvas
 * or by `svgLegend` as SVG. No DOM (the canvas is passed in).
 */
import type { Display } from '../layers.ts';
import { formatNumber } from '../format.ts';
import { escapeXml } from './svg.ts';

export type LegendRow = { kind: 'title'; text: string } | { kind: 'swatch'; text: string; color: string; line?: boolean } | { kind: 'text'; text: string };

export function legendRows(display: Display, counts: { nodes: number; edges: number }): LegendRow[] {
  const rows: LegendRow[] = [];
  if (display.legend) {
    rows.push({ kind: 'title', text: display.legend.attribute });
    for (const e of display.legend.entries) rows.push({ kind: 'swatch', text: e.label, color: e.color });
  }
  if (display.edgeLegend) {
    rows.push({ kind: 'title', text: `Ties: ${display.edgeLegend.attribute}` });
    for (const e of display.edgeLegend.entries) rows.push({ kind: 'swatch', text: e.label, color: e.color, line: true });
  }
  if (display.edgeSizeLegend) {
    const s = display.edgeSizeLegend;
    rows.push({ kind: 'title', text: `Tie thickness: ${s.attribute}` }, { kind: 'text', text: `thin ${formatNumber(s.min)} → thick ${formatNumber(s.max)}` });
  }
  if (display.filters.length) {
    rows.push({ kind: 'title', text: 'Filters' });
    for (const f of display.filters) rows.push({ kind: 'text', text: f });
    rows.push({ kind: 'text', text: `${display.visibleCount} of ${counts.nodes} nodes, ${display.visibleEdgeCount} of ${counts.edges} edges shown` });
  }
  return rows;
}

const ROW = 18;
const PAD = 10;
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

/** Size of the legend box at scale 1 (px), text measured by `measure`. */
function boxSize(rows: LegendRow[], measure: (text: string, bold: boolean) => number): { width: number; height: number } {
  let width = 0;
  for (const r of rows) width = Math.max(width, measure(r.text, r.kind === 'title') + (r.kind === 'swatch' ? 22 : 0));
  return { width: Math.ceil(width) + 2 * PAD, height: rows.length * ROW + 2 * PAD - 4 };
}

/** Draws the legend in the bottom-left corner of a canvas; `scale` as the picture's. */
export function drawLegend(g: CanvasRenderingContext2D, rows: LegendRow[], canvas: { width: number; height: number }, scale: number): void {
  if (rows.length === 0) return;
  g.save();
  g.scale(scale, scale);
  const measure = (t: string, bold: boolean) => {
    g.font = `${bold ? 600 : 400} ${bold ? 11 : 12}px ${FONT}`;
    return g.measureText(bold ? t.toUpperCase() : t).width;
  };
  const { width, height } = boxSize(rows, measure);
  const x0 = 12;
  const y0 = canvas.height / scale - height - 12;
  g.fillStyle = 'rgba(255, 255, 255, 0.96)';
  g.strokeStyle = '#e4e7ec';
  g.lineWidth = 1;
  g.beginPath();
  g.roundRect(x0, y0, width, height, 8);
  g.fill();
  g.stroke();
  rows.forEach((r, k) => {
    const y = y0 + PAD + k * ROW + 12;
    let x = x0 + PAD;
    if (r.kind === 'swatch') {
      g.fillStyle = r.color;
      g.beginPath();
      if (r.line) g.rect(x, y - 6, 16, 4);
      else g.arc(x + 5, y - 4, 5, 0, 2 * Math.PI);
      g.fill();
      x += 22;
    }
    g.fillStyle = r.kind === 'title' ? '#667085' : '#1f2430';
    g.font = `${r.kind === 'title' ? 600 : 400} ${r.kind === 'title' ? 11 : 12}px ${FONT}`;
    g.fillText(r.kind === 'title' ? r.text.toUpperCase() : r.text, x, y);
  });
  g.restore();
}

/** The legend as an SVG group in the bottom-left corner (text width estimated: 0.6 em per character). */
export function svgLegend(rows: LegendRow[], height: number): string {
  if (rows.length === 0) return '';
  const { width, height: h } = boxSize(rows, (t, bold) => t.length * (bold ? 11 : 12) * 0.6);
  const x0 = 12;
  const y0 = height - h - 12;
  const out = [`<g class="legend" font-family="system-ui, sans-serif">`, `<rect x="${x0}" y="${y0}" width="${width}" height="${h}" rx="8" fill="#ffffff" fill-opacity="0.96" stroke="#e4e7ec"/>`];
  rows.forEach((r, k) => {
    const y = y0 + PAD + k * ROW + 12;
    let x = x0 + PAD;
    if (r.kind === 'swatch') {
      out.push(r.line ? `<rect x="${x}" y="${y - 6}" width="16" height="4" rx="2" fill="${escapeXml(r.color)}"/>` : `<circle cx="${x + 5}" cy="${y - 4}" r="5" fill="${escapeXml(r.color)}"/>`);
      x += 22;
    }
    out.push(r.kind === 'title'
      ? `<text x="${x}" y="${y}" font-size="11" font-weight="600" fill="#667085">${escapeXml(r.text.toUpperCase())}</text>`
      : `<text x="${x}" y="${y}" font-size="12" fill="#1f2430">${escapeXml(r.text)}</text>`);
  });
  out.push('</g>');
  return out.join('\n');
}
