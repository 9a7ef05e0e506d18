/**
 * The app's tables (networks, jobs, credentials, members, managed users, live sessions, audit): one header
 * row of column labels, one row per item, and — below 600 px (styles.css `.table-responsive`) — each cell
 * labelled with its column (`data-label`), so a row reads as a card on a phone. An `actions` column has a
 * label for screen readers only and holds the row's buttons.
 */
import type { HTMLAttributes, ReactNode } from 'react';

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
