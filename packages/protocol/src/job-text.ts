/**
 * How a metric job's time left is said on screen — the same words in the web app's Jobs page and in the
 * viewer's Metrics panel (both show a job's `etaSeconds`), so it lives with the job's wire shape.
 */

/** "about 2 min left" from a job's `etaSeconds` (null: not known yet). */
export function etaText(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return 'estimating time left…';
  if (seconds < 5) return 'a few seconds left';
  if (seconds < 60) return `about ${Math.round(seconds / 5) * 5} s left`;
  if (seconds < 3600) return `about ${Math.round(seconds / 60)} min left`;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.round((seconds - hours * 3600) / 60);
  return `about ${hours} h${minutes ? ` ${minutes} min` : ''} left`;
}
