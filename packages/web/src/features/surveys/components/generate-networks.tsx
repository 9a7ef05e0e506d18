/**
 * "Generate networks" (docs/surveys.md §5; docs/api/people-and-surveys.md "Generating networks"): the step
 * of a launched survey that turns its answers into networks. The analyst picks the relationship questions,
 * whether to add a combined network, what happens to non-respondents, a minimum rating and the custom
 * fields; a live preview (`dryRun: true`) shows the node and edge counts of every non-respondent mode for
 * each question, then "Generate" stores them and links each network to Explore. Generated networks and the
 * options they were made with are listed from the survey (`networks` of the survey).
 */
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { APP_PATHS, pathTo } from '@netloom/protocol/http';
import { Button, ErrorNotice, Notice, num, Select, TextField } from '../../../components/ui.tsx';
import { useCustomFields } from '../api/surveys.ts';
import { useGenerateNetworks, useNetworksPreview } from '../api/networks.ts';
import type { NetworksInput as Body, NetworksResult as Result, Survey } from '../api/types.ts';

type Mode = NonNullable<Body['nonRespondents']>;

const MODES: { id: Mode; label: string; hint: string }[] = [
  { id: 'keep', label: 'Keep them', hint: 'Everyone stays, with the ties others reported to them.' },
  { id: 'drop', label: 'Drop them', hint: 'People who did not answer, and their ties, are left out.' },
  { id: 'reconstruct', label: 'Reconstruct their ties', hint: 'Their ties are what others said of them, in both directions.' },
  { id: 'reciprocated', label: 'Reciprocated ties only', hint: 'Only ties both people named.' },
];

