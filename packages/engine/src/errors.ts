/**
 * Errors raised by the engine. They carry a stable problem `code` of the one registry (`PROBLEM_CODES` of
 * @netloom/protocol, docs/spec/decisions.md §1) and take their status from it, so the server answers
 * them without a table of its own and the engine knows nothing of the server.
 */
import { PROBLEM_CODES, type ProblemCode } from '@netloom/protocol';

/** The registry codes the engine raises. */
export const ENGINE_ERROR_CODES = ['INVALID_ARGS', 'NOT_CONVERGED', 'METRIC_TIMEOUT', 'PAYLOAD_TOO_LARGE', 'CANCELLED'] as const satisfies readonly ProblemCode[];
export type EngineErrorCode = (typeof ENGINE_ERROR_CODES)[number];

export function isEngineErrorCode(code: unknown): code is EngineErrorCode {
  return typeof code === 'string' && (ENGINE_ERROR_CODES as readonly string[]).includes(code);
}

export interface ProblemItem {
  /** JSON pointer into the request body, e.g. `/networkJSON/edges/3/target`. */
  path: string;
  message: string;
}

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

export function invalidArgs(path: string, message: string): EngineError {
  return new EngineError('INVALID_ARGS', `${path.replace(/^\//, '').replaceAll('/', '.')}: ${message}`, [{ path, message }]);
}
