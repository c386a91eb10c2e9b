/**
 * A tiny zip writer for tests (here and, as `@forge/merge/zip-fixture`,
 * the end-to-end ones in test/): stored or deflated entries, unix modes,
 * and knobs to make hostile zips (lie about a size, mark a symlink). Tests
 * must not need `zip`/`unzip`, which a fresh machine may lack. Not part of
 * the executable.
 */
import { crc32, deflateRawSync } from "node:zlib";

/** One entry to write. */
export interface ZipIn {
  name: string;
  data?: Buffer | string;
  /** 0 stored, 8 deflate (default). */
  method?: 0 | 8;
  /** A unix mode (e.g. 0o120777 for a symlink); default a regular file 0o100644 (0o040755 for a name ending in /). */
  mode?: number;
  /** Declare this uncompressed size instead of the real one. */
  declaredSize?: number;
}

/** The bytes of a zip holding `entries`. */
export function makeZip(entries: ZipIn[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let off = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, "utf8");
    const data = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data ?? "");
    const method = e.method ?? 8;
    const comp = method === 8 ? deflateRawSync(data) : data;
    const size = e.declaredSize ?? data.length;
    const crc = crc32(data);
    const mode = e.mode ?? (e.name.endsWith("/") ? 0o040755 : 0o100644);
    const loc = Buffer.alloc(30);
    loc.writeUInt32LE(0x04034b50, 0);
    loc.writeUInt16LE(20, 4);
    loc.writeUInt16LE(0x800, 6);
    loc.writeUInt16LE(method, 8);
    loc.writeUInt32LE(crc, 14);
    loc.writeUInt32LE(comp.length, 18);
    loc.writeUInt32LE(size, 22);
    loc.writeUInt16LE(name.length, 26);
    locals.push(loc, name, comp);
    const cen = Buffer.alloc(46);
    cen.writeUInt32LE(0x02014b50, 0);
    cen.writeUInt16LE((3 << 8) | 20, 4);
    cen.writeUInt16LE(20, 6);
    cen.writeUInt16LE(0x800, 8);
    cen.writeUInt16LE(method, 10);
    cen.writeUInt32LE(crc, 16);
    cen.writeUInt32LE(comp.length, 20);
    cen.writeUInt32LE(size, 24);
    cen.writeUInt16LE(name.length, 28);
    cen.writeUInt32LE((mode << 16) >>> 0, 38);
    cen.writeUInt32LE(off, 42);
    centrals.push(cen, name);
    off += 30 + name.length + comp.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(off, 16);
  return Buffer.concat([...locals, cd, end]);
}
