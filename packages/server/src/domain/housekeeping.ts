/**
 * Housekeeping of the database's short-lived rows (docs/operations.md "Housekeeping"): without Redis the
 * embedding state lives in the database (store/embed-ephemeral.ts), and nothing else deletes what has
 * expired — launch and access tokens (`embed_tokens`), per-session leases (`embed_locks`) and the
 * fixed-window counters of rate limits and sign-in throttling (`rate_limits`). Every instance runs a
 * pass at start and then every `NETLOOM_HOUSEKEEPING_MS` (deletes are idempotent, so several instances
 * on one database do not disturb each other). Only rows that can no longer decide anything are deleted:
 * a token or lease past its expiry, a counter whose window has ended.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import { pruneTokens } from '../store/embed-sessions.ts';
import { pruneLocks } from '../store/embed-ephemeral.ts';
import { pruneWindows } from '../store/rate-limits.ts';

export interface HousekeepingCounts {
  tokens: number;
  locks: number;
  windows: number;
}

/**
 * One pass at `now` (ms). `windowMs` is the longest rate-limit window in use: a counter whose window
 * started before `now - windowMs` has ended (the next hit restarts it at 1), so deleting it changes nothing.
 */
export async function pruneExpired(db: Kysely<Database>, now: number, windowMs: number): Promise<HousekeepingCounts> {
  const nowIso = new Date(now).toISOString();
  const [tokens, locks, windows] = await Promise.all([pruneTokens(db, nowIso), pruneLocks(db, nowIso), pruneWindows(db, now - windowMs)]);
  return { tokens, locks, windows };
}

export interface Housekeeping {
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
}

export function startHousekeeping(
  db: Kysely<Database>,
  opts: { intervalMs: number; windowMs: number; now: () => number; log: { debug(obj: object, msg: string): void; warn(obj: object, msg: string): void } },
): Housekeeping {
  let running: Promise<void> | null = null;
  let stopped = false;
  const pass = () => {
    if (running || stopped) return;
    running = pruneExpired(db, opts.now(), opts.windowMs)
      .then((counts) => opts.log.debug(counts, 'housekeeping: expired rows deleted'))
      .catch((err: unknown) => opts.log.warn({ err: { message: err instanceof Error ? err.message : String(err) } }, 'housekeeping failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(pass, opts.intervalMs);
  timer.unref();
  setImmediate(pass);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
