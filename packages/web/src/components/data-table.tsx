/**
 * The app's tables (networks, jobs, credentials, members, managed users, live sessions, audit): one header
 * row of column labels, one row per item, and — below 600 px (styles.css `.table-responsive`) — each cell
 * labelled with its column (`data-label`), so a row reads as a card on a phone. An `actions` column has a
 * label for screen readers only and holds the row's buttons.
 */
import type { HTMLAttributes, ReactNode } from 'react';
import { Button } from './ui.tsx';

export interface Column<T> {
  label: string;
  cell: (row: T) => ReactNode;
  /** Class of the header and the cells (`num`: right-aligned numbers). */
  className?: string;
  /** The row's buttons: the label is for screen readers only. */
  actions?: boolean;
}

type RowAttributes = HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string>;

export function DataTable<T>({ rows, columns, rowKey, testId, rowAttributes }: {
  rows: readonly T[];
  /** `false` entries are left out (a column only some people see). */
  columns: readonly (Column<T> | false)[];
  rowKey: (row: T) => string;
  testId?: string;
  rowAttributes?: (row: T) => RowAttributes;
}) {
  const shown = columns.filter((c): c is Column<T> => c !== false);
  return (
    <table className="table table-responsive" data-testid={testId}>
      <thead>
        <tr>
          {shown.map((c) => (
            <th key={c.label} scope="col" className={c.className}>{c.actions ? <span className="visually-hidden">{c.label}</span> : c.label}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} {...rowAttributes?.(row)}>
            {shown.map((c) =>
              c.actions ? (
                <td key={c.label} className="actions">{c.cell(row)}</td>
              ) : (
                <td key={c.label} data-label={c.label} className={c.className}>{c.cell(row)}</td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One button of a row's actions; `show: false` leaves it out for this row. */
export interface RowAction {
  label: string;
  /** Names the row too ("Copy Q1 survey"): the visible label repeats on every row. */
  ariaLabel: string;
  onClick: () => void;
  busy?: boolean;
  show?: boolean;
}

/** The actions cell of a hand-built table row: its buttons side by side (wrapping on a phone). */
export function RowActions({ actions }: { actions: RowAction[] }) {
  return (
    <td className="actions" data-label="">
      <span className="row wrap">
        {actions.filter((a) => a.show !== false).map((a) => (
          <Button key={a.label} variant="ghost" aria-label={a.ariaLabel} busy={a.busy} onClick={a.onClick}>
            {a.label}
          </Button>
        ))}
      </span>
    </td>
  );
}

/** The head of a hand-built table: its column titles (a title, or one with a class such as `num`), then the actions column (its title for screen readers only). */
export function TableHead({ columns, actions }: { columns: (string | { label: string; className: string })[]; actions?: boolean }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (typeof c === 'string' ? <th key={c} scope="col">{c}</th> : <th key={c.label} scope="col" className={c.className}>{c.label}</th>))}
        {actions && (
          <th scope="col" className="actions">
            <span className="visually-hidden">Actions</span>
          </th>
        )}
      </tr>
    </thead>
  );
}
