/**
 * The respondent pages at `/s/<token>` and `/s/open/<token>` (docs/spec/decisions.md §10.3): consent,
 * intro, one question per screen with a progress bar, every answer saved as it is given (resume from any
 * device with the same link), a review, submit, and editing until the survey closes. A link that does not
 * work gets a page saying why (closed, paused, replaced, unknown) and no survey data. No sign-in, no
 * cookies, no request to any other site.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { respondentApi, RespondentError, type RespondentView, type RosterPerson } from './api.ts';
import { Markdown } from './markdown.tsx';
import { completeness, QuestionBody } from './question.tsx';

type Screen = { kind: 'consent' } | { kind: 'intro' } | { kind: 'question'; index: number } | { kind: 'review' } | { kind: 'done' };
type SaveState = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved'; at: Date } | { kind: 'failed'; message: string };

const CLOSED_PAGES: Record<string, { title: string; text: string }> = {
  SURVEY_CLOSED: { title: 'This survey is closed', text: 'Answers are no longer accepted. Thank you for your interest.' },
  SURVEY_NOT_OPEN: { title: 'This survey is not open right now', text: '' },
  LINK_REVOKED: { title: 'This link no longer works', text: 'It was replaced or withdrawn. Ask the person who sent you the survey for your current link.' },
  NOT_FOUND: { title: 'This link does not work', text: 'Check that you opened the whole link from your invitation. If it still does not work, ask the person who sent you the survey.' },
  RATE_LIMITED: { title: 'Too many attempts', text: 'Please wait a while and open your link again.' },
};

function Problem({ error }: { error: RespondentError }) {
  const page = CLOSED_PAGES[error.code] ?? { title: 'The survey could not be loaded', text: error.message };
  return (
    <main className="r-main" id="main">
      <div className="r-card r-problem">
        <h1 tabIndex={-1} ref={(el) => el?.focus()}>
          {page.title}
        </h1>
        <p>{page.text || error.message}</p>
        {error.code === 'NETWORK' && (
          <button type="button" className="btn btn-primary" onClick={() => location.reload()}>
            Try again
          </button>
        )}
      </div>
    </main>
  );
}

function Progress({ done, total }: { done: number; total: number }) {
  const pct = total === 0 ? 0 : Math.round((done / total) * 100);
  return (
    <div className="r-progress">
      <div className="r-progress-bar" role="progressbar" aria-label="Progress" aria-valuemin={0} aria-valuemax={total} aria-valuenow={done} aria-valuetext={`Question ${Math.min(done + 1, total)} of ${total}`}>
        <div className="r-progress-fill" style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}

function SaveStatus({ state, onRetry }: { state: SaveState; onRetry: () => void }) {
  return (
    <p className={`r-save r-save-${state.kind}`} role="status" aria-live="polite">
      {state.kind === 'saving' && 'Saving…'}
      {state.kind === 'saved' && 'All answers saved'}
      {state.kind === 'failed' && (
        <>
          Not saved: {state.message}{' '}
          <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
            Retry
          </button>
        </>
      )}
    </p>
  );
}

/** Answers are saved one request per question at a time; the newest value of a question always wins. */
function useSaver(token: string, setSave: (s: SaveState) => void) {
  const pending = useRef(new Map<string, unknown>());
  const running = useRef(new Set<string>());
  const lastFailed = useRef<string | null>(null);
  const count = useRef(0);
  const run = useCallback(
    async (qid: string): Promise<void> => {
      if (running.current.has(qid)) return;
      running.current.add(qid);
      try {
        while (pending.current.has(qid)) {
          const value = pending.current.get(qid);
          pending.current.delete(qid);
          count.current++;
          setSave({ kind: 'saving' });
          try {
            if (value === undefined) await respondentApi.clear(token, qid);
            else await respondentApi.save(token, qid, value);
            lastFailed.current = null;
          } catch (err) {
            if (!pending.current.has(qid)) pending.current.set(qid, value);
            lastFailed.current = qid;
            setSave({ kind: 'failed', message: err instanceof Error ? err.message : String(err) });
            return;
          } finally {
            count.current--;
          }
        }
        if (count.current === 0 && lastFailed.current === null) setSave({ kind: 'saved', at: new Date() });
      } finally {
        running.current.delete(qid);
      }
    },
    [token, setSave],
  );
  const save = useCallback(
    (qid: string, value: unknown) => {
      pending.current.set(qid, value);
      void run(qid);
    },
    [run],
  );
  const retry = useCallback(() => {
    for (const qid of pending.current.keys()) void run(qid);
  }, [run]);
  const flushed = useCallback(async () => {
    while (pending.current.size > 0 || running.current.size > 0) {
      if (lastFailed.current) return false;
      await new Promise((r) => setTimeout(r, 50));
    }
    return lastFailed.current === null;
  }, []);
  return { save, retry, flushed };
}

