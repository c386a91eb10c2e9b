import test from "ava";
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { takeLock } from "./lock.js";

test("takeLock() lets one holder in and gives the second a clear error", (t) => {
  const p = join(mkdtempSync(join(tmpdir(), "loop-lock-")), "loop.lock");
  const a = takeLock(p, "loop x");
  t.is(readFileSync(p, "utf8"), `${process.pid}\n`);
  t.throws(() => takeLock(p, "loop x"), { code: "E_CONFLICT", message: /loop x is being changed by another process/ });
  a.release();
  t.false(existsSync(p));
  takeLock(p, "loop x").release();
});

test("takeLock() breaks the lock of a process that is gone, with a note", (t) => {
  const p = join(mkdtempSync(join(tmpdir(), "loop-lock-")), "loop.lock");
  writeFileSync(p, "999999999\n");
  const h = takeLock(p, "loop x");
  t.regex(h.note!, /stale lock.*999999999/);
  h.release();
});
