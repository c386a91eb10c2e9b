import test from "ava";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { takePilotLock } from "./lock.js";

test("one pilot per repository: a second fails at once naming the first; released, it can be taken again", (t) => {
  const dir = join(mkdtempSync(join(tmpdir(), "forge-pilot-lock-")), ".forge", "pilot");
  const release = takePilotLock(dir);
  t.true(existsSync(join(dir, "lock")));
  t.throws(() => takePilotLock(dir), { message: `another forge-pilot (pid ${process.pid}) runs in this repository` });
  release();
  t.false(existsSync(join(dir, "lock")));
  takePilotLock(dir)();
});

test("a lock left by a pilot that is gone is taken over, also one in the older form (its pid alone)", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "forge-pilot-lock-"));
  const gone = spawnSync(process.execPath, ["-e", "0"]).pid!;
  writeFileSync(join(dir, "lock"), `${gone}\n`);
  takePilotLock(dir)();
  writeFileSync(join(dir, "lock"), `${process.pid}\n`);
  t.throws(() => takePilotLock(dir), { message: `another forge-pilot (pid ${process.pid}) runs in this repository` });
});
