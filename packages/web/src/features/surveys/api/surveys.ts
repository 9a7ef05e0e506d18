/**
 * TanStack Query hooks of the Surveys pages over the web app's session-cookie endpoints `/app/api/…`,
 * which mirror the public API's surveys, responses, people and custom fields (docs/api/people-and-surveys.md).
 * One typed client (api/client.ts); 401/403/network failures are answered centrally (api/outcomes.ts).
 * Every mutation invalidates the answers it changes, so each page shows the server's state after an action.
 */
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { reported, type Outcome } from '../../../api/outcomes.ts';
import { shareSaid } from '../../../api/shares.ts';
import type {
  CopyInput,
  Deliveries,
  ResponseDeleted,
  ResponseList,
  Survey,
  SurveyDeleted,
  SurveyInput,
  SurveyLink,
  SurveyLinks,
  SurveyList,
  SurveyResponse,
  SurveyShare,
  SurveyShareInput,
  SurveyShares,
  Tracking,
} from './types.ts';
import type { CustomFieldList, EmployeeList } from '../../people/api/types.ts';

/** Where the web app reaches the surveys and the directory (the session-authenticated mirror of /api/v2). */
export const SURVEYS_API = '/app/api/surveys';
export const EMPLOYEES_API = '/app/api/employees';
export const FIELDS_API = '/app/api/customFields';

const enc = encodeURIComponent;
export const surveyPath = (id: string, rest = '') => `${SURVEYS_API}/${enc(id)}${rest}`;

/** The links file of a launched survey (a real download: the browser saves what the server sends). */
export const linksFileUrl = (id: string, format: 'csv' | 'xlsx') => surveyPath(id, `/links?format=${format}`);

export const surveyKeys = {
  all: ['surveys'] as const,
  list: ['surveys', 'list'] as const,
  one: (id: string) => ['surveys', 'one', id] as const,
  links: (id: string) => ['surveys', 'links', id] as const,
  tracking: (id: string) => ['surveys', 'tracking', id] as const,
  deliveries: (id: string) => ['surveys', 'deliveries', id] as const,
  responses: (id: string) => ['surveys', 'responses', id] as const,
  shares: (id: string) => ['surveys', 'shares', id] as const,
  fields: ['directory', 'fields'] as const,
  employees: (q: string) => ['directory', 'employees', q] as const,
};

export function useSurveys() {
  return useQuery({ queryKey: surveyKeys.list, queryFn: ({ signal }) => api.get<SurveyList>(SURVEYS_API, signal) });
}

export function useSurvey(id: string) {
  return useQuery({ queryKey: surveyKeys.one(id), queryFn: ({ signal }) => api.get<Survey>(surveyPath(id), signal) });
}

export function useCreateSurvey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: SurveyInput) => api.post<Survey>(SURVEYS_API, b),
    onSuccess: (s) => {
      qc.setQueryData(surveyKeys.one(s._id), s);
      return qc.invalidateQueries({ queryKey: surveyKeys.list });
    },
  });
}

/** `PUT /surveys/:id` — changes only what is sent; each use below says its own result. */
function usePutSurvey(id: string, outcome: Outcome<Survey, SurveyInput>) {
  const qc = useQueryClient();
  return useMutation(reported({
    mutationFn: (b: SurveyInput) => api.put<Survey>(surveyPath(id), b),
    onSuccess: (s) => {
      qc.setQueryData(surveyKeys.one(id), s);
      return Promise.all([
        qc.invalidateQueries({ queryKey: surveyKeys.list }),
        qc.invalidateQueries({ queryKey: surveyKeys.links(id) }),
        qc.invalidateQueries({ queryKey: surveyKeys.tracking(id) }),
      ]);
    },
    ...outcome,
  }));
}

/** The builder's save: the questions of a launched survey become a new question version. */
export function useSaveSurvey(id: string) {
  return usePutSurvey(id, { success: (n, b) => (n.status !== 'draft' && b.questions ? `Saved as question version ${n.version}.` : 'Saved.') });
}

