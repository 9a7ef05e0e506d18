/**
 * One question on its own screen (docs/spec/decisions.md §10.2 question types, §10.3 the page). The
 * builder's live preview renders the same component with `preview` data, so what an analyst sees is what
 * a respondent gets.
 */
import type { Nomination, RespondentQuestion, RosterPerson } from './api.ts';
import { RosterPicker } from './roster-picker.tsx';

export interface QuestionProps {
  question: RespondentQuestion;
  value: unknown;
  onChange: (value: unknown) => void;
  /** People this question offers (relationship questions). */
  people: readonly RosterPerson[];
  fields: readonly { key: string; label: string }[];
  byId: ReadonlyMap<string, RosterPerson>;
  /** Problems the service reported for this question. */
  error?: string;
}

export function hint(q: RespondentQuestion): string {
  if (q.type === 'relationship') {
    const parts: string[] = [];
    if (q.minSelections && q.maxSelections) parts.push(`Choose ${q.minSelections === q.maxSelections ? q.minSelections : `${q.minSelections} to ${q.maxSelections}`} ${q.maxSelections === 1 ? 'person' : 'people'}.`);
    else if (q.minSelections) parts.push(`Choose at least ${q.minSelections} ${q.minSelections === 1 ? 'person' : 'people'}.`);
    else if (q.maxSelections) parts.push(`Choose up to ${q.maxSelections} ${q.maxSelections === 1 ? 'person' : 'people'}.`);
    else parts.push('Choose as many people as apply.');
    if (q.rating) parts.push('Then rate each person you chose.');
    return parts.join(' ');
  }
  if (q.type === 'multipleChoice') return 'Choose all that apply.';
  if ((q.type === 'number' || q.type === 'scale') && q.min !== undefined && q.max !== undefined) return `A number from ${q.min} to ${q.max}.`;
  return '';
}

export function QuestionBody({ question: q, value, onChange, people, fields, byId, error }: QuestionProps) {
  const describedBy = `${q.id}-hint${error ? ` ${q.id}-error` : ''}`;
  let body: React.ReactNode;
  switch (q.type) {
    case 'relationship': {
      const nominations = Array.isArray(value) ? (value as Nomination[]) : [];
      const none = Array.isArray(value) && value.length === 0;
      body = (
        <>
          {people.length === 0 && q.carryForwardFrom ? (
            <p className="r-empty">This question offers the people you chose in an earlier question, and you chose nobody there. You can go on.</p>
          ) : (
            <RosterPicker question={q} people={people} fields={fields} value={nominations} onChange={onChange} byId={byId} />
          )}
          {q.noneOption && (
            <label className="r-none">
              <input type="checkbox" checked={none} onChange={(e) => onChange(e.target.checked ? [] : undefined)} disabled={nominations.length > 0} />
              <span>No one</span>
            </label>
          )}
        </>
      );
      break;
    }
    case 'singleChoice':
      body = (
        <fieldset className="r-options" aria-describedby={describedBy}>
          <legend className="r-visually-hidden">{q.text}</legend>
          {(q.options ?? []).map((o) => (
            <label key={o} className={`r-option${value === o ? ' r-option-on' : ''}`}>
              <input type="radio" name={q.id} checked={value === o} onChange={() => onChange(o)} />
              <span>{o}</span>
            </label>
          ))}
        </fieldset>
      );
      break;
    case 'multipleChoice': {
      const chosen = Array.isArray(value) ? (value as string[]) : [];
      body = (
        <fieldset className="r-options" aria-describedby={describedBy}>
          <legend className="r-visually-hidden">{q.text}</legend>
          {(q.options ?? []).map((o) => (
            <label key={o} className={`r-option${chosen.includes(o) ? ' r-option-on' : ''}`}>
              <input type="checkbox" checked={chosen.includes(o)} onChange={(e) => onChange(e.target.checked ? [...chosen, o] : chosen.filter((c) => c !== o))} />
              <span>{o}</span>
            </label>
          ))}
        </fieldset>
      );
      break;
    }
    case 'scale': {
      const min = q.min ?? 1;
      const max = q.max ?? 5;
      const steps = max - min <= 20 ? Array.from({ length: max - min + 1 }, (_, i) => min + i) : null;
      body = steps ? (
        <fieldset className="r-scale" aria-describedby={describedBy}>
          <legend className="r-visually-hidden">{q.text}</legend>
          {steps.map((n) => (
            <label key={n} className={`r-scale-step${value === n ? ' r-option-on' : ''}`}>
              <input type="radio" name={q.id} checked={value === n} onChange={() => onChange(n)} />
              <span>{n}</span>
            </label>
          ))}
          {q.options && q.options.length >= 2 && (
            <div className="r-scale-ends" aria-hidden="true">
              <span>{q.options[0]}</span>
              <span>{q.options[q.options.length - 1]}</span>
            </div>
          )}
        </fieldset>
      ) : (
        <NumberInput q={q} value={value} onChange={onChange} describedBy={describedBy} />
      );
      break;
    }
    case 'number':
      body = <NumberInput q={q} value={value} onChange={onChange} describedBy={describedBy} />;
      break;
    case 'text':
      body = (
        <textarea id={`${q.id}-input`} className="input r-text" rows={4} maxLength={10000} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)} aria-labelledby={`${q.id}-title`} aria-describedby={describedBy} />
      );
      break;
  }
  return (
    <div className="r-question">
      <p id={`${q.id}-hint`} className="r-hint">
        {hint(q)}
        {q.required ? ' This question needs an answer.' : ' You may skip this question.'}
      </p>
      {body}
      {error && (
        <p id={`${q.id}-error`} className="r-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function NumberInput({ q, value, onChange, describedBy }: { q: RespondentQuestion; value: unknown; onChange: (v: unknown) => void; describedBy: string }) {
  return (
    <input
      id={`${q.id}-input`}
      className="input r-number"
      type="number"
      inputMode="decimal"
      min={q.min}
      max={q.max}
      value={typeof value === 'number' ? value : ''}
      onChange={(e) => {
        const n = e.target.valueAsNumber;
        onChange(e.target.value === '' || !Number.isFinite(n) ? undefined : n);
      }}
      aria-labelledby={`${q.id}-title`}
      aria-describedby={describedBy}
    />
  );
}

/** Whether the question's current value lets the respondent go on (required questions, minimum selections, ratings). */
export function completeness(q: RespondentQuestion, value: unknown, offered: number): string | null {
  if (value === undefined) {
    if (q.type === 'relationship' && q.carryForwardFrom && offered === 0) return null;
    if (q.required || (q.type === 'relationship' && (q.minSelections ?? 0) > 0)) return q.type === 'relationship' && q.noneOption ? 'Choose at least one person, or “No one”.' : 'This question needs an answer.';
    return null;
  }
  if (q.type === 'relationship' && Array.isArray(value)) {
    if (value.length === 0) return q.noneOption || !(q.required || (q.minSelections ?? 0) > 0) ? null : 'Choose at least one person.';
    if (value.length < (q.minSelections ?? 0)) return `Choose at least ${q.minSelections} people.`;
    if (q.rating && (value as Nomination[]).some((n) => n.rating === undefined)) return 'Rate each person you chose.';
  }
  if (q.type === 'multipleChoice' && Array.isArray(value) && value.length === 0 && q.required) return 'Choose at least one option.';
  return null;
}
