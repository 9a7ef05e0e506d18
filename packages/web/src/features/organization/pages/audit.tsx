/**
 * `/organization/audit` (Owners and Admins): the organization's audit log — every embedding and member
 * change with its actor — filtered by action, actor, target and dates, paged, and downloadable as CSV
 * with the same filter.
 */
import { useState, type FormEvent } from 'react';
import { useOrgOverview } from '../api/organization.ts';
import { auditCsvUrl, useAudit } from '../api/embedding.ts';
import { Button, DateText, ErrorNotice, Loading, PageHeader, TextField, num } from '../../../components/ui.tsx';
import { AdminsOnly, OrgTabs } from '../components/tabs.tsx';
import { DataTable } from '../../../components/data-table.tsx';

const PAGE = 50;
interface Filter {
  action: string;
  actor: string;
  target: string;
  from: string;
  to: string;
}
const EMPTY: Filter = { action: '', actor: '', target: '', from: '', to: '' };

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
      <PageHeader title="Audit log" subtitle="Every change to members and embedding, newest first." />
      <OrgTabs overview={overview.data} />
      {overview.isPending && <Loading />}
      {overview.data && !admin && <AdminsOnly />}
      {admin && (
        <>
          <form className="filters" onSubmit={apply} aria-label="Filter the audit log">
            <TextField label="Action" placeholder="e.g. session.revoke" {...field('action')} />
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
                columns={[
                  { label: 'When', cell: (e) => <DateText iso={e.at} /> },
                  { label: 'Action', cell: (e) => <code>{e.action}</code> },
                  { label: 'Actor', cell: (e) => <>{e.actor.kind} <code>{e.actor.id}</code></> },
                  { label: 'Target', cell: (e) => (e.target ? <code>{e.target}</code> : <span className="muted">—</span>) },
                  { label: 'Details', cell: (e) => <code className="details">{Object.keys(e.details).length ? JSON.stringify(e.details) : ''}</code> },
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
