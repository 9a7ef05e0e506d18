/**
 * The one registry of the service's problem codes (docs/errors.md is generated from it): each code's HTTP
 * status, title and when it is sent. It lives here, at the bottom of the packages, because every side
 * uses it: the engine's errors (`EngineError`) take their status from it, the server's domain and HTTP
 * errors (`DomainError`, `HttpProblem`) and its problem handler, OpenAPI `Problem` schema and CLI too
 * (docs/spec/decisions.md §1). Plain data: no Node, no DOM.
 */
export const PROBLEM_CODES = {
  INVALID_ARGS: { status: 400, title: 'Invalid arguments', when: 'Body, query or path fails validation (types, ranges, unknown keys where the spec is closed, bad network JSON).' },
  INVALID_OWNER: { status: 400, title: 'Invalid owner', when: '`owner` of `POST /networks` is not a member who can own networks (non-member, unknown, unverified, suspended, Access-only).' },
  OWNER_REQUIRED: { status: 400, title: 'Owner required', when: '`owner` omitted with an organization credential whose creator can no longer own networks.' },
  INVALID_CREDENTIALS: { status: 401, title: 'Invalid credentials', when: 'Web sign-in (or re-entered password) with an unknown e-mail or a wrong password; the two are not told apart.' },
  MFA_REQUIRED: { status: 401, title: 'MFA code required', when: 'Web sign-in: the password is right but the account has MFA; send `totp` or `recoveryCode` (also when the code sent is wrong).' },
  UNAUTHENTICATED: { status: 401, title: 'Unauthenticated', when: 'Missing, malformed, unknown or revoked credential. Sends `WWW-Authenticate`.' },
  EMBEDDED_SEAT_LIMIT: { status: 402, title: 'Managed-user seats exhausted', when: 'No managed-user seat free (create or reactivate).' },
  INSUFFICIENT_SCOPE: { status: 403, title: 'Insufficient scope', when: 'The credential lacks the `<resource>:<action>` scope named in `detail`.' },
  CSRF_FAILED: { status: 403, title: 'CSRF check failed', when: 'A state-changing web-app request without the session\'s `X-CSRF-Token` or from a foreign `Origin`.' },
  MFA_ENROLMENT_REQUIRED: { status: 403, title: 'MFA enrolment required', when: 'The organization requires MFA and this account has not enrolled; only the session and MFA setup endpoints answer until it does.' },
  FORBIDDEN: { status: 403, title: 'Forbidden', when: 'Authenticated but not allowed (not your network, not an organization credential, not an organization admin, ...).' },
  PLAN_REQUIRED: { status: 403, title: 'Plan required', when: 'Metrics on a plan without them; informal* metrics without an organization.' },
  CREDENTIAL_LIMIT_REACHED: { status: 403, title: 'Credential limit reached', when: 'The user already holds the maximum number of credentials (20 by default).' },
  NETWORK_LIMIT_REACHED: { status: 403, title: 'Network limit reached', when: 'The owner is at the plan maximum of public or private networks; `detail` names the user.' },
  EMBEDDING_DISABLED: { status: 403, title: 'Embedding disabled', when: 'Embedding call for an organization without embedding.' },
  NETWORK_NOT_EMBEDDABLE: { status: 403, title: 'Network not embeddable', when: 'Grant or session for a network that is not embeddable.' },
  ORIGIN_NOT_ALLOWED: { status: 403, title: 'Origin not allowed', when: 'Session origin not in the allowed host origins.' },
  VIEW_LIMIT_REACHED: { status: 403, title: 'View limit reached', when: "A new view beyond the network's `billing.maxViews`." },
  CHAT_NOT_PERMITTED: { status: 403, title: 'Chat not permitted', when: 'AI chat of an embedded session refused: `ui.aiChat` false, `chatAccess` off, the organization\'s AI chat switched off, its monthly AI allowance spent, or (presetOnly) a question that is not a preset; `detail` says which.' },
  NOT_FOUND: { status: 404, title: 'Not found', when: 'No such resource, or not visible to this credential (existence is never revealed).' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'Method not allowed', when: 'The path exists but not with this method.' },
  EMBED_MEMBERSHIP_IMMUTABLE: { status: 409, title: 'Membership is immutable', when: 'Change of `orgPermission` or `readOnly` of an existing managed user.' },
  CONFLICT: { status: 409, title: 'Conflict', when: 'The stored network changed while a metric was being computed on it (retry), or a unique value is taken.' },
  SESSION_EXPIRED: { status: 410, title: 'Session expired', when: 'The embed session ended (any reason).' },
  LINK_REVOKED: { status: 410, title: 'Survey link revoked', when: "A respondent link (`/s/<token>`) that the survey's owner revoked or re-issued; the respondent asks the owner for the new link. No survey data is sent." },
  SURVEY_CLOSED: { status: 410, title: 'Survey closed', when: 'The survey is `completed`, or its `closesAt` has passed: answers are no longer accepted.' },
  SURVEY_NOT_OPEN: { status: 409, title: 'Survey not open', when: 'The survey is `offline` (paused by its owner), or its `opensAt` has not come yet; try again later.' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'Payload too large', when: 'Body over the limit (compressed or decompressed), or network over the node/edge limits.' },
  UNSUPPORTED_ENCODING: { status: 415, title: 'Unsupported content encoding', when: '`Content-Encoding` other than gzip, deflate (zlib or raw), br or identity.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported media type', when: 'A body that is not `application/json`.' },
  METRIC_TIMEOUT: { status: 422, title: 'Metric timed out', when: 'Compute limit (60 s by default) reached; `detail` suggests `kPercent` where the metric has it.' },
  NOT_CONVERGED: { status: 422, title: 'Not converged', when: 'An iterative metric did not converge (eigenvector, Katz with too large alpha, HITS).' },
  RATE_LIMITED: { status: 429, title: 'Too many requests', when: 'Rate limit or metric queue full; with `Retry-After` seconds and `RateLimit-*` headers.' },
  CANCELLED: { status: 499, title: 'Client closed request', when: 'The client went away (closed the connection) before a synchronous metric finished: the computation is stopped and nothing is sent; the status appears in the access log only.' },
  INTERNAL: { status: 500, title: 'Internal error', when: 'A bug; the body carries the request id, never a stack trace.' },
  UNAVAILABLE: { status: 503, title: 'Service unavailable', when: 'A service the request needs does not answer — the database (`/readyz`), Redis (rate limits, embedding state, the job queue; with `Retry-After` seconds) — or the server is shutting down; also a job whose worker was lost three times.' },
} as const;

export type ProblemCode = keyof typeof PROBLEM_CODES;

export function isProblemCode(code: unknown): code is ProblemCode {
  return typeof code === 'string' && Object.hasOwn(PROBLEM_CODES, code);
}
