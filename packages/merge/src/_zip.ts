/**
 * A small, strict zip reader (node:zlib only, no unzip needed): the central
 * directory is the truth, entries are stored or deflated, and anything odd
 * is refused with one line — encryption, zip64, a symlink entry, a name
 * that is absolute or has a `..` component or a backslash (zip-slip), a
 * duplicate name, a CRC mismatch, an entry bigger than its cap, or a
 * compression ratio no honest file has (a zip bomb).
 */
import { crc32, inflateRawSync } from "node:zlib";
import { ForgeError, printable } from "@forge/core";

/** One file of a zip. */
export interface ZipEntry {
  /** The `/`-separated name, checked (no `..`, not absolute). */
  name: string;
  /** Its bytes, inflated and CRC-checked. */
  data: Buffer;
}

/** Caps for `readZip`. */
export interface ZipLimits {
  /** Most entries (folders included). */
  maxEntries: number;
  /** Largest single file, uncompressed. */
  maxEntryBytes: number;
  /** Most bytes in all, uncompressed. */
  maxTotalBytes: number;
  /** Largest uncompressed/compressed ratio for an entry over 1 MiB. */
  maxRatio: number;
}

/** The caps forge-merge import uses. */
export const ZIP_LIMITS: ZipLimits = {
  maxEntries: 100_000,
  maxEntryBytes: 64 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
  maxRatio: 200,
};

const EOCD = 0x06054b50;
const CEN = 0x02014b50;
const LOC = 0x04034b50;

/**
 * Read every file of a zip (folders are skipped).
 * @param zip the zip's bytes
 * @param limits caps (default ZIP_LIMITS)
 * @returns the files, in central-directory order
 * @throws ForgeError (E_BAD_ZIP) naming the entry and what is wrong with it
 * @example readZip(readFileSync("store.zip")) // [{name: ".forge/issues/…/issue.md", data: …}]
 */
export function readZip(zip: Buffer, limits: ZipLimits = ZIP_LIMITS): ZipEntry[] {
  const end = findEocd(zip);
  const count = zip.readUInt16LE(end + 10);
  const cdSize = zip.readUInt32LE(end + 12);
  const cdOff = zip.readUInt32LE(end + 16);
  if (zip.readUInt16LE(end + 4) !== 0 || zip.readUInt16LE(end + 6) !== 0) bad("multi-disk zips are not supported");
  if (count === 0xffff || cdOff === 0xffffffff || cdSize === 0xffffffff) bad("zip64 is not supported");
  if (count > limits.maxEntries) bad(`more than ${limits.maxEntries} entries`);
  if (cdOff + cdSize > end) bad("central directory out of bounds");
  const out: ZipEntry[] = [];
  const seen = new Set<string>();
  let total = 0;
  let p = cdOff;
  for (let i = 0; i < count; i++) {
    if (p + 46 > zip.length || zip.readUInt32LE(p) !== CEN) bad("corrupt central directory");
    const madeBy = zip.readUInt16LE(p + 4) >> 8;
    const flags = zip.readUInt16LE(p + 8);
    const method = zip.readUInt16LE(p + 10);
    const crc = zip.readUInt32LE(p + 16);
    const csize = zip.readUInt32LE(p + 20);
    const usize = zip.readUInt32LE(p + 24);
    const nlen = zip.readUInt16LE(p + 28);
    const xlen = zip.readUInt16LE(p + 30);
    const clen = zip.readUInt16LE(p + 32);
    const attrs = zip.readUInt32LE(p + 38);
    const loc = zip.readUInt32LE(p + 42);
    if (p + 46 + nlen > zip.length) bad("corrupt central directory");
    const raw = zip.subarray(p + 46, p + 46 + nlen);
    p += 46 + nlen + xlen + clen;
    const name = decodeName(raw, flags);
    checkName(name);
    const mode = madeBy === 3 ? attrs >>> 16 : 0;
    if ((mode & 0o170000) === 0o120000) bad(`'${printable(name, 80)}' is a symlink (refused)`);
    if (name.endsWith("/")) continue;
    if (mode !== 0 && (mode & 0o170000) !== 0o100000) bad(`'${printable(name, 80)}' is not a regular file (refused)`);
    if (flags & 1) bad(`'${printable(name, 80)}' is encrypted`);
    if (csize === 0xffffffff || usize === 0xffffffff) bad("zip64 is not supported");
    if (method !== 0 && method !== 8)
      bad(`'${printable(name, 80)}' uses compression method ${method} (only stored and deflate)`);
    if (seen.has(name)) bad(`'${printable(name, 80)}' appears twice`);
    seen.add(name);
    if (usize > limits.maxEntryBytes) bad(`'${printable(name, 80)}' is larger than ${limits.maxEntryBytes >> 20} MiB`);
    if (usize > 1024 * 1024 && usize > csize * limits.maxRatio)
      bad(`'${printable(name, 80)}' has an absurd compression ratio (a zip bomb?)`);
    total += usize;
    if (total > limits.maxTotalBytes) bad(`more than ${limits.maxTotalBytes >> 20} MiB uncompressed`);
    const data = entryData(zip, loc, name, method, csize, usize);
    if (crc32(data) !== crc) bad(`'${printable(name, 80)}' fails its CRC check`);
    out.push({ name, data });
  }
  return out;
}

