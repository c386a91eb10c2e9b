/**
 * A Ctx over in-memory streams and a temp store, for the unit tests of the
 * verbs of any noun (not a test file itself: ava runs `*_test.js` only).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { writeStoreVersion } from "@forge/core";
import { createLogger } from "./logger.js";
import type { Ctx } from "./main.js";
import { Out } from "./output.js";

const made: string[] = [];

/** Remove every folder `tempCtx` made (an ava `test.after.always` hook). */
export function removeTemps(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** A Ctx whose cwd is a new folder holding an empty `.forge/`; `err()` is what went to stderr. */
export function tempCtx(input = "", prog = "forge test"): Ctx & { root: string; err: () => string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "forge-unit-")));
  made.push(root);
  mkdirSync(join(root, ".forge"));
  writeStoreVersion(join(root, ".forge"));
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  stdin.end(input);
  let e = "";
  stdout.resume();
  stderr.on("data", (d: Buffer) => (e += d.toString()));
  const io = { stdout, stderr, stdin, env: {}, cwd: root };
  return { io, out: new Out(stdout), log: createLogger(io, prog), prog, root, err: () => e };
}
