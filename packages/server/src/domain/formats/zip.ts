/**
 * Zip archives (xlsx workbooks, zipped CSV) checked before anything inflates them for real, so a zip
 * bomb costs a bounded amount of memory and time:
 * - the central directory is read and every entry's local header must sit exactly where the previous
 *   entry ended (no hidden entries that a streaming reader would see but the directory does not);
 * - the declared uncompressed sizes must add up to at most `maxInflated`, and an entry larger than
 *   8 MiB may unpack to at most 200 times its packed size (BUDGETS in problems.ts: a bomb of one
 *   repeated line packs 1,000 times);
 * - each entry is inflated (node's zlib) into at most one byte more than its declared size: more data
 *   than declared is refused. The inflated entries are kept (`data`): readers use them as they are, so
 *   nothing is inflated twice.
 * Zip64 archives are refused (a workbook or CSV within the upload limits never needs them).
 */
import { inflateRawSync } from 'node:zlib';
import { BUDGETS, tooLarge, unreadable } from './problems.ts';

interface Entry {
  name: string;
  /** This entry's central directory record and its local part (header, data, descriptor). */
  central: Uint8Array;
  local: Uint8Array;
  method: number;
  flags: number;
  compressedSize: number;
  size: number;
  offset: number;
  /** The entry's bytes, inflated (filled in by checkZip). */
  data: Uint8Array;
}

const u16 = (b: Uint8Array, o: number) => b[o] | (b[o + 1] << 8);
const u32 = (b: Uint8Array, o: number) => (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16)) + b[o + 3] * 0x1000000;

export function checkZip(buf: Uint8Array, label: string, maxInflated: number): Entry[] {
  const bad = (why: string) => unreadable(label, `not a well-formed zip archive (${why})`);
  let eocd = -1;
  for (let i = buf.length - 22; i >= 0 && i >= buf.length - 22 - 65535; i--) {
    if (u32(buf, i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw bad('no end of central directory');
  const count = u16(buf, eocd + 10);
  const cdSize = u32(buf, eocd + 12);
  const cdOffset = u32(buf, eocd + 16);
  if (count === 0xffff || cdOffset === 0xffffffff) throw bad('zip64 archives are not accepted');
  if (cdOffset + cdSize > eocd) throw bad('central directory out of range');
  const entries: Entry[] = [];
  let p = cdOffset;
  let total = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > eocd || u32(buf, p) !== 0x02014b50) throw bad('broken central directory');
    const nameLen = u16(buf, p + 28);
    const centralLen = 46 + nameLen + u16(buf, p + 30) + u16(buf, p + 32);
    const e: Entry = {
      central: buf.subarray(p, p + centralLen),
      local: buf.subarray(0, 0),
      flags: u16(buf, p + 8),
      method: u16(buf, p + 10),
      compressedSize: u32(buf, p + 20),
      size: u32(buf, p + 24),
      offset: u32(buf, p + 42),
      data: buf.subarray(0, 0),
      name: Buffer.from(buf.subarray(p + 46, p + 46 + nameLen)).toString('utf8'),
    };
    if (e.size === 0xffffffff || e.compressedSize === 0xffffffff) throw bad('zip64 archives are not accepted');
    if (e.method !== 0 && e.method !== 8) throw bad(`entry ${e.name} uses an unsupported compression method`);
    total += e.size;
    if (total > maxInflated) throw tooLarge(`${label} unpacks to more than ${maxInflated} bytes`);
    if (e.size > BUDGETS.ratioFloorBytes && e.size > e.compressedSize * BUDGETS.maxRatio) {
      throw tooLarge(`${label}: entry ${e.name} unpacks to ${Math.round(e.size / Math.max(1, e.compressedSize))} times its packed size (more than ${BUDGETS.maxRatio} times is refused: real sheets and CSVs pack far less)`);
    }
    entries.push(e);
    p += centralLen;
  }
  // local entries must tile the archive up to the central directory
  const byOffset = [...entries].sort((a, b) => a.offset - b.offset);
  let expected = 0;
  for (const e of byOffset) {
    if (e.offset !== expected || e.offset + 30 > cdOffset || u32(buf, e.offset) !== 0x04034b50) throw bad('entries do not match the central directory');
    const nameLen = u16(buf, e.offset + 26);
    const extraLen = u16(buf, e.offset + 28);
    const dataStart = e.offset + 30 + nameLen + extraLen;
    let end = dataStart + e.compressedSize;
    if (end > cdOffset) throw bad('entry data out of range');
    const data = buf.subarray(dataStart, end);
    if (e.flags & 8) end += u32(buf, end) === 0x08074b50 ? 16 : 12;
    if (end > cdOffset) throw bad('entry data out of range');
    e.local = buf.subarray(e.offset, end);
    expected = end;
    if (e.method === 8) {
      let out: Uint8Array;
      try {
        // node's zlib (native; fflate's JavaScript inflate was 3–4x slower), never past size + 1 bytes;
        // output in one chunk up to 64 MB (16 KB chunks joined afterwards cost twice the CPU)
        out = inflateRawSync(data, { maxOutputLength: e.size + 1, chunkSize: Math.max(64, Math.min(e.size + 1, 1 << 26)) });
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw bad(`entry ${e.name} does not unpack to its declared size`);
        throw bad(`entry ${e.name} is corrupt`);
      }
      if (out.length !== e.size) throw bad(`entry ${e.name} does not unpack to its declared size`);
      e.data = out;
    } else if (e.compressedSize !== e.size) throw bad(`entry ${e.name} has inconsistent sizes`);
    else e.data = data;
  }
  if (expected !== cdOffset) throw bad('data outside the listed entries');
  return entries;
}

/** The entries of a checked archive whose names pass `keep`, unpacked. */
export function unzipChecked(buf: Uint8Array, label: string, maxInflated: number, keep: (name: string) => boolean): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = {};
  for (const e of checkZip(buf, label, maxInflated)) if (keep(e.name) && !e.name.endsWith('/')) out[e.name] = e.data;
  return out;
}

export function isZip(head: Uint8Array): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
}
