/**
 * Request body decoding (docs/spec/decisions.md §1): `Content-Encoding` gzip, x-gzip, deflate (zlib-wrapped or
 * raw, detected from the first bytes), br, identity. Decompression is streamed: the compressed size is
 * counted against `maxBodyBytes`, the inflated size against `maxInflatedBytes`, and a stream whose
 * inflation ratio is that of a compression bomb is cut off early, so a bomb is answered 413 without
 * ever being inflated in memory. Anything else: 415 UNSUPPORTED_ENCODING.
 *
 * @fastify/compress handles responses; its request decoding does not know raw deflate nor a compressed
 * size limit, hence this small hook.
 */
import { Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { HttpProblem } from './error-codes.ts';

export interface DecompressOptions {
  maxBodyBytes: number;
  maxInflatedBytes: number;
  /** Compressed and inflated limit when the sender proved no credential before the body (request.authenticated). */
  maxAnonymousBytes?: number;
  /** Inflated/compressed ratio considered a bomb once more than `ratioAfterBytes` have been inflated. */
  maxRatio?: number;
  ratioAfterBytes?: number;
}

type Counted = Transform & { receivedEncodedLength?: number };

function isZlibHeader(b0: number, b1: number): boolean {
  return (b0 & 0x0f) === 8 && (b0 >> 4) <= 7 && ((b0 << 8) | b1) % 31 === 0;
}

export function registerDecompression(app: FastifyInstance, opts: DecompressOptions): void {
  const maxRatio = opts.maxRatio ?? 200;
  const ratioAfter = opts.ratioAfterBytes ?? 16 * 1024 * 1024;
  // Callback style: this hook runs for every request (GET too), and an async hook costs a promise each.
  const anonymousLimit = opts.maxAnonymousBytes ?? Infinity;
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const raw = String(request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    const declared = Number(request.headers['content-length']);
    // Whoever has not proved a credential by now (onRequest hooks ran) may send only a small body: this
    // bounds what a stranger can make the server inflate and parse (docs/security.md, "Request bodies").
    const anonymous = !request.authenticated;
    const maxBody = anonymous ? Math.min(opts.maxBodyBytes, anonymousLimit) : opts.maxBodyBytes;
    const maxInflated = anonymous ? Math.min(opts.maxInflatedBytes, anonymousLimit) : opts.maxInflatedBytes;
    const whose = anonymous && anonymousLimit < opts.maxInflatedBytes ? ' for a request without a credential' : '';
    if (Number.isFinite(declared) && declared > maxBody) {
      return done(new HttpProblem('PAYLOAD_TOO_LARGE', `request body of ${declared} bytes is over the limit of ${maxBody} bytes${whose}`));
    }
    if (raw === 'identity' || raw === '') {
      const chunked = request.headers['transfer-encoding'] !== undefined;
      const hasBody = (Number.isFinite(declared) && declared > 0) || chunked;
      // A declared length within the limit needs no counting: Node's parser reads exactly that many
      // bytes as the body (and refuses Content-Length together with Transfer-Encoding), so only a chunked
      // body can grow past it (a stream per request was ~5 % of a respondent's save).
      if (!anonymous || !hasBody || maxBody >= opts.maxBodyBytes || (Number.isFinite(declared) && !chunked)) return done(null, payload);
      return done(null, capped(payload, maxBody, whose));
    }
    const known = raw === 'gzip' || raw === 'x-gzip' || raw === 'br' || raw === 'deflate';
    if (!known) return done(new HttpProblem('UNSUPPORTED_ENCODING', `Content-Encoding ${JSON.stringify(raw)} is not supported; use gzip, deflate or br`));
    // Multipart uploads are read by @fastify/multipart from the raw request, not from this decoded stream:
    // a compressed one would wait, unread, for the request timeout (issue 19, Low). Compressed files
    // (zip, xlsx) are sent as they are.
    if (String(request.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/')) {
      return done(new HttpProblem('UNSUPPORTED_ENCODING', `Content-Encoding ${JSON.stringify(raw)} is not supported on multipart/form-data uploads; send the form uncompressed (a zipped CSV or an .xlsx file is compressed already)`));
    }
    const makeDecoder = (head: Buffer) => {
      if (raw === 'br') return zlib.createBrotliDecompress();
      if (raw === 'deflate') return head.length >= 2 && isZlibHeader(head[0], head[1]) ? zlib.createInflate() : zlib.createInflateRaw();
      return zlib.createGunzip();
    };
    let encoded = 0;
    let inflated = 0;
    let decoder: zlib.Gunzip | zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress | null = null;
    const out = new Transform({
      transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback) {
        inflated += chunk.length;
        if (inflated > maxInflated) {
          cb(new HttpProblem('PAYLOAD_TOO_LARGE', `decompressed request body is over the limit of ${maxInflated} bytes${whose}`));
          return;
        }
        if (inflated > ratioAfter && inflated > encoded * maxRatio) {
          cb(new HttpProblem('PAYLOAD_TOO_LARGE', `request body inflates more than ${maxRatio}-fold (compression bomb); refused`));
          return;
        }
        cb(null, chunk);
      },
    }) as Counted;
    out.receivedEncodedLength = 0;
    const fail = (err: Error) => {
      payload.removeAllListeners('data');
      // An authenticated client's oversized body is drained so it reads the answer; a stranger's is not
      // read further: its connection is closed after the answer (app.ts onSend).
      if (anonymous) payload.pause();
      else payload.resume();
      decoder?.destroy();
      if (!out.destroyed) out.destroy(err);
    };
    out.on('error', () => fail(new Error('aborted')));
    const start = (head: Buffer) => {
      decoder = makeDecoder(head);
      decoder.on('error', (err) => {
        fail(new HttpProblem('INVALID_ARGS', `request body could not be decoded as ${raw}: ${err.message}`, { errors: [{ path: '', message: `invalid ${raw} data` }] }));
      });
      decoder.on('drain', () => payload.resume());
      decoder.pipe(out);
    };
    payload.on('data', (chunk: Buffer) => {
      encoded += chunk.length;
      out.receivedEncodedLength = encoded;
      if (encoded > maxBody) {
        fail(new HttpProblem('PAYLOAD_TOO_LARGE', `compressed request body is over the limit of ${maxBody} bytes${whose}`));
        return;
      }
      if (!decoder) start(chunk);
      if (decoder && !decoder.write(chunk)) payload.pause();
    });
    payload.on('end', () => {
      if (!decoder) start(Buffer.alloc(0));
      decoder?.end();
    });
    payload.on('error', (err) => fail(err));
    done(null, out);
  });
}

/** An uncompressed body cut off with 413 past `max` bytes (the rest is drained, never kept). */
function capped(payload: NodeJS.ReadableStream & { destroy?: () => void }, max: number, whose: string): Counted {
  let seen = 0;
  const out = new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback) {
      seen += chunk.length;
      out.receivedEncodedLength = seen;
      if (seen > max) {
        payload.unpipe(out);
        payload.pause(); // not read further; the connection closes after the answer (app.ts onSend)
        cb(new HttpProblem('PAYLOAD_TOO_LARGE', `request body is over the limit of ${max} bytes${whose}`));
        return;
      }
      cb(null, chunk);
    },
  }) as Counted;
  out.receivedEncodedLength = 0;
  payload.on('error', (err: Error) => out.destroy(err));
  payload.pipe(out);
  return out;
}