export function GenerateNetworks({ survey }: { survey: Survey }) {
  const relationship = survey.questions.filter((q) => q.type === 'relationship');
  const [chosen, setChosen] = useState<string[]>(relationship.map((q) => q.id));
  const [combined, setCombined] = useState(relationship.length > 1);
  const [mode, setMode] = useState<Mode>('keep');
  const [minRating, setMinRating] = useState('');
  const fields = useCustomFields();
  const [picked, setPicked] = useState<string[] | null>(null);
  const fieldList = fields.data?.customFields ?? [];
  const pickedFields = picked ?? fieldList.filter((f) => !f.sensitive).map((f) => f.key);

  const fieldKey = pickedFields.join('\u0000');
  const body: Body = useMemo(
    () => ({ questions: chosen, combined, nonRespondents: mode, fields: fieldKey ? fieldKey.split('\u0000') : [], ...(minRating ? { minRating: Number(minRating) } : {}) }),
    [chosen, combined, mode, minRating, fieldKey],
  );
  const ready = chosen.length > 0 && fields.isSuccess;
  const preview = useNetworksPreview(survey._id, body, ready);
  const generate = useGenerateNetworks(survey._id);
  const [done, setDone] = useState<Result | null>(null);
  useEffect(() => setDone(null), [body]);

  if (survey.status === 'draft') return <p className="muted">Networks can be generated once the survey is launched and answers come in.</p>;
  if (relationship.length === 0) return <p className="muted">This survey has no relationship question, so there is no network to make.</p>;
  const toggle = (list: string[], id: string, on: boolean) => (on ? [...list, id] : list.filter((x) => x !== id));
  const names = new Map(relationship.map((q) => [q.id, q.text]));
  const created = done ? done.networks.filter((n) => n.created).length : 0;

  return (
    <div className="stack-lg" data-testid="generate-networks">
      {survey.status !== 'completed' && (
        <Notice kind="warning">The survey is still {survey.status === 'offline' ? 'paused' : 'collecting answers'}: networks made now are marked preliminary. Generate again after it completes — the same networks are updated.</Notice>
      )}
      <section className="card stack" aria-labelledby="gen-options-h">
        <h2 id="gen-options-h">Options</h2>
        <fieldset className="stack">
          <legend>Questions</legend>
          {relationship.map((q) => (
            <label key={q.id} className="check">
              <input type="checkbox" checked={chosen.includes(q.id)} onChange={(e) => setChosen(toggle(chosen, q.id, e.target.checked))} /> {q.text}
            </label>
          ))}
          <label className="check">
            <input type="checkbox" checked={combined} onChange={(e) => setCombined(e.target.checked)} /> Also one combined network (edge attribute <code>Question</code>)
          </label>
        </fieldset>
        <Select label="People who did not answer" value={mode} onChange={(e) => setMode(e.target.value as Mode)} hint={MODES.find((m) => m.id === mode)!.hint} data-option="non-respondents">
          {MODES.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label}
            </option>
          ))}
        </Select>
        {relationship.some((q) => q.rating) && (
          <TextField label="Minimum rating (optional)" type="number" min={1} max={11} inputMode="numeric" value={minRating} onChange={(e) => setMinRating(e.target.value)} hint="Ties rated below it are left out; 1 is the lowest answer that is not “I don’t know”." />
        )}
        {fieldList.length > 0 && (
          <fieldset className="stack">
            <legend>Custom fields on the nodes</legend>
            {fieldList.map((f) => {
              const blocked = f.sensitive && survey.privacy === 'pseudonymised';
              return (
                <label key={f.key} className="check">
                  <input type="checkbox" disabled={blocked} checked={pickedFields.includes(f.key)} onChange={(e) => setPicked(toggle(pickedFields, f.key, e.target.checked))} /> {f.label}
                  {f.sensitive ? <span className="muted"> — sensitive{blocked ? ': never in a pseudonymised survey' : ''}</span> : null}
                </label>
              );
            })}
          </fieldset>
        )}
        {survey.privacy === 'pseudonymised' && <p className="muted">Pseudonymised: people appear as stable codes; no name, e-mail or sensitive field is written.</p>}
      </section>

      <section className="card stack" aria-labelledby="gen-preview-h" aria-busy={preview.isFetching}>
        <h2 id="gen-preview-h">Preview</h2>
        {preview.error ? <ErrorNotice error={preview.error} /> : null}
        {!ready && <p className="muted">Choose at least one question.</p>}
        {preview.data && (
          <>
            <p className="muted">
              {num(preview.data.people)} people can be nodes; {num(preview.data.respondents)} were asked.
            </p>
            <div className="table-scroll">
              <table className="table" data-testid="generate-preview">
                <caption className="visually-hidden">Nodes and edges under each choice for people who did not answer</caption>
                <thead>
                  <tr>
                    <th scope="col">Network</th>
                    <th scope="col">Answered</th>
                    {MODES.map((m) => (
                      <th key={m.id} scope="col" aria-current={m.id === mode ? 'true' : undefined}>
                        {m.label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {preview.data.networks.map((n) => (
                    <tr key={n.question} data-question={n.question}>
                      <th scope="row">{n.question === 'combined' ? 'Combined' : (names.get(n.question) ?? n.question)}</th>
                      <td>{num(n.responded)}</td>
                      {MODES.map((m) => (
                        <td key={m.id} data-mode={m.id} className={m.id === mode ? 'strong' : undefined}>
                          {num(n.modes[m.id].nodes)} nodes · {num(n.modes[m.id].edges)} edges
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
        <div className="row wrap">
          <Button variant="primary" busy={generate.isPending} disabled={!ready} onClick={() => generate.mutate(body, { onSuccess: (r) => setDone(r) })}>
            Generate networks
          </Button>
        </div>
        {generate.error ? <ErrorNotice error={generate.error} /> : null}
        {done && (
          <Notice kind="success">
            {created ? `Made ${created} network(s)` : 'Updated the networks'}
            {done.preliminary ? ' (preliminary)' : ''}.
          </Notice>
        )}
      </section>

      <section className="card stack" aria-labelledby="gen-list-h">
        <h2 id="gen-list-h">Generated networks</h2>
        {survey.previousWaveId && survey.networks.length > 0 && (
          <p>
            <Link className="btn btn-primary" to={`${APP_PATHS.compare}?survey=${encodeURIComponent(survey._id)}&run=1`}>
              Compare with the previous wave
            </Link>
          </p>
        )}
        {survey.networks.length === 0 ? (
          <p className="muted">None yet.</p>
        ) : (
          <ul className="stack" data-testid="generated-networks">
            {survey.networks.map((n) => (
              <li key={n._id} className="row wrap">
                <strong>{n.question === 'combined' ? 'Combined' : (names.get(n.question) ?? n.question)}</strong>
                <span className="muted">
                  {MODES.find((m) => m.id === n.options.nonRespondents)?.label ?? n.options.nonRespondents}
                  {n.preliminary ? ' · preliminary' : ''}
                </span>
                <Link className="btn btn-secondary" to={pathTo(APP_PATHS.explore, { id: n._id })}>
                  Open in Explore
                </Link>
                <Link to={pathTo(APP_PATHS.network, { id: n._id })}>Details</Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
