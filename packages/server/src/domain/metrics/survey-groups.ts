/**
 * The minimum group size of a survey network (docs/spec/decisions.md §11: "every report honours the
 * minimum group size of the survey behind the network; a sensitive field never defines a group smaller
 * than it"). A network generated from a survey (domain/surveys/generate.ts, table survey_networks)
 * carries the survey's `minGroupSize` as a floor: the group report (API, viewer, jobs) and compare never
 * merge groups below it, whatever the request asks — a request's larger value still applies. The
 * survey's own default is 5 (at least 3), so a group report of a survey network defaults to it.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.ts';
import { surveyOfNetwork } from '../../store/surveys.ts';

/** The survey's minimum group size for a network generated from it, or null (not a survey network). */
export async function surveyGroupFloor(db: Kysely<Database>, networkId: string): Promise<number | null> {
  return (await surveyOfNetwork(db, networkId))?.min_group_size ?? null;
}

/** `params` with `minGroupSize` raised to the floor when it is a group report's (the key is present) and below it. */
export function withGroupFloor(params: Record<string, unknown>, floor: number | null): Record<string, unknown> {
  if (floor === null || !('minGroupSize' in params)) return params;
  const k = typeof params.minGroupSize === 'number' ? params.minGroupSize : 1;
  return k >= floor ? params : { ...params, minGroupSize: floor };
}
