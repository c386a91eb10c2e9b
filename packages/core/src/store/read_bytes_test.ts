import test from "ava";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readStoreBytes } from "./read_file.js";
import { storeAt, type Store } from "./store.js";

const made: string[] = [];
test.after.always(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function store(): Store {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "forge-bytes-")));
  made.push(root);
  mkdirSync(join(root, ".forge"));
  return storeAt(join(root, ".forge"));
}

test("readStoreBytes() returns the bytes unchanged, invalid UTF-8 included", (t) => {
  const s = store();
  const bytes = Buffer.from([0x66, 0xe9, 0x0a, 0xff, 0x00, 0x0d, 0x0a]);
  writeFileSync(join(s.dir, "patch.diff"), bytes);
  t.deepEqual(readStoreBytes(s, join(s.dir, "patch.diff"), 1024), bytes);
});

test("readStoreBytes() refuses a file over the cap before reading it", (t) => {
  const s = store();
  writeFileSync(join(s.dir, "big.diff"), "x".repeat(2049));
  t.throws(() => readStoreBytes(s, join(s.dir, "big.diff"), 2048), { message: ".forge/big.diff: larger than 2 KiB" });
});

test("readStoreBytes() refuses a symlink out of the store and names a missing file", (t) => {
  const s = store();
  const outside = join(s.root, "secret");
  writeFileSync(outside, "secret");
  symlinkSync(outside, join(s.dir, "link.diff"));
  t.throws(() => readStoreBytes(s, join(s.dir, "link.diff"), 1024), { message: /symlink points outside/ });
  t.throws(() => readStoreBytes(s, join(s.dir, "none.diff"), 1024), { message: ".forge/none.diff: no such file" });
});
