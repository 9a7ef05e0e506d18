/**
 * The app's one way to talk to the server: JSON over fetch, same-origin cookies, the CSRF header on every
 * state-changing `/app/api` call (docs/web-app.md), and RFC 9457 problems turned into `ApiError`s that keep
 * `code`, `message` and the per-field `errors[]` (the upload dialog lists them).
 */
import type { Static } from 'typebox';
import type { ProblemItemSchema } from '@netloom/protocol/http';

/** One entry of a problem's `errors[]` (the field it names and what is wrong with it). */
export type ProblemItem = Static<typeof ProblemItemSchema>;

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail?: string;
  readonly errors: ProblemItem[];
  readonly retryAfter?: number;
  constructor(status: number, body: Record<string, unknown>, retryAfter?: number) {
    super(String(body.message ?? body.detail ?? body.title ?? `request failed (${status})`));
    this.status = status;
    this.code = String(body.code ?? 'HTTP_' + status);
    this.detail = typeof body.detail === 'string' ? body.detail : undefined;
    this.errors = Array.isArray(body.errors) ? (body.errors as ProblemItem[]) : [];
    this.retryAfter = retryAfter;
  }
}

let csrfToken: string | null = null;
/** Set from `GET/POST /app/api/session` answers; cleared on sign-out. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

const SAFE = new Set(['GET', 'HEAD']);

export interface RequestOptions {
  body?: unknown;
  /** A FormData body (multipart upload); sent as is. */
  form?: FormData;
  /** A file as the whole body (the people import takes the CSV or .xlsx itself), with its content type. */
  file?: Blob;
  signal?: AbortSignal;
}

async function problemFrom(res: Response): Promise<ApiError> {
  const retry = Number(res.headers.get('retry-after'));
  let body: Record<string, unknown>;
  try {
    body = (await res.json()) as Record<string, unknown>;
  } catch {
    body = { message: res.statusText || `request failed (${res.status})` };
  }
  return new ApiError(res.status, body, Number.isFinite(retry) && retry > 0 ? retry : undefined);
}

export async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (!SAFE.has(method) && csrfToken) headers['x-csrf-token'] = csrfToken;
  if (opts.file) headers['content-type'] = opts.file.type || 'application/octet-stream';
  else if (!opts.form && opts.body !== undefined) headers['content-type'] = 'application/json';
  const body: BodyInit | undefined = opts.file ?? opts.form ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined);
  const res = await fetch(path, { method, headers, body, credentials: 'same-origin', signal: opts.signal });
  if (!res.ok) throw await problemFrom(res);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const api = {
  get: <T>(path: string, signal?: AbortSignal) => request<T>('GET', path, { signal }),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, { body: body ?? {} }),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, { body: body ?? {} }),
  patch: <T>(path: string, body?: unknown) => request<T>('PATCH', path, { body: body ?? {} }),
  del: <T>(path: string) => request<T>('DELETE', path),
  upload: <T>(path: string, form: FormData) => request<T>('POST', path, { form }),
  sendFile: <T>(path: string, file: Blob) => request<T>('POST', path, { file }),
};

/** A human sentence for any error thrown by `request` (or anything else). */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.code === 'RATE_LIMITED' && err.retryAfter) return `${err.message} Try again in ${err.retryAfter} s.`;
    return err.detail && err.detail !== err.message ? `${err.message} ${err.detail}` : err.message;
  }
  if (err instanceof Error) return err.message;
  return String(err);
}