// --- internal ---

function findEocd(zip: Buffer): number {
  const min = Math.max(0, zip.length - 22 - 0xffff);
  for (let i = zip.length - 22; i >= min; i--) if (zip.readUInt32LE(i) === EOCD) return i;
  return bad("not a zip (no end of central directory)");
}

function entryData(zip: Buffer, loc: number, name: string, method: number, csize: number, usize: number): Buffer {
  if (loc + 30 > zip.length || zip.readUInt32LE(loc) !== LOC) bad(`'${printable(name, 80)}': corrupt local header`);
  const start = loc + 30 + zip.readUInt16LE(loc + 26) + zip.readUInt16LE(loc + 28);
  if (start + csize > zip.length) bad(`'${printable(name, 80)}': data out of bounds`);
  const comp = zip.subarray(start, start + csize);
  if (method === 0) {
    if (csize !== usize) bad(`'${printable(name, 80)}': stored sizes differ`);
    return Buffer.from(comp);
  }
  let data: Buffer;
  try {
    // One byte more than declared: a stream that inflates past its size is caught, never expanded further.
    data = inflateRawSync(comp, { maxOutputLength: usize + 1 });
  } catch {
    return bad(`'${printable(name, 80)}' does not inflate to its declared size`);
  }
  if (data.length !== usize) bad(`'${printable(name, 80)}' does not inflate to its declared size`);
  return data;
}

function decodeName(raw: Buffer, flags: number): string {
  if (flags & 0x800) {
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(raw);
    } catch {
      return bad("an entry name is not valid UTF-8");
    }
  }
  // Without the UTF-8 flag the name is CP437; forge names are ASCII, so refuse anything else.
  // eslint-disable-next-line no-control-regex
  if (/[^\x20-\x7e]/.test(raw.toString("latin1"))) bad("an entry name is not plain ASCII (and not marked UTF-8)");
  return raw.toString("latin1");
}

/** Zip-slip: a name must be relative, `/`-separated, with no empty, `.` or `..` component. */
function checkName(name: string): void {
  // eslint-disable-next-line no-control-regex
  if (name === "" || name.includes("\\") || /[\x00-\x1f\x7f]/.test(name))
    bad(`an entry name is not a plain relative path: '${printable(name, 80)}'`);
  if (name.startsWith("/") || /^[A-Za-z]:/.test(name)) bad(`'${printable(name, 80)}' is an absolute path (refused)`);
  const parts = name.replace(/\/$/, "").split("/");
  if (parts.some((s) => s === "" || s === "." || s === ".."))
    bad(`'${printable(name, 80)}' has an empty, '.' or '..' component (refused)`);
}

function bad(what: string): never {
  throw new ForgeError(`bad zip: ${what}`, "E_BAD_ZIP", 1);
}
