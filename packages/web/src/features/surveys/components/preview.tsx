/**
 * What a respondent sees (docs/spec/decisions.md §10.3): the respondent page's own question component
 * (respondent/question.tsx, with its stylesheet) inside the same card, progress bar and heading, fed with
 * the directory's people on the survey's roster and only the non-sensitive fields — so the preview shows
 * exactly what a respondent would get. Answers given here stay in the page; nothing is saved.
 */
import { useMemo } from 'react';
import { QuestionBody } from '../../../respondent/question.tsx';
import type { RespondentQuestion, RosterPerson } from '../../../respondent/api.ts';
import '../../../respondent/respondent.css';
import type { Question, Selector } from '../api/types.ts';
import type { CustomField, Employee } from '../../people/api/types.ts';
import { cleanQuestion } from './question-editor.tsx';

/** Whether a person of the directory is selected by a roster / respondents selector. */
export function selects(sel: Selector, e: Employee): boolean {
  if (e.status !== 'active') return false;
  if ('all' in sel) return true;
  if ('employeeIds' in sel) return sel.employeeIds.includes(e.employeeId);
  const v = e.fields[sel.field];
  return v !== undefined && sel.values.some((x) => String(x) === String(v));
}

/** The roster as the respondent API gives it: name, photo and non-sensitive fields only. */
export function rosterPeople(employees: readonly Employee[], roster: Selector, fields: readonly CustomField[]): { people: RosterPerson[]; shown: { key: string; label: string }[] } {
  const shown = fields.filter((f) => !f.sensitive).map((f) => ({ key: f.key, label: f.label }));
  const people = employees
    .filter((e) => selects(roster, e))
    .map((e) => {
      const fv: Record<string, string | number> = {};
      for (const f of shown) if (e.fields[f.key] !== undefined) fv[f.key] = e.fields[f.key] as string | number;
      return { employeeId: e.employeeId, name: e.name, ...(e.photoUrl ? { photoUrl: e.photoUrl } : {}), fields: fv };
    });
  return { people, shown };
}

/** A question as the respondent API sends it (never its custom field). */
export function respondentQuestion(q: Question): RespondentQuestion {
  const { customField: _cf, ...rest } = cleanQuestion(q);
  return rest;
}

/** The people a question offers, given the answers so far (carry forward offers those named earlier). */
export function offered(q: Question, people: readonly RosterPerson[], answers: Record<string, unknown>, self?: string): RosterPerson[] {
  const all = people.filter((p) => p.employeeId !== self);
  if (!q.carryForwardFrom) return all;
  const src = answers[q.carryForwardFrom];
  const named = new Set(Array.isArray(src) ? src.flatMap((n: { employeeId?: string }) => (typeof n.employeeId === 'string' ? [n.employeeId] : [])) : []);
  return all.filter((p) => named.has(p.employeeId));
}

interface PreviewProps {
  questions: readonly Question[];
  index: number;
  people: readonly RosterPerson[];
  fields: readonly { key: string; label: string }[];
  answers: Record<string, unknown>;
  onAnswer: (qid: string, value: unknown) => void;
}

export function RespondentPreview({ questions, index, people, fields, answers, onAnswer }: PreviewProps) {
  const byId = useMemo(() => new Map(people.map((p) => [p.employeeId, p])), [people]);
  const q = questions[index];
  if (!q) return <p className="muted">Add a question to see what respondents get.</p>;
  const rq = respondentQuestion(q);
  const total = questions.length;
  return (
    <div className="r-card survey-preview-card" data-testid="respondent-preview">
      <div className="r-progress">
        <div className="r-progress-bar" role="progressbar" aria-label="Progress (preview)" aria-valuemin={0} aria-valuemax={total} aria-valuenow={index} aria-valuetext={`Question ${index + 1} of ${total}`}>
          <div className="r-progress-fill" style={{ width: `${Math.round((index / Math.max(total, 1)) * 100)}%` }} />
        </div>
      </div>
      <p className="r-step">
        Question {index + 1} of {total}
      </p>
      <h3 className="survey-preview-title" id={`${rq.id}-title`}>
        {rq.text || <span className="muted">(no text yet)</span>}
      </h3>
      <QuestionBody key={rq.id} question={rq} value={answers[rq.id]} onChange={(v) => onAnswer(rq.id, v)} people={offered(q, people, answers)} fields={fields} byId={byId} />
    </div>
  );
}
