/**
 * CRC-32 as zlib computes it (the same values as `zlib.crc32`): the caches'
 * checksums (`checkedCache`, the record cache's blocks) are checked by
 * almost every command, and `node:zlib` with the stream modules it loads
 * costs ~1.5–2 ms of a start, more than this JavaScript takes for a 64 KiB
 * block before the JIT warms to it (~1 ms; ~0.1 ms after). Past the first
 * 256 KiB a process checks (a full list, an observation: megabytes), zlib's
 * own is loaded and used: several times faster per byte.
 * Slicing-by-8 (eight 256-entry tables, made on first use).
 */
import { crc32 as zlibCrc32 } from "node:zlib";

let table: Int32Array | undefined;
let checked = 0;
const ZLIB_PAST = 256 * 1024;

function tables(): Int32Array {
  const t = new Int32Array(256 * 8);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    let c = t[n]!;
    for (let k = 1; k < 8; k++) {
      c = t[c & 255]! ^ (c >>> 8);
      t[k * 256 + n] = c;
    }
  }
  return t;
}

/**
 * The CRC-32 of `data` (a string is taken as its UTF-8 bytes, as zlib takes it).
 * @returns an unsigned 32-bit integer
 * @example crc32("hello") // 0x3610a686
 */
export function crc32(data: Uint8Array | string): number {
  const b = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  // zlib is given bytes: Node 20's crc32 of a 565 KB string took 1.8-4.2 ms, of its bytes 0.1 ms (+0.2 to encode).
  if ((checked += b.length) > ZLIB_PAST) return zlibCrc32(b);
  const t = (table ??= tables());
  let c = -1;
  let i = 0;
  for (const n8 = b.length & ~7; i < n8; i += 8) {
    const a = (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) ^ c;
    c =
      t[1792 + (a & 255)]! ^
      t[1536 + ((a >>> 8) & 255)]! ^
      t[1280 + ((a >>> 16) & 255)]! ^
      t[1024 + (a >>> 24)]! ^
      t[768 + b[i + 4]!]! ^
      t[512 + b[i + 5]!]! ^
      t[256 + b[i + 6]!]! ^
      t[b[i + 7]!]!;
  }
  for (; i < b.length; i++) c = t[(c ^ b[i]!) & 255]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}
