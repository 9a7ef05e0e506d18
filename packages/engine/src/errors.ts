/**
 * Errors raised by the engine. They carry a stable problem `code` of the one registry (`PROBLEM_CODES` of
 * @netloom/protocol, docs/spec/decisions.md §1) and take their status from it, so the server answers
 * them without a table of its own and the engine knows nothing of the server.
 */
import { PROBLEM_CODES, problemDetail, type ProblemCode, type ProblemDetailOptions, type ProblemItem } from '@netloom/protocol';

/** The registry codes the engine raises. */
export const ENGINE_ERROR_CODES = ['INVALID_ARGS', 'NOT_CONVERGED', 'METRIC_TIMEOUT', 'PAYLOAD_TOO_LARGE', 'CANCELLED'] as const satisfies readonly ProblemCode[];
export type EngineErrorCode = (typeof ENGINE_ERROR_CODES)[number];

export function isEngineErrorCode(code: unknown): code is EngineErrorCode {
  return typeof code === 'string' && (ENGINE_ERROR_CODES as readonly string[]).includes(code);
}

/** One problem: a JSON pointer into the request body, e.g. `/networkJSON/edges/3/target`, and what is wrong. */
export type { ProblemItem };

export class EngineError extends Error {
  readonly code: EngineErrorCode;
  readonly status: number;
  readonly errors: ProblemItem[];
  constructor(code: EngineErrorCode, message: string, errors: ProblemItem[] = []) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
    this.status = PROBLEM_CODES[code].status;
    this.errors = errors;
  }
}

/** 400 INVALID_ARGS naming the first problem in its message (the one rule, @netloom/protocol problem-detail.ts) and listing (up to 100 of) them. */
export function invalidArgsOf(problems: readonly ProblemItem[], options?: string | ProblemDetailOptions): EngineError {
  return new EngineError('INVALID_ARGS', problemDetail(problems, options), problems.slice(0, 100));
}

export function invalidArgs(path: string, message: string): EngineError {
  return invalidArgsOf([{ path, message }]);
}
