/**
 * Request body decoding (DECISIONS.md §1): `Content-Encoding` gzip, x-gzip, deflate (zlib-wrapped or
 * raw, detected from the first bytes), br, identity. Decompression is streamed: the compressed size is
 * counted against `maxBodyBytes`, the inflated size against `maxInflatedBytes`, and a stream whose
 * inflation ratio is that of a compression bomb is cut off early, so a bomb is answered 413 without
 * ever being inflated in memory. Anything else: 415 UNSUPPORTED_ENCODING.
 *
 * @fastify/compress handles responses; its request decoding does not know raw deflate nor a compressed
 * size limit, hence this small hook.
 */
import { Transform, type Readable, type TransformCallback } from 'node:stream';
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

async function firstChunk(stream: Readable): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const onReadable = () => {
      const chunk = stream.read() as Buffer | null;
      if (chunk === null) return; // wait for more
      cleanup();
      resolve(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(null);
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const cleanup = () => {
      stream.off('readable', onReadable);
      stream.off('end', onEnd);
      stream.off('error', onError);
    };
    stream.on('readable', onReadable);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}

export function registerDecompression(app: FastifyInstance, opts: DecompressOptions): void {
  const maxRatio = opts.maxRatio ?? 200;
  const ratioAfter = opts.ratioAfterBytes ?? 16 * 1024 * 1024;
  app.addHook('preParsing', async (request, _reply, payload) => {
    const raw = String(request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > opts.maxBodyBytes) {
      throw new HttpProblem('PAYLOAD_TOO_LARGE', `request body of ${declared} bytes is over the limit of ${opts.maxBodyBytes} bytes`);
    }
    if (raw === 'identity' || raw === '') return payload;
    let decoder: zlib.Gunzip | zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress;
    if (raw === 'gzip' || raw === 'x-gzip') decoder = zlib.createGunzip();
    else if (raw === 'br') decoder = zlib.createBrotliDecompress();
    else if (raw === 'deflate') {
      const head = await firstChunk(payload);
      if (head === null) return payload;
      payload.unshift(head);
      decoder = head.length >= 2 && isZlibHeader(head[0], head[1]) ? zlib.createInflate() : zlib.createInflateRaw();
    } else {
      throw new HttpProblem('UNSUPPORTED_ENCODING', `Content-Encoding ${JSON.stringify(raw)} is not supported; use gzip, deflate or br`);
    }
    let encoded = 0;
    let inflated = 0;
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
    payload.on('data', (chunk: Buffer) => {
      encoded += chunk.length;
      out.receivedEncodedLength = encoded;
      if (encoded > opts.maxBodyBytes) {
        payload.destroy();
        out.destroy(new HttpProblem('PAYLOAD_TOO_LARGE', `compressed request body is over the limit of ${opts.maxBodyBytes} bytes`));
      }
    });
    decoder.on('error', (err) => {
      out.destroy(new HttpProblem('INVALID_ARGS', `request body could not be decoded as ${raw}: ${err.message}`, { errors: [{ path: '', message: `invalid ${raw} data` }] }));
    });
    out.on('error', () => {
      decoder.destroy();
      payload.unpipe(decoder);
      payload.resume(); // drain the socket so the 413 can be written
    });
    payload.pipe(decoder).pipe(out);
    return out;
  });
}
