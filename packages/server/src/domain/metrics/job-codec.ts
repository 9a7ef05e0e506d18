/**
 * What metric jobs store (docs/jobs.md): gzip of inputs and answers, shard partial sums as bytes, and
 * failures as problem data (`code`, `status`, `detail`, `errors`; the HTTP presenter adds the rest).
 */
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { isDomainError } from '../errors.ts';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

export async function gzipBytes(data: Uint8Array | string): Promise<Uint8Array> {
  return new Uint8Array(await gzipAsync(data, { level: 4 }));
}

/** Gunzips into a buffer of its own (it can be transferred to a worker thread). */
export async function gunzipBytes(gz: Uint8Array): Promise<Uint8Array> {
  const b = await gunzipAsync(gz);
  return b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b : new Uint8Array(b);
}

/**
 * Partial sums (several Float64 arrays) as bytes: [k, len₁ … len_k, data₁ … data_k] as little-endian
 * float64 (exact: the merge sums exactly what each shard computed).
 */
export function encodePartials(partials: Float64Array[]): Uint8Array {
  const total = 1 + partials.length + partials.reduce((s, a) => s + a.length, 0);
  const out = new Float64Array(total);
  out[0] = partials.length;
  partials.forEach((a, i) => (out[1 + i] = a.length));
  let at = 1 + partials.length;
  for (const a of partials) {
    out.set(a, at);
    at += a.length;
  }
  return new Uint8Array(out.buffer);
}

export function decodePartials(bytes: Uint8Array): Float64Array[] {
  const copy = new Uint8Array(bytes); // aligned, owned
  const all = new Float64Array(copy.buffer, 0, copy.byteLength / 8);
  const k = all[0];
  const out: Float64Array[] = [];
  let at = 1 + k;
  for (let i = 0; i < k; i++) {
    const len = all[1 + i];
    out.push(all.slice(at, at + len));
    at += len;
  }
  return out;
}

/** Adds `b` into `a` element-wise (same shapes). */
export function addPartials(a: Float64Array[], b: Float64Array[]): void {
  if (a.length !== b.length) throw new Error('shard partials differ in shape');
  for (let k = 0; k < a.length; k++) {
    const x = a[k];
    const y = b[k];
    if (x.length !== y.length) throw new Error('shard partials differ in length');
    for (let i = 0; i < x.length; i++) x[i] += y[i];
  }
}

/** A job failure as stored (the presenter turns it into RFC 9457 problem JSON). */
export interface JobProblem {
  code: string;
  status: number;
  detail: string;
  errors?: { path: string; message: string }[];
}

/** The problem of an error that ended a job; anything that is not a domain or engine error is INTERNAL (and logged by the caller). */
export function problemOf(err: unknown): { problem: JobProblem; internal: boolean } {
  if (isDomainError(err)) return { problem: { code: err.code, status: err.status, detail: err.detail, ...(err.errors?.length ? { errors: err.errors } : {}) }, internal: false };
  const e = err as { code?: unknown; status?: unknown; message?: unknown; errors?: unknown } | null;
  if (e && typeof e.code === 'string' && typeof e.status === 'number' && e.status < 500 && e.code !== 'INTERNAL') {
    const errors = Array.isArray(e.errors) && e.errors.length ? { errors: e.errors as JobProblem['errors'] } : {};
    return { problem: { code: e.code, status: e.status, detail: String(e.message ?? e.code), ...errors }, internal: false };
  }
  return { problem: { code: 'INTERNAL', status: 500, detail: 'the job failed because of an internal error' }, internal: true };
}
