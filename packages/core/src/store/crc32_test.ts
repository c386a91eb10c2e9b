import test from "ava";
import { randomBytes } from "node:crypto";
import { crc32 as zlibCrc32 } from "node:zlib";
import { crc32 } from "./crc32.js";

test("crc32() gives zlib's value: in JavaScript for lengths 0–100, unaligned views and UTF-8, then zlib's", (t) => {
  const r = randomBytes(300_000);
  // In JavaScript (under 256 KiB checked so far in this process): ~75 KB below.
  t.is(crc32(""), 0);
  t.is(crc32("hello"), 0x3610a686);
  for (let n = 0; n <= 100; n++) t.is(crc32(r.subarray(0, n)), zlibCrc32(r.subarray(0, n)), `length ${n}`);
  // Unaligned views and every tail length of the 8-byte loop.
  for (const [from, to] of [
    [1, 65_537],
    [7, 8],
    [5, 4_099],
  ] as const)
    t.is(crc32(r.subarray(from, to)), zlibCrc32(r.subarray(from, to)), `[${from}, ${to})`);
  for (const s of ["é", "forge-records 2 ✓ 日本語\n", "\u{1f600}".repeat(1000)]) t.is(crc32(s), zlibCrc32(s));
  // Past 256 KiB, zlib's: the same values.
  t.is(crc32(r.subarray(3)), zlibCrc32(r.subarray(3)));
  t.is(crc32("forge ✓"), zlibCrc32("forge ✓"));
});
