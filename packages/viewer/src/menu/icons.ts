/**
 * The menu's icons: 16-px line drawings (24-unit grid, stroked with the text color), built as SVG
 * elements — no markup parsing.
 */
import type { MenuItem } from './items.ts';

const PATHS: Record<MenuItem | 'search' | 'close' | 'stop', string> = {
  layout: 'M5 5h4v4H5zM15 5h4v4h-4zM10 15h4v4h-4zM9 7h6M7 9l5 6M17 9l-5 6',
  open: 'M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z',
  save: 'M5 4h11l3 3v12a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1zM8 4v5h7V4M8 20v-6h8v6',
  templates: 'M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 16.5h7M16.5 13v7',
  labels: 'M4 6h16M4 12h10M4 18h13',
  layers: 'M12 3l9 5-9 5-9-5zM3 13l9 5 9-5',
  tables: 'M4 5h16v14H4zM4 10h16M4 15h16M10 5v14',
  metrics: 'M4 20V10M10 20V4M16 20v-7M22 20H2',
  groups: 'M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 13h7v7h-7z',
  color: 'M12 3a9 9 0 1 0 0 18c1.5 0 2-1 2-2s-1-1.5-1-2.5S14 15 15 15h2a4 4 0 0 0 4-4c0-4.4-4-8-9-8zM7.5 11h.01M10 7h.01M15 7.5h.01',
  size: 'M4 16a3 3 0 1 0 6 0a3 3 0 1 0-6 0M12 10a6 6 0 1 0 12 0a6 6 0 1 0-12 0',
  filter: 'M3 5h18l-7 8v6l-4 2v-8z',
  shapes: 'M4 14h6v6H4zM17 4l4 7h-8zM12 17a3 3 0 1 0 6 0a3 3 0 1 0-6 0',
  rollup: 'M6 6a2 2 0 1 0 4 0a2 2 0 1 0-4 0M14 6a2 2 0 1 0 4 0a2 2 0 1 0-4 0M9 17a3 3 0 1 0 6 0a3 3 0 1 0-6 0M8 8l3 6M16 8l-3 6',
  export: 'M12 4v11M7 10l5 5 5-5M5 19h14',
  settings: 'M12 9a3 3 0 1 0 0 6a3 3 0 1 0 0-6M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M4.9 19.1L7 17M17 7l2.1-2.1',
  search: 'M10 4a6 6 0 1 0 0 12a6 6 0 1 0 0-12M20 20l-5.5-5.5',
  close: 'M6 6l12 12M18 6L6 18',
  stop: 'M7 7h10v10H7z',
};

const NS = 'http://www.w3.org/2000/svg';

export function icon(name: keyof typeof PATHS): SVGSVGElement {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', 'nl-icon-svg');
  const path = document.createElementNS(NS, 'path');
  path.setAttribute('d', PATHS[name]);
  svg.append(path);
  return svg;
}
