/** Paging of list endpoints (embedding API and the organization console). */
import { invalidArgs } from '../domain/errors.ts';

/** `limit` (1..max, default 50) and `offset` (≥ 0, default 0) of a query string (no type coercion in this app). */
export function paging(q: { limit?: string; offset?: string }, max = 500): { limit: number; offset: number } {
  const problems: { path: string; message: string }[] = [];
  const num = (v: string | undefined, def: number, min: number, maxV: number, name: string) => {
    if (v === undefined) return def;
    const n = /^[0-9]{1,9}$/.test(v) ? Number(v) : NaN;
    if (!(n >= min && n <= maxV)) problems.push({ path: `/query/${name}`, message: `must be a whole number from ${min} to ${maxV}` });
    return n;
  };
  const limit = num(q.limit, 50, 1, max, 'limit');
  const offset = num(q.offset, 0, 0, 1e9, 'offset');
  if (problems.length) throw invalidArgs(problems);
  return { limit, offset };
}
