/**
 * Prepared compare sides kept for repeat calls (pool.ts `compare`; compare/compare.ts CompareDigest): a
 * stored network's version never changes, so the digest of (network, version, compare parameters) is the
 * same on every call — the web app's compare view and a survey's wave compare ask for the same pair again
 * as the user looks. A hit skips reading, unzipping, parsing and preparing that network (most of a
 * compare's time). Least recently used first out, bounded by an estimate of the bytes held (typed arrays,
 * id strings, metric values); a digest larger than the bound is not kept, nor one that failed.
 */
import type { CompareDigest } from '../compare/compare.ts';
import type { WireError } from './protocol.ts';

type Digest = CompareDigest<WireError>;

/** About how many bytes a digest holds (V8 strings: a header and one or two bytes a character). */
export function digestBytes(d: Digest): number {
  let bytes = d.off.byteLength + d.adj.byteLength + d.w.byteLength + 8 * d.ids.length;
  for (const id of d.ids) bytes += 24 + 2 * id.length;
  for (const m of d.metrics) bytes += 16 * m.length;
  return bytes + (d.report ? 64 * d.report.groups.length * (d.report.groups.length + 4) : 0);
}

export class DigestCache {
  private readonly entries = new Map<string, { digest: Digest; bytes: number }>();
  private held = 0;
  readonly maxBytes: number;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  get bytes(): number {
    return this.held;
  }

  get(key: string): Digest | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    // most recently used last
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.digest;
  }

  set(key: string, digest: Digest): void {
    if (digest.failure) return;
    const bytes = digestBytes(digest);
    if (bytes > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.held -= old.bytes;
    }
    for (const [k, e] of this.entries) {
      if (this.held + bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.held -= e.bytes;
    }
    this.entries.set(key, { digest, bytes });
    this.held += bytes;
  }
}
