/**
 * Sharing a survey like a network (docs/spec/decisions.md §10.2): View reads it and its tracking; Edit also
 * changes, launches, downloads links and enters answers. Shares go to members of the same organization;
 * only the owner manages them.
 */
import { useState, type FormEvent } from 'react';
import { Button, ErrorNotice, Loading, Select, TextField } from '../../../components/ui.tsx';
import { Dialog } from '../../../components/dialog.tsx';
import { useToast } from '../../../components/toast.tsx';
import { useSurveyShares } from '../api/surveys.ts';
import type { Survey, SurveyShare } from '../api/types.ts';

export function ShareDialog({ survey: s, open, onClose }: { survey: Survey; open: boolean; onClose: () => void }) {
  const { list, put, remove } = useSurveyShares(s._id, open);
  const [email, setEmail] = useState('');
  const [permission, setPermission] = useState<SurveyShare['permission']>('View');
  const toast = useToast();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    put.mutate(
      { email: email.trim(), permission },
      {
        onSuccess: () => {
          toast.success(`Shared with ${email.trim()} (${permission === 'Edit' ? 'can edit' : 'can view'}).`);
          setEmail('');
        },
      },
    );
  };
  const shares = list.data?.shares ?? [];
  return (
    <Dialog open={open} title="Share this survey" onClose={onClose}>
      <div className="stack">
        <p className="muted">With members of your organization. “Can view” sees the survey and its tracking; “Can edit” also changes it, launches it, downloads the links and enters answers.</p>
        {list.isPending && <Loading />}
        <ErrorNotice error={list.error} />
        {list.data && shares.length === 0 && <p className="muted">Not shared with anyone.</p>}
        {shares.length > 0 && (
          <ul className="share-list" data-testid="survey-shares">
            {shares.map((x) => (
              <li key={x.userId}>
                <span className="share-who">
                  {x.name} <span className="muted">{x.email}</span>
                </span>
                <label className="visually-hidden" htmlFor={`sperm-${x.userId}`}>
                  Permission for {x.email}
                </label>
                <select id={`sperm-${x.userId}`} className="input input-inline" value={x.permission} onChange={(e) => put.mutate({ email: x.email, permission: e.target.value as SurveyShare['permission'] }, { onError: (err) => toast.failure(err) })}>
                  <option value="View">Can view</option>
                  <option value="Edit">Can edit</option>
                </select>
                <Button variant="ghost" aria-label={`Stop sharing with ${x.email}`} onClick={() => remove.mutate(x.userId, { onSuccess: () => toast.success(`${x.email} no longer has access.`), onError: (err) => toast.failure(err) })}>
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
        <form className="share-form" onSubmit={submit}>
          <TextField label="E-mail of a member" type="email" name="survey-share-email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          <Select label="Permission" name="survey-share-permission" value={permission} onChange={(e) => setPermission(e.target.value as SurveyShare['permission'])}>
            <option value="View">Can view</option>
            <option value="Edit">Can edit</option>
          </Select>
          <Button type="submit" busy={put.isPending}>
            Share
          </Button>
        </form>
        <ErrorNotice error={put.error} />
      </div>
    </Dialog>
  );
}
