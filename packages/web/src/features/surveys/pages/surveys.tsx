/**
 * `/surveys`: the surveys of your directory you own or that are shared with you (docs/spec/decisions.md
 * §10.2): name, status, responses (submitted of asked, with the rate), last change; create, copy, delete.
 */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { APP_PATHS, pathTo } from '@netloom/protocol/http';
import { Button, DateText, Empty, ErrorNotice, Loading, PageHeader, TextField, num } from '../../../components/ui.tsx';
import { ConfirmAction, Dialog } from '../../../components/dialog.tsx';
import { RowActions, TableHead } from '../../../components/data-table.tsx';
import { useCopySurvey, useCreateSurvey, useDeleteSurvey, useSurveys, useTrackings } from '../api/surveys.ts';
import type { Survey } from '../api/types.ts';
import { StatusBadge, pct } from '../components/status.tsx';
import '../surveys.css';

export default function SurveysPage() {
  const { data, isPending, error } = useSurveys();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Survey | null>(null);
  const copy = useCopySurvey();
  const del = useDeleteSurvey();
  const navigate = useNavigate();
  const surveys = data?.surveys ?? [];
  // Responses per launched survey: its tracking answer (drafts have nobody asked yet).
  const tracking = useTrackings(surveys);
  const create = <Button variant="primary" onClick={() => setCreating(true)}>New survey</Button>;

  return (
    <>
      <PageHeader title="Surveys" subtitle="Collect a network from the people of your organization.">
        {create}
      </PageHeader>
      {isPending && <Loading />}
      <ErrorNotice error={error} />
      {data && surveys.length === 0 && (
        <Empty title="No surveys yet" action={create}>
          <p>
            A relationship survey asks people who they work with — “Who do you go to for advice?” — and turns their answers into a network. Each person you ask gets a personal link, answers one question per screen on any device, and
            every answer is saved as it is given. You follow the response rate here and generate networks from the answers.
          </p>
          <p>People come from the People directory: add or import them first.</p>
        </Empty>
      )}
      {surveys.length > 0 && (
        <table className="table table-responsive" data-testid="surveys-table">
          <TableHead columns={['Name', 'Status', 'Responses', 'Last modified']} actions />
          <tbody>
            {surveys.map((s, i) => {
              const t = tracking[i]?.data;
              return (
                <tr key={s._id} data-survey={s._id}>
                  <td data-label="Name">
                    <Link to={pathTo(APP_PATHS.survey, { id: s._id })} className="strong">
                      {s.name}
                    </Link>
                    <div className="muted">
                      {s.questions.length} {s.questions.length === 1 ? 'question' : 'questions'}
                      {s.wave > 1 ? ` · wave ${s.wave}` : ''}
                      {s.access !== 'owner' ? ` · ${s.owner.name}'s, ${s.access === 'edit' ? 'you can edit' : 'you can view'}` : ''}
                    </div>
                  </td>
                  <td data-label="Status">
                    <StatusBadge status={s.status} />
                  </td>
                  <td data-label="Responses" data-testid="survey-responses">
                    {s.status === 'draft' ? <span className="muted">not launched</span> : t ? `${num(t.submitted)} of ${num(t.respondents)} (${pct(t.rate)})` : '…'}
                  </td>
                  <td data-label="Last modified">
                    <DateText iso={s.modified} />
                  </td>
                  <RowActions
                    actions={[
                      { label: 'Copy', ariaLabel: `Copy ${s.name}`, busy: copy.isPending && copy.variables?.id === s._id, onClick: () => copy.mutate({ id: s._id }) },
                      { label: 'Delete', ariaLabel: `Delete ${s.name}`, show: s.access === 'owner', onClick: () => setDeleting(s) },
                    ]}
                  />
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <CreateDialog open={creating} onClose={() => setCreating(false)} onCreated={(s) => navigate(pathTo(APP_PATHS.survey, { id: s._id }))} />
      <ConfirmAction
        item={deleting}
        title="Delete this survey?"
        confirmLabel="Delete survey"
        onClose={() => setDeleting(null)}
        run={(s) => del.mutateAsync(s)}
      >
        <p>
          <strong>{deleting?.name}</strong> will be deleted with every answer and link: respondents' links stop working. Networks already generated from it stay. This cannot be undone.
        </p>
      </ConfirmAction>
    </>
  );
}

function CreateDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (s: Survey) => void }) {
  const [name, setName] = useState('');
  const create = useCreateSurvey();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(
      { name: name.trim(), questions: [] },
      {
        onSuccess: (s) => {
          setName('');
          onClose();
          onCreated(s);
        },
      },
    );
  };
  return (
    <Dialog
      open={open}
      title="New survey"
      onClose={() => {
        create.reset();
        onClose();
      }}
    >
      <form className="stack" onSubmit={submit}>
        <TextField label="Name" name="survey-name" required value={name} onChange={(e) => setName(e.target.value)} hint="For you and your colleagues; respondents never see it." />
        <ErrorNotice error={create.error} />
        <div className="dialog-actions-end">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={create.isPending} disabled={!name.trim()}>
            Create and build
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
