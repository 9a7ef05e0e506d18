/**
 * Problems raised by the HTTP layer itself (authentication, body decoding, rate limits): `HttpProblem`
 * with a code of the one registry (PROBLEM_CODES of @netloom/protocol, through domain/errors.ts).
 */
import { ERROR_CODES, type ErrorCode, type ProblemItem } from '../domain/errors.ts';
export { ERROR_CODES, isErrorCode, type ErrorCode, type ProblemItem } from '../domain/errors.ts';

/** An error that the problem handler renders as RFC 9457 problem JSON with a stable `code`. */
export class HttpProblem extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors: ProblemItem[] | undefined;
  readonly headers: Record<string, string> | undefined;
  constructor(code: ErrorCode, detail: string, opts: { errors?: ProblemItem[]; headers?: Record<string, string> } = {}) {
    super(detail);
    this.name = 'HttpProblem';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.errors = opts.errors;
    this.headers = opts.headers;
  }
}
