/**
 * The respondent pages' calls to the respondent API (`/s/api/<token>…`, docs/api/people-and-surveys.md
 * "Respondent API"; rules in docs/spec/decisions.md §10.3). No session, no credential: the link token is
 * the only key, and it travels only to this origin. Wire types are the shared contract's
 * (@netloom/protocol/http), imported as types only so TypeBox stays out of this bundle.
 */
import type { Static } from 'typebox';
import type { AnswerSavedSchema, OpenLinkResultSchema, RespondentQuestionSchema, RespondentRosterSchema, RespondentViewSchema, SubmittedSchema } from '@netloom/protocol/http';

export type RespondentView = Static<typeof RespondentViewSchema>;
export type RespondentQuestion = Static<typeof RespondentQuestionSchema>;
export type RespondentRoster = Static<typeof RespondentRosterSchema>;
export type RosterPerson = RespondentRoster['people'][number];
export type AnswerSaved = Static<typeof AnswerSavedSchema>;
export type Submitted = Static<typeof SubmittedSchema>;
export type OpenLinkResult = Static<typeof OpenLinkResultSchema>;

/** A nomination in a relationship answer: a person of the roster or (with write-ins) a name. */
export type Nomination = { employeeId: string; rating?: number } | { writeIn: string; rating?: number };

/** A problem answer (RFC 9457) or a failure to reach the service. */
export class RespondentError extends Error {
  readonly status: number;
  readonly code: string;
  readonly problems: { path: string; message: string }[];
  constructor(status: number, code: string, message: string, problems: { path: string; message: string }[] = []) {
    super(message);
    this.status = status;
    this.code = code;
    this.problems = problems;
  }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
    });
  } catch {
    throw new RespondentError(0, 'NETWORK', 'The connection to the survey was lost. Your answers so far are saved; check your connection and try again.');
  }
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: reported below */
  }
  if (!res.ok) {
    const p = (data ?? {}) as { code?: string; message?: string; detail?: string; problems?: { path: string; message: string }[] };
    throw new RespondentError(res.status, p.code ?? 'ERROR', p.message ?? p.detail ?? `The survey answered ${res.status}.`, p.problems ?? []);
  }
  return data as T;
}

const base = (token: string) => `/s/api/${encodeURIComponent(token)}`;

export const respondentApi = {
  view: (token: string) => call<RespondentView>('GET', base(token)),
  roster: (token: string) => call<RespondentRoster>('GET', `${base(token)}/roster`),
  save: (token: string, questionId: string, value: unknown) => call<AnswerSaved>('PUT', `${base(token)}/answers/${encodeURIComponent(questionId)}`, { value }),
  clear: (token: string, questionId: string) => call<{ questionId: string; deleted: true }>('DELETE', `${base(token)}/answers/${encodeURIComponent(questionId)}`),
  submit: (token: string, consent?: boolean) => call<Submitted>('POST', `${base(token)}/submit`, consent === undefined ? {} : { consent }),
  openLink: (openToken: string, employeeId: string) => call<OpenLinkResult>('POST', `/s/open-api/${encodeURIComponent(openToken)}`, { employeeId }),
};