export function RespondentApp({ token }: { token: string }) {
  const [view, setView] = useState<RespondentView | null>(null);
  const [roster, setRoster] = useState<{ people: RosterPerson[]; fields: { key: string; label: string }[] } | null>(null);
  const [error, setError] = useState<RespondentError | null>(null);
  const [answers, setAnswers] = useState<Record<string, unknown>>({});
  const [screen, setScreen] = useState<Screen | null>(null);
  const [save, setSave] = useState<SaveState>({ kind: 'idle' });
  const [consented, setConsented] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [resumed, setResumed] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const saver = useSaver(token, setSave);

  useEffect(() => {
    let live = true;
    Promise.all([respondentApi.view(token), respondentApi.roster(token)])
      .then(([v, r]) => {
        if (!live) return;
        setView(v);
        setRoster({ people: r.people, fields: r.fields });
        setAnswers(v.answers);
        const qs = v.survey.questions;
        const answered = qs.filter((q) => v.answers[q.id] !== undefined).length;
        if (v.respondent.status === 'submitted') setScreen({ kind: 'done' });
        else if (answered > 0) {
          setResumed(true);
          const next = qs.findIndex((q) => v.answers[q.id] === undefined);
          setScreen(next === -1 ? { kind: 'review' } : { kind: 'question', index: next });
        } else if (v.survey.consent) setScreen({ kind: 'consent' });
        else if (v.survey.intro.trim()) setScreen({ kind: 'intro' });
        else setScreen({ kind: 'question', index: 0 });
      })
      .catch((err: unknown) => live && setError(err instanceof RespondentError ? err : new RespondentError(0, 'ERROR', String(err))));
    return () => {
      live = false;
    };
  }, [token]);

  // Each new screen moves focus to its heading, so a screen reader announces it.
  useEffect(() => {
    headingRef.current?.focus();
    setProblem(null);
  }, [screen]);

  const byId = useMemo(() => new Map((roster?.people ?? []).map((p) => [p.employeeId, p])), [roster]);
  const self = view?.respondent.employeeId;
  const offeredFor = useCallback(
    (qid: string): RosterPerson[] => {
      const q = view?.survey.questions.find((x) => x.id === qid);
      const all = (roster?.people ?? []).filter((p) => p.employeeId !== self);
      if (!q?.carryForwardFrom) return all;
      const src = answers[q.carryForwardFrom];
      const named = new Set(Array.isArray(src) ? src.flatMap((n: { employeeId?: string }) => (typeof n.employeeId === 'string' ? [n.employeeId] : [])) : []);
      return all.filter((p) => named.has(p.employeeId));
    },
    [view, roster, answers, self],
  );

  if (error) return <Problem error={error} />;
  if (!view || !roster || !screen)
    return (
      <main className="r-main" id="main" aria-busy="true">
        <p className="r-loading">Loading the survey…</p>
      </main>
    );

  const qs = view.survey.questions;
  const setAnswer = (qid: string, value: unknown) => {
    setProblem(null); // the reason given for not going on belonged to the answer before this change
    setAnswers((a) => {
      const next = { ...a };
      if (value === undefined) delete next[qid];
      else next[qid] = value;
      // Answers carried forward from this question drop people who are no longer named here.
      for (const q of qs) {
        if (q.carryForwardFrom !== qid || !Array.isArray(next[q.id])) continue;
        const named = new Set(Array.isArray(value) ? value.flatMap((n: { employeeId?: string }) => (n.employeeId ? [n.employeeId] : [])) : []);
        const kept = (next[q.id] as { employeeId?: string }[]).filter((n) => n.employeeId === undefined || named.has(n.employeeId));
        if (kept.length !== (next[q.id] as unknown[]).length) {
          next[q.id] = kept;
          saver.save(q.id, kept);
        }
      }
      return next;
    });
    saver.save(qid, value);
  };

  const go = (s: Screen) => setScreen(s);
  const next = (index: number) => {
    const q = qs[index];
    if (q) {
      const why = completeness(q, answers[q.id], offeredFor(q.id).length);
      if (why) {
        setProblem(why);
        return;
      }
    }
    setProblem(null);
    go(index + 1 < qs.length ? { kind: 'question', index: index + 1 } : { kind: 'review' });
  };

  const submit = async () => {
    setSubmitting(true);
    setProblem(null);
    try {
      if (!(await saver.flushed())) {
        setProblem('Some answers are not saved yet. Check your connection and press Retry.');
        return;
      }
      await respondentApi.submit(token, view.survey.consent ? true : undefined);
      setView({ ...view, respondent: { ...view.respondent, status: 'submitted', submittedAt: new Date().toISOString() } });
      go({ kind: 'done' });
    } catch (err) {
      if (err instanceof RespondentError && ['SURVEY_CLOSED', 'LINK_REVOKED', 'SURVEY_NOT_OPEN'].includes(err.code)) setError(err);
      else if (err instanceof RespondentError && err.problems.length > 0) setProblem(err.problems.map((p) => p.message).join(' '));
      else setProblem(err instanceof Error ? err.message : String(err));
    } finally {
      setSubmitting(false);
    }
  };

  const total = qs.length;
  const heading = (text: string, id?: string) => (
    <h1 ref={headingRef} tabIndex={-1} id={id}>
      {text}
    </h1>
  );

  let content: React.ReactNode;
  switch (screen.kind) {
    case 'consent':
      content = (
        <div className="r-card">
          {heading('Before you start')}
          <Markdown text={view.survey.consent?.text ?? ''} />
          {view.survey.consent?.required && (
            <label className="r-consent">
              <input type="checkbox" checked={consented} onChange={(e) => setConsented(e.target.checked)} />
              <span>I agree to take part</span>
            </label>
          )}
          <div className="r-nav">
            <span />
            <button type="button" className="btn btn-primary" disabled={view.survey.consent?.required === true && !consented} onClick={() => go(view.survey.intro.trim() ? { kind: 'intro' } : { kind: 'question', index: 0 })}>
              Continue
            </button>
          </div>
        </div>
      );
      break;
    case 'intro':
      content = (
        <div className="r-card">
          {heading(`Hello, ${view.respondent.name}`)}
          <div className="r-intro">
            <Markdown text={view.survey.intro} />
          </div>
          <p className="r-muted">
            {total} {total === 1 ? 'question' : 'questions'}. Every answer is saved as you give it: you can stop and come back with the same link, on any device.
          </p>
          <div className="r-nav">
            <span />
            <button type="button" className="btn btn-primary" onClick={() => go({ kind: 'question', index: 0 })}>
              Start
            </button>
          </div>
        </div>
      );
      break;
    case 'question': {
      const q = qs[screen.index];
      if (!q) break;
      content = (
        <div className="r-card">
          <Progress done={screen.index} total={total} />
          <p className="r-step">
            Question {screen.index + 1} of {total}
          </p>
          {heading(q.text, `${q.id}-title`)}
          <QuestionBody key={q.id} question={q} value={answers[q.id]} onChange={(v) => setAnswer(q.id, v)} people={offeredFor(q.id)} fields={roster.fields} byId={byId} error={problem ?? undefined} />
          <div className="r-nav">
            <button type="button" className="btn btn-secondary" onClick={() => go(screen.index === 0 ? (view.survey.intro.trim() ? { kind: 'intro' } : view.survey.consent ? { kind: 'consent' } : { kind: 'question', index: 0 }) : { kind: 'question', index: screen.index - 1 })} disabled={screen.index === 0 && !view.survey.intro.trim() && !view.survey.consent}>
              Back
            </button>
            <button type="button" className="btn btn-primary" onClick={() => next(screen.index)}>
              {screen.index + 1 < total ? 'Next' : 'Review'}
            </button>
          </div>
        </div>
      );
      break;
    }
    case 'review':
      content = (
        <div className="r-card">
          <Progress done={total} total={total} />
          {heading('Review your answers')}
          <ol className="r-review">
            {qs.map((q, i) => (
              <li key={q.id}>
                <span className="r-review-q">{q.text}</span>
                <span className="r-review-a">{summary(q.type, answers[q.id], byId, q.rating?.labels)}</span>
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => go({ kind: 'question', index: i })} aria-label={`Change the answer to question ${i + 1}`}>
                  Change
                </button>
              </li>
            ))}
          </ol>
          {problem && (
            <p className="r-error" role="alert">
              {problem}
            </p>
          )}
          <div className="r-nav">
            <button type="button" className="btn btn-secondary" onClick={() => go({ kind: 'question', index: total - 1 })}>
              Back
            </button>
            <button type="button" className="btn btn-primary" onClick={() => void submit()} disabled={submitting}>
              {view.respondent.status === 'submitted' ? 'Submit my changes' : 'Submit'}
            </button>
          </div>
        </div>
      );
      break;
    case 'done':
      content = (
        <div className="r-card r-done">
          {heading('Thank you')}
          <p>Your answers are submitted.{view.survey.closesAt ? ` You can change them until ${new Date(view.survey.closesAt).toLocaleString()}.` : ' You can change them with the same link until the survey closes.'}</p>
          <button type="button" className="btn btn-secondary" onClick={() => go({ kind: 'review' })}>
            Review or change my answers
          </button>
        </div>
      );
      break;
  }

  return (
    <main className="r-main" id="main">
      {resumed && screen.kind !== 'done' && (
        <p className="r-banner" role="status">
          Welcome back, {view.respondent.name}. Your earlier answers are here.
        </p>
      )}
      {content}
      {screen.kind !== 'done' && <SaveStatus state={save} onRetry={saver.retry} />}
    </main>
  );
}

