/**
 * The JSON body parser (replaces Fastify's default). Two things the default does not do well:
 * - a syntax error is reported with the parser's own message instead of a generic "Body is not valid JSON";
 * - an empty body (many clients send `Content-Type: application/json` on every request) is no body, so a
 *   POST that needs none (launch tokens, revocations) works, and one that needs a body gets the route's
 *   own validation error naming the missing fields;
 * - a `__proto__` key (or `constructor.prototype`), which Fastify refuses with that same generic message,
 *   is refused with a 400 naming the JSON pointer of the key, so a client knows what to rename.
 * JSON.parse itself is safe with such keys (it defines own properties); they are refused because code
 * that later copies objects with assignment would turn them into prototype changes.
 * The scan for those keys only runs when the text contains `proto` at all, so ordinary bodies pay a
 * single substring search.
 *
 * A JSON body whose `networkJSON` (or root) `nodes` / `edges` arrays hold more elements than
 * NETLOOM_MAX_NODES / NETLOOM_MAX_EDGES: 413 while it arrives (registerNetworkBodyCount), before it is
 * collected or parsed (issue 19, Low), so such a body is never held whole nor materialised.
 *
 * Two more refusals (docs/security.md, "Input at the edge"), both 400 naming the place:
 * - nesting deeper than MAX_JSON_DEPTH: JSON.parse copes, but code that later walks or serialises the
 *   value recursively (validation, JSON.stringify) would overflow the stack. Checked on the text before
 *   parsing, in one loop without recursion (strings are skipped with indexOf);
 * - U+0000 in any string or key: PostgreSQL text cannot hold it, and no name or attribute needs it. A
 *   NUL can only be written `\u0000` in JSON text (a raw control character is a syntax error), so the
 *   value is only walked when the text contains that escape.
 */
import type { FastifyInstance } from 'fastify';
import { Transform, type TransformCallback } from 'node:stream';
import { MAX_JSON_DEPTH, NetworkElementCounter, elementsOverMessage, findNul, mayExceedElements, nestsDeeperThan } from '@netloom/engine/graph/json-limits.ts';
import { HttpProblem } from './error-codes.ts';
import { problemDetail } from '../domain/errors.ts';

export { MAX_JSON_DEPTH, findNul };

function pointerSegment(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** The JSON pointer of the first forbidden key in `value`, or null. Iterative, so deep nesting cannot overflow. */
export function findForbiddenKey(value: unknown): string | null {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) if (v[i] !== null && typeof v[i] === 'object') stack.push([v[i], `${path}/${i}`]);
      continue;
    }
    for (const key of Object.keys(v)) {
      const child = (v as Record<string, unknown>)[key];
      if (key === '__proto__') return `${path}/__proto__`;
      if (key === 'constructor' && child !== null && typeof child === 'object' && Object.hasOwn(child, 'prototype')) return `${path}/constructor/prototype`;
      if (child !== null && typeof child === 'object') stack.push([child, `${path}/${pointerSegment(key)}`]);
    }
  }
  return null;
}

export const NUL_MESSAGE = 'must not contain U+0000';

export interface JsonBodyLimits {
  maxNodes: number;
  maxEdges: number;
}

export function parseJsonBody(text: string): unknown {
  if (text.length < 1024 && text.trim() === '') return undefined;
  if (text.length > MAX_JSON_DEPTH * 2 && nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    const message = `JSON nested deeper than ${MAX_JSON_DEPTH} levels is not accepted`;
    throw new HttpProblem('INVALID_ARGS', problemDetail([{ path: '', message }]), { errors: [{ path: '', message }] });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new HttpProblem('INVALID_ARGS', `body is not valid JSON: ${(err as Error).message}`, { errors: [{ path: '', message: (err as Error).message }] });
  }
  if (text.includes('proto')) {
    const at = findForbiddenKey(value);
    if (at !== null) {
      const message = 'the key `__proto__` (or `constructor.prototype`) is not allowed in a body; rename it';
      throw new HttpProblem('INVALID_ARGS', problemDetail([{ path: at, message }]), { errors: [{ path: at, message }] });
    }
  }
  if (text.includes('\\u0000')) {
    const at = findNul(value);
    if (at !== null) {
      throw new HttpProblem('INVALID_ARGS', problemDetail([{ path: at, message: `${NUL_MESSAGE} (U+0000 cannot be stored)` }]), { errors: [{ path: at, message: NUL_MESSAGE }] });
    }
  }
  return value;
}

export function registerJsonBody(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}

type Counted = Transform & { receivedEncodedLength?: number };

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route keeps JSON bodies as bytes and has a big one counted and parsed in a metric worker
     * (routes/metrics/index.ts; engine pool/worker.ts counts it before parsing), so the event loop does
     * not count it too.
     */
    networkBodyCountedInWorker?: boolean;
  }
}

/**
 * Counts the nodes and edges of every JSON body while it arrives, after decompression (register it after
 * http/decompress.ts): past NETLOOM_MAX_NODES / NETLOOM_MAX_EDGES the request is answered 413 at once and
 * the rest is neither decompressed nor kept (engine graph/json-limits.ts NetworkElementCounter; issue 19,
 * Low: a 10M-node body was parsed first, +1 GiB and 2.2 s with the event loop held). An uncompressed
 * body too short to exceed the limits is not counted, nor the bodies of the metric routes (their
 * worker counts them, off the event loop). Callback style: the hook runs for every request.
 */
export function registerNetworkBodyCount(app: FastifyInstance, limits: JsonBodyLimits): void {
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (!String(request.headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) return done(null, payload);
    if (request.routeOptions.config?.networkBodyCountedInWorker) return done(null, payload);
    const encoding = String(request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    const declared = Number(request.headers['content-length']);
    if ((encoding === 'identity' || encoding === '') && Number.isFinite(declared) && !mayExceedElements(declared, limits)) return done(null, payload);
    const counter = new NetworkElementCounter(limits);
    const source = payload as unknown as Counted;
    const out = new Transform({
      transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback) {
        out.receivedEncodedLength = source.receivedEncodedLength ?? (out.receivedEncodedLength ?? 0) + chunk.length;
        const over = counter.feed(chunk);
        if (!over) return cb(null, chunk);
        source.unpipe(out);
        if ((source as unknown) !== request.raw) source.destroy(); // a decoder: nothing more is decompressed (http/decompress.ts drains or drops the rest)
        else if (request.authenticated) source.resume(); // drained, so the client reads the answer
        else source.pause(); // a stranger's: not read further, the connection closes after the answer
        const message = elementsOverMessage(over);
        cb(new HttpProblem('PAYLOAD_TOO_LARGE', `networkJSON: ${message}`, { errors: [{ path: `/networkJSON/${over.what}`, message }] }));
      },
      flush(cb: TransformCallback) {
        if (source.receivedEncodedLength !== undefined) out.receivedEncodedLength = source.receivedEncodedLength;
        cb();
      },
    }) as Counted;
    source.on('error', (err: Error) => {
      if (!out.destroyed) out.destroy(err);
    });
    // Fastify listens from when it reads the body; an error before that must not be an uncaught one
    out.on('error', () => undefined);
    source.pipe(out);
    done(null, out);
  });
}
