/**
 * Tracking (docs/spec/decisions.md §10.3): the response rate with its confidence band (≥ 80 % high,
 * 65–79 % directional, < 65 % low), the same per group of each non-sensitive field (small groups merged
 * by the server), who has not started (never named in pseudonymised surveys), e-mails and reminders sent;
 * the responses, an owner's entry on someone's behalf (the respondent page's own question components;
 * audited by the server) and the erasure of someone's answers.
 */
import { useMemo, useState } from 'react';
import { Button, DateText, ErrorNotice, Loading, Notice, Stat, num } from '../../../components/ui.tsx';
import { ConfirmAction, Dialog } from '../../../components/dialog.tsx';
import { RowActions, TableHead } from '../../../components/data-table.tsx';
import { QuestionBody } from '../../../respondent/question.tsx';
import '../../../respondent/respondent.css';
import { useCustomFields, useDeliveries, useEmployees, useEnterResponse, useEraseResponse, useLinks, useResponses, useTracking } from '../api/surveys.ts';
import type { Survey, SurveyResponse, Tracking } from '../api/types.ts';
import { BAND_TEXT, BandBadge, pct } from '../components/status.tsx';
import { offered, respondentQuestion, rosterPeople } from '../components/preview.tsx';

const STATUS_TEXT: Record<SurveyResponse['status'], string> = { notStarted: 'Not started', inProgress: 'In progress', submitted: 'Submitted' };
const PAGE = 50;

export function TrackingStep({ survey: s }: { survey: Survey }) {
  const live = s.status === 'collecting';
  const t = useTracking(s._id, live);
  if (t.isPending) return <Loading />;
  if (t.error) return <ErrorNotice error={t.error} />;
  return (
    <div className="stack-lg">
      <Overview t={t.data} />
      <Groups t={t.data} />
      <NotStarted survey={s} t={t.data} />
      <Mail survey={s} t={t.data} />
      <Responses survey={s} />
    </div>
  );
}

function Overview({ t }: { t: Tracking }) {
  return (
    <section aria-labelledby="rate-h" className="stack">
      <h2 id="rate-h" className="visually-hidden">
        Response rate
      </h2>
      <div className="stats tracking-stats" data-testid="tracking-counts">
        <Stat label="Response rate" valueTestId="tracking-rate" after={<BandBadge band={t.band} />}>{pct(t.rate)}</Stat>
        <Stat label="Submitted" testId="count-submitted">{num(t.submitted)}</Stat>
        <Stat label="In progress" testId="count-inProgress">{num(t.inProgress)}</Stat>
        <Stat label="Not started" testId="count-notStarted">{num(t.notStarted)}</Stat>
        <Stat label="Asked" testId="count-respondents">{num(t.respondents)}</Stat>
      </div>
      <div className="rate-bar" aria-hidden="true">
        <div className="rate-bar-submitted" style={{ width: `${t.respondents ? (t.submitted / t.respondents) * 100 : 0}%` }} />
        <div className="rate-bar-progress" style={{ width: `${t.respondents ? (t.inProgress / t.respondents) * 100 : 0}%` }} />
        <span className="rate-bar-mark rate-bar-65" />
        <span className="rate-bar-mark rate-bar-80" />
      </div>
      <p className="muted">
        {BAND_TEXT[t.band]} The rate counts submitted answers; people in progress have saved some answers (each answer to a relationship question already counts for the network).
      </p>
    </section>
  );
}

