/**
 * Roster (who can be named) and respondents (who is asked) of a survey (docs/spec/decisions.md §9):
 * a selector `{ all: true }` (every active person) | `{ employeeIds: [...] }` | `{ field, values: [...] }`
 * (active people whose custom field holds one of the values). Respondents default to the roster. Before
 * launch they are evaluated live; at launch the roster is fixed (`roster_ids`) and respondent rows made.
 */
import type { ProblemItem } from '../errors.ts';
import type { CustomField } from '../people/fields.ts';
import type { EmployeeRecord } from '../../store/people.ts';

export type Selector = { all: true } | { employeeIds: string[] } | { field: string; values: (string | number)[] };

export function checkSelector(raw: unknown, at: string, fields: ReadonlyMap<string, CustomField>, problems: ProblemItem[]): Selector | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.push({ path: at, message: 'must be { all: true } | { employeeIds: [...] } | { field, values: [...] }' });
    return null;
  }
  const o = raw as Record<string, unknown>;
  const keys = Object.keys(o).sort().join(',');
  if (keys === 'all') {
    if (o.all !== true) problems.push({ path: `${at}/all`, message: 'must be true' });
    return o.all === true ? { all: true } : null;
  }
  if (keys === 'employeeIds') {
    const ids = o.employeeIds;
    if (!Array.isArray(ids) || ids.length > 200_000 || ids.some((e) => typeof e !== 'string' || e === '' || e.length > 128)) {
      problems.push({ path: `${at}/employeeIds`, message: 'must be an array of employeeIds (Strings)' });
      return null;
    }
    return { employeeIds: [...new Set(ids as string[])] };
  }
  if (keys === 'field,values') {
    const f = typeof o.field === 'string' ? fields.get(o.field) : undefined;
    if (!f) problems.push({ path: `${at}/field`, message: 'must be the key of a custom field of this directory' });
    const values = o.values;
    if (!Array.isArray(values) || values.length === 0 || values.some((v) => typeof v !== 'string' && typeof v !== 'number')) {
      problems.push({ path: `${at}/values`, message: 'must be a non-empty array of Strings or Numbers' });
      return null;
    }
    return f ? { field: f.key, values: values as (string | number)[] } : null;
  }
  problems.push({ path: at, message: 'must be { all: true } | { employeeIds: [...] } | { field, values: [...] }' });
  return null;
}

/** The people a selector picks (active people only, except a list names whom it names if they are active). */
export function select(selector: Selector, people: readonly EmployeeRecord[]): EmployeeRecord[] {
  const active = people.filter((p) => p.status === 'active');
  if ('all' in selector) return active;
  if ('employeeIds' in selector) {
    const want = new Set(selector.employeeIds);
    return active.filter((p) => want.has(p.employee_id));
  }
  const values = new Set(selector.values.map(String));
  return active.filter((p) => {
    const v = (JSON.parse(p.fields) as Record<string, unknown>)[selector.field];
    return v !== undefined && values.has(String(v));
  });
}
