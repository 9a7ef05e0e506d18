/**
 * Add or edit a person: employee id, name, e-mail, manager (an employee id), photo URL, status (when
 * editing) and one input per custom field by its type. Saving sends the whole person (an edit replaces:
 * an emptied value is cleared). The server's problems land next to the field they name (`/email`,
 * `/fields/team`), and any other in the notice above the buttons.
 */
import { useState, type FormEvent } from 'react';
import { ApiError, type ProblemItem } from '../../../api/client.ts';
import { Dialog } from '../../../components/dialog.tsx';
import { Button, ErrorNotice, Select, TextField } from '../../../components/ui.tsx';
import { useSavePerson } from '../api/people.ts';
import type { CustomField, Employee, EmployeeInput } from '../api/types.ts';

interface Draft {
  employeeId: string;
  name: string;
  email: string;
  managerId: string;
  photoUrl: string;
  status: 'active' | 'left';
  fields: Record<string, string>;
}

function draftOf(p: Employee | null): Draft {
  return {
    employeeId: p?.employeeId ?? '',
    name: p?.name ?? '',
    email: p?.email ?? '',
    managerId: p?.managerId ?? '',
    photoUrl: p?.photoUrl ?? '',
    status: p?.status ?? 'active',
    fields: Object.fromEntries(Object.entries(p?.fields ?? {}).map(([k, v]) => [k, String(v)])),
  };
}

function bodyOf(d: Draft, fields: CustomField[], editing: boolean): EmployeeInput {
  const values: Record<string, string | number | null> = {};
  for (const f of fields) {
    const v = (d.fields[f.key] ?? '').trim();
    values[f.key] = v === '' ? null : f.type === 'number' && Number.isFinite(Number(v)) ? Number(v) : v;
  }
  return {
    employeeId: d.employeeId.trim(),
    name: d.name.trim(),
    email: d.email.trim() || null,
    managerId: d.managerId.trim() || null,
    photoUrl: d.photoUrl.trim() || null,
    fields: values,
    ...(editing ? { status: d.status } : {}),
  };
}

/** The server's problems by JSON pointer (`/email`, `/fields/team`); the rest stay for the notice. */
function problemsByPath(err: unknown): { at: Map<string, string>; rest: ProblemItem[] } {
  const at = new Map<string, string>();
  const rest: ProblemItem[] = [];
  if (!(err instanceof ApiError)) return { at, rest };
  for (const p of err.errors) {
    if (p.path && !at.has(p.path)) at.set(p.path, p.message);
    else rest.push(p);
  }
  return { at, rest };
}

export function PersonDialog({ open, person, fields, onClose }: { open: boolean; person: Employee | null; fields: CustomField[]; onClose: () => void }) {
  const [d, setD] = useState<Draft>(() => draftOf(person));
  const save = useSavePerson();
  const editing = person !== null;
  const { at } = problemsByPath(save.error);
  const known = new Set(['/employeeId', '/name', '/email', '/managerId', '/photoUrl', '/status', ...fields.map((f) => `/fields/${f.key}`)]);
  const unplaced = save.error instanceof ApiError ? save.error.errors.filter((p) => !p.path || !known.has(p.path)) : [];
  const close = () => {
    save.reset();
    setD(draftOf(person));
    onClose();
  };
  const set = (k: keyof Omit<Draft, 'fields'>, v: string) => setD((x) => ({ ...x, [k]: v }));
  const setField = (k: string, v: string) => setD((x) => ({ ...x, fields: { ...x.fields, [k]: v } }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(
      { id: person?._id ?? null, body: bodyOf(d, fields, editing) },
      {
        onSuccess: () => {
          save.reset();
          if (!editing) setD(draftOf(null));
          onClose();
        },
      },
    );
  };
  const showNotice = save.error && (!(save.error instanceof ApiError) || save.error.errors.length === 0 || unplaced.length > 0);
  return (
    <Dialog open={open} title={editing ? `Edit ${person.name}` : 'Add a person'} onClose={close} wide>
      <form className="stack" onSubmit={submit} noValidate data-testid="person-form">
        <div className="grid-2">
          <TextField label="Name" name="name" required autoComplete="off" value={d.name} onChange={(e) => set('name', e.target.value)} error={at.get('/name')} />
          <TextField label="Employee id" name="employeeId" required autoComplete="off" hint="Your HR id; unique in the directory." value={d.employeeId} onChange={(e) => set('employeeId', e.target.value)} error={at.get('/employeeId')} />
          <TextField label="E-mail" name="email" type="email" autoComplete="off" hint="Survey invitations go here." value={d.email} onChange={(e) => set('email', e.target.value)} error={at.get('/email')} />
          <TextField label="Manager’s employee id" name="managerId" autoComplete="off" value={d.managerId} onChange={(e) => set('managerId', e.target.value)} error={at.get('/managerId')} />
          <TextField label="Photo URL" name="photoUrl" type="url" autoComplete="off" hint="Shown on roster cards (http or https)." value={d.photoUrl} onChange={(e) => set('photoUrl', e.target.value)} error={at.get('/photoUrl')} />
          {editing && (
            <Select label="Status" name="status" value={d.status} onChange={(e) => set('status', e.target.value)} hint="People who left keep their answers but get no new surveys." error={at.get('/status')}>
              <option value="active">Active</option>
              <option value="left">Left</option>
            </Select>
          )}
        </div>
        {fields.length > 0 && (
          <fieldset className="fieldset">
            <legend>Custom fields</legend>
            <div className="grid-2">
              {fields.map((f) => (
                <FieldInput key={f._id} field={f} value={d.fields[f.key] ?? ''} onChange={(v) => setField(f.key, v)} error={at.get(`/fields/${f.key}`)} />
              ))}
            </div>
          </fieldset>
        )}
        {showNotice && <ErrorNotice error={unplaced.length > 0 ? { errors: unplaced } : save.error} title={editing ? 'Not saved' : 'Not added'} />}
        <div className="dialog-actions-end">
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="primary" busy={save.isPending}>{editing ? 'Save' : 'Add person'}</Button>
        </div>
      </form>
    </Dialog>
  );
}

function FieldInput({ field, value, onChange, error }: { field: CustomField; value: string; onChange: (v: string) => void; error?: string }) {
  const hint = field.sensitive ? 'Sensitive: never shown to respondents.' : undefined;
  if (field.type === 'category') {
    return (
      <Select label={field.label} name={`field-${field.key}`} value={value} onChange={(e) => onChange(e.target.value)} hint={hint} error={error}>
        <option value="">—</option>
        {(field.options ?? []).map((o) => <option key={o} value={o}>{o}</option>)}
        {value && !(field.options ?? []).includes(value) && <option value={value}>{value}</option>}
      </Select>
    );
  }
  const type = field.type === 'number' ? 'number' : field.type === 'date' ? 'date' : 'text';
  return <TextField label={field.label} name={`field-${field.key}`} type={type} inputMode={field.type === 'number' ? 'decimal' : undefined} step={field.type === 'number' ? 'any' : undefined} value={value} onChange={(e) => onChange(e.target.value)} hint={hint} error={error} />;
}
