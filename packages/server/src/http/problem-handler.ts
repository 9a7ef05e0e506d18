/**
 * Renders every error as RFC 9457 problem JSON with a stable `code` (docs/spec/decisions.md §1): our own
 * HttpProblem, domain and engine errors (duck-typed on `code` + `status`), Fastify's validation and
 * content-type errors. Unknown errors are 500 INTERNAL with the request id and no stack trace.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES, HttpProblem, isErrorCode, type ErrorCode, type ProblemItem } from './error-codes.ts';
import { isRedisUnavailable, problemDetail, UNAVAILABLE_RETRY_AFTER_S } from '../domain/errors.ts';
import { appIndexHtml, appPageHeaders } from '../presenters/web-manifest.ts';

interface AjvError {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

/** Turns Ajv errors into our problem items with JSON pointers and readable messages. */
export function ajvToProblems(errors: AjvError[], context: string | undefined): ProblemItem[] {
  const prefix = context === 'body' || !context ? '' : `/${context === 'querystring' ? 'query' : context}`;
  // a union of literals (TypeBox Union of Literal → anyOf of const) fails on every branch: collect the
  // allowed values per path so the message lists them all
  const consts = new Map<string, unknown[]>();
  for (const e of errors) {
    if (e.keyword !== 'const' || !e.params || !('allowedValue' in e.params)) continue;
    const at = prefix + (e.instancePath ?? '');
    consts.set(at, [...(consts.get(at) ?? []), e.params.allowedValue]);
  }
  const seen = new Set<string>();
  const out: ProblemItem[] = [];
  for (const e of errors) {
    let path = prefix + (e.instancePath ?? '');
    let message = e.message ?? 'is invalid';
    const p = e.params ?? {};
    if (e.keyword === 'additionalProperties' && typeof p.additionalProperty === 'string') {
      path += `/${p.additionalProperty}`;
      message = 'is not a known parameter';
    } else if (e.keyword === 'required' && typeof p.missingProperty === 'string') {
      path += `/${p.missingProperty}`;
      message = 'is required';
    } else if (e.keyword === 'enum' && Array.isArray(p.allowedValues)) {
      message = `must be one of ${p.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    } else if (e.keyword === 'const' && 'allowedValue' in p) {
      const allowed = consts.get(path) ?? [p.allowedValue];
      message = allowed.length > 1 ? `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}` : `must be ${JSON.stringify(allowed[0])}`;
    }
    const key = `${path}\u0000${e.keyword}`;
    if (seen.has(path) && (e.keyword === 'anyOf' || e.keyword === 'const' || e.keyword === 'type')) continue;
    seen.add(path);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path, message });
  }
  // one problem per path (the first, most specific one)
  const byPath = new Map<string, ProblemItem>();
  for (const item of out) if (!byPath.has(item.path)) byPath.set(item.path, item);
  return [...byPath.values()];
}

export function sendProblem(reply: FastifyReply, request: FastifyRequest, code: ErrorCode, detail: string, extra: { errors?: ProblemItem[]; headers?: Record<string, string>; status?: number } = {}): FastifyReply {
  const def = ERROR_CODES[code];
  const status = extra.status ?? def.status;
  if (extra.headers) for (const [k, v] of Object.entries(extra.headers)) reply.header(k, v);
  // `message` repeats `detail` (or the title): clients written for the original service show it (docs/spec/decisions.md §1)
  const body: Record<string, unknown> = { type: 'about:blank', title: def.title, status, code, detail, message: detail || def.title };
  if (extra.errors && extra.errors.length > 0) body.errors = extra.errors.slice(0, 100);
  body.requestId = request.id;
  return reply.code(status).type('application/problem+json; charset=utf-8').send(body);
}

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'INVALID_ARGS',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_ARGS',
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_ARGS',
  FST_ERR_CTP_EMPTY_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
};

export function registerProblemHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError & { errors?: ProblemItem[]; headers?: Record<string, string>; status?: number }, request, reply) => {
    // The body stopped because its connection is gone (cut by the request timeout, or the client went
    // away): there is no one to answer, and rendering a problem for each of hundreds of timed-out
    // bodies at once held the event loop (bench/slow-bodies.ts).
    if (error.code === 'ECONNRESET' && reply.raw.destroyed) {
      reply.hijack();
      return;
    }
    if (error instanceof HttpProblem) {
      return sendProblem(reply, request, error.code, error.message, { errors: error.errors, headers: error.headers });
    }
    if (error.validation) {
      const errors = ajvToProblems(error.validation as AjvError[], error.validationContext);
      const detail = errors.length ? problemDetail(errors) : error.message;
      return sendProblem(reply, request, 'INVALID_ARGS', detail, { errors });
    }
    if (typeof error.code === 'string' && FASTIFY_CODES[error.code]) {
      const code = FASTIFY_CODES[error.code];
      let detail = error.message;
      if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.name === 'SyntaxError') detail = `body is not valid JSON: ${error.message}`;
      if (code === 'UNSUPPORTED_MEDIA_TYPE') detail = `Content-Type ${JSON.stringify(request.headers['content-type'] ?? '')} is not supported; send application/json`;
      return sendProblem(reply, request, code, detail, { errors: code === 'INVALID_ARGS' ? [{ path: '', message: detail }] : undefined });
    }
    if (error.name === 'SyntaxError' && error.statusCode === 400) {
      return sendProblem(reply, request, 'INVALID_ARGS', `body is not valid JSON: ${error.message}`, { errors: [{ path: '', message: 'malformed JSON' }] });
    }
    if (isErrorCode(error.code) && error.code !== 'INTERNAL') {
      // DomainError, EngineError and their serialised forms: the status is the registry's.
      return sendProblem(reply, request, error.code, error.message, { errors: error.errors, headers: error.headers });
    }
    if (error.statusCode === 429) {
      return sendProblem(reply, request, 'RATE_LIMITED', error.message);
    }
    if (isRedisUnavailable(error)) {
      // rate limits, the embedding state or the job queue live in Redis, which is not answering: fail fast, retry later
      request.log.warn({ err: { message: error.message } }, 'redis unavailable');
      return sendProblem(reply, request, 'UNAVAILABLE', 'a service this request needs (Redis) is not answering; retry shortly', { headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_S) } });
    }
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      return sendProblem(reply, request, 'INVALID_ARGS', error.message, { status: error.statusCode === 404 ? 404 : 400 });
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(reply, request, 'INTERNAL', `internal error; quote request id ${request.id}`);
  });
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0];
    // A person's browser asking for a page that does not exist gets the web app's "Page not found" page
    // (status 404), not problem JSON; API, viewer, SDK, docs and asset paths keep the problem (issue 23).
    if ((request.method === 'GET' || request.method === 'HEAD') && /\btext\/html\b/.test(String(request.headers.accept ?? '')) && !/^\/(api|app\/api|embed|sdk|assets|docs)(\/|$)/.test(path)) {
      const html = await appIndexHtml();
      if (html !== null) return appPageHeaders(reply).code(404).type('text/html; charset=utf-8').send(html);
    }
    return sendProblem(reply, request, 'NOT_FOUND', `no route ${request.method} ${path}`);
  });
}
