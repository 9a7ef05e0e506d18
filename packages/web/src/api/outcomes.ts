/**
 * The one place where the failures every call can meet are answered (issue 20): the query client's caches
 * send every query and mutation error here.
 * - 401 while signed in (the web session expired or was ended elsewhere): everything cached is dropped and
 *   the page's access rule sends the person to sign-in with a message, keeping where they were (`next`);
 *   signing in returns there (shell.tsx RouteGate, pages/sign-in.tsx).
 * - 403 and network failures of an action: one toast saying so (a page shows a query's failure in place).
 * - The result of an action: the toast its mutation declares (`reported()` below: `success`, `info`,
 *   `failure`), so pages never write result toasts themselves (issue 20 item 2).
 * Calls that answer a 401 themselves (sign-in, link redemption) mark it with `meta: { ownsUnauthenticated: true }`.
 */
import { MutationCache, QueryCache, QueryClient, type Mutation, type Query, type UseMutationOptions } from '@tanstack/react-query';
import { ApiError, errorText } from './client.ts';
import { keys } from './keys.ts';
import { signedOut } from './session.ts';
import type { Session } from './types.ts';

export interface Notifier {
  success(text: string): void;
  info(text: string): void;
  error(text: string): void;
}

/** A text, or one made from the answer and what was sent (`null`: nothing to say this time). */
type Said<D, V> = string | ((data: D, vars: V) => string | null);

/** What a finished action tells the person, in a toast (a type, not an interface: TanStack's Register wants a record). */
export type Outcome<D, V> = {
  /** Said when it succeeds ("Deleted “Q1”."). */
  success?: Said<D, V>;
  /** Said when it succeeds but only started something (a job): an info toast. */
  info?: Said<D, V>;
  /** When it fails: a toast "failure: what the service said" (`true`: the service's words alone). Without it the
   * page shows the failure in place (a form's inline error). 401/403/network failures are answered above either way. */
  failure?: string | true;
};

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { ownsUnauthenticated?: boolean };
    mutationMeta: { ownsUnauthenticated?: boolean } & Outcome<unknown, unknown>;
  }
}

/** A mutation's options with the toasts of its outcome, typed by its answer and variables. */
export function reported<D, V, C = unknown>({ success, info, failure, ...options }: UseMutationOptions<D, Error, V, C> & Outcome<D, V>): UseMutationOptions<D, Error, V, C> {
  return { ...options, meta: { ...options.meta, ...({ success, info, failure } as Outcome<unknown, unknown>) } };
}

const say = <D, V>(said: Said<D, V>, data: D, vars: V) => (typeof said === 'string' ? said : said(data, vars));

/** 401 answers about the credentials a form sent (password, second factor), with the session still valid. */
const NOT_SESSION_END = new Set(['INVALID_CREDENTIALS', 'MFA_REQUIRED']);

/** Set when a 401 ended the session in the middle of using the app; the access rule reads it once. */
let ended = false;

/** Whether a 401 ended the session while the app was in use (until the next sign-in): sign-in says so. */
export function sessionEnded(): boolean {
  return ended;
}

/** A new session (sign-in, link redemption): the message is no longer due. */
export function sessionStarted(): void {
  ended = false;
}

/** Errors answered here (401, and 403 / network failures of actions): a mutation's declared failure toast skips them. */
const handled = new WeakSet<object>();

function handledCentrally(err: unknown): boolean {
  return typeof err === 'object' && err !== null && handled.has(err);
}

/** A failure of the network itself (no answer from the service), as fetch reports it. */
export function isNetworkError(err: unknown): boolean {
  return err instanceof TypeError || (err instanceof DOMException && err.name === 'NetworkError');
}

export function createQueryClient(notify: () => Notifier | null): QueryClient {
  const failed = (err: unknown, meta: { ownsUnauthenticated?: boolean } | undefined, action: boolean) => {
    if (err instanceof ApiError && err.status === 401) {
      // A wrong password re-entered to confirm an action (token creation, MFA changes) is that form's answer, not the end of the session.
      if (meta?.ownsUnauthenticated || NOT_SESSION_END.has(err.code) || !qc.getQueryData<Session | null>(keys.session)) return;
      handled.add(err);
      ended = true;
      signedOut(qc);
      return;
    }
    if (!action) return;
    if (err instanceof ApiError && err.status === 403) notify()?.error(`Not allowed: ${err.message}`);
    else if (isNetworkError(err)) notify()?.error('The service could not be reached. Check your connection and try again.');
    else return;
    handled.add(err as object);
  };
  const qc: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (err, query: Query<unknown, unknown, unknown>) => failed(err, query.meta, false) }),
    mutationCache: new MutationCache({
      onSuccess: (data, vars, _c, { meta }: Mutation<unknown, unknown, unknown>) => {
        const success = meta?.success && say(meta.success, data, vars);
        const info = meta?.info && say(meta.info, data, vars);
        if (success) notify()?.success(success);
        if (info) notify()?.info(info);
      },
      onError: (err, _v, _c, { meta }: Mutation<unknown, unknown, unknown>) => {
        failed(err, meta, true);
        if (meta?.failure && !handledCentrally(err)) notify()?.error(meta.failure === true ? errorText(err) : `${meta.failure}: ${errorText(err)}`);
      },
    }),
    defaultOptions: {
      queries: {
        // 4xx answers are final (signed out, not found, forbidden); retry only network errors and 5xx once.
        retry: (n, err) => !(err instanceof ApiError && err.status < 500) && n < 1,
        refetchOnWindowFocus: false,
      },
    },
  });
  return qc;
}
