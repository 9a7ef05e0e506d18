/**
 * TanStack Query hooks of the Surveys pages over the web app's session-cookie endpoints `/app/api/…`,
 * which mirror the public API's surveys, responses, people and custom fields (docs/api/people-and-surveys.md).
 * One typed client (api/client.ts); 401/403/network failures are answered centrally (api/outcomes.ts).
 * Every mutation invalidates the answers it changes, so each page shows the server's state after an action.
 */
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import type {
  CopyInput,
  CustomFieldList,
  Deliveries,
  EmployeeList,
  ResponseDeleted,
  ResponseList,
  Survey,
  SurveyDeleted,
  SurveyInput,
  SurveyLink,
  SurveyLinks,
  SurveyList,
  SurveyResponse,
  SurveyShareInput,
  SurveyShares,
  Tracking,
} from './types.ts';

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

/** `PUT /surveys/:id` — changes only what is sent; `{ status }` launches, pauses, resumes, completes. */
export function useUpdateSurvey(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: SurveyInput) => api.put<Survey>(surveyPath(id), b),
    onSuccess: (s) => {
      qc.setQueryData(surveyKeys.one(id), s);
      return Promise.all([
        qc.invalidateQueries({ queryKey: surveyKeys.list }),
        qc.invalidateQueries({ queryKey: surveyKeys.links(id) }),
        qc.invalidateQueries({ queryKey: surveyKeys.tracking(id) }),
      ]);
    },
  });
}

export function useCopySurvey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...b }: CopyInput & { id: string }) => api.post<Survey>(surveyPath(id, '/copy'), b),
    onSuccess: () => qc.invalidateQueries({ queryKey: surveyKeys.list }),
  });
}

export function useDeleteSurvey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del<SurveyDeleted>(surveyPath(id)),
    onSuccess: (_r, id) => {
      qc.removeQueries({ queryKey: surveyKeys.one(id) });
      return qc.invalidateQueries({ queryKey: surveyKeys.list });
    },
  });
}

/** Who the survey is shared with (View or Edit; members of the same organization) — the owner manages it. */
export function useSurveyShares(id: string, enabled: boolean) {
  const qc = useQueryClient();
  const done = (r: SurveyShares) => qc.setQueryData(surveyKeys.shares(id), r);
  return {
    list: useQuery({ queryKey: surveyKeys.shares(id), queryFn: ({ signal }) => api.get<SurveyShares>(surveyPath(id, '/shares'), signal), enabled }),
    put: useMutation({ mutationFn: (b: SurveyShareInput) => api.put<SurveyShares>(surveyPath(id, '/shares'), b), onSuccess: done }),
    remove: useMutation({ mutationFn: (userId: string) => api.del<SurveyShares>(surveyPath(id, `/shares/${enc(userId)}`)), onSuccess: done }),
  };
}

export function useLinks(id: string, enabled: boolean) {
  return useQuery({ queryKey: surveyKeys.links(id), queryFn: ({ signal }) => api.get<SurveyLinks>(surveyPath(id, '/links?format=json'), signal), enabled });
}

/** Re-issue (the old link stops working) or revoke one respondent's link; both are audited by the server. */
export function useChangeLink(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ employeeId, action }: { employeeId: string; action: 'reissue' | 'revoke' }) => api.post<SurveyLink>(surveyPath(id, `/links/${enc(employeeId)}/${action}`)),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: surveyKeys.links(id) }), qc.invalidateQueries({ queryKey: surveyKeys.tracking(id) })]),
  });
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

/** Owner entry on a respondent's behalf (`enteredBy`, audited server-side). */
export function useEnterResponse(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ employeeId, answers, submit }: { employeeId: string; answers: Record<string, unknown>; submit?: boolean }) =>
      api.put<SurveyResponse>(surveyPath(id, `/responses/${enc(employeeId)}`), submit ? { answers, submit: true } : { answers }),
    onSuccess: () => afterResponses(qc, id),
  });
}

/** Erasure of one respondent's answers in this survey (they stay a respondent; audited server-side). */
export function useEraseResponse(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (employeeId: string) => api.del<ResponseDeleted>(surveyPath(id, `/responses/${enc(employeeId)}`)),
    onSuccess: () => afterResponses(qc, id),
  });
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
