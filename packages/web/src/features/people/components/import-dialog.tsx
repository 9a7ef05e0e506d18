/**
 * Import people from Excel (.xlsx) or CSV: one row per person — `EmployeeId`, `Name`, `Email`, `Manager`
 * (optional `PhotoUrl`), then one column per custom field (its key or label). The template (your fields as
 * columns) is one click away. "Check" reads the file without storing anything; "Import" stores it. A file
 * with problems stores nothing and every problem is listed at once in a table: row, column, problem.
 * Merge adds and updates the people of the file; replace also marks everyone not in it as left.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import { ApiError, type ProblemItem } from '../../../api/client.ts';
import { Dialog } from '../../../components/dialog.tsx';
import { TableHead } from '../../../components/data-table.tsx';
import { Button, ErrorNotice, Notice, num } from '../../../components/ui.tsx';
import { TEMPLATE_URL, useImportPeople } from '../api/people.ts';
import type { ImportResult } from '../api/types.ts';

export interface FileProblem {
  row: string;
  column: string;
  message: string;
}

/**
 * A problem of the import as row / column / text. The server says `row 2, column C (Team): must be one of …`
 * with the pointer `/rows/2/Team`; a problem of the whole file has neither.
 */
export function fileProblem(p: ProblemItem): FileProblem {
  const m = /^row (\d+), column ([A-Z]+)(?: \(([^)]*)\))?: ([\s\S]*)$/.exec(p.message);
  if (m) return { row: m[1], column: m[3] ? `${m[2]} (${m[3]})` : m[2], message: m[4] };
  const path = /^\/rows\/(\d+)(?:\/(.+))?$/.exec(p.path ?? '');
  if (path) return { row: path[1], column: path[2] ?? '—', message: p.message };
  return { row: '—', column: '—', message: p.message };
}

export function ImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<'merge' | 'replace'>('merge');
  const [checked, setChecked] = useState<ImportResult | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const fileId = useId();
  const modeName = useId();
  const run = useImportPeople();
  const reset = () => {
    setFile(null);
    setMode('merge');
    setChecked(null);
    run.reset();
    if (input.current) input.current.value = '';
  };
  const close = () => {
    reset();
    onClose();
  };
  const go = (dryRun: boolean) => {
    if (!file) return;
    setChecked(null);
    run.mutate(
      { file, mode, dryRun },
      {
        onSuccess: (r) => {
          if (r.dryRun) {
            setChecked(r);
            return;
          }
          close();
        },
      },
    );
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    go(false);
  };
  const problems = run.error instanceof ApiError ? run.error.errors.map(fileProblem) : [];
  return (
    <Dialog open={open} title="Import people" onClose={close} wide>
      <form className="stack" onSubmit={submit}>
        <p className="muted">
          An Excel (.xlsx) or CSV file, one row per person: <code>EmployeeId</code>, <code>Name</code>, <code>Email</code>, <code>Manager</code> (the manager’s employee id), optionally <code>PhotoUrl</code>, then one column per custom field. People already in the directory (same employee id) are updated.
        </p>
        <p className="templates">
          <span className="muted">Template with your fields:</span>
          <a href={TEMPLATE_URL.xlsx} download data-testid="people-template-xlsx">Excel</a>
          <a href={TEMPLATE_URL.csv} download data-testid="people-template-csv">CSV</a>
        </p>
        <div className={`dropzone${file ? ' dropzone-has' : ''}`}>
          <label htmlFor={fileId} className="dropzone-label">File</label>
          <input
            ref={input}
            id={fileId}
            type="file"
            accept=".xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            data-testid="people-import-file"
            className="visually-hidden"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setChecked(null);
              run.reset();
            }}
          />
          {file ? <p className="dropzone-file"><strong>{file.name}</strong> · {(file.size / 1024).toFixed(file.size < 10240 ? 1 : 0)} KB</p> : <p className="muted">No file chosen.</p>}
          <Button onClick={() => input.current?.click()}>{file ? 'Choose another file' : 'Choose a file'}</Button>
        </div>
        <fieldset className="fieldset">
          <legend>People not in the file</legend>
          <label className="check">
            <input type="radio" name={modeName} value="merge" checked={mode === 'merge'} onChange={() => setMode('merge')} />
            <span>Keep them (add and update only)</span>
          </label>
          <label className="check">
            <input type="radio" name={modeName} value="replace" checked={mode === 'replace'} onChange={() => setMode('replace')} />
            <span>Mark them as left (the file is the whole directory; nobody is deleted)</span>
          </label>
        </fieldset>
        {checked && (
          <Notice kind="success">
            <span data-testid="import-checked">The file is fine: {num(checked.rows)} {checked.rows === 1 ? 'row' : 'rows'} — {num(checked.created)} to add, {num(checked.updated)} to update{checked.left ? `, ${num(checked.left)} to mark as left` : ''}. Nothing was stored yet.</span>
          </Notice>
        )}
        {problems.length > 0 ? (
          <div className="notice notice-error" role="alert" data-testid="import-problems">
            <strong>Nothing was imported.</strong>
            <p>{problems.length === 1 ? 'The file has one problem' : `The file has ${num(problems.length)} problems${problems.length >= 100 ? ' (the first 100)' : ''}`}; correct {problems.length === 1 ? 'it' : 'them'} and import again.</p>
            <div className="table-scroll problem-table-wrap">
              <table className="table problem-table">
                <TableHead columns={['Row', 'Column', 'Problem']} />
                <tbody>
                  {problems.map((p, i) => (
                    <tr key={i}>
                      <td className="num">{p.row}</td>
                      <td>{p.column}</td>
                      <td>{p.message}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        ) : (
          <ErrorNotice error={run.error} title="Nothing was imported" />
        )}
        <div className="dialog-actions-end">
          <Button onClick={close}>Cancel</Button>
          <Button disabled={!file} busy={run.isPending && run.variables?.dryRun} onClick={() => go(true)}>Check the file</Button>
          <Button type="submit" variant="primary" disabled={!file} busy={run.isPending && !run.variables?.dryRun}>Import</Button>
        </div>
      </form>
    </Dialog>
  );
}
