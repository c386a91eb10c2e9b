import test from "ava";
import { lstatSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readStoreFileStat } from "./read_file.js";
import { storeAt } from "./store.js";

test("readStoreFileStat() gives the stat of the file it read, and none for a symlink it followed", (t) => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "forge-readstat-")));
  mkdirSync(join(root, ".forge"));
  const s = storeAt(join(root, ".forge"));
  writeFileSync(join(s.dir, "a.md"), "hello");
  const r = readStoreFileStat(s, join(s.dir, "a.md"));
  t.is(r.text, "hello");
  const l = lstatSync(join(s.dir, "a.md"));
  t.deepEqual([r.stat?.ino, r.stat?.size, r.stat?.mtimeMs], [l.ino, l.size, l.mtimeMs]);
  // Followed inside the store: read, but the target's stat is not the path's.
  symlinkSync(join(s.dir, "a.md"), join(s.dir, "b.md"));
  const b = readStoreFileStat(s, join(s.dir, "b.md"));
  t.is(b.text, "hello");
  t.is(b.stat, undefined);
});
