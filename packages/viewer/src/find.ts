/**
 * nodes.find: visible nodes matching `{ attribute, equals | contains | min/max }` in model order,
 * paged (50 by default, at most 200). The cursor names the revision, the query and the offset; a
 * cursor from another query is INVALID_ARGS, from an older revision STALE_STATE. No DOM.
 */
import { LIMITS, type FindArgs, type FindResult } from '@netloom/protocol';
import type { NetworkModel } from './model.ts';
import { nodeSummary } from './model.ts';
import { CommandError } from './errors.ts';

const KEYS = new Set(['attribute', 'equals', 'contains', 'min', 'max', 'limit', 'cursor']);

function hash(s: string): string {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36);
}

export function validateFind(args: unknown): FindArgs {
  if (args === undefined) return {};
  if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new CommandError('INVALID_ARGS', 'nodes.find takes an object');
  const a = args as Record<string, unknown>;
  for (const k of Object.keys(a)) if (!KEYS.has(k)) throw new CommandError('INVALID_ARGS', `unknown argument ${k}`);
  if (a.attribute !== undefined && (typeof a.attribute !== 'string' || a.attribute === '')) throw new CommandError('INVALID_ARGS', 'attribute must be a non-empty string');
  const tests = ['equals', 'contains'].filter((k) => a[k] !== undefined).length + (a.min !== undefined || a.max !== undefined ? 1 : 0);
  if (tests > 1) throw new CommandError('INVALID_ARGS', 'give one of equals, contains or min/max');
  if (tests === 1 && a.attribute === undefined) throw new CommandError('INVALID_ARGS', 'equals, contains and min/max need an attribute');
  if (a.equals !== undefined && typeof a.equals !== 'string' && typeof a.equals !== 'number') throw new CommandError('INVALID_ARGS', 'equals must be a string or a number');
  if (a.contains !== undefined && typeof a.contains !== 'string') throw new CommandError('INVALID_ARGS', 'contains must be a string');
  for (const k of ['min', 'max']) if (a[k] !== undefined && (typeof a[k] !== 'number' || !Number.isFinite(a[k]))) throw new CommandError('INVALID_ARGS', `${k} must be a number`);
  if (a.limit !== undefined && (typeof a.limit !== 'number' || !Number.isInteger(a.limit) || a.limit < 1 || a.limit > LIMITS.findMaxLimit)) {
    throw new CommandError('INVALID_ARGS', `limit must be a whole number from 1 to ${LIMITS.findMaxLimit}`);
  }
  if (a.cursor !== undefined && typeof a.cursor !== 'string') throw new CommandError('INVALID_ARGS', 'cursor must be a string');
  return a as FindArgs;
}

export function findNodes(model: NetworkModel, hidden: Uint8Array, rawArgs: unknown, revision: number): FindResult {
  const args = validateFind(rawArgs);
  const limit = args.limit ?? LIMITS.findDefaultLimit;
  const { attribute, equals, contains, min, max } = args;
  const queryKey = hash(JSON.stringify([attribute ?? null, equals ?? null, contains ?? null, min ?? null, max ?? null]));
  let offset = 0;
  if (args.cursor !== undefined) {
    const m = /^r(\d+)\.o(\d+)\.q([0-9a-z]+)$/.exec(args.cursor);
    if (!m || m[3] !== queryKey) throw new CommandError('INVALID_ARGS', 'this cursor does not belong to this query');
    if (Number(m[1]) !== revision) throw new CommandError('STALE_STATE', 'the view changed since this cursor was made; start again without a cursor', { revision });
    offset = Number(m[2]);
  }
  const needle = contains?.toLowerCase();
  const matches: number[] = [];
  for (let i = 0; i < model.ids.length; i++) {
    if (hidden[i]) continue;
    if (attribute !== undefined) {
      const v = model.attributes[i][attribute];
      if (v === undefined) continue;
      if (equals !== undefined && !(typeof equals === 'number' ? v === equals : String(v) === equals)) continue;
      if (needle !== undefined && !String(v).toLowerCase().includes(needle)) continue;
      if (min !== undefined || max !== undefined) {
        if (typeof v !== 'number' || (min !== undefined && v < min) || (max !== undefined && v > max)) continue;
      }
    }
    matches.push(i);
  }
  const page = matches.slice(offset, offset + limit);
  const end = offset + page.length;
  return {
    nodes: page.map((i) => nodeSummary(model, i)),
    total: matches.length,
    coverage: matches.length === 0 ? 1 : end / matches.length,
    cursor: end < matches.length ? `r${revision}.o${end}.q${queryKey}` : null,
  };
}
