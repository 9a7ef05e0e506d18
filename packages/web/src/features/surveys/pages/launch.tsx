/**
 * Launch and distribution (docs/spec/decisions.md §10.2 life cycle, §10.3 distribution): a check list
 * before the launch (questions present, respondents present, links or e-mail ready), the status controls
 * (launch, pause, resume, close — a completed survey does not reopen: copy it or start a new wave), the
 * open link, and the respondents' links: download as CSV or Excel, re-issue or revoke one person's link.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { APP_PATHS, pathTo } from '@netloom/protocol/http';
import { Button, CopyButton, ErrorNotice, Loading, num } from '../../../components/ui.tsx';
import { Confirm, ConfirmAction } from '../../../components/dialog.tsx';
import { RowActions, TableHead } from '../../../components/data-table.tsx';
import { linksFileUrl, useChangeLink, useCopySurvey, useEmployees, useLinks, useMoveSurvey, useSetOpenLink } from '../api/surveys.ts';
import type { Survey, SurveyLink, SurveyStatus } from '../api/types.ts';
import { selects } from '../components/preview.tsx';
import { STATUS_LABEL } from '../components/status.tsx';

const RESPONSE_LABEL: Record<SurveyLink['status'], string> = { notStarted: 'Not started', inProgress: 'In progress', submitted: 'Submitted' };

export function LaunchStep({ survey: s }: { survey: Survey }) {
  const update = useMoveSurvey(s);
  const copy = useCopySurvey();
  const navigate = useNavigate();
  const [confirm, setConfirm] = useState<SurveyStatus | null>(null);
  const canEdit = s.access !== 'view';
  const move = (status: SurveyStatus) => update.mutateAsync({ status }).catch(() => undefined);
  const copyAs = (wave: boolean) => copy.mutate({ id: s._id, ...(wave ? { wave: true } : {}) }, { onSuccess: (c) => navigate(pathTo(APP_PATHS.survey, { id: c._id })) });

  return (
    <div className="stack-lg">
      {s.status === 'draft' && <Checklist survey={s} onLaunch={() => setConfirm('collecting')} busy={update.isPending} canEdit={canEdit} />}
      <ErrorNotice error={update.error} title="The status did not change" />
      {s.status !== 'draft' && (
        <section className="card stack" aria-labelledby="status-h">
          <h2 id="status-h">Status: {STATUS_LABEL[s.status]}</h2>
          <p className="muted">
            {s.status === 'collecting' && 'Respondents can answer. Pause it to stop answers for a while, or close it when you are done.'}
            {s.status === 'offline' && 'Paused: links show that the survey is not open. Resume to accept answers again.'}
            {s.status === 'completed' && 'Closed for good: answers are kept, links no longer work. To ask again, copy it or start a new wave.'}
          </p>
          <div className="row wrap">
            {canEdit && s.status === 'collecting' && (
              <Button onClick={() => void move('offline')} busy={update.isPending && update.variables?.status === 'offline'}>
                Pause (take offline)
              </Button>
            )}
            {canEdit && s.status === 'offline' && (
              <Button variant="primary" onClick={() => void move('collecting')} busy={update.isPending && update.variables?.status === 'collecting'}>
                Resume collecting
              </Button>
            )}
            {canEdit && s.status !== 'completed' && (
              <Button variant="danger" onClick={() => setConfirm('completed')}>
                Close survey
              </Button>
            )}
            <Button onClick={() => copyAs(false)} busy={copy.isPending && !copy.variables?.wave}>
              Copy
            </Button>
            <Button onClick={() => copyAs(true)} busy={copy.isPending && copy.variables?.wave === true}>
              New wave
            </Button>
          </div>
          {s.launchedAt && (
            <p className="muted">
              Launched {new Date(s.launchedAt).toLocaleString()}
              {s.closedAt ? `, closed ${new Date(s.closedAt).toLocaleString()}` : ''}. Question version {s.version}.
            </p>
          )}
        </section>
      )}
      {s.status !== 'draft' && canEdit && <Links survey={s} />}
      {canEdit && s.status !== 'completed' && <OpenLink survey={s} />}
      <Confirm
        open={confirm === 'collecting'}
        title="Launch this survey?"
        confirmLabel="Launch"
        onClose={() => setConfirm(null)}
        onConfirm={() => move('collecting').then(() => setConfirm(null))}
      >
        <p>Every respondent gets a personal link{s.email.enabled ? ', and the launch message is e-mailed to everyone with an e-mail address' : ''}. After the launch, changes to the questions create a new version and privacy can only become stricter.</p>
      </Confirm>
      <Confirm open={confirm === 'completed'} title="Close this survey?" confirmLabel="Close survey" onClose={() => setConfirm(null)} onConfirm={() => move('completed').then(() => setConfirm(null))}>
        <p>No more answers are accepted and links stop working. A closed survey cannot reopen: to ask again, copy it or start a new wave.</p>
      </Confirm>
    </div>
  );
}

function Checklist({ survey: s, onLaunch, busy, canEdit }: { survey: Survey; onLaunch: () => void; busy: boolean; canEdit: boolean }) {
  const everyone = useEmployees('', 500);
  const people = everyone.data?.employees ?? [];
  const partial = (everyone.data?.total ?? 0) > people.length;
  const roster = people.filter((e) => selects(s.roster, e));
  const asked = s.respondents === null ? roster : people.filter((e) => selects(s.respondents as NonNullable<Survey['respondents']>, e));
  const withMail = asked.filter((e) => e.email).length;
  const hasRel = s.questions.some((q) => q.type === 'relationship');
  const untitled = s.questions.filter((q) => !q.text.trim()).length;
  const items: { ok: boolean; label: string; detail: string; where?: string }[] = [
    { ok: s.questions.length > 0 && untitled === 0, label: 'Questions', detail: s.questions.length === 0 ? 'No question yet.' : untitled ? `${untitled} question(s) without text.` : `${s.questions.length} question(s), ${s.questions.filter((q) => q.type === 'relationship').length} about relationships.`, where: APP_PATHS.survey },
    { ok: asked.length > 0, label: 'Respondents', detail: asked.length === 0 ? 'Nobody would be asked.' : `${partial ? 'at least ' : ''}${num(asked.length)} people are asked.`, where: APP_PATHS.surveyRespondents },
    { ok: !hasRel || roster.length > 0, label: 'Roster', detail: hasRel ? (roster.length ? `${partial ? 'at least ' : ''}${num(roster.length)} people can be named.` : 'Nobody can be named.') : 'No relationship question: no roster needed.', where: APP_PATHS.surveyRespondents },
    s.email.enabled
      ? { ok: true, label: 'E-mail ready', detail: `The launch message goes to ${num(withMail)} of them with an e-mail address; everyone's link can also be downloaded.` }
      : { ok: true, label: 'Links ready (e-mail is off)', detail: 'No SMTP server is configured, so nothing is e-mailed. After the launch, download the links as CSV or Excel and send them through any channel.' },
  ];
  const ready = items.every((i) => i.ok) && !everyone.isPending;
  return (
    <section className="card stack" aria-labelledby="check-h">
      <h2 id="check-h">Before the launch</h2>
      {everyone.isPending ? (
        <Loading />
      ) : (
        <ul className="checklist" data-testid="launch-checklist">
          {items.map((i) => (
            <li key={i.label} className={i.ok ? 'check-ok' : 'check-missing'} data-ok={i.ok}>
              <span className="check-mark" aria-hidden="true">
                {i.ok ? '✓' : '!'}
              </span>
              <span>
                <strong>{i.label}</strong>
                <span className="visually-hidden">{i.ok ? ' (ready)' : ' (missing)'}</span>: {i.detail}
              </span>
            </li>
          ))}
        </ul>
      )}
      {canEdit && (
        <div className="row wrap">
          <Button variant="primary" onClick={onLaunch} disabled={!ready} busy={busy}>
            Launch survey
          </Button>
          {!ready && !everyone.isPending && <span className="muted">Complete the list first.</span>}
        </div>
      )}
    </section>
  );
}

function Links({ survey: s }: { survey: Survey }) {
  const { data, isPending, error } = useLinks(s._id, true);
  const change = useChangeLink(s._id);
  const [q, setQ] = useState('');
  const [confirm, setConfirm] = useState<{ link: SurveyLink; action: 'reissue' | 'revoke' } | null>(null);
  const links = data?.links ?? [];
  const words = q.trim().toLowerCase();
  const shown = words ? links.filter((l) => `${l.name} ${l.email ?? ''} ${l.employeeId}`.toLowerCase().includes(words)) : links;
  return (
    <section className="card stack" aria-labelledby="links-h">
      <div className="card-header">
        <h2 id="links-h">Respondents' links</h2>
        <span className="row wrap">
          <a className="btn btn-secondary" href={linksFileUrl(s._id, 'csv')} download data-testid="links-csv">
            Download CSV
          </a>
          <a className="btn btn-secondary" href={linksFileUrl(s._id, 'xlsx')} download data-testid="links-xlsx">
            Download Excel
          </a>
        </span>
      </div>
      <p className="muted">
        {s.email.enabled ? 'Links are e-mailed by the service; download them to send them another way too.' : 'E-mail is off on this service: download the links (name, e-mail, employee id, link) and send each person their own.'} Each link is personal: it opens only that person's answers.
      </p>
      {isPending && <Loading />}
      <ErrorNotice error={error} />
      {links.length > 0 && (
        <>
          <div className="field narrow-field">
            <label htmlFor="links-q">Find a respondent</label>
            <input id="links-q" type="search" className="input" value={q} onChange={(e) => setQ(e.target.value)} autoComplete="off" />
          </div>
          <table className="table table-responsive" data-testid="links-table">
            <TableHead columns={['Name', 'Employee id', 'Response', 'Link']} actions />
            <tbody>
              {shown.slice(0, 200).map((l) => (
                <tr key={l.employeeId}>
                  <td data-label="Name">
                    {l.name}
                    {l.email && <div className="muted">{l.email}</div>}
                  </td>
                  <td data-label="Employee id">{l.employeeId}</td>
                  <td data-label="Response">{RESPONSE_LABEL[l.status]}</td>
                  <td data-label="Link">{l.link ? <CopyButton text={l.link} label={`Copy link`} /> : <span className="muted">revoked</span>}</td>
                  <RowActions
                    actions={[
                      { label: 'New link', ariaLabel: `New link for ${l.name}`, onClick: () => setConfirm({ link: l, action: 'reissue' }) },
                      { label: 'Revoke', ariaLabel: `Revoke the link of ${l.name}`, show: !!l.link, onClick: () => setConfirm({ link: l, action: 'revoke' }) },
                    ]}
                  />
                </tr>
              ))}
            </tbody>
          </table>
          {shown.length > 200 && <p className="muted">The first 200 of {num(shown.length)} are shown: search to find someone, or download the whole list.</p>}
        </>
      )}
      <ConfirmAction
        item={confirm}
        title={confirm?.action === 'revoke' ? 'Revoke this link?' : 'Give a new link?'}
        confirmLabel={confirm?.action === 'revoke' ? 'Revoke link' : 'Give a new link'}
        onClose={() => setConfirm(null)}
        run={(c) => change.mutateAsync(c)}
      >
        <p>
          {confirm?.action === 'revoke' ? `${confirm.link.name}'s link stops working; their answers are kept. You can give them a new link later.` : `${confirm?.link.name}'s current link stops working; the new one opens the same answers. Send it to them.`}
        </p>
      </ConfirmAction>
    </section>
  );
}

function OpenLink({ survey: s }: { survey: Survey }) {
  const update = useSetOpenLink(s._id);
  return (
    <section className="card stack" aria-labelledby="open-h">
      <h2 id="open-h">Open link (shared terminal)</h2>
      <p className="muted">One link for everyone: a respondent types their employee id and reaches their own page. Useful on a shared computer or a kiosk.</p>
      {s.openLink.enabled && s.openLink.url && (
        <div className="token-row">
          <code className="token">{s.openLink.url}</code>
          <CopyButton text={s.openLink.url} />
        </div>
      )}
      <div className="row">
        <Button onClick={() => update.mutate({ openLink: !s.openLink.enabled })} busy={update.isPending}>
          {s.openLink.enabled ? 'Turn the open link off' : 'Turn the open link on'}
        </Button>
      </div>
      <ErrorNotice error={update.error} />
    </section>
  );
}
