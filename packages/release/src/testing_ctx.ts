/**
 * A Ctx over in-memory streams and a temp store, for the unit tests of the
 * wiki verbs (not a test file itself: ava runs `*_test.js` only).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { createLogger, Out, type Ctx } from "@forge/cli";

const made: string[] = [];

/** Remove every folder `tempCtx` made (an ava `test.after.always` hook). */
export function removeTemps(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** A Ctx whose cwd is a new folder holding an empty `.forge/`; `err()` is what went to stderr. */
export function tempCtx(input = ""): Ctx & { root: string; err: () => string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "forge-release-unit-")));
  made.push(root);
  mkdirSync(join(root, ".forge"));
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  stdin.end(input);
  let e = "";
  stdout.resume();
  stderr.on("data", (d: Buffer) => (e += d.toString()));
  const io = { stdout, stderr, stdin, env: {}, cwd: root };
  return { io, out: new Out(stdout), log: createLogger(io, "forge-release test"), prog: "forge-release test", root, err: () => e };
}
