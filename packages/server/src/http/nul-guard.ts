/**
 * U+0000 in a path parameter or the query string is refused with 400 before any route code runs
 * (docs/security.md, "Input at the edge"): PostgreSQL text cannot hold it (a lookup with it failed with
 * a 500), and no id or name needs it. JSON bodies are checked by the body parser (http/json-body.ts).
 * A preValidation hook: the route's parameters are decoded by then; authentication (onRequest) has
 * already run, so an anonymous request to a route that needs a credential is still 401.
 */
import type { FastifyInstance } from 'fastify';
import { HttpProblem } from './error-codes.ts';
import { problemDetail } from '../domain/errors.ts';
import { NUL_MESSAGE } from './json-body.ts';

function nulIn(where: 'params' | 'query', record: unknown): string | null {
  if (record === null || typeof record !== 'object') return null;
  for (const [key, value] of Object.entries(record as Record<string, unknown>)) {
    if (key.includes('\u0000')) return `/${where}/${key}`;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) if (typeof v === 'string' && v.includes('\u0000')) return `/${where}/${key}`;
  }
  return null;
}

export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const at = nulIn('params', request.params) ?? nulIn('query', request.query);
    if (at === null) return done();
    done(new HttpProblem('INVALID_ARGS', problemDetail([{ path: at, message: `${NUL_MESSAGE} (U+0000 cannot be stored)` }]), { errors: [{ path: at.replaceAll('\u0000', '\\u0000'), message: NUL_MESSAGE }] }));
  });
}
