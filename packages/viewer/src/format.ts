/**
 * How numbers are shown on screen (details card, tables): whole numbers as they are, others rounded to
 * 4 significant digits (a metric's 0.31415926535897931 reads 0.3142). Data exports (CSV, XLSX, GEXF,
 * GraphML, JSON) keep full precision; only the display rounds. No DOM.
 */
export const DISPLAY_SIGNIFICANT_DIGITS = 4;

export function formatNumber(v: number): string {
  if (!Number.isFinite(v) || Number.isInteger(v)) return String(v);
  return String(Number(v.toPrecision(DISPLAY_SIGNIFICANT_DIGITS)));
}

export function formatValue(v: unknown): string {
  return typeof v === 'number' ? formatNumber(v) : String(v);
}
