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
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const raw = String(request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > opts.maxBodyBytes) {
      return done(new HttpProblem('PAYLOAD_TOO_LARGE', `request body of ${declared} bytes is over the limit of ${opts.maxBodyBytes} bytes`));
    }
    if (raw === 'identity' || raw === '') return done(null, payload);
    const known = raw === 'gzip' || raw === 'x-gzip' || raw === 'br' || raw === 'deflate';
    if (!known) return done(new HttpProblem('UNSUPPORTED_ENCODING', `Content-Encoding ${JSON.stringify(raw)} is not supported; use gzip, deflate or br`));
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
        if (inflated > opts.maxInflatedBytes) {
          cb(new HttpProblem('PAYLOAD_TOO_LARGE', `decompressed request body is over the limit of ${opts.maxInflatedBytes} bytes`));
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
      payload.resume(); // drain the socket so the answer can be written
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
      if (encoded > opts.maxBodyBytes) {
        fail(new HttpProblem('PAYLOAD_TOO_LARGE', `compressed request body is over the limit of ${opts.maxBodyBytes} bytes`));
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
