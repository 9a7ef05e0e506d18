/**
 * Credential scopes (docs/spec/decisions.md §2, docs/spec/api.md Authentication 4–5): the scope list,
 * parsing a requested list, and the scope a request needs.
 */
import { DomainError } from '../../errors.ts';

export const SCOPE_RESOURCES = ['networks', 'metrics', 'employees', 'customFields', 'responses', 'surveys'] as const;
export type ScopeResource = (typeof SCOPE_RESOURCES)[number];
export const SCOPES = [
  ...SCOPE_RESOURCES.flatMap((r) => [`${r}:read`, `${r}:write`] as const),
  'embed:manage',
] as readonly string[];
export type Scope = string;
/** Full API access: read and write on every resource plus `embed:manage` (docs/spec/api.md Authentication 5). */
export const FULL_ACCESS: readonly string[] = Object.freeze([...SCOPES]);

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && SCOPES.includes(value);
}

/**
 * Parses a scope list: an array of scope strings or a comma/space separated string. `undefined`, `"full"`
 * or `"*"` mean full access. Duplicates are dropped; the result is in canonical order. Every unknown
 * scope is reported (INVALID_ARGS); an empty list is refused (a credential must be able to do something).
 */
export function parseScopes(input: string | readonly string[] | undefined | null): string[] {
  if (input === undefined || input === null) return [...FULL_ACCESS];
  const items = (typeof input === 'string' ? input.split(/[\s,]+/) : [...input]).map((s) => (typeof s === 'string' ? s.trim() : s));
  const list = items.filter((s) => s !== '');
  if (list.length === 1 && (list[0] === 'full' || list[0] === '*')) return [...FULL_ACCESS];
  const unknown = list.filter((s) => !isScope(s));
  if (unknown.length) {
    throw new DomainError(
      'INVALID_ARGS',
      `unknown scope${unknown.length > 1 ? 's' : ''} ${unknown.map((s) => JSON.stringify(s)).join(', ')}; valid: ${SCOPES.join(', ')}`,
      unknown.map((s) => ({ path: `/scopes/${list.indexOf(s)}`, message: `unknown scope ${JSON.stringify(s)}` })),
    );
  }
  if (list.length === 0) throw new DomainError('INVALID_ARGS', 'scopes: at least one scope is required');
  const set = new Set(list);
  return SCOPES.filter((s) => set.has(s));
}

/** The scope a request needs (docs/spec/api.md Authentication 4): GET/HEAD read, anything else write. */
export function requiredScope(resource: ScopeResource, method: string): string {
  const m = method.toUpperCase();
  return `${resource}:${m === 'GET' || m === 'HEAD' ? 'read' : 'write'}`;
}
