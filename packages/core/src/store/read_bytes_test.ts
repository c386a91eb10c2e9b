import test from "ava";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readStoreBytes, readStoreFile } from "./read_file.js";
import { storeAt, type Store } from "./store.js";

const temps: string[] = [];
/** A new temp folder, removed when the file's tests are done. */
function temp(prefix: string): string {
  const d = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  temps.push(d);
  return d;
}
test.after.always(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

function store(): Store {
  const root = temp("forge-bytes-");
  mkdirSync(join(root, ".forge"));
  return storeAt(join(root, ".forge"));
}

test("readStoreBytes() refuses a file over the cap before reading it", (t) => {
  const s = store();
  writeFileSync(join(s.dir, "big.diff"), "x".repeat(2049));
  t.throws(() => readStoreBytes(s, join(s.dir, "big.diff"), 2048), { message: ".forge/big.diff: larger than 2 KiB" });
  t.is(readStoreBytes(s, join(s.dir, "big.diff")).length, 2049, "the default cap is 256 KiB");
});

test("readStoreBytes() refuses a symlink out of the store and names a missing file", (t) => {
  const s = store();
  const outside = join(s.root, "secret");
  writeFileSync(outside, "secret");
  symlinkSync(outside, join(s.dir, "link.diff"));
  t.throws(() => readStoreBytes(s, join(s.dir, "link.diff"), 1024), { message: /symlink points outside/ });
  t.throws(() => readStoreBytes(s, join(s.dir, "none.diff"), 1024), { message: ".forge/none.diff: no such file" });
});

test("readStoreBytes() returns the bytes exactly, even when they are not UTF-8", (t) => {
  const root = temp("forge-bytes-");
  mkdirSync(join(root, ".forge"));
  const store = storeAt(join(root, ".forge"));
  const bytes = Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a, 0x00, 0xc3]);
  writeFileSync(join(store.dir, "x.md"), bytes);
  t.deepEqual(readStoreBytes(store, join(store.dir, "x.md")), bytes);
  t.is(readStoreFile(store, join(store.dir, "x.md")), bytes.toString("utf8"));
});

test("readStoreFile() reads a file of exactly 256 KiB and refuses one byte more, a folder and a FIFO", (t) => {
  const s = store();
  const cap = 256 * 1024;
  writeFileSync(join(s.dir, "full.md"), "é".repeat(cap / 2));
  t.is(readStoreFile(s, join(s.dir, "full.md")).length, cap / 2);
  writeFileSync(join(s.dir, "over.md"), "a".repeat(cap + 1));
  t.throws(() => readStoreFile(s, join(s.dir, "over.md")), { message: ".forge/over.md: larger than 256 KiB" });
  mkdirSync(join(s.dir, "dir.md"));
  t.throws(() => readStoreFile(s, join(s.dir, "dir.md")), { message: ".forge/dir.md: not a regular file" });
  execFileSync("mkfifo", [join(s.dir, "fifo.md")]);
  t.throws(() => readStoreFile(s, join(s.dir, "fifo.md")), { message: ".forge/fifo.md: not a regular file" });
  writeFileSync(join(s.dir, "small.md"), "hi");
  t.is(
    readStoreFile(s, join(s.dir, "small.md")),
    "hi",
    "a short file after a long one: nothing of the long one left over"
  );
});
