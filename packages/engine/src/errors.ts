/**
 * Errors raised by the engine. They carry the stable problem `code` of docs/spec/decisions.md §1 and the
 * HTTP status the server should answer with, so the server maps them without knowing the engine.
 */
export type EngineErrorCode = 'INVALID_ARGS' | 'NOT_CONVERGED' | 'METRIC_TIMEOUT' | 'PAYLOAD_TOO_LARGE' | 'CANCELLED';

export interface ProblemItem {
  /** JSON pointer into the request body, e.g. `/networkJSON/edges/3/target`. */
  path: string;
  message: string;
}

const STATUS: Record<EngineErrorCode, number> = {
  INVALID_ARGS: 400,
  NOT_CONVERGED: 422,
  METRIC_TIMEOUT: 422,
  PAYLOAD_TOO_LARGE: 413,
  CANCELLED: 499,
};

export class EngineError extends Error {
  readonly code: EngineErrorCode;
  readonly status: number;
  readonly errors: ProblemItem[];
  constructor(code: EngineErrorCode, message: string, errors: ProblemItem[] = []) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
    this.status = STATUS[code];
    this.errors = errors;
  }
}

export function invalidArgs(path: string, message: string): EngineError {
  return new EngineError('INVALID_ARGS', `${path.replace(/^\//, '').replaceAll('/', '.')}: ${message}`, [{ path, message }]);
}
