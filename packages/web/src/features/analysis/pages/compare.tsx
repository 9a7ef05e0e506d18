/**
 * `/analysis/compare` — what changed between two networks, or between the latest two waves of a survey
 * (docs/api/analysis.md "Compare"; docs/surveys.md "Again next quarter"): the summary (people who joined
 * and left, ties added, removed and reweighted), the biggest movers (change of total degree per person),
 * and per-group density and E-I changes for a chosen node attribute (never a group below the survey's
 * minimum size). Both networks open in Explore from here.
 */
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { APP_PATHS, COMPARE_MOVERS_METRIC, pathTo } from '@netloom/protocol/http';
import { Button, ErrorNotice, num, PageHeader, Select, TextField } from '../../../components/ui.tsx';
import { useNetworks } from '../../networks/api/networks.ts';
import { useSurveys } from '../../surveys/api/surveys.ts';
import { useCompare, useDifferenceNetwork, type CompareTarget, type CompareView } from '../api/compare.ts';

const fmt = (x: number | null | undefined, digits = 3) => (x == null ? '—' : Number.isInteger(x) ? String(x) : x.toFixed(digits));
const signed = (x: number | null | undefined) => (x == null ? '—' : `${x > 0 ? '+' : ''}${fmt(x)}`);

function Summary({ view }: { view: CompareView }) {
  const c = view.comparison;
  const diff = useDifferenceNetwork();
  const navigate = useNavigate();
  const openDiff = () =>
    diff.mutate({ a: view.a.networkId, b: view.b.networkId }, { onSuccess: (d) => void navigate(`${pathTo(APP_PATHS.explore, { id: d._id })}?difference=1`, { state: { name: d.name } }) });
  const rows: [string, number][] = [
    ['People who joined', c.nodes.joined.length],
    ['People who left', c.nodes.left.length],
    ['People in both', c.nodes.kept],
    ['Ties added', c.ties.added.length],
    ['Ties removed', c.ties.removed.length],
    ['Ties kept', c.ties.kept],
    ['Ties reweighted', c.ties.weightChanged.length],
  ];
  return (
    <section className="card stack" aria-labelledby="cmp-summary-h">
      <h2 id="cmp-summary-h">Summary</h2>
      <dl className="stats" data-testid="compare-summary">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{num(v)}</dd>
          </div>
        ))}
      </dl>
      <div className="row wrap">
        <Button variant="primary" busy={diff.isPending} onClick={openDiff}>
          Open the difference in Explore
        </Button>
        <Link className="btn btn-secondary" to={pathTo(APP_PATHS.explore, { id: view.a.networkId })}>
          Open {view.a.label} in Explore
        </Link>
        <Link className="btn btn-secondary" to={pathTo(APP_PATHS.explore, { id: view.b.networkId })}>
          Open {view.b.label} in Explore
        </Link>
      </div>
      {diff.error ? <ErrorNotice error={diff.error} /> : null}
      <p className="muted">The difference opens as a network of its own: ties added in green, removed in red, kept faded.</p>
    </section>
  );
}

