import test from "ava";
import { mkdtempSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkedCache, readCacheFile, writeCacheFile } from "./cache_file.js";

const dir = () => join(realpathSync(mkdtempSync(join(tmpdir(), "forge-cachefile-"))), ".cache");

test("a whole-file cache reads back what was written, and nothing it cannot vouch for", (t) => {
  const d = dir();
  const path = join(d, "x.observed");
  const body = 'key é\n{"a":1}';
  t.true(writeCacheFile(path, checkedCache("forge-x 1", body)));
  t.is(readFileSync(join(d, ".gitignore"), "utf8"), "*\n", "the folder made, ignoring itself");
  t.deepEqual(readdirSync(d).sort(), [".gitignore", "x.observed"], "no temp file left");
  t.is(readCacheFile(path, "forge-x 1"), body);
  t.is(readCacheFile(path, "forge-x 2"), undefined, "another magic");
  t.is(readCacheFile(path, "forge-x"), undefined, "a prefix of the magic");
  t.is(readCacheFile(path, "forge-x 1", 10), undefined, "over the size cap");
  const text = readFileSync(path);
  writeFileSync(path, text.subarray(0, text.length - 1));
  t.is(readCacheFile(path, "forge-x 1"), undefined, "torn");
  writeFileSync(path, Buffer.from(text.toString("latin1").replace('"a":1', '"a":2'), "latin1"));
  t.is(readCacheFile(path, "forge-x 1"), undefined, "edited");
  const link = join(d, "y.observed");
  writeFileSync(path, text);
  symlinkSync(path, link);
  t.is(readCacheFile(link, "forge-x 1"), undefined, "a symlink is not followed");
  t.is(readCacheFile(join(d, "none"), "forge-x 1"), undefined, "missing");
  t.false(writeCacheFile(join(path, "under-a-file"), "x"), "cannot be written: false, nothing thrown");
});
