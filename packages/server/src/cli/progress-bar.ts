/**
 * A one-line progress bar with ETA for long CLI runs (`netloom metrics run`), drawn on standard error
 * only when it is a terminal: piped or redirected output gets nothing extra (docs/jobs.md). Redraws at
 * most every 100 ms; `done()` clears the line.
 */
export interface ProgressBar {
  update(done: number, total: number): void;
  done(): void;
}

export function formatSeconds(s: number): string {
  if (!Number.isFinite(s)) return '?';
  if (s < 60) return `${Math.round(s)} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
  return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
}

/** The bar's text for a fraction done and the seconds elapsed (exported for tests). */
export function barLine(label: string, fraction: number, elapsedSec: number, width = 30): string {
  const f = Math.min(1, Math.max(0, fraction));
  const filled = Math.round(f * width);
  const eta = f > 0.001 ? formatSeconds((elapsedSec * (1 - f)) / f) : '?';
  return `${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(f * 100).toFixed(1).padStart(5)}%  ETA ${eta}`;
}

export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr): ProgressBar | null {
  if (!stream.isTTY) return null;
  const started = performance.now();
  let last = 0;
  let drawn = false;
  return {
    update(done, total) {
      const now = performance.now();
      if (total <= 0 || (now - last < 100 && done < total)) return;
      last = now;
      drawn = true;
      stream.write(`\r${barLine(label, done / total, (now - started) / 1000)}\x1b[K`);
    },
    done() {
      if (drawn) stream.write('\r\x1b[K');
    },
  };
}
