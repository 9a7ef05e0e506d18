/**
 * Large request bodies and what the server does while it handles them (docs/security.md "Request bodies"):
 * bodies compressed as they are written (never held whole), the process's RSS growth sampled during a
 * request, and `/healthz` asked one request after another throughout.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { crc32, type DeflateRaw, type Gzip } from 'node:zlib';

/**
 * Writes what `produce` writes through `zip` (a gzip or raw deflate stream), waiting whenever the stream
 * asks to drain: the compressed bytes, how many bytes went in and their CRC-32.
 */
export async function compressWhileWriting(zip: Gzip | DeflateRaw, produce: (write: (chunk: string | Buffer) => Promise<void>) => Promise<void>): Promise<{ data: Buffer; bytes: number; crc: number }> {
  const out: Buffer[] = [];
  zip.on('data', (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => {
    zip.on('end', resolve);
    zip.on('error', reject);
  });
  let bytes = 0;
  let crc = 0;
  await produce(async (chunk) => {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    crc = crc32(b, crc);
    bytes += b.length;
    if (!zip.write(b)) await new Promise((r) => zip.once('drain', r));
  });
  zip.end();
  await done;
  return { data: Buffer.concat(out), bytes, crc: crc >>> 0 };
}

/** Runs `work` while sampling the process's RSS every `everyMs`: its answer and the largest growth over the RSS at the start, in MiB. */
export async function rssGrowth<T>(work: () => Promise<T>, everyMs: number): Promise<{ result: T; growthMiB: number }> {
  const start = process.memoryUsage.rss();
  let peak = start;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, everyMs);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, growthMiB: (peak - start) / 2 ** 20 };
  } finally {
    clearInterval(timer);
  }
}

let gc: (() => void) | undefined;

/** Collects garbage twice around a 200 ms pause, so that the RSS measured next starts from a settled heap. */
export async function settleHeap(): Promise<void> {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
  await new Promise((r) => setTimeout(r, 200));
  gc();
}

export interface UnderLoad<T> {
  result: T;
  /** How long `work` took, in ms. */
  elapsedMs: number;
  /** Largest RSS growth over the settled heap while `work` and the probe ran, in MiB. */
  growthMiB: number;
  /** `/healthz`: each answer's time (ms) and status, in order. */
  latencies: number[];
  statuses: number[];
}

/**
 * Settles the heap, then runs `work` while asking `${base}/healthz` one request after another (a pause of
 * `healthzPauseMs` between them, each given `healthzTimeoutMs`) and sampling RSS every `sampleMs`. A
 * `/healthz` request that fails or times out rejects.
 */
export async function underLoad<T>(base: string, opts: { sampleMs: number; healthzTimeoutMs: number; healthzPauseMs: number }, work: () => Promise<T>): Promise<UnderLoad<T>> {
  await settleHeap();
  const latencies: number[] = [];
  const statuses: number[] = [];
  let running = true;
  let elapsedMs = 0;
  const { result, growthMiB } = await rssGrowth(async () => {
    const probe = (async () => {
      while (running) {
        const t0 = performance.now();
        const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(opts.healthzTimeoutMs) });
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        statuses.push(res.status);
        await new Promise((r) => setTimeout(r, opts.healthzPauseMs));
      }
    })();
    const started = performance.now();
    try {
      return await work();
    } finally {
      elapsedMs = performance.now() - started;
      running = false;
      await probe;
    }
  }, opts.sampleMs);
  return { result, elapsedMs, growthMiB, latencies, statuses };
}