/** Who can be named (the roster) and who is asked. */
export function useSaveRespondents(id: string) {
  return usePutSurvey(id, { success: 'Saved who can be named and who is asked.' });
}

export function useSetOpenLink(id: string) {
  return usePutSurvey(id, { success: (n) => (n.openLink.enabled ? 'The open link is on.' : 'The open link is off.') });
}

/** `{ status }` launches, pauses, resumes, completes the survey `s` (its status before says which). */
export function useMoveSurvey(s: Survey) {
  return usePutSurvey(s._id, {
    success: (n) =>
      n.status === 'offline' ? 'Paused: links no longer accept answers.'
      : n.status === 'completed' ? 'Closed.'
      : s.status !== 'draft' ? 'Collecting again.'
      : n.email.enabled ? 'Launched: the invitations are being e-mailed.' : 'Launched: download the links and send them.',
  });
}

/** A copy, or the next wave (`wave: true`). */
export function useCopySurvey() {
  const qc = useQueryClient();
  return useMutation(reported({
    mutationFn: ({ id, ...b }: CopyInput & { id: string }) => api.post<Survey>(surveyPath(id, '/copy'), b),
    onSuccess: () => qc.invalidateQueries({ queryKey: surveyKeys.list }),
    success: (c, b) => (b.wave ? `Wave ${c.wave} is ready as a draft.` : `Copied as “${c.name}”.`),
    failure: 'Could not copy',
  }));
}

export function useDeleteSurvey() {
  const qc = useQueryClient();
  return useMutation(reported({
    mutationFn: (s: Pick<Survey, '_id' | 'name'>) => api.del<SurveyDeleted>(surveyPath(s._id)),
    onSuccess: (_r, s) => {
      qc.removeQueries({ queryKey: surveyKeys.one(s._id) });
      return qc.invalidateQueries({ queryKey: surveyKeys.list });
    },
    success: (_r, s) => `Deleted “${s.name}”.`,
    failure: 'Could not delete',
  }));
}

/** Who the survey is shared with (View or Edit; members of the same organization) — the owner manages it. */
export function useSurveyShares(id: string, enabled: boolean) {
  const qc = useQueryClient();
  const done = (r: SurveyShares) => qc.setQueryData(surveyKeys.shares(id), r);
  const put = (b: SurveyShareInput) => api.put<SurveyShares>(surveyPath(id, '/shares'), b);
  return {
    list: useQuery({ queryKey: surveyKeys.shares(id), queryFn: ({ signal }) => api.get<SurveyShares>(surveyPath(id, '/shares'), signal), enabled }),
    /** A new share (the form). */
    add: useMutation(reported({ mutationFn: put, onSuccess: done, success: shareSaid.shared })),
    /** Another permission for a listed share. */
    change: useMutation(reported({ mutationFn: put, onSuccess: done, failure: true })),
    remove: useMutation(reported({ mutationFn: (x: SurveyShare) => api.del<SurveyShares>(surveyPath(id, `/shares/${enc(x.userId)}`)), onSuccess: done, success: (_r, x) => shareSaid.removed(x.email), failure: true })),
  };
}

export function useLinks(id: string, enabled: boolean) {
  return useQuery({ queryKey: surveyKeys.links(id), queryFn: ({ signal }) => api.get<SurveyLinks>(surveyPath(id, '/links?format=json'), signal), enabled });
}

/** Re-issue (the old link stops working) or revoke one respondent's link; both are audited by the server. */
export function useChangeLink(id: string) {
  const qc = useQueryClient();
  return useMutation(reported({
    mutationFn: ({ link, action }: { link: SurveyLink; action: 'reissue' | 'revoke' }) => api.post<SurveyLink>(surveyPath(id, `/links/${enc(link.employeeId)}/${action}`)),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: surveyKeys.links(id) }), qc.invalidateQueries({ queryKey: surveyKeys.tracking(id) })]),
    success: (_r, { link, action }) => (action === 'revoke' ? `${link.name}'s link no longer works.` : `${link.name} has a new link; the old one no longer works.`),
    failure: true,
  }));
}

