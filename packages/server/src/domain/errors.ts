/**
 * Domain errors: `DomainError` with a code of the one problem-code registry (`PROBLEM_CODES` of
 * @netloom/protocol, problem-codes.ts: status, title, doc text; docs/errors.md is generated from it),
 * and the one "first problem → detail" rule. The HTTP layer's own problems (`HttpProblem`,
 * http/error-codes.ts) and the engine's errors (`EngineError`) take their status from the same registry;
 * the problem handler renders them all as RFC 9457 problem JSON; the CLI prints
 * `{ error: { code, status, detail } }` with the same status.
 */
import { PROBLEM_CODES, fieldOf, isProblemCode, problemDetail, type ProblemCode, type ProblemDetailOptions, type ProblemItem as ProtocolProblemItem } from '@netloom/protocol';

/** The registry, under the name the server's modules use. */
export const ERROR_CODES = PROBLEM_CODES;

export type ErrorCode = ProblemCode;
export const isErrorCode = isProblemCode;

export type DomainErrorCode = ErrorCode;

/** One problem of a request, and the one "first problem → detail" rule (@netloom/protocol, problem-detail.ts). */
export type ProblemItem = ProtocolProblemItem;
export type DomainErrorItem = ProblemItem;
export { fieldOf, problemDetail };

/** 400 INVALID_ARGS naming the first problem in `detail` and listing (up to 100 of) them in `errors`. */
export function invalidArgs(problems: readonly ProblemItem[], options: string | ProblemDetailOptions = 'body'): DomainError {
  return new DomainError('INVALID_ARGS', problemDetail(problems, options), problems.slice(0, 100));
}

export class DomainError extends Error {
  readonly code: DomainErrorCode;
  readonly status: number;
  readonly detail: string;
  readonly errors: DomainErrorItem[] | undefined;
  constructor(code: DomainErrorCode, detail: string, errors?: DomainErrorItem[]) {
    super(detail);
    this.name = 'DomainError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.detail = detail;
    this.errors = errors;
  }
}

/** Seconds a client is told to wait (`Retry-After`) when Redis or the job queue does not answer. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

/** 503 UNAVAILABLE with `Retry-After`: a service the request needs (Redis, the job queue) did not answer in time. */
export function serviceUnavailable(detail: string): DomainError & { headers: Record<string, string> } {
  return Object.assign(new DomainError('UNAVAILABLE', detail), { headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_S) } });
}

/**
 * Whether an error means Redis did not answer (ioredis, with the service's fail-fast options): no
 * connection and no offline queue, the connection closed, a command timed out, or its retries spent.
 * Such errors are 503 UNAVAILABLE with Retry-After, never 500 (docs/operations.md, "Redis outage").
 */
export function isRedisUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === 'MaxRetriesPerRequestError') return true;
  return /^(Stream isn't writeable and enableOfflineQueue options is false|Connection is closed\.|Command timed out)$/.test(err.message);
}

export function isDomainError(err: unknown): err is DomainError {
  return err instanceof DomainError;
}