function summary(type: string, value: unknown, byId: ReadonlyMap<string, RosterPerson>, labels?: string[]): string {
  if (value === undefined) return 'Not answered';
  if (type === 'relationship' && Array.isArray(value)) {
    if (value.length === 0) return 'No one';
    return value
      .map((n: { employeeId?: string; writeIn?: string; rating?: number }) => {
        const name = n.employeeId !== undefined ? (byId.get(n.employeeId)?.name ?? n.employeeId) : (n.writeIn ?? '');
        return labels && n.rating !== undefined ? `${name} (${labels[n.rating] ?? n.rating})` : name;
      })
      .join(', ');
  }
  if (Array.isArray(value)) return value.join(', ');
  return String(value);
}

/** `/s/open/<token>`: the shared-terminal case — the respondent types their employee id and gets their own link. */
export function OpenLinkApp({ openToken }: { openToken: string }) {
  const [employeeId, setEmployeeId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await respondentApi.openLink(openToken, employeeId.trim());
      location.assign(r.url.startsWith('/') ? r.url : new URL(r.url).pathname);
    } catch (err) {
      setError(err instanceof RespondentError && err.code === 'NOT_FOUND' ? 'This employee id is not among the people asked in this survey. Check it and try again.' : err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="r-main" id="main">
      <form
        className="r-card"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <h1>Start the survey</h1>
        <label htmlFor="employee-id">Your employee id</label>
        <input id="employee-id" className="input" value={employeeId} onChange={(e) => setEmployeeId(e.target.value)} autoComplete="off" required maxLength={128} aria-describedby={error ? 'employee-id-error' : undefined} />
        {error && (
          <p id="employee-id-error" className="r-error" role="alert">
            {error}
          </p>
        )}
        <div className="r-nav">
          <span />
          <button type="submit" className="btn btn-primary" disabled={busy || !employeeId.trim()}>
            Continue
          </button>
        </div>
      </form>
    </main>
  );
}
