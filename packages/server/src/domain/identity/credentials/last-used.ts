/**
 * A credential's `lastUsedAt`: written at most once a minute per credential and process (conditional
 * UPDATE, deduplicated in-process, also on cache hits), so it is exact to the minute. That column is the
 * one credential change that does not move the authentication epoch.
 */
import type { Kysely } from 'kysely';
import { touchCredential } from '../../../store/credentials.ts';
import type { Database } from '../../../store/schema.ts';

const TOUCH_INTERVAL_MS = 60_000;
const lastTouched = new Map<string, number>();

/** True when `lastUsedAt` of the credential is due to be written (and marks it written). */
export function touchDue(id: string, storedLastUsedAt: string | null): boolean {
  const now = Date.now();
  let seen = lastTouched.get(id);
  if (seen === undefined) {
    seen = storedLastUsedAt ? Date.parse(storedLastUsedAt) : 0;
    lastTouched.set(id, seen);
  }
  if (now - seen < TOUCH_INTERVAL_MS) return false;
  if (lastTouched.size > 100_000) lastTouched.clear();
  lastTouched.set(id, now);
  return true;
}

/** Writes `lastUsedAt` (after touchDue said so); never fails the request. */
export async function touch(db: Kysely<Database>, id: string): Promise<void> {
  const now = lastTouched.get(id) ?? Date.now();
  try {
    await touchCredential(db, id, new Date(now).toISOString(), new Date(now - TOUCH_INTERVAL_MS).toISOString());
  } catch {
    // Bookkeeping only: never fail a request because lastUsedAt could not be written (e.g. busy database).
  }
}
