/**
 * The builder (docs/spec/decisions.md §10.2): the survey's settings (name, privacy, minimum group size,
 * intro, consent, schedule, e-mail messages when e-mail is on) and its questions (every type, reorder,
 * delete), beside a live preview of what the respondent sees (components/preview.tsx, the respondent
 * page's own question component). Saving sends only what changed (`PUT` replaces only what is sent);
 * after launch a change of the questions makes a new version, and the page says so before saving.
 */
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Button, ErrorNotice, Notice, Select, TextArea, TextField } from '../../../components/ui.tsx';
import { useCustomFields, useEmployees, useSaveSurvey } from '../api/surveys.ts';
import type { Privacy, Question, QuestionType, Survey, SurveyInput } from '../api/types.ts';
import { PRIVACY_LABEL, PRIVACY_TEXT } from '../components/status.tsx';
import { QuestionEditor, TYPE_LABEL, cleanQuestion, newQuestion } from '../components/question-editor.tsx';
import { RespondentPreview, rosterPeople } from '../components/preview.tsx';

const PRIVACY: Privacy[] = ['identified', 'confidential', 'pseudonymised'];

interface Draft {
  name: string;
  privacy: Privacy;
  minGroupSize: string;
  intro: string;
  consentOn: boolean;
  consentText: string;
  consentRequired: boolean;
  opensAt: string;
  closesAt: string;
  everyDays: string;
  remindersMax: string;
  launchSubject: string;
  launchBody: string;
  reminderSubject: string;
  reminderBody: string;
  questions: Question[];
}

