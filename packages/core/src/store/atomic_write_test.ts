import test from "ava";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { atomicWrite } from "./atomic_write.js";

test("atomicWrite() replaces a file and leaves no temp file", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "forge-aw-"));
  const p = join(dir, "a.md");
  writeFileSync(p, "old");
  atomicWrite(p, "new");
  t.is(readFileSync(p, "utf8"), "new");
  t.deepEqual(readdirSync(dir), ["a.md"]);
});

test("atomicWrite() with exclusive refuses to replace an existing file", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "forge-aw-"));
  const p = join(dir, "c.md");
  atomicWrite(p, "first", { exclusive: true });
  t.throws(() => atomicWrite(p, "second", { exclusive: true }), { code: "EEXIST" });
  t.is(readFileSync(p, "utf8"), "first");
  t.deepEqual(readdirSync(dir), ["c.md"]);
});
