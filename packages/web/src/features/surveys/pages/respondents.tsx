/**
 * Who can be named (the roster) and who is asked (the respondents, by default the roster), each as
 * everyone, a list picked from the People directory, or a filter on a field (docs/spec/decisions.md
 * §10.2). After launch, newly selected people get a link and people no longer selected lose theirs.
 */
import { useId, useMemo, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { APP_PATHS } from '@netloom/protocol/http';
import { Button, ErrorNotice, Loading, Notice, Stat, num } from '../../../components/ui.tsx';
import { useCustomFields, useEmployees, useSaveRespondents } from '../api/surveys.ts';
import type { Selector, Survey } from '../api/types.ts';
import type { CustomField, Employee } from '../../people/api/types.ts';
import { selects } from '../components/preview.tsx';

type Mode = 'all' | 'list' | 'field';
const modeOf = (s: Selector): Mode => ('all' in s ? 'all' : 'employeeIds' in s ? 'list' : 'field');

export function RespondentsStep({ survey }: { survey: Survey }) {
  return <RespondentsForm key={survey.modified} survey={survey} />;
}

function RespondentsForm({ survey: s }: { survey: Survey }) {
  const [roster, setRoster] = useState<Selector>(s.roster);
  const [respondents, setRespondents] = useState<Selector | null>(s.respondents);
  const fieldsQ = useCustomFields();
  const everyone = useEmployees('', 500);
  const update = useSaveRespondents(s._id);
  const fields = fieldsQ.data?.customFields ?? [];
  const people = everyone.data?.employees ?? [];
  const partial = (everyone.data?.total ?? 0) > people.length;
  const atLeast = (n: number) => `${partial ? 'at least ' : ''}${num(n)}`;
  const canEdit = s.access !== 'view' && s.status !== 'completed';
  const named = people.filter((e) => selects(roster, e));
  const asked = respondents === null ? named : people.filter((e) => selects(respondents, e));
  const dirty = JSON.stringify(roster) !== JSON.stringify(s.roster) || JSON.stringify(respondents) !== JSON.stringify(s.respondents);

  if (everyone.isPending || fieldsQ.isPending) return <Loading />;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    update.mutate({ roster, respondents });
  };
  return (
    <form className="stack-lg" onSubmit={submit} aria-label="Roster and respondents">
      <ErrorNotice error={everyone.error ?? fieldsQ.error} />
      {people.length === 0 && !everyone.error && (
        <Notice kind="warning">
          The People directory is empty. <Link to={APP_PATHS.people}>Add or import people</Link> first: a survey names and asks people of the directory.
        </Notice>
      )}
      {s.status !== 'draft' && s.status !== 'completed' && <Notice kind="info">The survey is launched: people newly selected get a link; people no longer selected lose theirs (answers they gave are kept).</Notice>}
      <div className="stats" data-testid="roster-counts">
        <Stat label="Can be named (roster)" valueTestId="roster-count">{atLeast(named.length)}</Stat>
        <Stat label="Asked (respondents)" valueTestId="respondent-count">{atLeast(asked.length)}</Stat>
        <Stat label="Named but not asked">{num(named.filter((e) => !asked.includes(e)).length)}</Stat>
      </div>
      <section className="card stack" aria-labelledby="roster-h">
        <h2 id="roster-h">Who can be named</h2>
        <p className="muted">The people respondents choose from in relationship questions — the nodes of the network.</p>
        <SelectorEditor legend="Roster" value={roster} onChange={setRoster} fields={fields} everyone={people} disabled={!canEdit} />
      </section>
      <section className="card stack" aria-labelledby="resp-h">
        <h2 id="resp-h">Who is asked</h2>
        <p className="muted">Each of them gets a personal link. People can be named without being asked (Socilyzer's case), and asked without being on the roster.</p>
        <label className="check">
          <input type="checkbox" checked={respondents === null} disabled={!canEdit} onChange={(e) => setRespondents(e.target.checked ? null : roster)} />
          <span>Ask everyone who can be named</span>
        </label>
        {respondents !== null && <SelectorEditor legend="Respondents" value={respondents} onChange={setRespondents} fields={fields} everyone={people} disabled={!canEdit} />}
      </section>
      <ErrorNotice error={update.error} title="Not saved" />
      {canEdit && (
        <div className="builder-save">
          <span className="muted" role="status">
            {dirty ? 'Unsaved changes.' : 'All changes saved.'}
          </span>
          <Button type="submit" variant="primary" busy={update.isPending} disabled={!dirty}>
            Save
          </Button>
        </div>
      )}
    </form>
  );
}

function SelectorEditor({ legend, value, onChange, fields, everyone, disabled }: { legend: string; value: Selector; onChange: (s: Selector) => void; fields: readonly CustomField[]; everyone: readonly Employee[]; disabled: boolean }) {
  const uid = useId();
  const mode = modeOf(value);
  const setMode = (m: Mode) => {
    if (m === mode) return;
    if (m === 'all') onChange({ all: true });
    else if (m === 'list') onChange({ employeeIds: everyone.filter((e) => selects(value, e)).map((e) => e.employeeId) });
    else onChange({ field: fields[0]?.key ?? '', values: [] });
  };
  return (
    <fieldset className="stack plain-fieldset" disabled={disabled}>
      <legend className="visually-hidden">{legend}</legend>
      <div className="seg" role="radiogroup" aria-label={`${legend}: how people are chosen`}>
        {(
          [
            ['all', 'Everyone active'],
            ['list', 'A list of people'],
            ['field', 'By a field'],
          ] as const
        ).map(([m, label]) => (
          <label key={m} className={`seg-option${mode === m ? ' seg-on' : ''}`}>
            <input type="radio" name={`${uid}-mode`} checked={mode === m} onChange={() => setMode(m)} disabled={m === 'field' && fields.length === 0} />
            <span>{label}</span>
          </label>
        ))}
      </div>
      {'employeeIds' in value && <PeopleList ids={value.employeeIds} onChange={(employeeIds) => onChange({ employeeIds })} />}
      {'field' in value && <FieldFilter value={value} fields={fields} onChange={onChange} />}
    </fieldset>
  );
}

function PeopleList({ ids, onChange }: { ids: string[]; onChange: (ids: string[]) => void }) {
  const uid = useId();
  const [q, setQ] = useState('');
  const found = useEmployees(q.trim(), 200);
  const chosen = useMemo(() => new Set(ids), [ids]);
  const shown = found.data?.employees ?? [];
  return (
    <div className="stack people-pick">
      <div className="field">
        <label htmlFor={`${uid}-q`}>Find people (name, e-mail or employee id)</label>
        <input id={`${uid}-q`} type="search" className="input" value={q} onChange={(e) => setQ(e.target.value)} autoComplete="off" />
      </div>
      <div className="row wrap">
        <span className="muted" aria-live="polite">
          {num(ids.length)} chosen · {num(found.data?.total ?? 0)} found{(found.data?.total ?? 0) > shown.length ? ` (first ${shown.length} shown)` : ''}
        </span>
        <Button variant="ghost" onClick={() => onChange([...new Set([...ids, ...shown.map((e) => e.employeeId)])])} disabled={shown.length === 0}>
          Choose all shown
        </Button>
        <Button variant="ghost" onClick={() => onChange([])} disabled={ids.length === 0}>
          Clear
        </Button>
      </div>
      <ul className="people-pick-list" aria-label="People">
        {shown.map((e) => (
          <li key={e.employeeId}>
            <label className="check">
              <input type="checkbox" checked={chosen.has(e.employeeId)} onChange={(ev) => onChange(ev.target.checked ? [...ids, e.employeeId] : ids.filter((x) => x !== e.employeeId))} />
              <span>
                {e.name} <span className="muted">{e.employeeId}</span>
              </span>
            </label>
          </li>
        ))}
      </ul>
    </div>
  );
}

function FieldFilter({ value, fields, onChange }: { value: { field: string; values: (string | number)[] }; fields: readonly CustomField[]; onChange: (s: Selector) => void }) {
  const uid = useId();
  const f = fields.find((x) => x.key === value.field);
  const [text, setText] = useState(value.values.join(', '));
  return (
    <div className="grid-2 builder-grid">
      <div className="field">
        <label htmlFor={`${uid}-f`}>Field</label>
        <select id={`${uid}-f`} className="input" value={value.field} onChange={(e) => onChange({ field: e.target.value, values: [] })}>
          {fields.map((x) => (
            <option key={x.key} value={x.key}>
              {x.label}
              {x.sensitive ? ' (sensitive)' : ''}
            </option>
          ))}
        </select>
      </div>
      {f?.type === 'category' && f.options ? (
        <fieldset className="plain-fieldset">
          <legend className="field-legend">Is one of</legend>
          {f.options.map((o) => (
            <label key={o} className="check">
              <input type="checkbox" checked={value.values.map(String).includes(o)} onChange={(e) => onChange({ field: value.field, values: e.target.checked ? [...value.values, o] : value.values.filter((v) => String(v) !== o) })} />
              <span>{o}</span>
            </label>
          ))}
        </fieldset>
      ) : (
        <div className="field">
          <label htmlFor={`${uid}-v`}>Is one of (separate values with commas)</label>
          <input
            id={`${uid}-v`}
            className="input"
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              const vals = e.target.value.split(',').map((v) => v.trim()).filter(Boolean);
              onChange({ field: value.field, values: f?.type === 'number' ? vals.map(Number).filter(Number.isFinite) : vals });
            }}
          />
        </div>
      )}
    </div>
  );
}
