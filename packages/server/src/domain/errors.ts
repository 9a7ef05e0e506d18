/**
 * Domain errors: one class with a stable `code` from docs/spec/decisions.md §1, its HTTP `status` and a `detail`
 * that is safe to show to the caller. The HTTP problem handler renders it (duck-typed on code + status);
 * the CLI prints it as JSON on stderr. The domain does not import the HTTP layer.
 */
export const DOMAIN_ERROR_STATUS = {
  INVALID_ARGS: 400,
  INVALID_OWNER: 400,
  OWNER_REQUIRED: 400,
  UNAUTHENTICATED: 401,
  /** Web sign-in: unknown e-mail or wrong password (never told apart). */
  INVALID_CREDENTIALS: 401,
  /** Web sign-in: password right, TOTP or recovery code needed (or the one sent is wrong). */
  MFA_REQUIRED: 401,
  /** Web app: state-changing request without the CSRF token or from a foreign origin. */
  CSRF_FAILED: 403,
  /** Web app: the organization requires MFA and the user has not enrolled yet. */
  MFA_ENROLMENT_REQUIRED: 403,
  EMBEDDED_SEAT_LIMIT: 402,
  INSUFFICIENT_SCOPE: 403,
  FORBIDDEN: 403,
  PLAN_REQUIRED: 403,
  NETWORK_LIMIT_REACHED: 403,
  EMBEDDING_DISABLED: 403,
  NETWORK_NOT_EMBEDDABLE: 403,
  ORIGIN_NOT_ALLOWED: 403,
  VIEW_LIMIT_REACHED: 403,
  /** AI chat refused (docs/embedding-api.md, chat): ui.aiChat false, chatAccess off, organization switch off, allowance spent, or not a preset question. */
  CHAT_NOT_PERMITTED: 403,
  EMBED_MEMBERSHIP_IMMUTABLE: 409,
  SESSION_EXPIRED: 410,
  RATE_LIMITED: 429,
  /** Credential count at `limits.maxCredentialsPerUser` (docs/spec/decisions.md §2: 20 by default). */
  CREDENTIAL_LIMIT_REACHED: 403,
  NOT_FOUND: 404,
  /** A unique value is taken (e-mail), or a concurrent change won (network version). */
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  /** A metric's compute limit was reached (synchronous call or job). */
  METRIC_TIMEOUT: 422,
  /** A service the call needs (the job queue) is unreachable; with `Retry-After`. */
  UNAVAILABLE: 503,
} as const;

export type DomainErrorCode = keyof typeof DOMAIN_ERROR_STATUS;

export interface DomainErrorItem {
  path: string;
  message: string;
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
    this.status = DOMAIN_ERROR_STATUS[code];
    this.detail = detail;
    this.errors = errors;
  }
}

export function isDomainError(err: unknown): err is DomainError {
  return err instanceof DomainError;
}
