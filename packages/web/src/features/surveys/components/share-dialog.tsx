/**
 * Sharing a survey like a network (docs/spec/decisions.md §10.2): View reads it and its tracking; Edit also
 * changes, launches, downloads links and enters answers. Shares go to members of the same organization;
 * only the owner manages them.
 */
import { Button, ErrorNotice, Loading } from '../../../components/ui.tsx';
import { Dialog } from '../../../components/dialog.tsx';
import { PermissionPicker, ShareForm } from '../../../components/share-form.tsx';
import { useSurveyShares } from '../api/surveys.ts';
import type { Survey } from '../api/types.ts';

export function ShareDialog({ survey: s, open, onClose }: { survey: Survey; open: boolean; onClose: () => void }) {
  const { list, add, change, remove } = useSurveyShares(s._id, open);
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
                <PermissionPicker id={`sperm-${x.userId}`} email={x.email} value={x.permission} onChange={(permission) => change.mutate({ email: x.email, permission })} />
                <Button variant="ghost" aria-label={`Stop sharing with ${x.email}`} onClick={() => remove.mutate(x)}>
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
        <ShareForm emailLabel="E-mail of a member" name="survey-share" busy={add.isPending} error={add.error} share={(x, sent) => add.mutate(x, { onSuccess: sent })} />
      </div>
    </Dialog>
  );
}
