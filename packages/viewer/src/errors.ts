import type { ErrorCode, WireError } from '@netloom/protocol';

/** A command failure with an SDK error code; becomes the reply's `error`. */
export class CommandError extends Error {
  readonly code: ErrorCode;
  readonly details?: Record<string, unknown>;
  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'CommandError';
    this.code = code;
    if (details !== undefined) this.details = details;
  }
}

export function toWireError(err: unknown): WireError {
  if (err instanceof CommandError) return { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) };
  return { code: 'INTERNAL', message: err instanceof Error ? err.message : String(err) };
}
