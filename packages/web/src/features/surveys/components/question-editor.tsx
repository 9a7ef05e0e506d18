/**
 * Editing one question of the builder (docs/spec/decisions.md §10.2 "Questions"): its text, whether it
 * must be answered and what its type takes — a relationship question's selection limits, rating scale
 * (with "I don't know this person" first), carry forward from an earlier relationship question, write-ins
 * and "No one"; an attribute question's options or range and the custom field its answer is stored into.
 */
import { useId } from 'react';
import type { Question, QuestionType } from '../api/types.ts';
import type { CustomField } from '../../people/api/types.ts';

export const TYPE_LABEL: Record<QuestionType, string> = {
  relationship: 'Relationship (name people)',
  singleChoice: 'Single choice',
  multipleChoice: 'Multiple choice',
  number: 'Number',
  scale: 'Scale',
  text: 'Text',
};

export const DONT_KNOW = "I don't know this person";
const FIVE_POINTS = ['Very little', 'Little', 'Some', 'Much', 'Very much'];

/** A new question of a type, with an id no other question has (ids stay stable: answers refer to them). */
export function newQuestion(type: QuestionType, taken: readonly Question[]): Question {
  let n = taken.length + 1;
  while (taken.some((q) => q.id === `q${n}`)) n++;
  const base = { id: `q${n}`, type, text: '', required: type === 'relationship' };
  switch (type) {
    case 'relationship':
      return { ...base, directed: true, noneOption: true };
    case 'singleChoice':
    case 'multipleChoice':
      return { ...base, options: ['', ''] };
    case 'scale':
      return { ...base, min: 1, max: 5 };
    default:
      return base;
  }
}

/** The question as the wire wants it: unset optionals left out, option lists trimmed. */
export function cleanQuestion(q: Question): Question {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '') out[k] = v;
  if (q.options) out.options = q.options.map((o) => o.trim()).filter(Boolean);
  if (q.type !== 'relationship') for (const k of ['directed', 'minSelections', 'maxSelections', 'rating', 'carryForwardFrom', 'allowWriteIns', 'noneOption']) delete out[k];
  if (q.type !== 'singleChoice' && q.type !== 'multipleChoice') delete out.options;
  if (q.type === 'relationship' || q.type === 'singleChoice' || q.type === 'multipleChoice' || q.type === 'text') {
    delete out.min;
    delete out.max;
  }
  if (q.type === 'relationship') delete out.customField;
  return out as Question;
}

/** The custom fields an attribute question's answer may be stored into (the server's rule, docs/api/people-and-surveys.md). */
function fieldsFor(type: QuestionType, fields: readonly CustomField[]): CustomField[] {
  const ok: Record<QuestionType, CustomField['type'][]> = { relationship: [], singleChoice: ['category', 'text'], multipleChoice: [], number: ['number', 'text'], scale: ['number', 'text'], text: ['text'] };
  return fields.filter((f) => ok[type].includes(f.type));
}