function Movers({ view }: { view: CompareView }) {
  const per = view.comparison.metrics?.[COMPARE_MOVERS_METRIC];
  const top = useMemo(
    () =>
      Object.entries(per ?? {})
        .filter(([, v]) => typeof v.delta === 'number' && v.delta !== 0)
        .sort((x, y) => Math.abs(y[1].delta as number) - Math.abs(x[1].delta as number) || (x[0] < y[0] ? -1 : 1))
        .slice(0, 10),
    [per],
  );
  if (!per) return null;
  return (
    <section className="card stack" aria-labelledby="cmp-movers-h">
      <h2 id="cmp-movers-h">Biggest movers</h2>
      {top.length === 0 ? (
        <p className="muted">Nobody's number of ties changed.</p>
      ) : (
        <div className="table-scroll">
        <table className="table" data-testid="compare-movers">
          <caption className="visually-hidden">People whose total degree changed most</caption>
          <thead>
            <tr>
              <th scope="col">Person</th>
              <th scope="col">{view.a.label}</th>
              <th scope="col">{view.b.label}</th>
              <th scope="col">Change</th>
            </tr>
          </thead>
          <tbody>
            {top.map(([id, v]) => (
              <tr key={id}>
                <th scope="row">{id}</th>
                <td>{fmt(v.a as number | null)}</td>
                <td>{fmt(v.b as number | null)}</td>
                <td>{signed(v.delta)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        </div>
      )}
    </section>
  );
}

function Groups({ view, attribute }: { view: CompareView; attribute: string }) {
  const groups = view.comparison.groups;
  if (!groups) return null;
  return (
    <section className="card stack" aria-labelledby="cmp-groups-h">
      <h2 id="cmp-groups-h">Group changes by {attribute}</h2>
      {groups.length === 0 ? (
        <p className="muted">No group is large enough to report.</p>
      ) : (
        <div className="table-scroll">
          <table className="table" data-testid="compare-groups">
            <caption className="visually-hidden">Density and E-I index of each group in both networks</caption>
            <thead>
              <tr>
                <th scope="col">Group</th>
                <th scope="col">Density {view.a.label}</th>
                <th scope="col">Density {view.b.label}</th>
                <th scope="col">Change</th>
                <th scope="col">E-I {view.a.label}</th>
                <th scope="col">E-I {view.b.label}</th>
                <th scope="col">Change</th>
              </tr>
            </thead>
            <tbody>
              {groups.map((g) => (
                <tr key={g.value}>
                  <th scope="row">{g.value}</th>
                  <td>{fmt(g.a?.density)}</td>
                  <td>{fmt(g.b?.density)}</td>
                  <td>{signed(g.densityChange)}</td>
                  <td>{fmt(g.a?.ei)}</td>
                  <td>{fmt(g.b?.ei)}</td>
                  <td>{signed(g.eiChange)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="muted">Groups below the minimum group size are merged into “Other (&lt; k)” and never shown alone.</p>
    </section>
  );
}

/** One of your networks to compare, by name. */
function NetworkPick({ label, networks, value, onChange }: { label: string; networks: readonly { _id: string; name: string }[]; value: string; onChange: (id: string) => void }) {
  return (
    <Select label={label} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">Choose…</option>
      {networks.map((n) => (
        <option key={n._id} value={n._id}>
          {n.name}
        </option>
      ))}
    </Select>
  );
}

export default function ComparePage() {
  const [params] = useSearchParams();
  const [kind, setKind] = useState<'waves' | 'networks'>(params.get('survey') ? 'waves' : params.get('a') ? 'networks' : 'waves');
  const [a, setA] = useState(params.get('a') ?? '');
  const [b, setB] = useState(params.get('b') ?? '');
  const [surveyId, setSurveyId] = useState(params.get('survey') ?? '');
  const [attribute, setAttribute] = useState('');
  const [movers, setMovers] = useState(true);
  const networks = useNetworks('modified');
  const surveys = useSurveys();
  const compare = useCompare();
  const [shownAttribute, setShownAttribute] = useState('');
  const waveSurveys = (surveys.data?.surveys ?? []).filter((s) => s.previousWaveId);
  const target: CompareTarget | null = kind === 'networks' ? (a && b ? { kind, a, b } : null) : surveyId ? { kind, surveyId } : null;

  // Opened from a survey ("Compare with the previous wave"): the latest two waves are compared at once.
  const autoRan = useRef(false);
  useEffect(() => {
    const from = params.get('survey');
    if (autoRan.current || !from || params.get('run') !== '1') return;
    autoRan.current = true;
    compare.mutate({ target: { kind: 'waves', surveyId: from }, input: { metrics: [COMPARE_MOVERS_METRIC] } });
  }, [params, compare]);

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!target) return;
    setShownAttribute(attribute.trim());
    compare.mutate({ target, input: { ...(attribute.trim() ? { attribute: attribute.trim() } : {}), ...(movers ? { metrics: [COMPARE_MOVERS_METRIC] } : {}) } });
  }

  return (
    <>
      <PageHeader title="Compare" subtitle="What changed between two networks, or between the latest two waves of a survey." />
      <form className="card stack" onSubmit={submit} aria-labelledby="cmp-form-h">
        <h2 id="cmp-form-h" className="visually-hidden">What to compare</h2>
        <Select label="Compare" value={kind} onChange={(e) => setKind(e.target.value as 'waves' | 'networks')}>
          <option value="waves">The latest two waves of a survey</option>
          <option value="networks">Two networks</option>
        </Select>
        {kind === 'waves' ? (
          <Select label="Survey (a second or later wave)" value={surveyId} onChange={(e) => setSurveyId(e.target.value)} hint={waveSurveys.length ? undefined : 'No survey has a second wave yet: copy a survey as its next wave.'}>
            <option value="">Choose…</option>
            {waveSurveys.map((s) => (
              <option key={s._id} value={s._id}>
                {s.name.includes(`(wave ${s.wave})`) ? s.name : `${s.name} (wave ${s.wave})`}
              </option>
            ))}
          </Select>
        ) : (
          <>
            <NetworkPick label="Earlier network (A)" networks={networks.data?.networks ?? []} value={a} onChange={setA} />
            <NetworkPick label="Later network (B)" networks={networks.data?.networks ?? []} value={b} onChange={setB} />
          </>
        )}
        <TextField label="Group by node attribute (optional)" value={attribute} onChange={(e) => setAttribute(e.target.value)} hint="For example Team: density and E-I index of each group in both." />
        <label className="check">
          <input type="checkbox" checked={movers} onChange={(e) => setMovers(e.target.checked)} /> Show the biggest movers (change in each person's number of ties)
        </label>
        <div className="row wrap">
          <Button type="submit" variant="primary" busy={compare.isPending} disabled={!target}>
            Compare
          </Button>
        </div>
        {compare.error ? <ErrorNotice error={compare.error} /> : null}
      </form>
      {compare.data && (
        <div className="stack-lg">
          <Summary view={compare.data} />
          <Movers view={compare.data} />
          <Groups view={compare.data} attribute={shownAttribute} />
        </div>
      )}
    </>
  );
}
