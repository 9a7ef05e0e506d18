/**
 * `/people`: the directory of the organization (or of a user in none) — docs/spec/decisions.md §10.1.
 * The list with search and pages and one column per custom field (a sensitive field says so in its
 * heading); add or edit a person in a dialog; erase with confirmation, then what was removed; import from
 * Excel or CSV (template download; every problem of a file listed with its row and column, nothing stored);
 * the fields editor. Owners, Admins and Standard Users (the navigation entry shows for them; the server
 * answers others 403, shown here in place).
 */
import { useState } from 'react';
import { ApiError } from '../../../api/client.ts';
import { Badge, Button, Empty, ErrorNotice, Loading, Notice, PageHeader, num } from '../../../components/ui.tsx';
import { Confirm, Dialog } from '../../../components/dialog.tsx';
import { Pager, SearchForm, pageCount, useSearchPaging } from '../../../components/search-paging.tsx';
import { TEMPLATE_URL, useCustomFields, useErasePerson, usePeople } from '../api/people.ts';
import type { CustomField, Employee, EmployeeErased } from '../api/types.ts';
import { PersonDialog } from '../components/person-dialog.tsx';
import { ImportDialog } from '../components/import-dialog.tsx';
import { FieldsDialog } from '../components/fields-dialog.tsx';

const PAGE = 50;

type Editing = { person: Employee | null } | null;

export default function PeoplePage() {
  const paging = useSearchPaging(PAGE);
  const { q } = paging;
  const people = usePeople(q, paging.offset, PAGE);
  const fieldsQ = useCustomFields();
  const fields = fieldsQ.data?.customFields ?? [];
  const [editing, setEditing] = useState<Editing>(null);
  const [importing, setImporting] = useState(false);
  const [editingFields, setEditingFields] = useState(false);
  const [erasing, setErasing] = useState<Employee | null>(null);
  const [erased, setErased] = useState<{ name: string; result: EmployeeErased } | null>(null);
  const erase = useErasePerson();

  const forbidden = people.error instanceof ApiError && people.error.status === 403;
  const data = people.data;
  const pages = pageCount(data?.total, PAGE);
  const emptyDirectory = data !== undefined && data.total === 0 && !q;

  const add = <Button variant="primary" onClick={() => setEditing({ person: null })}>Add a person</Button>;
  const importButton = <Button onClick={() => setImporting(true)}>Import from Excel or CSV</Button>;
  return (
    <>
      <PageHeader title="People" subtitle="The people of your organization: who surveys ask, and who respondents can name.">
        {!forbidden && !emptyDirectory && (
          <>
            {add}
            {importButton}
            <Button onClick={() => setEditingFields(true)}>Custom fields</Button>
          </>
        )}
      </PageHeader>
      {forbidden ? (
        <Notice kind="warning">People and surveys are managed by the organization’s Owners, Admins and Standard Users. Ask an Owner or Admin if you need access.</Notice>
      ) : (
        <>
          {people.isPending && <Loading label="Loading people…" />}
          <ErrorNotice error={people.error} />
          {emptyDirectory && (
            <Empty title="No people yet" action={<div className="row wrap center-row">{importButton}{add}<Button variant="ghost" onClick={() => setEditingFields(true)}>Set up custom fields</Button></div>}>
              <p>Add the people your surveys will ask and name: import them from a spreadsheet (one row per person: employee id, name, e-mail, manager, then your own fields such as team or office), or add them one by one.</p>
              <p><a href={TEMPLATE_URL.xlsx} download>Download the Excel template</a> · <a href={TEMPLATE_URL.csv} download>CSV template</a></p>
            </Empty>
          )}
          {data && !emptyDirectory && (
            <>
              <SearchForm paging={paging} id="people-q" label="Search people by name, e-mail or employee id" placeholder="Search by name, e-mail or employee id" />
              <p className="muted" role="status" aria-live="polite" data-testid="people-count">
                {q ? `${num(data.total)} ${data.total === 1 ? 'person matches' : 'people match'} “${q}”` : `${num(data.total)} ${data.total === 1 ? 'person' : 'people'}`}
              </p>
              {data.employees.length === 0 ? (
                <Empty title={`No one matches “${q}”`}><p>Search looks at names, e-mail addresses and employee ids.</p></Empty>
              ) : (
                <PeopleTable people={data.employees} fields={fields} busy={people.isFetching} onEdit={(p) => setEditing({ person: p })} onErase={setErasing} />
              )}
              {pages > 1 && <Pager paging={paging} pages={pages} />}
            </>
          )}
        </>
      )}
      <PersonDialog key={editing?.person?._id ?? 'new'} open={editing !== null} person={editing?.person ?? null} fields={fields} onClose={() => setEditing(null)} />
      <ImportDialog open={importing} onClose={() => setImporting(false)} />
      <FieldsDialog open={editingFields} fields={fields} onClose={() => setEditingFields(false)} />
      <Confirm
        open={erasing !== null}
        title={`Erase ${erasing?.name ?? ''}?`}
        confirmLabel="Erase"
        onClose={() => setErasing(null)}
        onConfirm={() =>
          erasing === null ? undefined :
          erase.mutateAsync(erasing._id).then((result) => { setErased({ name: erasing.name, result }); setErasing(null); }, () => undefined)
        }
      >
        <p>This removes <strong>{erasing?.name}</strong> ({erasing?.employeeId}) from the directory, <strong>their answers in every survey</strong>, and every time someone else named them. It cannot be undone.</p>
        <p className="muted">To keep their past answers, edit the person and set them to “Left” instead.</p>
      </Confirm>
      <Dialog open={erased !== null} title={`${erased?.name ?? ''} was erased`} onClose={() => setErased(null)} footer={<Button variant="primary" onClick={() => setErased(null)}>Done</Button>}>
        {erased && (
          <div data-testid="erased-summary">
            <p>Removed from the directory, and with them:</p>
            <ul>
              <li>{erasedLine(erased.result.answersRemoved, 'answer', 'answers')} of theirs in {erasedLine(erased.result.responsesRemoved, 'survey', 'surveys')}</li>
              <li>{erasedLine(erased.result.nominationsRemoved, 'nomination', 'nominations')} of them by other respondents</li>
              <li>
                {erasedLine(erased.result.networksRegenerated + erased.result.networksTrimmed, 'generated network', 'generated networks')} without them ({erased.result.networksRegenerated} generated again,{' '}
                {erased.result.networksTrimmed} edited since: their node and ties removed)
              </li>
            </ul>
          </div>
        )}
      </Dialog>
    </>
  );
}

