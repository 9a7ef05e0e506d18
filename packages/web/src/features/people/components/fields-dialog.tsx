/**
 * The custom fields editor: the directory's own columns (team, office, tenure, …). Add a field (label,
 * key, type, the options of a category, `sensitive`), rename it, change a category's options or its
 * sensitivity, delete it (its values go from every person; the answer says from how many). A field's
 * key and type never change (imports and surveys refer to the key). What `sensitive` means is said where
 * it is set (docs/spec/decisions.md §10.1).
 */
import { useId, useState, type FormEvent } from 'react';
import { ConfirmAction, Dialog } from '../../../components/dialog.tsx';
import { Badge, Button, ErrorNotice, Select, TextArea, TextField } from '../../../components/ui.tsx';
import { useCreateField, useDeleteField, useUpdateField } from '../api/people.ts';
import type { CustomField, FieldType } from '../api/types.ts';

const TYPES: { id: FieldType; label: string }[] = [
  { id: 'text', label: 'Text' },
  { id: 'category', label: 'Category (a fixed list of values)' },
  { id: 'number', label: 'Number' },
  { id: 'date', label: 'Date' },
];
const typeLabel = (t: FieldType) => TYPES.find((x) => x.id === t)?.label.split(' (')[0] ?? t;

/** A key from a label: letters, digits, `_` and `-`, at most 64. */
export function keyOf(label: string): string {
  return label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
}

const optionsOf = (text: string) => [...new Set(text.split(/[\n,]/).map((s) => s.trim()).filter(Boolean))];

export const SENSITIVE_TEXT =
  'A sensitive field (e.g. gender, age, health) is never shown to respondents — not on roster cards, not in the roster search — is never reported for a group smaller than the survey’s minimum group size, and is left out of networks made from surveys unless you ask for it.';

/** The `sensitive` checkbox: the full explanation where a field is added, a short one on each existing field. */
function SensitiveCheck({ checked, onChange, short }: { checked: boolean; onChange: (v: boolean) => void; short?: boolean }) {
  const id = useId();
  return (
    <div className="check-with-hint">
      <label className="check">
        <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} aria-describedby={id} />
        <span>Sensitive</span>
      </label>
      <p className="field-hint" id={id}>{short ? 'Never shown to respondents; never reported for a group below the minimum size.' : SENSITIVE_TEXT}</p>
    </div>
  );
}

export function FieldsDialog({ open, fields, onClose }: { open: boolean; fields: CustomField[]; onClose: () => void }) {
  const [deleting, setDeleting] = useState<CustomField | null>(null);
  const remove = useDeleteField();
  return (
    <>
      <Dialog open={open && deleting === null} title="Custom fields" onClose={onClose} wide footer={<Button variant="primary" onClick={onClose}>Done</Button>}>
        <div className="stack-lg">
          <p className="muted">Your own columns for people: they appear in the list, in the import template, in survey respondent filters and in tracking groups.</p>
          {fields.length > 0 && (
            <ul className="field-list" data-testid="field-list">
              {fields.map((f) => (
                <FieldRow key={`${f._id}:${f.modified}`} field={f} onDelete={() => setDeleting(f)} />
              ))}
            </ul>
          )}
          <NewField />
        </div>
      </Dialog>
      <ConfirmAction
        item={deleting}
        title={`Delete the field “${deleting?.label ?? ''}”?`}
        confirmLabel="Delete field"
        onClose={() => setDeleting(null)}
        run={(f) => remove.mutateAsync(f)}
      >
        <p>The field and its value for every person are removed. Surveys that filter respondents by it or store answers into it stop doing so.</p>
      </ConfirmAction>
    </>
  );
}

function FieldRow({ field, onDelete }: { field: CustomField; onDelete: () => void }) {
  const [label, setLabel] = useState(field.label);
  const [options, setOptions] = useState((field.options ?? []).join('\n'));
  const [sensitive, setSensitive] = useState(field.sensitive);
  const update = useUpdateField();
  const changed = label !== field.label || sensitive !== field.sensitive || (field.type === 'category' && options !== (field.options ?? []).join('\n'));
  const save = (e: FormEvent) => {
    e.preventDefault();
    update.mutate(
      { id: field._id, body: { label: label.trim(), sensitive, ...(field.type === 'category' ? { options: optionsOf(options) } : {}) } },
    );
  };
  return (
    <li className="field-item">
      <form className="stack" onSubmit={save} aria-label={`Field ${field.label}`}>
        <div className="field-item-head">
          <code>{field.key}</code>
          <Badge>{typeLabel(field.type)}</Badge>
          {field.sensitive && <Badge tone="private">sensitive</Badge>}
        </div>
        <TextField label="Label" value={label} onChange={(e) => setLabel(e.target.value)} />
        {field.type === 'category' && <TextArea label="Values" hint="One per line (or separated by commas)." rows={3} value={options} onChange={(e) => setOptions(e.target.value)} />}
        <SensitiveCheck checked={sensitive} onChange={setSensitive} short />
        <ErrorNotice error={update.error} title="Not saved" />
        <div className="row wrap">
          <Button type="submit" disabled={!changed} busy={update.isPending}>Save changes</Button>
          <Button variant="danger" onClick={onDelete} aria-label={`Delete the field ${field.label}`}>Delete</Button>
        </div>
      </form>
    </li>
  );
}

function NewField() {
  const [label, setLabel] = useState('');
  const [key, setKey] = useState('');
  const [keyTouched, setKeyTouched] = useState(false);
  const [type, setType] = useState<FieldType>('text');
  const [options, setOptions] = useState('');
  const [sensitive, setSensitive] = useState(false);
  const create = useCreateField();
  const effectiveKey = keyTouched ? key : keyOf(label);
  const problems = (create.error as { errors?: { path?: string; message: string }[] } | null)?.errors ?? [];
  const at = (p: string) => problems.find((x) => x.path === p)?.message;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(
      { key: effectiveKey, label: label.trim(), type, sensitive, ...(type === 'category' ? { options: optionsOf(options) } : {}) },
      {
        onSuccess: () => {
          setLabel('');
          setKey('');
          setKeyTouched(false);
          setType('text');
          setOptions('');
          setSensitive(false);
        },
      },
    );
  };
  return (
    <form className="card stack" onSubmit={submit} aria-labelledby="new-field-title" data-testid="new-field">
      <h3 id="new-field-title">Add a field</h3>
      <div className="grid-2">
        <TextField label="Label" required value={label} onChange={(e) => setLabel(e.target.value)} error={at('/label')} />
        <TextField label="Key" hint="Column name in imports; cannot change later." value={effectiveKey} onChange={(e) => { setKeyTouched(true); setKey(e.target.value); }} error={at('/key')} />
        <Select label="Type" value={type} onChange={(e) => setType(e.target.value as FieldType)} hint="Cannot change later." error={at('/type')}>
          {TYPES.map((t) => <option key={t.id} value={t.id}>{t.label}</option>)}
        </Select>
        {type === 'category' && <TextArea label="Values" hint="One per line (or separated by commas)." rows={3} value={options} onChange={(e) => setOptions(e.target.value)} error={at('/options')} />}
      </div>
      <SensitiveCheck checked={sensitive} onChange={setSensitive} />
      <ErrorNotice error={problems.some((p) => p.path && ['/label', '/key', '/type', '/options'].includes(p.path)) ? null : create.error} title="Not added" />
      <div className="row">
        <Button type="submit" variant="primary" disabled={!label.trim() || !effectiveKey} busy={create.isPending}>Add field</Button>
      </div>
    </form>
  );
}
