/**
 * Moving byte buffers between threads without copying them (piscina transfer lists), for the metric
 * pool (pool.ts, worker.ts) and any other piscina worker (the server's export worker): which buffers
 * can move, and a worker reply whose buffers move with it.
 */
import { Piscina } from 'piscina';

/** The ArrayBuffer behind `a` when `a` spans all of it and it is not shared, else null: only such a buffer can be transferred (a pooled Buffer slice cannot). */
export function ownBuffer(a: ArrayBufferView): ArrayBuffer | null {
  return a.byteOffset === 0 && a.byteLength === a.buffer.byteLength && a.buffer instanceof ArrayBuffer ? a.buffer : null;
}

/** A byte buffer that can be transferred (copies pooled Buffer slices into a buffer of their own). */
export function ownedBytes(b: Uint8Array): Uint8Array {
  return ownBuffer(b) ? b : new Uint8Array(b);
}

/** A reply whose byte buffers are transferred (moved), not copied, to the main thread. */
class Movable<T> {
  readonly value: T;
  readonly buffers: ArrayBuffer[];
  constructor(value: T, buffers: ArrayBuffer[]) {
    this.value = value;
    this.buffers = buffers;
  }
  get [Piscina.transferableSymbol](): ArrayBuffer[] {
    return this.buffers;
  }
  get [Piscina.valueSymbol](): T {
    return this.value;
  }
}

/**
 * What a piscina task function returns to hand `value` to the main thread with `buffers` moved (they
 * are unusable in the worker afterwards); the main thread receives `value` itself.
 */
export function moved<T>(value: T, buffers: ArrayBuffer[]): T {
  return Piscina.move(new Movable(value, buffers) as never) as unknown as T;
}