const erasedLine = (n: number, one: string, many: string) => `${num(n)} ${n === 1 ? one : many}`;

function fieldValue(p: Employee, f: CustomField): string {
  const v = p.fields[f.key];
  return v === undefined || v === '' ? '' : String(v);
}

function PeopleTable({ people, fields, busy, onEdit, onErase }: { people: Employee[]; fields: CustomField[]; busy: boolean; onEdit: (p: Employee) => void; onErase: (p: Employee) => void }) {
  return (
    <div className="table-scroll">
      <table className="table table-responsive people-table" data-testid="people-table" aria-busy={busy || undefined}>
        <caption className="visually-hidden">People of the directory</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Employee id</th>
            <th scope="col">Manager</th>
            {fields.map((f) => (
              <th scope="col" key={f._id}>
                {f.label} {f.sensitive && <Badge tone="private">sensitive</Badge>}
              </th>
            ))}
            <th scope="col">Status</th>
            <th scope="col"><span className="visually-hidden">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          {people.map((p) => (
            <tr key={p._id}>
              <td data-label="Name">
                <span className="person-name">
                  <strong>{p.name}</strong>
                  {p.email && <span className="muted person-email">{p.email}</span>}
                </span>
              </td>
              <td data-label="Employee id"><code>{p.employeeId}</code></td>
              <td data-label="Manager">{p.managerId ? <code>{p.managerId}</code> : <span className="muted">—</span>}</td>
              {fields.map((f) => (
                <td key={f._id} data-label={f.label}>{fieldValue(p, f) || <span className="muted">—</span>}</td>
              ))}
              <td data-label="Status">{p.status === 'left' ? <Badge>Left</Badge> : 'Active'}</td>
              <td className="actions">
                <span className="row">
                  <Button onClick={() => onEdit(p)} aria-label={`Edit ${p.name}`}>Edit</Button>
                  <Button variant="danger" onClick={() => onErase(p)} aria-label={`Erase ${p.name}`}>Erase</Button>
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