/** How often tracking is read again while the survey collects (answers arrive from respondents' links). */
const TRACKING_POLL_MS = 15_000;

export function useTracking(id: string, live: boolean) {
  return useQuery({ queryKey: surveyKeys.tracking(id), queryFn: ({ signal }) => api.get<Tracking>(surveyPath(id, '/tracking'), signal), refetchInterval: live ? TRACKING_POLL_MS : false });
}

/** The tracking of each launched survey of a list (drafts have nobody asked yet): the list's response column. */
export function useTrackings(surveys: readonly Survey[]) {
  return useQueries({
    queries: surveys.map((s) => ({
      queryKey: surveyKeys.tracking(s._id),
      queryFn: ({ signal }: { signal: AbortSignal }) => api.get<Tracking>(surveyPath(s._id, '/tracking'), signal),
      enabled: s.status !== 'draft',
      staleTime: 15_000,
    })),
  });
}

export function useDeliveries(id: string) {
  return useQuery({ queryKey: surveyKeys.deliveries(id), queryFn: ({ signal }) => api.get<Deliveries>(surveyPath(id, '/deliveries'), signal) });
}

export function useResponses(id: string, offset: number, limit = 100) {
  return useQuery({
    queryKey: [...surveyKeys.responses(id), offset, limit],
    queryFn: ({ signal }) => api.get<ResponseList>(surveyPath(id, `/responses?limit=${limit}&offset=${offset}`), signal),
    placeholderData: (prev) => prev,
  });
}

const afterResponses = (qc: ReturnType<typeof useQueryClient>, id: string) =>
  Promise.all([qc.invalidateQueries({ queryKey: surveyKeys.responses(id) }), qc.invalidateQueries({ queryKey: surveyKeys.tracking(id) }), qc.invalidateQueries({ queryKey: surveyKeys.links(id) })]);

/** A respondent as the owner's actions name them. */
type Respondent = { employeeId: string; name: string };

/** Owner entry on a respondent's behalf (`enteredBy`, audited server-side). */
export function useEnterResponse(id: string) {
  const qc = useQueryClient();
  return useMutation(reported({
    mutationFn: ({ person, answers, submit }: { person: Respondent; answers: Record<string, unknown>; submit?: boolean }) =>
      api.put<SurveyResponse>(surveyPath(id, `/responses/${enc(person.employeeId)}`), submit ? { answers, submit: true } : { answers }),
    onSuccess: () => afterResponses(qc, id),
    success: (_r, { person, submit }) => (submit ? `Saved and submitted ${person.name}'s answers.` : `Saved ${person.name}'s answers.`),
  }));
}

/** Erasure of one respondent's answers in this survey (they stay a respondent; audited server-side). */
export function useEraseResponse(id: string) {
  const qc = useQueryClient();
  return useMutation(reported({
    mutationFn: (person: Respondent) => api.del<ResponseDeleted>(surveyPath(id, `/responses/${enc(person.employeeId)}`)),
    onSuccess: () => afterResponses(qc, id),
    success: (r, person) => `Erased ${r.answersRemoved} ${r.answersRemoved === 1 ? 'answer' : 'answers'} of ${person.name}.`,
    failure: 'Could not erase',
  }));
}

/* ---------------------------------------------------------------- the directory (read only here) */

export function useCustomFields() {
  return useQuery({ queryKey: surveyKeys.fields, queryFn: ({ signal }) => api.get<CustomFieldList>(FIELDS_API, signal), staleTime: 30_000 });
}

/** Active people of the directory matching `q` (name, e-mail, employeeId), the first `limit`. */
export function useEmployees(q: string, limit = 500) {
  return useQuery({
    queryKey: [...surveyKeys.employees(q), limit],
    queryFn: ({ signal }) => api.get<EmployeeList>(`${EMPLOYEES_API}?${new URLSearchParams({ q, limit: String(limit), status: 'active' })}`, signal),
    placeholderData: (prev) => prev,
    staleTime: 30_000,
  });
}
