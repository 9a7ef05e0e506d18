/**
 * Choosing people for a relationship question (docs/spec/decisions.md §10.3): the people already chosen
 * at the top (each removable, each with the question's rating scale), then the roster — as cards when it
 * is small (up to CARD_LIMIT people, Network Canvas's case) and as a search box over a virtualised list
 * when it is large, so a roster of thousands stays fast. Search matches the name and every non-sensitive
 * field the service sent (sensitive fields never reach this page). Every control is a real checkbox or
 * radio button with a label, so keyboards and screen readers work without extra wiring.
 */
import { useMemo, useRef, useState, type UIEvent } from 'react';
import type { Nomination, RespondentQuestion, RosterPerson } from './api.ts';

export const CARD_LIMIT = 100;
const ROW_H = 56;
const VISIBLE_ROWS = 8;

const fold = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

/** A search index: one folded string per person (name and field values). */
export function searchIndex(people: readonly RosterPerson[]): string[] {
  return people.map((p) => fold([p.name, p.employeeId, ...Object.values(p.fields).map(String)].join(' ')));
}

/** People whose name or fields contain every word of the query. */
export function searchRoster(people: readonly RosterPerson[], index: readonly string[], query: string): RosterPerson[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return people as RosterPerson[];
  const out: RosterPerson[] = [];
  for (let i = 0; i < people.length; i++) {
    const s = index[i] as string;
    if (words.every((w) => s.includes(w))) out.push(people[i] as RosterPerson);
  }
  return out;
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/);
  return ((parts[0]?.[0] ?? '') + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '')).toUpperCase() || '?';
}

/** A photo only from this service or a data: URL (the page makes no third-party request); else initials. */
function Avatar({ person }: { person: RosterPerson }) {
  const [failed, setFailed] = useState(false);
  const src = person.photoUrl;
  const sameOrigin = src !== undefined && (src.startsWith('data:image/') || (src.startsWith('/') && !src.startsWith('//')) || src.startsWith(location.origin + '/'));
  if (src && sameOrigin && !failed) return <img className="r-avatar" src={src} alt="" onError={() => setFailed(true)} />;
  return (
    <span className="r-avatar r-avatar-initials" aria-hidden="true">
      {initials(person.name)}
    </span>
  );
}

function fieldsLine(person: RosterPerson, fields: readonly { key: string; label: string }[]): string {
  return fields
    .map((f) => person.fields[f.key])
    .filter((v) => v !== undefined && v !== '')
    .join(' · ');
}

interface PickerProps {
  question: RespondentQuestion;
  /** The people this question offers (the roster, or those carried forward), without the respondent. */
  people: readonly RosterPerson[];
  fields: readonly { key: string; label: string }[];
  value: Nomination[];
  onChange: (next: Nomination[]) => void;
  byId: ReadonlyMap<string, RosterPerson>;
}

