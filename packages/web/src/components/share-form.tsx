/**
 * Sharing by e-mail with View or Edit, alike for networks and surveys (docs/spec/decisions.md §10.2): the
 * form that adds a share and the permission picker of each listed share. What happened is said by the
 * share mutations themselves (api/shares.ts, api/outcomes.ts).
 */
import { useState, type FormEvent } from 'react';
import type { SharePermission } from '../api/types.ts';
import { Button, ErrorNotice, Select, TextField } from './ui.tsx';

function PermissionOptions() {
  return (
    <>
      <option value="View">Can view</option>
      <option value="Edit">Can edit</option>
    </>
  );
}

/** The permission of one listed share; changing it shares again with the new permission. */
export function PermissionPicker({ id, email, value, onChange }: { id: string; email: string; value: SharePermission; onChange: (p: SharePermission) => void }) {
  return (
    <>
      <label className="visually-hidden" htmlFor={id}>Permission for {email}</label>
      <select id={id} className="input input-inline" value={value} onChange={(e) => onChange(e.target.value as SharePermission)}>
        <PermissionOptions />
      </select>
    </>
  );
}

/** Adds a share: the e-mail and the permission; `share` is called with both, and `sent` empties the e-mail once it worked. */
export function ShareForm({ emailLabel, name, busy, error, share }: {
  emailLabel: string;
  /** The form fields' names: `<name>-email`, `<name>-permission`. */
  name: string;
  busy: boolean;
  error: unknown;
  share: (s: { email: string; permission: SharePermission }, sent: () => void) => void;
}) {
  const [email, setEmail] = useState('');
  const [permission, setPermission] = useState<SharePermission>('View');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    share({ email: email.trim(), permission }, () => setEmail(''));
  };
  return (
    <>
      <form className="share-form" onSubmit={submit}>
        <TextField label={emailLabel} type="email" name={`${name}-email`} required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Select label="Permission" name={`${name}-permission`} value={permission} onChange={(e) => setPermission(e.target.value as SharePermission)}>
          <PermissionOptions />
        </Select>
        <Button type="submit" busy={busy}>Share</Button>
      </form>
      <ErrorNotice error={error} />
    </>
  );
}