/** ISO → the value of a datetime-local input (local time), and back. */
const toLocal = (iso?: string) => {
  if (!iso) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromLocal = (v: string) => (v ? new Date(v).toISOString() : undefined);

function draftOf(s: Survey): Draft {
  return {
    name: s.name,
    privacy: s.privacy,
    minGroupSize: String(s.minGroupSize),
    intro: s.intro,
    consentOn: s.consent !== null,
    consentText: s.consent?.text ?? '',
    consentRequired: s.consent?.required ?? true,
    opensAt: toLocal(s.schedule.opensAt),
    closesAt: toLocal(s.schedule.closesAt),
    everyDays: String(s.schedule.reminders.everyDays),
    remindersMax: String(s.schedule.reminders.max),
    launchSubject: s.email.launch.subject,
    launchBody: s.email.launch.body,
    reminderSubject: s.email.reminder.subject,
    reminderBody: s.email.reminder.body,
    questions: s.questions,
  };
}

/** What changed, as a `PUT` body (only what is sent changes). */
function changes(s: Survey, d: Draft): SurveyInput {
  const b: SurveyInput = {};
  if (d.name.trim() !== s.name) b.name = d.name.trim();
  if (s.status === 'completed') return b;
  if (d.privacy !== s.privacy) b.privacy = d.privacy;
  if (Number(d.minGroupSize) !== s.minGroupSize) b.minGroupSize = Number(d.minGroupSize);
  if (d.intro !== s.intro) b.intro = d.intro;
  const consent = d.consentOn ? { text: d.consentText, required: d.consentRequired } : null;
  if (JSON.stringify(consent) !== JSON.stringify(s.consent)) b.consent = consent;
  const schedule = { ...(d.opensAt ? { opensAt: fromLocal(d.opensAt) } : {}), ...(d.closesAt ? { closesAt: fromLocal(d.closesAt) } : {}), reminders: { everyDays: Number(d.everyDays), max: Number(d.remindersMax) } };
  const was = { ...(s.schedule.opensAt ? { opensAt: s.schedule.opensAt } : {}), ...(s.schedule.closesAt ? { closesAt: s.schedule.closesAt } : {}), reminders: s.schedule.reminders };
  if (JSON.stringify(schedule) !== JSON.stringify(was)) b.schedule = schedule;
  const email = { launch: { subject: d.launchSubject, body: d.launchBody }, reminder: { subject: d.reminderSubject, body: d.reminderBody } };
  if (JSON.stringify(email) !== JSON.stringify({ launch: s.email.launch, reminder: s.email.reminder })) b.email = email;
  const qs = d.questions.map(cleanQuestion);
  if (JSON.stringify(qs) !== JSON.stringify(s.questions.map(cleanQuestion))) b.questions = qs;
  return b;
}

export function Builder({ survey }: { survey: Survey }) {
  // A fresh draft whenever the server's survey changes (after a save, or a change made elsewhere).
  return <BuilderForm key={survey.modified} survey={survey} />;
}

function BuilderForm({ survey: s }: { survey: Survey }) {
  const [d, setD] = useState<Draft>(() => draftOf(s));
  const [selected, setSelected] = useState(0);
  const [previewAnswers, setPreviewAnswers] = useState<Record<string, unknown>>({});
  const [addType, setAddType] = useState<QuestionType>('relationship');
  const update = useSaveSurvey(s._id);
  const fields = useCustomFields().data?.customFields ?? [];
  const employees = useEmployees('', 500).data?.employees ?? [];
  const { people, shown } = useMemo(() => rosterPeople(employees, s.roster, fields), [employees, s.roster, fields]);

  const canEdit = s.access !== 'view';
  const closed = s.status === 'completed';
  const launched = s.status !== 'draft';
  const body = changes(s, d);
  const dirty = Object.keys(body).length > 0;
  const set = (patch: Partial<Draft>) => setD((x) => ({ ...x, ...patch }));
  const setQuestions = (questions: Question[]) => set({ questions });

  // Leaving with unsaved changes asks first (the browser's own prompt).
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    addEventListener('beforeunload', warn);
    return () => removeEventListener('beforeunload', warn);
  }, [dirty]);

  const move = (i: number, by: -1 | 1) => {
    const qs = [...d.questions];
    const [q] = qs.splice(i, 1);
    qs.splice(i + by, 0, q as Question);
    // a carried-forward question may only follow the question it carries from
    setQuestions(qs.map((x, j) => (x.carryForwardFrom && qs.findIndex((y) => y.id === x.carryForwardFrom) > j ? { ...x, carryForwardFrom: undefined } : x)));
    setSelected(i + by);
  };
  const remove = (i: number) => {
    const gone = d.questions[i]?.id;
    setQuestions(d.questions.filter((_, j) => j !== i).map((x) => (x.carryForwardFrom === gone ? { ...x, carryForwardFrom: undefined } : x)));
    setSelected(Math.max(0, Math.min(selected, d.questions.length - 2)));
  };
  const add = () => {
    setQuestions([...d.questions, newQuestion(addType, d.questions)]);
    setSelected(d.questions.length);
  };

  const save = (e: FormEvent) => {
    e.preventDefault();
    update.mutate(body);
  };

  return (
    <div className="builder">
      <form className="builder-edit stack-lg" onSubmit={save} aria-label="Survey builder">
        {launched && !closed && (
          <Notice kind="warning">
            This survey is {s.status === 'collecting' ? 'collecting answers' : 'launched'} (question version {s.version}). Saving a change to the questions creates version {s.version + 1}: answers already given keep the version they
            answered. Privacy can only become stricter now.
          </Notice>
        )}
        {closed && <Notice kind="info">This survey is completed: only its name can change. Copy it to run it again.</Notice>}
        {!canEdit && <Notice kind="info">You can view this survey; its owner can let you edit it.</Notice>}

        <section className="card stack" aria-labelledby="settings-h">
          <h2 id="settings-h">Settings</h2>
          <fieldset className="stack plain-fieldset" disabled={!canEdit}>
            <legend className="visually-hidden">Settings</legend>
            <TextField label="Name" name="name" required value={d.name} onChange={(e) => set({ name: e.target.value })} hint="Respondents never see it." />
            <fieldset className="stack plain-fieldset" disabled={closed}>
              <legend className="visually-hidden">Survey settings</legend>
              <div className="grid-2 builder-grid">
                <Select label="Privacy" name="privacy" value={d.privacy} onChange={(e) => set({ privacy: e.target.value as Privacy })} hint={PRIVACY_TEXT[d.privacy]}>
                  {PRIVACY.map((p) => (
                    <option key={p} value={p} disabled={launched && PRIVACY.indexOf(p) < PRIVACY.indexOf(s.privacy)}>
                      {PRIVACY_LABEL[p]}
                    </option>
                  ))}
                </Select>
                <TextField label="Smallest group shown" name="minGroupSize" type="number" min={launched ? s.minGroupSize : 3} value={d.minGroupSize} onChange={(e) => set({ minGroupSize: e.target.value })} hint="Groups smaller than this never appear in tracking or reports (at least 3)." />
              </div>
              <TextArea label="Introduction (Markdown)" name="intro" rows={4} value={d.intro} onChange={(e) => set({ intro: e.target.value })} hint="The first screen respondents see, after their name." />
              <label className="check">
                <input type="checkbox" checked={d.consentOn} onChange={(e) => set({ consentOn: e.target.checked })} />
                <span>Ask for consent before the survey starts</span>
              </label>
              {d.consentOn && (
                <>
                  <TextArea label="Consent text (Markdown)" name="consent" rows={3} required value={d.consentText} onChange={(e) => set({ consentText: e.target.value })} />
                  <label className="check">
                    <input type="checkbox" checked={d.consentRequired} onChange={(e) => set({ consentRequired: e.target.checked })} />
                    <span>Respondents must agree to submit</span>
                  </label>
                </>
              )}
              <h3 className="builder-sub">Schedule</h3>
              <div className="grid-2 builder-grid">
                <TextField label="Opens" name="opensAt" type="datetime-local" value={d.opensAt} onChange={(e) => set({ opensAt: e.target.value })} hint="Empty: at launch." />
                <TextField label="Closes" name="closesAt" type="datetime-local" value={d.closesAt} onChange={(e) => set({ closesAt: e.target.value })} hint="Empty: when you close it." />
                <TextField label="Remind every (days)" name="everyDays" type="number" min={0.5} max={60} step="any" value={d.everyDays} onChange={(e) => set({ everyDays: e.target.value })} />
                <TextField label="Reminders at most" name="remindersMax" type="number" min={0} max={10} value={d.remindersMax} onChange={(e) => set({ remindersMax: e.target.value })} hint="Only to people who have not submitted; 0 = none." />
              </div>
              <h3 className="builder-sub">E-mail</h3>
              {s.email.enabled ? (
                <>
                  <p className="muted">
                    The launch message and the reminders are sent by this service. Write <code>{'{{name}}'}</code> for the person's name and <code>{'{{link}}'}</code> for their personal link (required).
                  </p>
                  <TextField label="Launch message subject" name="launchSubject" value={d.launchSubject} onChange={(e) => set({ launchSubject: e.target.value })} />
                  <TextArea label="Launch message" name="launchBody" rows={6} value={d.launchBody} onChange={(e) => set({ launchBody: e.target.value })} />
                  <TextField label="Reminder subject" name="reminderSubject" value={d.reminderSubject} onChange={(e) => set({ reminderSubject: e.target.value })} />
                  <TextArea label="Reminder" name="reminderBody" rows={5} value={d.reminderBody} onChange={(e) => set({ reminderBody: e.target.value })} />
                </>
              ) : (
                <Notice kind="info">E-mail is off on this service (no SMTP server is configured): nothing is sent. After the launch, download the links and send them through any channel.</Notice>
              )}
            </fieldset>
          </fieldset>
        </section>

        <section className="card stack" aria-labelledby="questions-h">
          <div className="card-header">
            <h2 id="questions-h">Questions</h2>
            <span className="muted">{d.questions.length === 0 ? 'none yet' : `${d.questions.length} · version ${s.version}`}</span>
          </div>
          {d.questions.length === 0 && <p className="muted">A survey needs at least one question before it can be launched. Start with a relationship question: who do people go to for advice, for information, for help?</p>}
          <ol className="question-list">
            {d.questions.map((q, i) => (
              <li key={q.id} className={`question-item${i === selected ? ' question-item-on' : ''}`} onFocusCapture={() => setSelected(i)} data-question={q.id}>
                <div className="question-head">
                  <span className="strong">
                    {i + 1}. {TYPE_LABEL[q.type]}
                  </span>
                  <span className="row wrap">
                    <Button variant="ghost" onClick={() => setSelected(i)} aria-pressed={i === selected} aria-label={`Preview question ${i + 1}`}>
                      Preview
                    </Button>
                    {canEdit && !closed && (
                      <>
                        <Button variant="ghost" onClick={() => move(i, -1)} disabled={i === 0} aria-label={`Move question ${i + 1} up`}>
                          Up
                        </Button>
                        <Button variant="ghost" onClick={() => move(i, 1)} disabled={i === d.questions.length - 1} aria-label={`Move question ${i + 1} down`}>
                          Down
                        </Button>
                        <Button variant="ghost" onClick={() => remove(i)} aria-label={`Delete question ${i + 1}`}>
                          Delete
                        </Button>
                      </>
                    )}
                  </span>
                </div>
                <QuestionEditor question={q} index={i} earlier={d.questions.slice(0, i)} fields={fields} readOnly={!canEdit || closed} onChange={(nq) => setQuestions(d.questions.map((x, j) => (j === i ? nq : x)))} />
              </li>
            ))}
          </ol>
          {canEdit && !closed && (
            <div className="row wrap row-end add-question">
              <Select label="Type of the new question" name="addType" value={addType} onChange={(e) => setAddType(e.target.value as QuestionType)}>
                {(Object.keys(TYPE_LABEL) as QuestionType[]).map((t) => (
                  <option key={t} value={t}>
                    {TYPE_LABEL[t]}
                  </option>
                ))}
              </Select>
              <Button onClick={add}>Add question</Button>
            </div>
          )}
        </section>

        <ErrorNotice error={update.error} title="Not saved" />
        {canEdit && (
          <div className="builder-save">
            <span className="muted" role="status">
              {dirty ? (launched && body.questions ? `Unsaved changes to the questions: saving creates version ${s.version + 1}.` : 'Unsaved changes.') : 'All changes saved.'}
            </span>
            <Button onClick={() => setD(draftOf(s))} disabled={!dirty || update.isPending}>
              Discard changes
            </Button>
            <Button type="submit" variant="primary" busy={update.isPending} disabled={!dirty || !d.name.trim()}>
              {launched && body.questions ? 'Save as a new version' : 'Save'}
            </Button>
          </div>
        )}
      </form>

      <aside className="builder-preview" aria-labelledby="preview-h">
        <div className="card-header">
          <h2 id="preview-h">What respondents see</h2>
          {d.questions.length > 1 && (
            <span className="row">
              <Button variant="ghost" onClick={() => setSelected(Math.max(0, selected - 1))} disabled={selected === 0} aria-label="Preview the previous question">
                Previous
              </Button>
              <Button variant="ghost" onClick={() => setSelected(Math.min(d.questions.length - 1, selected + 1))} disabled={selected >= d.questions.length - 1} aria-label="Preview the next question">
                Next
              </Button>
            </span>
          )}
        </div>
        <p className="muted builder-preview-note">
          {people.length} {people.length === 1 ? 'person' : 'people'} of the roster{shown.length ? `, with ${shown.map((f) => f.label).join(', ')}` : ''}. Sensitive fields are never shown. Try it: nothing here is saved.
        </p>
        <RespondentPreview questions={d.questions} index={Math.min(selected, Math.max(0, d.questions.length - 1))} people={people} fields={shown} answers={previewAnswers} onAnswer={(qid, v) => setPreviewAnswers((a) => ({ ...a, [qid]: v }))} />
      </aside>
    </div>
  );
}
