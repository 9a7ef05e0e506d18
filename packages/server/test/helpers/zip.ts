/** Test archives written byte by byte: what a zip says about its entries is the test's to choose (sizes, CRCs). */

type Entry = { name: string; data: Buffer; crc: number; size: number; method: number };

/**
 * The fields a local file header (from offset 4) and a central directory record (from offset 6, after
 * "version made by") share, in the same order: version needed, flags, method, time, date, CRC, sizes, name length.
 */
function writeSharedFields(b: Buffer, at: number, e: Entry, nameLength: number): void {
  b.writeUInt16LE(20, at);
  b.writeUInt16LE(e.method, at + 4);
  b.writeUInt32LE(e.crc, at + 10);
  b.writeUInt32LE(e.data.length, at + 14);
  b.writeUInt32LE(e.size, at + 18);
  b.writeUInt16LE(nameLength, at + 22);
}

/** A zip archive of the given entries as they are: method 8 (deflated) or 0 (stored), with the CRC and size its headers declare. */
export function zipArchive(entries: Entry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeSharedFields(local, 4, e, name.length);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    writeSharedFields(cd, 6, e, name.length);
    cd.writeUInt32LE(offset, 42);
    parts.push(local, name, e.data);
    central.push(cd, name);
    offset += 30 + name.length + e.data.length;
  }
  const cdBuf = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cdBuf.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, cdBuf, end]);
}