function intOrUndef(v: string): number | undefined {
  if (v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

interface EditorProps {
  question: Question;
  index: number;
  /** Questions before this one (carry forward may only point back). */
  earlier: readonly Question[];
  fields: readonly CustomField[];
  readOnly: boolean;
  onChange: (q: Question) => void;
}

export function QuestionEditor({ question: q, index, earlier, fields, readOnly, onChange }: EditorProps) {
  const uid = useId();
  const set = (patch: Partial<Question>) => onChange({ ...q, ...patch });
  const idFor = (k: string) => `${uid}-${k}`;
  const relEarlier = earlier.filter((e) => e.type === 'relationship');
  const storable = fieldsFor(q.type, fields);
  return (
    <fieldset className="qe" disabled={readOnly}>
      <legend className="visually-hidden">Question {index + 1}</legend>
      <div className="field">
        <label htmlFor={idFor('text')}>Question {index + 1} text</label>
        <textarea id={idFor('text')} className="input" rows={2} value={q.text} onChange={(e) => set({ text: e.target.value })} placeholder={q.type === 'relationship' ? 'Who do you go to for advice?' : ''} />
      </div>
      <div className="qe-row">
        <label className="check">
          <input type="checkbox" checked={q.required} onChange={(e) => set({ required: e.target.checked })} />
          <span>Needs an answer</span>
        </label>
        <span className="muted qe-id">id {q.id}</span>
      </div>

      {q.type === 'relationship' && (
        <>
          <div className="qe-grid">
            <div className="field">
              <label htmlFor={idFor('min')}>At least (people)</label>
              <input id={idFor('min')} className="input" type="number" min={0} value={q.minSelections ?? ''} onChange={(e) => set({ minSelections: intOrUndef(e.target.value) })} />
            </div>
            <div className="field">
              <label htmlFor={idFor('max')}>At most (people)</label>
              <input id={idFor('max')} className="input" type="number" min={1} value={q.maxSelections ?? ''} onChange={(e) => set({ maxSelections: intOrUndef(e.target.value) })} placeholder="no limit" />
            </div>
          </div>
          <div className="field">
            <label htmlFor={idFor('cf')}>Offer</label>
            <select id={idFor('cf')} className="input" value={q.carryForwardFrom ?? ''} onChange={(e) => set({ carryForwardFrom: e.target.value || undefined })}>
              <option value="">Everyone on the roster</option>
              {relEarlier.map((e) => (
                <option key={e.id} value={e.id}>
                  Only the people named in question {earlier.indexOf(e) + 1}: {e.text || e.id}
                </option>
              ))}
            </select>
          </div>
          <div className="qe-checks">
            <label className="check">
              <input type="checkbox" checked={q.directed !== false} onChange={(e) => set({ directed: e.target.checked })} />
              <span>Directed (A names B is not B names A)</span>
            </label>
            <label className="check">
              <input type="checkbox" checked={q.noneOption === true} onChange={(e) => set({ noneOption: e.target.checked || undefined })} />
              <span>Offer “No one”</span>
            </label>
            <label className="check">
              <input type="checkbox" checked={q.allowWriteIns === true} onChange={(e) => set({ allowWriteIns: e.target.checked || undefined })} />
              <span>Allow names not on the roster (kept apart from the network)</span>
            </label>
            <label className="check">
              <input type="checkbox" checked={q.rating !== undefined} onChange={(e) => set({ rating: e.target.checked ? { labels: [DONT_KNOW, ...FIVE_POINTS], dontKnow: true } : undefined })} />
              <span>Rate each person named (the rating becomes the tie's weight)</span>
            </label>
          </div>
          {q.rating && <RatingEditor labels={q.rating.labels} dontKnow={q.rating.dontKnow} onChange={(labels, dontKnow) => set({ rating: { labels, dontKnow } })} idFor={idFor} />}
        </>
      )}

      {(q.type === 'singleChoice' || q.type === 'multipleChoice') && (
        <ListEditor label="Options" itemLabel="Option" items={q.options ?? []} onChange={(options) => set({ options })} idFor={idFor} addLabel="Add option" />
      )}
      {(q.type === 'number' || q.type === 'scale') && (
        <div className="qe-grid">
          <div className="field">
            <label htmlFor={idFor('lo')}>From</label>
            <input id={idFor('lo')} className="input" type="number" value={q.min ?? ''} onChange={(e) => set({ min: intOrUndef(e.target.value) })} />
          </div>
          <div className="field">
            <label htmlFor={idFor('hi')}>To</label>
            <input id={idFor('hi')} className="input" type="number" value={q.max ?? ''} onChange={(e) => set({ max: intOrUndef(e.target.value) })} />
          </div>
        </div>
      )}
      {q.type !== 'relationship' && q.type !== 'multipleChoice' && (
        <div className="field">
          <label htmlFor={idFor('cfield')}>Store the answer in the person's field</label>
          <select id={idFor('cfield')} className="input" value={q.customField ?? ''} onChange={(e) => set({ customField: e.target.value || undefined })}>
            <option value="">Do not store</option>
            {storable.map((f) => (
              <option key={f.key} value={f.key}>
                {f.label} ({f.key}){f.sensitive ? ' — sensitive' : ''}
              </option>
            ))}
          </select>
        </div>
      )}
    </fieldset>
  );
}

function RatingEditor({ labels, dontKnow, onChange, idFor }: { labels: string[]; dontKnow: boolean; onChange: (labels: string[], dontKnow: boolean) => void; idFor: (k: string) => string }) {
  const scale = dontKnow ? labels.slice(1) : labels;
  return (
    <div className="qe-rating">
      <label className="check">
        <input
          type="checkbox"
          checked={dontKnow}
          onChange={(e) => onChange(e.target.checked ? [DONT_KNOW, ...labels] : labels.slice(1), e.target.checked)}
        />
        <span>First offer “{DONT_KNOW}” (no tie)</span>
      </label>
      <ListEditor label={`Rating scale (${scale.length} points, low to high)`} itemLabel="Point" items={scale} onChange={(items) => onChange(dontKnow ? [labels[0] ?? DONT_KNOW, ...items] : items, dontKnow)} idFor={(k) => idFor(`rate-${k}`)} addLabel="Add point" max={dontKnow ? 10 : 11} />
    </div>
  );
}

function ListEditor({ label, itemLabel, items, onChange, idFor, addLabel, max = 100 }: { label: string; itemLabel: string; items: string[]; onChange: (items: string[]) => void; idFor: (k: string) => string; addLabel: string; max?: number }) {
  return (
    <div className="qe-list" role="group" aria-labelledby={idFor('list-label')}>
      <span id={idFor('list-label')} className="qe-list-label">
        {label}
      </span>
      <ol>
        {items.map((item, i) => (
          <li key={i}>
            <label className="visually-hidden" htmlFor={idFor(`item-${i}`)}>
              {itemLabel} {i + 1}
            </label>
            <input id={idFor(`item-${i}`)} className="input" value={item} onChange={(e) => onChange(items.map((x, j) => (j === i ? e.target.value : x)))} />
            <button type="button" className="btn btn-ghost" aria-label={`Remove ${itemLabel.toLowerCase()} ${i + 1}`} onClick={() => onChange(items.filter((_, j) => j !== i))} disabled={items.length <= 1}>
              Remove
            </button>
          </li>
        ))}
      </ol>
      <button type="button" className="btn btn-secondary" onClick={() => onChange([...items, ''])} disabled={items.length >= max}>
        {addLabel}
      </button>
    </div>
  );
}
