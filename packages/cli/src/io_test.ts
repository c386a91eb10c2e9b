import test from "ava";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

test("processIo(): a cache write put off runs before the process exits, though nothing flushed it", (t) => {
  const d = mkdtempSync(join(tmpdir(), "forge-io-"));
  const io = fileURLToPath(new URL("./io.js", import.meta.url));
  const core = fileURLToPath(import.meta.resolve("@forge/core"));
  const script =
    `Promise.all([import(${JSON.stringify(io)}), import(${JSON.stringify(core)})])` +
    ".then(([io, m]) => { io.processIo(); " +
    `m.writeCacheLater(() => m.writeCacheFile(${JSON.stringify(join(d, "z"))}, "ok")); })`;
  execFileSync(process.execPath, ["-e", script]);
  t.is(readFileSync(join(d, "z"), "utf8"), "ok");
});