function Groups({ t }: { t: Tracking }) {
  if (t.groups.length === 0) return null;
  return (
    <section className="card stack" aria-labelledby="groups-h">
      <h2 id="groups-h">By group</h2>
      <p className="muted">Per non-sensitive field. Groups of fewer than {t.minGroupSize} respondents are merged into “Other”, or left out when that is still too small.</p>
      <div className="groups">
        {t.groups.map((g) => (
          <div key={g.field} className="group-table">
            <table className="table">
              <caption className="group-caption">{g.label}</caption>
              <thead>
                <tr>
                  <th scope="col">{g.label}</th>
                  <th scope="col" className="num">Asked</th>
                  <th scope="col" className="num">Submitted</th>
                  <th scope="col" className="num">Rate</th>
                  <th scope="col">Confidence</th>
                </tr>
              </thead>
              <tbody>
                {g.groups.map((r) => (
                  <tr key={r.value}>
                    <th scope="row">{r.value}</th>
                    <td className="num">{num(r.respondents)}</td>
                    <td className="num">{num(r.submitted)}</td>
                    <td className="num">{pct(r.rate)}</td>
                    <td>
                      <BandBadge band={r.band} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {g.suppressed > 0 && <p className="muted">{g.suppressed} respondents in groups too small to show are left out.</p>}
          </div>
        ))}
      </div>
    </section>
  );
}

function NotStarted({ survey: s, t }: { survey: Survey; t: Tracking }) {
  const [entry, setEntry] = useState<{ employeeId: string; name: string } | null>(null);
  const canEnter = s.access !== 'view' && s.status !== 'completed' && s.status !== 'draft' && s.privacy !== 'pseudonymised';
  return (
    <section className="card stack" aria-labelledby="ns-h">
      <h2 id="ns-h">Not started ({num(t.notStarted)})</h2>
      {t.notStartedPeople === null ? (
        <p className="muted">This survey is pseudonymised: who has not started is never shown.</p>
      ) : t.notStartedPeople.length === 0 ? (
        <p className="muted">Everyone asked has started.</p>
      ) : (
        <ul className="not-started" data-testid="not-started">
          {t.notStartedPeople.slice(0, 300).map((p) => (
            <li key={p.employeeId}>
              <span>
                {p.name} <span className="muted">{p.employeeId}</span>
              </span>
              {canEnter && (
                <Button variant="ghost" onClick={() => setEntry(p)} aria-label={`Enter answers for ${p.name}`}>
                  Enter answers
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {t.notStartedPeople && t.notStartedPeople.length > 300 && <p className="muted">The first 300 of {num(t.notStartedPeople.length)} are listed.</p>}
      {entry && <OwnerEntry survey={s} person={entry} current={{}} onClose={() => setEntry(null)} />}
    </section>
  );
}

function Mail({ survey: s, t }: { survey: Survey; t: Tracking }) {
  const [open, setOpen] = useState(false);
  return (
    <section className="card stack" aria-labelledby="mail-h">
      <h2 id="mail-h">Invitations and reminders</h2>
      {!t.email.enabled ? (
        <p>E-mail is off on this service (no SMTP server is configured): nothing was sent. Send the links yourself (Launch and links).</p>
      ) : (
        <>
          <dl className="facts">
            <dt>Launch messages</dt>
            <dd data-testid="mail-launch">
              {num(t.email.launch.sent)} sent{t.email.launch.failed ? `, ${num(t.email.launch.failed)} failed` : ''}
            </dd>
            <dt>Reminders</dt>
            <dd data-testid="mail-reminders">
              {num(t.email.reminders.sent)} sent in {num(t.email.reminders.rounds)} {t.email.reminders.rounds === 1 ? 'round' : 'rounds'}
              {t.email.reminders.failed ? `, ${num(t.email.reminders.failed)} failed` : ''} (every {s.schedule.reminders.everyDays} days, at most {s.schedule.reminders.max})
            </dd>
          </dl>
          <div>
            <Button variant="ghost" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
              {open ? 'Hide each message' : 'Show each message'}
            </Button>
          </div>
          {open && <DeliveryList survey={s} />}
        </>
      )}
    </section>
  );
}

function DeliveryList({ survey: s }: { survey: Survey }) {
  const { data, isPending, error } = useDeliveries(s._id);
  const pseudo = s.privacy === 'pseudonymised';
  const links = useLinks(s._id, s.access !== 'view' && !pseudo);
  const names = useMemo(() => new Map((links.data?.links ?? []).map((l) => [l.employeeId, l.name])), [links.data]);
  if (isPending) return <Loading />;
  if (error) return <ErrorNotice error={error} />;
  if (data.deliveries.length === 0) return <p className="muted">No message yet.</p>;
  return (
    <table className="table table-responsive">
      <TableHead columns={['Person', 'Message', 'State', 'Sent']} />
      <tbody>
        {data.deliveries.slice(0, 500).map((d) => (
          <tr key={`${d.employeeId}-${d.step}`}>
            <td data-label="Person">
              {names.get(d.employeeId) ?? d.employeeId}
              {names.has(d.employeeId) && <div className="muted">{d.employeeId}</div>}
            </td>
            <td data-label="Message">{d.step === 'launch' ? 'Launch' : d.step.replace('reminder-', 'Reminder ')}</td>
            <td data-label="State">
              {d.status === 'sent' ? 'Sent' : d.status === 'failed' ? `Failed: ${d.error ?? ''}` : 'Being sent (never sent twice)'}
            </td>
            <td data-label="Sent">
              <DateText iso={d.sentAt} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Responses({ survey: s }: { survey: Survey }) {
  const [offset, setOffset] = useState(0);
  const { data, isPending, error } = useResponses(s._id, offset, PAGE);
  const pseudo = s.privacy === 'pseudonymised';
  const links = useLinks(s._id, s.access !== 'view' && !pseudo);
  const names = useMemo(() => new Map((links.data?.links ?? []).map((l) => [l.employeeId, l.name])), [links.data]);
  const erase = useEraseResponse(s._id);
  const [erasing, setErasing] = useState<SurveyResponse | null>(null);
  const [entry, setEntry] = useState<SurveyResponse | null>(null);
  const canWrite = s.access !== 'view';
  const canEnter = canWrite && s.status !== 'completed' && !pseudo;
  const nameOf = (id: string) => names.get(id) ?? id;
  return (
    <section className="card stack" aria-labelledby="resp-h">
      <h2 id="resp-h">Responses{data ? ` (${num(data.total)})` : ''}</h2>
      <p className="muted">People with at least one saved answer.{pseudo ? ' Pseudonymised: each person is a stable code.' : ''}</p>
      {isPending && <Loading />}
      <ErrorNotice error={error} />
      {data && data.responses.length === 0 && <p className="muted">No answers yet.</p>}
      {data && data.responses.length > 0 && (
        <table className="table table-responsive" data-testid="responses-table">
          <TableHead columns={[pseudo ? 'Code' : 'Person', 'Status', { label: 'Answered', className: 'num' }, 'Submitted', 'Entered by']} actions />
          <tbody>
            {data.responses.map((r) => (
              <tr key={r.employeeId} data-status={r.status}>
                <td data-label={pseudo ? 'Code' : 'Person'}>
                  {nameOf(r.employeeId)}
                  {!pseudo && names.has(r.employeeId) && <div className="muted">{r.employeeId}</div>}
                </td>
                <td data-label="Status">{STATUS_TEXT[r.status]}</td>
                <td data-label="Answered" className="num">
                  {Object.keys(r.answers).length} of {s.questions.length}
                </td>
                <td data-label="Submitted">
                  <DateText iso={r.submittedAt} />
                </td>
                <td data-label="Entered by">{pseudo ? <span className="muted">not shown (pseudonymised)</span> : r.enteredBy ? 'an owner (on their behalf)' : 'the respondent'}</td>
                <RowActions
                  actions={[
                    { label: 'Enter answers', ariaLabel: `Enter answers for ${nameOf(r.employeeId)}`, show: canEnter, onClick: () => setEntry(r) },
                    { label: 'Erase', ariaLabel: `Erase the answers of ${nameOf(r.employeeId)}`, show: canWrite, onClick: () => setErasing(r) },
                  ]}
                />
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data && data.total > PAGE && (
        <div className="pager">
          <Button onClick={() => setOffset(Math.max(0, offset - PAGE))} disabled={offset === 0}>
            Previous
          </Button>
          <span className="muted">
            {offset + 1}–{Math.min(offset + PAGE, data.total)} of {num(data.total)}
          </span>
          <Button onClick={() => setOffset(offset + PAGE)} disabled={offset + PAGE >= data.total}>
            Next
          </Button>
        </div>
      )}
      {entry && <OwnerEntry survey={s} person={{ employeeId: entry.employeeId, name: nameOf(entry.employeeId) }} current={entry.answers} onClose={() => setEntry(null)} />}
      <ConfirmAction
        item={erasing}
        title="Erase these answers?"
        confirmLabel="Erase answers"
        onClose={() => setErasing(null)}
        run={(r) => erase.mutateAsync({ employeeId: r.employeeId, name: nameOf(r.employeeId) })}
      >
        <p>
          Every answer of <strong>{erasing ? nameOf(erasing.employeeId) : ''}</strong> in this survey is removed for good (recorded in the audit log). They stay a respondent and can answer again with their link while the survey collects.
        </p>
      </ConfirmAction>
    </section>
  );
}

/**
 * An owner's entry on someone's behalf (a paper form, a phone interview): every question with the
 * respondent page's own components, saved as the person's answers with `enteredBy` (audited).
 */
function OwnerEntry({ survey: s, person, current, onClose }: { survey: Survey; person: { employeeId: string; name: string }; current: Record<string, unknown>; onClose: () => void }) {
  const [answers, setAnswers] = useState<Record<string, unknown>>(current);
  const enter = useEnterResponse(s._id);
  const fields = useCustomFields().data?.customFields ?? [];
  const employees = useEmployees('', 500).data?.employees ?? [];
  const { people, shown } = useMemo(() => rosterPeople(employees, s.roster, fields), [employees, s.roster, fields]);
  const byId = useMemo(() => new Map(people.map((p) => [p.employeeId, p])), [people]);
  const save = (submit: boolean) =>
    enter.mutate({ person, answers, submit }, { onSuccess: onClose });
  const setAnswer = (qid: string, v: unknown) =>
    setAnswers((a) => {
      const next = { ...a };
      if (v === undefined) delete next[qid];
      else next[qid] = v;
      return next;
    });
  return (
    <Dialog open title={`Answers of ${person.name}`} onClose={onClose} wide>
      <div className="stack owner-entry">
        <Notice kind="info">You are entering answers on {person.name}'s behalf. The service records that you did (the audit log and “entered by”).</Notice>
        {s.questions.map((q, i) => {
          const rq = respondentQuestion(q);
          return (
            <section key={q.id} className="owner-entry-q" aria-labelledby={`${rq.id}-title`}>
              <h3 id={`${rq.id}-title`}>
                {i + 1}. {q.text}
              </h3>
              <QuestionBody question={rq} value={answers[q.id]} onChange={(v) => setAnswer(q.id, v)} people={offered(q, people, answers, person.employeeId)} fields={shown} byId={byId} />
            </section>
          );
        })}
        <ErrorNotice error={enter.error} title="Not saved" />
        <div className="dialog-actions-end">
          <Button onClick={onClose}>Cancel</Button>
          <Button onClick={() => save(false)} busy={enter.isPending && !enter.variables?.submit}>
            Save
          </Button>
          <Button variant="primary" onClick={() => save(true)} busy={enter.isPending && enter.variables?.submit === true}>
            Save and submit
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
