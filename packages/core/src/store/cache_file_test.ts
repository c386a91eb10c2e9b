import test from "ava";
import { execFileSync } from "node:child_process";
import { crc32 } from "node:zlib";
import { fileURLToPath } from "node:url";
import { mkdtempSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  checkedCache,
  flushCacheWrites,
  readCacheFile,
  setCacheFlush,
  writeCacheFile,
  writeCacheLater,
} from "./cache_file.js";

const dir = () => join(realpathSync(mkdtempSync(join(tmpdir(), "forge-cachefile-"))), ".cache");

test("a whole-file cache reads back what was written, and nothing it cannot vouch for", (t) => {
  const d = dir();
  const path = join(d, "x.observed");
  const body = 'key é\n{"a":1}';
  const sum = crc32(body).toString(16).padStart(8, "0");
  t.is(checkedCache("forge-x 1", body).toString("utf8"), `forge-x 1 ${sum}\n${body}`, "the UTF-8 bytes of its text");
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

test("cache writes put off run once each, in order, when flushed (a failing one skipped), or by a schedule", (t) => {
  const ran: number[] = [];
  writeCacheLater(() => ran.push(1));
  writeCacheLater(() => {
    throw new Error("no room");
  });
  writeCacheLater(() => ran.push(3));
  t.deepEqual(ran, [], "not before the flush");
  flushCacheWrites();
  flushCacheWrites();
  t.deepEqual(ran, [1, 3]);
  let scheduled = 0;
  setCacheFlush(() => scheduled++);
  writeCacheLater(() => ran.push(4));
  writeCacheLater(() => ran.push(5));
  t.is(scheduled, 1, "the schedule is told of the first write put off, once");
  setCacheFlush(() => undefined);
  flushCacheWrites();
  t.deepEqual(ran, [1, 3, 4, 5]);
  // A process that never flushes: the write runs before it exits, by the schedule it set (as cli's processIo does).
  const d = dir();
  const mod = fileURLToPath(new URL("./cache_file.js", import.meta.url));
  const script =
    `import(${JSON.stringify(mod)}).then((m) => { m.setCacheFlush((f) => process.once("beforeExit", f)); ` +
    `m.writeCacheLater(() => m.writeCacheFile(${JSON.stringify(join(d, "z"))}, "ok")); })`;
  execFileSync(process.execPath, ["-e", script]);
  t.is(readFileSync(join(d, "z"), "utf8"), "ok");
});
