/**
 * What crosses the thread boundary between the metric pool and its workers. Only plain data: network
 * JSON travels as text (a string or a transferred byte buffer) and is parsed in the worker; results come
 * back as the final response text in transferred buffers. Errors come back as data (`WireError`) and are
 * rebuilt as EngineError on the other side, so code/status/errors survive the boundary (structured clone
 * would drop an Error's own properties).
 */
import type { RequestLimits } from './request.ts';
import type { CompareDigest } from '../compare/compare.ts';
import { EngineError, isEngineErrorCode, type EngineErrorCode, type ProblemItem } from '../errors.ts';

/** The network of a task. */
export type TaskNetwork =
  /** A raw request body (JSON bytes): the worker parses and validates the whole body. */
  | { kind: 'body'; body: Uint8Array }
  /** A stored network's JSON text; `params` as sent (validated again in the worker). */
  | { kind: 'stored'; text: string | Uint8Array; networkDirected: boolean; params: Record<string, unknown> };

export interface RunTask {
  metric: string;
  network: TaskNetwork;
  /** Stored networks, node metrics: return the network JSON text with the values written on the nodes. */
  writeBack?: boolean;
  /** Absolute deadline (ms since epoch, `Date.now()` clock; shared by all threads of the process). */
  deadline: number;
  limits: RequestLimits;
  /**
   * Source-loop split (see SourceParallel in metrics/types.ts): run only shard `index` of `count`
   * (`phase: 'partial'`), or finish from summed partial arrays (`phase: 'finish'`).
   */
  shard?:
    | { phase: 'partial'; index: number; count: number }
    /**
     * `computeStartedAt`: when the first shard of this run began computing (ms since epoch, high
     * resolution: `performance.timeOrigin + performance.now()`, comparable across threads), so that
     * `meta.elapsedMs` covers the whole split run and not only the finish.
     */
    | { phase: 'finish'; partials: Float64Array[]; computeStartedAt?: number };
  /**
   * Progress slot: the worker writes the kernel's `done` and `total` (kernels/progress.ts) into
   * `buffer[2·slot]` and `buffer[2·slot + 1]` (a Float64Array on a SharedArrayBuffer; the pool reads it).
   */
  progress?: { buffer: Float64Array; slot: number };
}

/**
 * Network compare (compare/compare.ts), in two steps so that both networks are parsed at once on two
 * threads: a `compareSide` task parses one stored network's JSON text and prepares it (`digestSide`; the
 * reply is a `compareSide` with the digest, its errors as data), then a `compareDiff` task compares the two
 * digests (`compareDigests`) and replies a `report` with the answer's text. `directed` is the compare's
 * (both networks directed); `params` are the compare's parameters.
 */
export interface CompareSideTask {
  op: 'compareSide';
  text: Uint8Array;
  networkDirected: boolean;
  directed: boolean;
  params: Record<string, unknown>;
  deadline: number;
}

export interface CompareDiffTask {
  op: 'compareDiff';
  a: CompareDigest<WireError>;
  b: CompareDigest<WireError>;
  directed: boolean;
  params: Record<string, unknown>;
  deadline: number;
  /** Compute time of the two sides (parsing excluded), for the answer's `meta.elapsedMs`. */
  sidesComputeMs: number;
}

export type CompareTask = CompareSideTask | CompareDiffTask;

export interface RunStats {
  nodeCount: number;
  edgeCount: number;
  /** Parse + validation time in the worker. */
  parseMs: number;
  /** Metric compute time (as `meta.elapsedMs`). */
  computeMs: number;
}

export type RunReply =
  | {
      ok: true;
      kind: 'network' | 'node' | 'report';
      /** The API answer for networkJSON / network metrics (UTF-8 JSON text). */
      response?: Uint8Array;
      /** writeBack: the new stored network JSON text. */
      networkText?: Uint8Array;
      /** writeBack: attribute names written (response `attributes`). */
      attributes?: string[];
      /** writeBack: `meta` of the response. */
      meta?: Record<string, unknown>;
      stats: RunStats;
    }
  /** A big body turned out to name a stored network: validated params for the caller to continue with. */
  | { ok: true; kind: 'deferred'; networkId: string; params: Record<string, unknown> }
  /** shard partial: raw partial sums per output array; when it began computing (see `shard.computeStartedAt`). */
  | { ok: true; kind: 'partial'; partials: Float64Array[]; stats: RunStats; computeStartedAt: number }
  /** compare, one side prepared (errors of its stages as data: compare/compare.ts firstFailure). */
  | { ok: true; kind: 'compareSide'; digest: CompareDigest<WireError>; stats: RunStats }
  | { ok: false; error: WireError };

export interface WireError {
  code: EngineErrorCode | 'INTERNAL';
  message: string;
  errors: ProblemItem[];
}

export function toWire(err: unknown): WireError {
  if (err instanceof EngineError) return { code: err.code, message: err.message, errors: err.errors };
  const e = err as { code?: unknown; message?: unknown; status?: unknown; errors?: unknown };
  // Engine-shaped errors from elsewhere (duck-typed) keep their code when it is an engine code.
  if (e && isEngineErrorCode(e.code)) {
    return { code: e.code, message: String(e.message ?? e.code), errors: Array.isArray(e.errors) ? (e.errors as ProblemItem[]) : [] };
  }
  if (err instanceof SyntaxError) return { code: 'INVALID_ARGS', message: `body is not valid JSON: ${err.message}`, errors: [{ path: '', message: 'malformed JSON' }] };
  if (err instanceof RangeError && /Invalid string length|Array buffer allocation failed/i.test(err.message)) {
    return { code: 'PAYLOAD_TOO_LARGE', message: `the network is too large to process: ${err.message}`, errors: [] };
  }
  return { code: 'INTERNAL', message: err instanceof Error ? `${err.name}: ${err.message}` : String(err), errors: [] };
}

/** Internal (non-engine) failure inside a worker: a bug. Kept apart so the server answers 500. */
export class WorkerFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerFailure';
  }
}

export function fromWire(w: WireError): Error {
  if (w.code === 'INTERNAL') return new WorkerFailure(w.message);
  return new EngineError(w.code, w.message, w.errors);
}
