/** Small shared building blocks: buttons, form fields, notices, empty states, loading, dates and counts. */
import { useId, useState, type ButtonHTMLAttributes, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { errorText, type ProblemItem } from '../api/client.ts';

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost';

export function Button({ variant = 'secondary', busy, children, className, type = 'button', disabled, ...rest }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; busy?: boolean }) {
  return (
    <button type={type} className={`btn btn-${variant}${className ? ' ' + className : ''}`} disabled={disabled || busy} aria-busy={busy || undefined} {...rest}>
      {busy && <span className="spinner spinner-inline" aria-hidden="true" />}
      {children}
    </button>
  );
}

interface FieldShell {
  label: string;
  hint?: ReactNode;
  error?: string;
}

function FieldFrame({ id, label, hint, error, children }: FieldShell & { id: string; children: ReactNode }) {
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && <div className="field-hint" id={`${id}-hint`}>{hint}</div>}
      {error && <div className="field-error" id={`${id}-error`}>{error}</div>}
    </div>
  );
}

function describedBy(id: string, hint: unknown, error: unknown): string | undefined {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return ids || undefined;
}

/** What every form control of a field gets: its id (the label's `for`), the class, and its hint and error linked. */
interface ControlProps {
  id: string;
  className: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/** A labelled field around one control (input, textarea, select), with its hint and error. */
function Field({ label, hint, error, control }: FieldShell & { control: (props: ControlProps) => ReactNode }) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      {control({ id, className: 'input', 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy(id, hint, error) })}
    </FieldFrame>
  );
}

export function TextField({ label, hint, error, ...input }: FieldShell & InputHTMLAttributes<HTMLInputElement>) {
  return <Field label={label} hint={hint} error={error} control={(p) => <input {...p} {...input} />} />;
}

export function TextArea({ label, hint, error, ...input }: FieldShell & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <Field label={label} hint={hint} error={error} control={(p) => <textarea {...p} {...input} />} />;
}

export function Select({ label, hint, error, children, ...input }: FieldShell & SelectHTMLAttributes<HTMLSelectElement>) {
  return <Field label={label} hint={hint} error={error} control={(p) => <select {...p} {...input}>{children}</select>} />;
}

/** An error notice for a failed request: the message, and the per-field problems as a list. */
export function ErrorNotice({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const items: ProblemItem[] = (error as { errors?: ProblemItem[] }).errors ?? [];
  return (
    <div className="notice notice-error" role="alert">
      {title && <strong>{title}</strong>}
      {/* with a list, the summary would only repeat its first line: say how many instead */}
      <p>{items.length === 0 ? errorText(error) : items.length === 1 ? 'One problem:' : `${items.length} problems${items.length >= 100 ? ' (the first 100)' : ''}:`}</p>
      {items.length > 0 && <ProblemList items={items} />}
    </div>
  );
}

/** The problems of a 400 answer, one per line, each naming where (sheet/row/column, line or field). */
export function ProblemList({ items }: { items: ProblemItem[] }) {
  return (
    <ul className="problem-list" data-testid="problem-list">
      {items.map((p, i) => (
        <li key={i}>
          {p.path ? <code className="problem-path">{p.path.replace(/^\//, '') || 'file'}</code> : null} {p.message}
        </li>
      ))}
    </ul>
  );
}

export function Notice({ kind = 'info', children }: { kind?: 'info' | 'warning' | 'success'; children: ReactNode }) {
  return <div className={`notice notice-${kind}`}>{children}</div>;
}

export function Empty({ title, children, action, level = 2 }: { title: string; children?: ReactNode; action?: ReactNode; level?: 1 | 2 }) {
  const H = level === 1 ? 'h1' : 'h2';
  return (
    <div className="empty">
      <svg className="empty-art" viewBox="0 0 64 48" aria-hidden="true">
        <path d="M12 36 32 10l20 26z" fill="none" stroke="currentColor" strokeWidth="2" strokeDasharray="4 3" />
        <circle cx="12" cy="36" r="6" fill="currentColor" opacity=".35" />
        <circle cx="32" cy="10" r="6" fill="currentColor" opacity=".55" />
        <circle cx="52" cy="36" r="6" fill="currentColor" opacity=".35" />
      </svg>
      <H {...(level === 1 ? { id: 'page-title', tabIndex: -1 } : {})}>{title}</H>
      {children && <div className="empty-text">{children}</div>}
      {action && <div className="empty-action">{action}</div>}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

export function PageHeader({ title, children, subtitle }: { title: ReactNode; subtitle?: ReactNode; children?: ReactNode }) {
  return (
    <div className="page-header">
      <div className="page-header-text">
        <h1 tabIndex={-1} id="page-title">{title}</h1>
        {subtitle && <p className="page-subtitle">{subtitle}</p>}
      </div>
      {children && <div className="page-actions">{children}</div>}
    </div>
  );
}

export function Badge({ children, tone = 'neutral' }: { children: ReactNode; tone?: 'neutral' | 'public' | 'private' | 'accent' }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}

const dateFmt = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : dateFmt.format(d);
}

export function DateText({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span className="muted">never</span>;
  return <time dateTime={iso}>{formatDate(iso)}</time>;
}

export const num = (n: number | null | undefined) => (n == null ? '—' : n.toLocaleString('en-US'));

/** A figure under its label ("Members 12"), one of a row of `.stats`; `after` follows the figure (a badge). */
export function Stat({ label, children, testId, valueTestId, after }: { label: string; children: ReactNode; testId?: string; valueTestId?: string; after?: ReactNode }) {
  return (
    <div className="stat" data-testid={testId}>
      <div className="stat-label">{label}</div>
      <div className="stat-value" data-testid={valueTestId}>{children}</div>
      {after}
    </div>
  );
}

/** A meter of `used` against a plan maximum (null = unlimited). */
export function Quota({ label, used, max }: { label: string; used: number; max: number | null }) {
  const full = max !== null && used >= max;
  return (
    <div className={`quota${full ? ' quota-full' : ''}`}>
      <span className="quota-label">{label}</span>
      <span className="quota-value">
        {num(used)} / {max === null ? 'unlimited' : num(max)}
      </span>
      {max !== null && max > 0 && <progress value={Math.min(used, max)} max={max} aria-label={`${label}: ${used} of ${max}`} />}
    </div>
  );
}

/** Copies text to the clipboard; says so. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
        } catch {
          // clipboard refused (insecure context): select-and-copy fallback
          const ta = document.createElement('textarea');
          ta.value = text;
          document.body.append(ta);
          ta.select();
          document.execCommand('copy');
          ta.remove();
        }
        setCopied(true);
        setTimeout(() => setCopied(false), 2000);
      }}
    >
      {copied ? 'Copied' : label}
    </Button>
  );
}
