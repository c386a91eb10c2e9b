import test from "ava";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCheck } from "./run_check.js";

const cwd = mkdtempSync(join(tmpdir(), "loop-run-"));
const env = { PATH: process.env.PATH };
const node = process.execPath;

test("runCheck() gives the exit code, in the workspace, with no shell", async (t) => {
  const ok = await runCheck([node, "-e", "process.stdout.write(process.cwd())"], { cwd, env, timeoutMs: 120_000 });
  t.deepEqual([ok.exitCode, ok.timedOut, ok.spawnError], [0, false, null]);
  t.true(ok.tail.endsWith(cwd.split("/").pop()!));
  const bad = await runCheck([node, "-e", "process.exit(3)"], { cwd, env, timeoutMs: 120_000 });
  t.is(bad.exitCode, 3);
  // Shell syntax is just an argument: nothing is expanded or run.
  const lit = await runCheck(["echo", "a; touch pwned", "$(touch pwned2)"], { cwd, env, timeoutMs: 120_000 });
  t.is(lit.tail, "a; touch pwned $(touch pwned2)");
  t.false(existsSync(join(cwd, "pwned")) || existsSync(join(cwd, "pwned2")));
});

test("runCheck() kills a check at its timeout: no exit code, timedOut", async (t) => {
  const r = await runCheck([node, "-e", "setTimeout(() => {}, 60000)"], { cwd, env, timeoutMs: 300 });
  t.deepEqual([r.exitCode, r.timedOut], [null, true]);
  t.true(r.durationMs < 5000);
});

test("runCheck() keeps only the tail of a big output and digests it", async (t) => {
  const r = await runCheck([node, "-e", "for (let i = 0; i < 20000; i++) console.log('line ' + i)"], {
    cwd,
    env,
    timeoutMs: 10_000,
    maxOutput: 1024,
  });
  t.is(r.tail, "line 19999");
  t.regex(r.logDigest!, /^[0-9a-f]{64}$/);
});

test("runCheck() reports a program that cannot start as a spawn error, not a failure", async (t) => {
  const r = await runCheck(["no-such-program-forge-loop"], { cwd, env, timeoutMs: 120_000 });
  t.deepEqual([r.exitCode, r.spawnError, r.logDigest], [null, "ENOENT", null]);
});
