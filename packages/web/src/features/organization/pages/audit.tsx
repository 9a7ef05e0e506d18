/**
 * `/organization/audit` (Owners and Admins): the organization's audit log — members, invitations,
 * credentials, MFA, sharing and embedding, each with who acted (a person's name and e-mail, a managed
 * user, a credential, "anonymous (Discover)") and readable details — filtered by kind of event, kind of
 * actor, actor id, target and dates, paged, and downloadable as CSV with the same filter.
 */
import { useState, type FormEvent } from 'react';
import { useOrgOverview } from '../api/organization.ts';
import { auditCsvUrl, useAudit } from '../api/embedding.ts';
import { Button, DateText, ErrorNotice, formatDate, Loading, PageHeader, Select, TextField, num } from '../../../components/ui.tsx';
import { AdminsOnly, OrgTabs } from '../components/tabs.tsx';
import { DataTable } from '../../../components/data-table.tsx';

const PAGE = 50;
/** Kinds of event (an action prefix ending with a dot: the API matches every action starting with it). */
const EVENT_KINDS: [string, string][] = [
  ['', 'Every kind'],
  ['member.', 'Members'],
  ['invitation.', 'Invitations'],
  ['credential.', 'API credentials'],
  ['mfa.', 'Two-factor sign-in (MFA)'],
  ['share.', 'Sharing'],
  ['user.', 'Managed users'],
  ['grant.', 'Managed users’ network access'],
  ['session.', 'Viewer sessions'],
  ['launch_token.', 'Launch tokens'],
  ['metric.', 'Metric runs'],
  ['view.', 'Saved views'],
  ['chat.', 'AI chat'],
  ['settings.', 'Embedding settings'],
];
const ACTOR_KINDS: [string, string][] = [
  ['', 'Anyone'],
  ['user', 'People (signed in)'],
  ['managed_user', 'Managed users'],
  ['credential', 'API credentials'],
  ['anonymous', 'Anonymous (Discover)'],
  ['operator', 'Service operator'],
  ['cli', 'Command line'],
];
const ACTOR_KIND_TEXT: Record<string, string> = { user: 'person', managed_user: 'managed user', credential: 'credential', anonymous: 'visitor', operator: 'operator', cli: 'CLI' };

/** "Expires at" from `expiresAt`, "Sessions ended" from `sessionsEnded`. */
function label(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function valueText(v: unknown): string {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'string') return /^\d{4}-\d{2}-\d{2}T/.test(v) ? formatDate(v) : v;
  if (typeof v === 'number') return num(v);
  if (Array.isArray(v)) return v.map(valueText).join(', ');
  return Object.entries(v as Record<string, unknown>).map(([k, x]) => `${label(k)} ${valueText(x)}`).join(', ');
}

/** The details of an entry as label–value pairs. */
function Details({ details }: { details: Record<string, unknown> }) {
  const entries = Object.entries(details);
  if (entries.length === 0) return <span className="muted">—</span>;
  return (
    <dl className="audit-details">
      {entries.map(([k, v]) => (
        <div key={k}><dt>{label(k)}</dt> <dd>{valueText(v)}</dd></div>
      ))}
    </dl>
  );
}

interface Filter {
  action: string;
  actorKind: string;
  actor: string;
  target: string;
  from: string;
  to: string;
}
const EMPTY: Filter = { action: '', actorKind: '', actor: '', target: '', from: '', to: '' };

function queryOf(f: Filter, offset: number): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v.trim()) p.set(k, v.trim());
  p.set('limit', String(PAGE));
  p.set('offset', String(offset));
  return p.toString();
}

export default function OrganizationAudit() {
  const overview = useOrgOverview();
  const admin = !!overview.data?.canManage;
  const [draft, setDraft] = useState<Filter>(EMPTY);
  const [filter, setFilter] = useState<Filter>(EMPTY);
  const [offset, setOffset] = useState(0);
  const query = queryOf(filter, offset);
  const audit = useAudit(admin ? query : '');
  const csvQuery = new URLSearchParams(query);
  csvQuery.delete('limit');
  csvQuery.delete('offset');
  const field = (k: keyof Filter) => ({ value: draft[k], onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [k]: e.target.value }) });
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilter(draft);
    setOffset(0);
  };
  const data = admin ? audit.data : undefined;
  return (
    <>
      <PageHeader title="Audit log" subtitle="Members, invitations, credentials, MFA, sharing and embedding — who did what, newest first." />
      <OrgTabs overview={overview.data} />
      {overview.isPending && <Loading />}
      {overview.data && !admin && <AdminsOnly />}
      {admin && (
        <>
          <form className="filters" onSubmit={apply} aria-label="Filter the audit log">
            <Select label="Kind of event" {...field('action')}>
              {EVENT_KINDS.map(([v, t]) => <option key={v} value={v}>{t}</option>)}
            </Select>
            <Select label="Who acted" {...field('actorKind')}>
              {ACTOR_KINDS.map(([v, t]) => <option key={v} value={v}>{t}</option>)}
            </Select>
            <TextField label="Actor id" {...field('actor')} />
            <TextField label="Target" placeholder="external id, session id…" {...field('target')} />
            <TextField label="From" type="date" {...field('from')} />
            <TextField label="To" type="date" {...field('to')} />
            <div className="filters-actions">
              <Button type="submit" variant="primary">Filter</Button>
              <Button onClick={() => { setDraft(EMPTY); setFilter(EMPTY); setOffset(0); }}>Clear</Button>
              <a className="btn btn-secondary" href={auditCsvUrl(csvQuery.toString())} download>Download CSV</a>
            </div>
          </form>
          <ErrorNotice error={audit.error} />
          {audit.isPending && <Loading />}
          {data && data.entries.length === 0 && <p className="muted">No entries match.</p>}
          {data && data.entries.length > 0 && (
            <>
              <DataTable
                testId="audit-table"
                rows={data.entries}
                rowKey={(e) => e.id}
                rowAttributes={(e) => ({ 'data-action': e.action })}
                columns={[
                  { label: 'When', cell: (e) => <DateText iso={e.at} /> },
                  { label: 'Action', cell: (e) => <code>{e.action}</code> },
                  { label: 'Actor', cell: (e) => <>{e.actor.name ?? <code>{e.actor.id}</code>} <span className="muted">({ACTOR_KIND_TEXT[e.actor.kind] ?? e.actor.kind})</span></> },
                  { label: 'Target', cell: (e) => (e.target ? <code>{e.target}</code> : <span className="muted">—</span>) },
                  { label: 'Details', cell: (e) => <Details details={e.details} /> },
                ]}
              />
              <nav className="pager" aria-label="Pages">
                <span>{num(data.offset + 1)}–{num(data.offset + data.entries.length)} of {num(data.total)}</span>
                <Button disabled={data.offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>Previous</Button>
                <Button disabled={data.offset + data.entries.length >= data.total} onClick={() => setOffset(offset + PAGE)}>Next</Button>
              </nav>
            </>
          )}
        </>
      )}
    </>
  );
}