export function RosterPicker({ question, people, fields, value, onChange, byId }: PickerProps) {
  const [query, setQuery] = useState('');
  const [scrollTop, setScrollTop] = useState(0);
  const [writeIn, setWriteIn] = useState('');
  const listRef = useRef<HTMLDivElement>(null);
  const index = useMemo(() => searchIndex(people), [people]);
  const matches = useMemo(() => searchRoster(people, index, query), [people, index, query]);
  const chosen = new Set(value.flatMap((n) => ('employeeId' in n ? [n.employeeId] : [])));
  const max = question.maxSelections;
  const full = max !== undefined && value.length >= max;
  const cards = people.length <= CARD_LIMIT;

  const toggle = (id: string) => {
    if (chosen.has(id)) onChange(value.filter((n) => !('employeeId' in n) || n.employeeId !== id));
    else if (!full) onChange([...value, { employeeId: id }]);
  };
  const rate = (i: number, rating: number) => onChange(value.map((n, j) => (j === i ? { ...n, rating } : n)));
  const remove = (i: number) => onChange(value.filter((_, j) => j !== i));
  const addWriteIn = () => {
    const name = writeIn.trim();
    if (!name || full || value.some((n) => 'writeIn' in n && n.writeIn.toLowerCase() === name.toLowerCase())) return;
    onChange([...value, { writeIn: name }]);
    setWriteIn('');
  };

  const qid = question.id;
  const rowFor = (p: RosterPerson) => (
    <label key={p.employeeId} className={`r-person${chosen.has(p.employeeId) ? ' r-person-on' : ''}`} style={cards ? undefined : { height: ROW_H }}>
      <input type="checkbox" checked={chosen.has(p.employeeId)} disabled={!chosen.has(p.employeeId) && full} onChange={() => toggle(p.employeeId)} />
      <Avatar person={p} />
      <span className="r-person-text">
        <span className="r-person-name">{p.name}</span>
        {fields.length > 0 && <span className="r-person-fields">{fieldsLine(p, fields)}</span>}
      </span>
    </label>
  );

  // The virtualised list draws only the rows in view (plus a margin), positioned in a tall spacer.
  const first = Math.max(0, Math.floor(scrollTop / ROW_H) - 4);
  const last = Math.min(matches.length, first + VISIBLE_ROWS + 8);
  const onScroll = (e: UIEvent<HTMLDivElement>) => setScrollTop(e.currentTarget.scrollTop);

  return (
    <div className="r-picker">
      {value.length > 0 && (
        <section className="r-chosen" aria-label={`Chosen (${value.length})`}>
          <h2 className="r-sub">
            Chosen: {value.length}
            {max !== undefined ? ` of at most ${max}` : ''}
          </h2>
          <ul className="r-chosen-list">
            {value.map((n, i) => {
              const name = 'employeeId' in n ? (byId.get(n.employeeId)?.name ?? n.employeeId) : `${n.writeIn} (not in the list)`;
              return (
                <li key={'employeeId' in n ? n.employeeId : `w:${n.writeIn}`} className="r-chosen-item">
                  <div className="r-chosen-head">
                    <span className="r-person-name">{name}</span>
                    <button type="button" className="btn btn-ghost btn-sm" onClick={() => remove(i)} aria-label={`Remove ${name}`}>
                      Remove
                    </button>
                  </div>
                  {question.rating && (
                    <fieldset className="r-rating">
                      <legend className="r-visually-hidden">
                        Rating for {name}
                      </legend>
                      {question.rating.labels.map((label, r) => (
                        <label key={r} className={`r-rating-option${n.rating === r ? ' r-rating-on' : ''}${question.rating?.dontKnow && r === 0 ? ' r-rating-dontknow' : ''}`}>
                          <input type="radio" name={`${qid}-rate-${i}`} checked={n.rating === r} onChange={() => rate(i, r)} />
                          <span>{label}</span>
                        </label>
                      ))}
                    </fieldset>
                  )}
                </li>
              );
            })}
          </ul>
        </section>
      )}

      <div className="r-search">
        <label htmlFor={`${qid}-search`} className="r-search-label">
          {cards ? 'Find a person' : `Search ${people.length.toLocaleString()} people by name${fields.length ? ' or ' + fields.map((f) => f.label.toLowerCase()).join(', ') : ''}`}
        </label>
        <input
          id={`${qid}-search`}
          type="search"
          className="input"
          value={query}
          autoComplete="off"
          onChange={(e) => {
            setQuery(e.target.value);
            setScrollTop(0);
            if (listRef.current) listRef.current.scrollTop = 0;
          }}
          aria-controls={`${qid}-people`}
        />
        <p className="r-count" aria-live="polite">
          {query ? `${matches.length} ${matches.length === 1 ? 'match' : 'matches'}` : ''}
          {full ? ` You have chosen the most people this question allows (${max}).` : ''}
        </p>
      </div>

      {cards ? (
        <div id={`${qid}-people`} className="r-cards" role="group" aria-label="People">
          {matches.map(rowFor)}
          {matches.length === 0 && <p className="r-empty">Nobody matches “{query}”.</p>}
        </div>
      ) : (
        <div id={`${qid}-people`} ref={listRef} className="r-list" role="group" aria-label="People" tabIndex={-1} onScroll={onScroll} style={{ maxHeight: ROW_H * VISIBLE_ROWS }}>
          <div style={{ height: matches.length * ROW_H, position: 'relative' }}>
            <div style={{ position: 'absolute', top: first * ROW_H, left: 0, right: 0 }}>{matches.slice(first, last).map(rowFor)}</div>
          </div>
          {matches.length === 0 && <p className="r-empty">Nobody matches “{query}”.</p>}
        </div>
      )}

      {question.allowWriteIns && (
        <div className="r-writein">
          <label htmlFor={`${qid}-writein`}>Someone who is not in the list</label>
          <div className="r-writein-row">
            <input
              id={`${qid}-writein`}
              className="input"
              value={writeIn}
              maxLength={200}
              onChange={(e) => setWriteIn(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  addWriteIn();
                }
              }}
            />
            <button type="button" className="btn btn-secondary" onClick={addWriteIn} disabled={!writeIn.trim() || full}>
              Add
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
