/**
 * The People page's data: the directory's people and custom fields through the web app's session
 * endpoints (`/app/api/employees`, `/app/api/customFields`: the public API's operations on the web surface,
 * docs/web-app.md "People and surveys"). Wire types are `Static<>` of the contract schemas (./types.ts); every call goes
 * through the one client (api/client.ts: CSRF header, problems as ApiError); mutations invalidate what
 * they change.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { reported, type Outcome } from '../../../api/outcomes.ts';
import { num } from '../../../components/ui.tsx';
import type { CustomField, CustomFieldChange, CustomFieldDeleted, CustomFieldInput, CustomFieldList, Employee, EmployeeErased, EmployeeInput, EmployeeList, ImportResult } from './types.ts';

const BASE = '/app/api';
export const TEMPLATE_URL = { xlsx: `${BASE}/employees/template?format=xlsx`, csv: `${BASE}/employees/template?format=csv` } as const;

export const peopleKeys = {
  all: ['people'] as const,
  list: (q: string, offset: number, limit: number) => ['people', 'list', q, offset, limit] as const,
  fields: ['people', 'fields'] as const,
};

/** One page of the directory: `q` over name, e-mail and employee id. The previous page stays shown while the next loads. */
export function usePeople(q: string, offset: number, limit: number) {
  return useQuery({
    queryKey: peopleKeys.list(q, offset, limit),
    queryFn: ({ signal }) => api.get<EmployeeList>(`${BASE}/employees?${new URLSearchParams({ ...(q ? { q } : {}), offset: String(offset), limit: String(limit) })}`, signal),
    placeholderData: keepPreviousData,
  });
}

export function useCustomFields() {
  return useQuery({ queryKey: peopleKeys.fields, queryFn: ({ signal }) => api.get<CustomFieldList>(`${BASE}/customFields`, signal) });
}

/** Everything of the directory is read again after a change (a field's deletion changes people too); the outcome's toasts: api/outcomes.ts. */
function useDirectoryMutation<V, R>(fn: (v: V) => Promise<R>, outcome: Outcome<R, V>) {
  const qc = useQueryClient();
  return useMutation(reported({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: peopleKeys.all }), ...outcome }));
}

/** Adds a person (no id) or replaces one (the whole person: what is left out is cleared). */
export function useSavePerson() {
  return useDirectoryMutation(
    ({ id, body }: { id: string | null; body: EmployeeInput }) => (id === null ? api.post<Employee>(`${BASE}/employees`, body) : api.put<Employee>(`${BASE}/employees/${encodeURIComponent(id)}`, body)),
    { success: (p, { id }) => (id === null ? `Added ${p.name}.` : `Saved ${p.name}.`) },
  );
}

/** Erases a person, their answers and every nomination of them; the answer counts what went (the page shows it). */
export function useErasePerson() {
  return useDirectoryMutation((id: string) => api.del<EmployeeErased>(`${BASE}/employees/${encodeURIComponent(id)}`), { failure: 'Could not erase' });
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The content type the import takes for a chosen file (by its name: browsers disagree on CSV's type). */
export function importType(name: string): string {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  return ext === 'xlsx' || ext === 'xlsm' ? XLSX_TYPE : ext === 'csv' || ext === 'txt' ? 'text/csv' : 'application/octet-stream';
}

/** Imports people from an Excel or CSV file; `dryRun` checks and counts only. A file with problems stores nothing (400, every problem listed). */
export function useImportPeople() {
  const qc = useQueryClient();
  return useMutation(reported({
    mutationFn: ({ file, mode, dryRun }: { file: File; mode: 'merge' | 'replace'; dryRun: boolean }) =>
      api.sendFile<ImportResult>(`${BASE}/employees/import?${new URLSearchParams({ mode, dryRun: String(dryRun) })}`, new Blob([file], { type: importType(file.name) })),
    onSuccess: (r) => (r.dryRun ? undefined : qc.invalidateQueries({ queryKey: peopleKeys.all })),
    // a check (dry run) is shown in the dialog
    success: (r) => (r.dryRun ? null : `Imported ${num(r.rows)} ${r.rows === 1 ? 'row' : 'rows'}: ${num(r.created)} added, ${num(r.updated)} updated${r.left ? `, ${num(r.left)} marked as left` : ''}.`),
  }));
}

export function useCreateField() {
  return useDirectoryMutation((body: CustomFieldInput) => api.post<CustomField>(`${BASE}/customFields`, body), { success: (f) => `Added the field “${f.label}”.` });
}

export function useUpdateField() {
  return useDirectoryMutation(({ id, body }: { id: string; body: CustomFieldChange }) => api.put<CustomField>(`${BASE}/customFields/${encodeURIComponent(id)}`, body), { success: (f) => `Saved “${f.label}”.` });
}

export function useDeleteField() {
  return useDirectoryMutation((f: CustomField) => api.del<CustomFieldDeleted>(`${BASE}/customFields/${encodeURIComponent(f._id)}`), {
    success: (r, f) => `Deleted “${f.label}”: its value was removed from ${r.valuesRemoved} ${r.valuesRemoved === 1 ? 'person' : 'people'}.`,
    failure: 'Could not delete the field',
  });
}
