/**
 * The one problem schema (RFC 9457 problem details with a stable `code`, docs/spec/decisions.md §1) and
 * the helper every route uses to declare the problem answers it can send. Problems are documented and
 * serialized as `application/problem+json`, by reference to the named `Problem` schema.
 */
import { Type, type Static } from 'typebox';
import { PROBLEM_CODES as ERROR_CODES, type ProblemCode as ErrorCode } from '../problem-codes.ts';
import { ref } from './ref.ts';

export const ProblemItemSchema = Type.Object(
  {
    path: Type.String({ description: 'JSON pointer of the offending value (`/query/limit`, `/networkJSON/edges/3/target`); "" for the whole body.' }),
    message: Type.String(),
  },
  { $id: 'ProblemItem', additionalProperties: false },
);

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: 'Always `about:blank`: `code` is the stable identifier.' }),
    title: Type.String({ description: 'Short title of the code (docs/errors.md).' }),
    status: Type.Integer({ minimum: 400, maximum: 599 }),
    code: Type.Unsafe<ErrorCode>({ type: 'string', enum: Object.keys(ERROR_CODES), description: 'Stable error code; the registry is docs/errors.md.' }),
    detail: Type.String({ description: 'What went wrong, naming the first offending field.' }),
    message: Type.String({ description: 'The same text as `detail` (clients written for the original service show `message`).' }),
    errors: Type.Optional(Type.Array(ref(ProblemItemSchema), { maxItems: 100, description: 'Every problem found (at most 100).' })),
    requestId: Type.String({ description: 'The `X-Request-Id` of the answer: quote it when reporting a problem.' }),
  },
  { $id: 'Problem', additionalProperties: false, description: 'RFC 9457 problem details with a stable `code` (docs/errors.md).' },
);

export type Problem = Static<typeof ProblemSchema>;

/** Short description of each status in the document. */
const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request (INVALID_ARGS and the other 400 codes)',
  401: 'Unauthenticated: missing, malformed, unknown or revoked credential',
  402: 'Payment required (managed-user seats exhausted)',
  403: 'Forbidden (scope, plan, ownership, embedding rules)',
  404: 'Not found, or not visible to this credential',
  405: 'Method not allowed',
  409: 'Conflict (also: survey not open)',
  410: 'Gone (embed session ended, survey link revoked, survey closed)',
  413: 'Payload too large',
  415: 'Unsupported media type or content encoding',
  422: 'Unprocessable (metric timed out or did not converge)',
  429: 'Too many requests (with Retry-After)',
  500: 'Internal error (the body carries the request id)',
  503: 'Service unavailable: Redis (rate limits, embedding state, the job queue) or the database not answering, or the server shutting down (with Retry-After)',
};

/** The statuses the registry can produce: a route may only declare these. */
const KNOWN_STATUSES = new Set<number>(Object.values(ERROR_CODES).map((d) => d.status));

export interface ProblemResponse {
  description: string;
  content: { 'application/problem+json': { schema: { $ref: 'Problem#' } } };
}

/** One problem answer of a route: `application/problem+json` with the named `Problem` schema. */
export function problemResponse(status: number): ProblemResponse {
  if (!KNOWN_STATUSES.has(status)) throw new Error(`no error code of the registry has status ${status} (packages/protocol/src/problem-codes.ts)`);
  return { description: STATUS_TEXT[status] ?? 'Problem', content: { 'application/problem+json': { schema: { $ref: 'Problem#' } } } };
}

/**
 * The problem answers a route can send beyond the cross-cutting ones that http/route-contract.ts adds
 * to every route (400 validation, 401, 403 scope, 413/415 bodies, 429, 500):
 * `response: { 200: ref(NetworkSchema), ...problemResponses(404, 409) }`.
 */
export function problemResponses<const S extends number>(...statuses: S[]): Record<S, ProblemResponse> {
  const out = {} as Record<S, ProblemResponse>;
  for (const s of statuses) out[s] = problemResponse(s);
  return out;
}
